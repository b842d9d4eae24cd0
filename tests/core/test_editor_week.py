"""An editor's week through the core and the fake port: section numbers belong to a draft,
what cannot be undone is confirmed, and a week that has not ended is drafted only when the
editor confirms."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from bot.core.port import ButtonPress, Caller, CommandEvent, MessageEvent
from bot.core.router import Core
from bot.ops.config import load_config
from storage.drafts import get_draft_by_id, list_drafts
from storage.records import ChannelRecord, MessageRecord, PersonRecord, WorkspaceRecord
from tests.fakes.fakeport import FakePort

LAB = WorkspaceRecord("slack", "T1", "Lab")
ADMIN = Caller("UADMIN", "Ada Admin", is_admin=True)
HERO = ChannelRecord("CHERO01", "hero-run")
IRIS = ChannelRecord("CIRIS01", "iris")
WEEK_1 = datetime(2026, 11, 16, tzinfo=UTC)
WEEK_2 = WEEK_1 + timedelta(days=7)


def run(coro):
    return asyncio.run(coro)


class Clock:
    """The bot's clock, moved by the test."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock(WEEK_2 + timedelta(hours=9))


@pytest.fixture
def port() -> FakePort:
    return FakePort(
        channel_ids={"hero-run": "CHERO01", "iris": "CIRIS01", "review": "CREV", "news": "CPUB"}
    )


@pytest.fixture
def core(sessions, port, clock) -> Core:
    core = Core(sessions, load_config(), port, clock=clock)
    for text in ("channels add #hero-run #iris", "review-channel #review", "publish add #news"):
        assert command(core, text).ok
    return core


def command(core: Core, text: str, caller: Caller = ADMIN):
    return run(core.on_command(CommandEvent(LAB, caller, text, "C-any")))


def press(core: Core, action_id: str, caller: Caller = ADMIN):
    return run(core.on_button(ButtonPress(LAB, caller, action_id, channel_id="C-any")))


def log_week(core: Core, monday: datetime, tag: str) -> None:
    ana = PersonRecord("UANA", "Ana Ruiz")
    for pid, channel, text in (
        (f"{tag}1", HERO, f"Hero run {tag}: 21.4% MFU after #812."),
        (f"{tag}2", IRIS, f"Iris {tag}: preemption is off for CPU jobs (#820)."),
    ):
        message = MessageRecord(pid, ana, monday + timedelta(hours=10), text)
        assert run(core.on_message(MessageEvent(LAB, channel, message)))


def review_thread(port: FakePort) -> list:
    """The newest review thread: its header, then its section messages."""
    header = port.in_channel("CREV")[-1]
    return [header, *port.thread(header.posted)]


# --- 1: section numbers belong to a draft ---------------------------------------------------


def test_section_numbers_start_at_one_in_every_draft(core, port, clock, sessions) -> None:
    log_week(core, WEEK_1, "w1")
    assert command(core, "draft 2026-11-16").ok
    assert "Published" in command(core, "approve").text
    clock.now = WEEK_2 + timedelta(days=7, hours=9)
    log_week(core, WEEK_2, "w2")
    assert command(core, "draft 2026-11-23").ok

    _, *sections = review_thread(port)
    assert [m.text.split("\n")[0] for m in sections] == [
        "**Hero run** (section 1, drafted by the extractive drafter)",
        "**Iris** (section 2, drafted by the extractive drafter)",
    ]
    edited = command(core, "edit 1 The hero run held 21.4% MFU all week.")
    assert edited.text == "Hero run (section 1 of draft 2) updated (revision 1)."
    assert "The hero run held 21.4% MFU all week." in review_thread(port)[1].text
    assert command(core, "history 1").text.startswith("History of Hero run (section 1 of draft 2):")
    assert command(core, "edit 3 x").text == (
        "The current draft (draft 2, week of 2026-11-23) has 2 sections; there is no section 3."
    )
    # Last week's published draft is reached by its id, and stays as published.
    assert command(core, "edit 1 --draft 1 x").text == (
        "The summary of the week of 2026-11-16 is already published; it can no longer be edited."
    )
    assert command(core, "history 2 --draft 1").text == (
        "Iris (section 2 of draft 1) has not been edited; it is the drafted text."
    )
    with sessions() as session:
        assert "w1: 21.4% MFU" in get_draft_by_id(session, 1).sections[0].markdown


# --- 2: what cannot be undone is confirmed ----------------------------------------------------


def test_approve_and_discard_ask_before_they_act(core, port, sessions) -> None:
    log_week(core, WEEK_1, "w1")
    assert command(core, "draft 2026-11-16").ok
    header = review_thread(port)[0]
    asking = {b.action_id: b.confirm for b in header.buttons if b.confirm}
    assert set(asking) == {"approve:1", "discard:1"}

    # Where the platform has no confirm dialog, the press asks first and changes nothing.
    asked = press(core, "ask:approve:1")
    assert asked.private and asked.text == asking["approve:1"]
    assert [(b.label, b.action_id) for b in asked.buttons] == [
        ("Confirm", "approve:1"),
        ("Cancel", "cancel:1"),
    ]
    assert press(core, "cancel:1").text == "Cancelled: nothing was changed."
    assert not port.in_channel("CPUB")
    # A member is refused, not asked.
    member = press(core, "ask:discard:1", Caller("UMAX", "Max Member"))
    assert not member.ok and not member.buttons

    assert press(core, "discard:1").text == "The draft of the week of 2026-11-16 was discarded."
    header = review_thread(port)[0]
    assert "Discarded: it will not be published." in header.text and not header.buttons
    assert press(core, "ask:approve:1").text == (
        "The summary of the week of 2026-11-16 is already discarded."
    )
    assert not port.in_channel("CPUB")
    with sessions() as session:
        assert get_draft_by_id(session, 1).status == "discarded"


# --- 3: a week that has not ended is drafted only when confirmed ------------------------------


def test_the_open_week_is_drafted_only_when_the_editor_confirms(core, port, sessions) -> None:
    log_week(core, WEEK_2, "w2")  # Monday 09:00 of the week: it has just begun

    refused = command(core, "draft 2026-11-25")
    assert not refused.ok and refused.private
    assert refused.text == (
        "The week of 2026-11-23 has not ended: it runs until 2026-11-30 00:00 (UTC), and a "
        "draft now leaves out what is said until then. To draft it anyway: "
        "`/summary draft 2026-11-23 --open`. Nothing was drafted."
    )
    # The schedule never drafts it either.
    run(core.run_week(1, WEEK_2.date()))
    with sessions() as session:
        assert list_drafts(session) == []
    assert not port.in_channel("CREV")

    drafted = command(core, "draft 2026-11-23 --open")
    assert drafted.text == "The draft of the week of 2026-11-23 is up for review."
    assert "w2: 21.4% MFU" in review_thread(port)[1].text
    # Once drafted, asking again without --open answers about the stored draft.
    assert "already drafted" in command(core, "draft 2026-11-23").text


def test_last_week_needs_no_confirmation(core, port) -> None:
    log_week(core, WEEK_1, "w1")
    assert command(core, "draft").text == "The draft of the week of 2026-11-16 is up for review."
