"""Drafting pauses Python's cycle collector and leaves it as it found it, even when drafting
fails: the bot's event loop shares the process."""

from __future__ import annotations

import gc

import pytest

from bot.drafting.collector import collector_paused


def test_the_collector_is_paused_while_drafting_and_running_again_after() -> None:
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_failed_draft_still_lets_the_collector_run_again() -> None:
    with pytest.raises(ValueError), collector_paused():
        raise ValueError("the week could not be read")
    assert gc.isenabled()


def test_a_collector_already_off_stays_off() -> None:
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
