"""A draft that takes as long as a test wants: composing the week blocks, in whatever thread
it runs, until the test releases it. No timings: the test waits for the draft to be under
way, does what must still work meanwhile, then lets the draft finish."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

import bot.drafting.service

# Only a bug waits this long: the draft composing on the event loop (or on the database
# thread) keeps the test from releasing it, so the draft gives up waiting, and says so.
GIVE_UP_SECONDS = 20.0


class BlockingDraft:
    """Patches the drafting service's `compose` to wait for `release()`."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self._entered = threading.Event()
        self._released = threading.Event()
        self.gave_up = False  # the draft was never released while it was blocked
        real = bot.drafting.service.compose

        def compose(*args: Any, **kwargs: Any) -> Any:
            self._entered.set()
            if not self._released.wait(GIVE_UP_SECONDS):
                self.gave_up = True
            return real(*args, **kwargs)

        monkeypatch.setattr(bot.drafting.service, "compose", compose)

    async def started(self) -> None:
        """Wait, off the event loop, until a draft is composing."""
        if not await asyncio.to_thread(self._entered.wait, GIVE_UP_SECONDS):
            raise AssertionError("no draft started composing")

    def release(self) -> None:
        self._released.set()
