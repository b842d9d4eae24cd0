"""Whole weeks through the core and the fake port, as an adapter would drive them."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select

from bot.core.port import (
    ButtonPress,
    Caller,
    CommandEvent,
    DeleteEvent,
    EditEvent,
    EditorSubmit,
    MessageEvent,
)
from bot.core.router import Core
from bot.ops.config import load_config
from storage.db import make_engine, make_sessionmaker
from storage.drafts import list_drafts
from storage.models import Message, Setting, SettingChange
from storage.records import ChannelRecord, MessageRecord, PersonRecord, WorkspaceRecord
from tests.fakes.fakeport import FakePort

LAB = WorkspaceRecord("slack", "T1", "Lab")
ADMIN = Caller("U0ADMIN", "Ada Admin", is_admin=True)
EDITOR = Caller("U0EDITOR", "Eve Editor")
MEMBER = Caller("U0MEMBER", "Max Member")
HERO = ChannelRecord("C-hero", "hero-run")
IRIS = ChannelRecord("C0IRIS", "iris")
RANDOM = ChannelRecord("C-random", "random")
MONDAY = datetime(2026, 11, 16, tzinfo=UTC)
NOW = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)  # the Monday the weekly run fires


def run(coro):
    return asyncio.run(coro)


@pytest.fixture
def port() -> FakePort:
    return FakePort()


@pytest.fixture
def core(sessions, port) -> Core:
    return Core(sessions, load_config(), port, clock=lambda: NOW)


def command(core: Core, caller: Caller, text: str):
    return run(core.on_command(CommandEvent(LAB, caller, text, "C-any")))


def chat(core: Core, channel: ChannelRecord, pid: str, who: str, text: str, hours: float):
    person = PersonRecord(who.lower().replace(" ", "."), who)
    message = MessageRecord(pid, person, MONDAY + timedelta(hours=hours), text)
    return run(core.on_message(MessageEvent(LAB, channel, message)))


def set_up(core: Core) -> None:
    for text in (
        "channels add #hero-run <#C0IRIS|iris>",
        "review-channel #summaries",
        "publish add #announcements",
        "editors add <@U0EDITOR>",
    ):
        reply = command(core, ADMIN, text)
        assert reply.ok, reply.text


def stored(sessions) -> dict[str, str]:
    with sessions() as session:
        return dict(session.execute(select(Message.platform_id, Message.text)).all())


def test_a_whole_week(core, port, sessions) -> None:
    set_up(core)
    # Members chat; only enabled channels are logged.
    assert chat(core, HERO, "1", "Ana Ruiz", "Hero run at 21.4% MFU after #812.", 10)
    assert chat(core, IRIS, "2", "Lu Fern", "Iris preemption is off for CPU jobs (#820).", 20)
    assert not chat(core, RANDOM, "3", "Max Member", "Anyone up for lunch on Friday?", 21)
    edited = MessageRecord(
        "1",
        PersonRecord("ana.ruiz", "Ana Ruiz"),
        MONDAY + timedelta(hours=10),
        "Hero run at 22.4% MFU after #812.",
        edited_at=MONDAY + timedelta(hours=11),
    )
    run(core.on_message(EditEvent(LAB, HERO, edited)))
    assert stored(sessions) == {
        "1": "Hero run at 22.4% MFU after #812.",
        "2": "Iris preemption is off for CPU jobs (#820).",
    }

    # Monday 09:00: the scheduler starts and runs the week that just ended.
    async def scheduler_runs() -> None:
        await core.scheduler.start()
        await core.scheduler.shutdown()

    run(scheduler_runs())
    (header,) = port.in_channel("summaries")
    thread = port.thread(header.posted)
    assert len(thread) == 2 and "22.4% MFU" in thread[0].text

    # An editor edits a section twice through the editor the port opens.
    edit_button = thread[0].buttons[0]
    assert run(core.on_button(ButtonPress(LAB, EDITOR, edit_button.action_id, "trig"))) is None
    section_id = port.editors_opened[0][1]
    for text in ("First pass.", "Ana's hero run reached 22.4% MFU (#812)."):
        assert run(core.on_editor_submit(EditorSubmit(LAB, EDITOR, section_id, text))).ok

    # Late message, then regenerate from the header button: the edited section stays.
    chat(core, IRIS, "4", "Lu Fern", "Iris dashboards now show XID counts (#833).", 30)
    regenerate, approve = header.buttons[1], header.buttons[0]
    assert run(core.on_button(ButtonPress(LAB, EDITOR, regenerate.action_id))).ok
    assert (
        "Ana's hero run reached 22.4% MFU (#812)."
        in port.messages[thread[0].posted.message_id].text
    )
    assert "#833" in port.messages[thread[1].posted.message_id].text

    # A member cannot approve; an editor can, and it is published once.
    refused = run(core.on_button(ButtonPress(LAB, MEMBER, approve.action_id)))
    assert not refused.ok and refused.text == "Only editors can approve the summary."
    assert not port.in_channel("announcements")
    assert run(core.on_button(ButtonPress(LAB, EDITOR, approve.action_id))).ok
    published = "\n".join(m.text for m in port.in_channel("announcements"))
    assert "Ana's hero run reached 22.4% MFU (#812)." in published and "#833" in published
    assert "Week of 2026-11-16: draft 1, published" in command(core, MEMBER, "status").text

    # The scheduler running again the same week does nothing.
    before = len(port.messages)
    run(core.run_week(1, MONDAY.date()))
    assert len(port.messages) == before


def test_text_commands_cover_platforms_without_buttons(core, port) -> None:
    set_up(core)
    chat(core, HERO, "1", "Ana Ruiz", "Hero run at 21.4% MFU after #812.", 10)
    assert command(core, EDITOR, "draft 2026-11-18").ok
    with core.sessions() as session:
        (draft,) = list_drafts(session, 1)
        section_id = draft.sections[0].id
    assert command(core, EDITOR, f"edit {section_id} Hand-written.\nSecond line.").ok
    assert "Hand-written." in command(core, EDITOR, f"history {section_id}").text
    assert command(core, EDITOR, "approve").ok
    assert "Hand-written.\nSecond line." in port.in_channel("announcements")[0].text


def settings_snapshot(sessions):
    with sessions() as session:
        rows = session.execute(select(Setting.key, Setting.value)).all()
        changes = session.scalar(select(func.count()).select_from(SettingChange))
    return dict(rows), changes


@pytest.mark.parametrize(
    ("caller", "text", "expected"),
    [
        (MEMBER, "channels add #iris", "Only workspace admins can change settings"),
        (ADMIN, "frobnicate", "Unknown command 'frobnicate'"),
        (ADMIN, 'schedule "someday 25:00"', "is not understood"),
        (ADMIN, 'schedule "mon 09:00" Mars/Olympus', "Mars/Olympus"),
        (MEMBER, "draft", "Only editors can start a draft."),
        (MEMBER, "approve", "Only editors can approve the summary."),
    ],
)
def test_refusals_are_clear_and_change_nothing(core, port, sessions, caller, text, expected):
    set_up(core)
    chat(core, HERO, "1", "Ana Ruiz", "Hero run at 21.4% MFU after #812.", 10)
    command(core, EDITOR, "draft 2026-11-16")
    before, posts = settings_snapshot(sessions), len(port.messages)
    reply = command(core, caller, text)
    assert not reply.ok and reply.private
    assert expected in reply.text
    assert settings_snapshot(sessions) == before and len(port.messages) == posts
    with sessions() as session:
        assert [d.status for d in list_drafts(session, 1)] == ["in_review"]


def test_editing_a_published_draft_is_refused(core, port) -> None:
    set_up(core)
    chat(core, HERO, "1", "Ana Ruiz", "Hero run at 21.4% MFU after #812.", 10)
    command(core, EDITOR, "draft 2026-11-16")
    command(core, EDITOR, "approve")
    with core.sessions() as session:
        (draft,) = list_drafts(session, 1)
        section_id, text = draft.sections[0].id, draft.sections[0].markdown
    reply = run(core.on_editor_submit(EditorSubmit(LAB, EDITOR, section_id, "too late")))
    assert not reply.ok and "already published; it can no longer be edited" in reply.text
    with core.sessions() as session:
        assert list_drafts(session, 1)[0].sections[0].markdown == text


def test_forget_me_and_deleted_messages(core, port, sessions) -> None:
    set_up(core)
    chat(core, HERO, "1", "Ana Ruiz", "Hero run at 21.4% MFU after #812.", 10)
    chat(core, HERO, "2", "Ben Cho", "Ana Ruiz fixed the loader; checkpoints 3x faster #815.", 11)
    command(core, EDITOR, "draft 2026-11-16")
    run(core.on_delete(DeleteEvent(LAB, "2")))
    with sessions() as session:
        (section,) = list_drafts(session, 1)[0].sections
        assert section.flags == ["a source message was deleted: 2"]

    ana = Caller("ana.ruiz", "Ana Ruiz")
    reply = command(core, ana, "forget-me")
    assert reply.ok and "1 of your messages was deleted" in reply.text
    assert stored(sessions) == {}
    assert not chat(core, HERO, "5", "Ana Ruiz", "Back with more numbers: 23% MFU", 40)
    assert stored(sessions) == {}


def test_start_up_resumes_an_interrupted_review_post_and_publish(core, port, sessions) -> None:
    set_up(core)
    chat(core, HERO, "1", "Ana Ruiz", "Hero run at 21.4% MFU after #812.", 10)
    chat(core, IRIS, "2", "Lu Fern", "Iris preemption is off for CPU jobs (#820).", 20)
    port.fail("reply", after=1)
    with pytest.raises(ConnectionError):
        run(core.run_week(1, MONDAY.date()))
    run(core.resume())  # the bot restarts
    (header,) = port.in_channel("summaries")
    assert len(port.thread(header.posted)) == 2

    port.fail("post", after=0)
    with pytest.raises(ConnectionError):
        command(core, EDITOR, "approve")
    run(core.resume())
    assert len(port.in_channel("announcements")) == 1
    run(core.resume())  # nothing left to do, nothing posted twice
    assert len(port.in_channel("announcements")) == 1


def test_two_bot_processes_racing_on_one_database_make_one_draft(sessions, database_url) -> None:
    """Two cores with their own engines start their schedulers at the same moment."""
    first = Core(sessions, load_config(), FakePort(), clock=lambda: NOW)
    set_up(first)
    chat(first, HERO, "1", "Ana Ruiz", "Hero run at 21.4% MFU after #812.", 10)
    engines = [make_engine(database_url) for _ in range(2)]
    ports = [FakePort(), FakePort()]
    cores = [
        Core(make_sessionmaker(e), load_config(), p, clock=lambda: NOW)
        for e, p in zip(engines, ports, strict=True)
    ]

    async def race() -> None:
        await asyncio.gather(*(c.scheduler.start() for c in cores))
        await asyncio.gather(*(c.scheduler.shutdown() for c in cores))

    run(race())
    for engine in engines:
        engine.dispose()
    with sessions() as session:
        assert len(list_drafts(session, 1)) == 1
    assert sum(len(p.in_channel("summaries")) for p in ports) == 1


def test_admins_choose_the_drafter(core, sessions) -> None:
    assert "llm drafter writes the drafts" in command(core, ADMIN, "summarizer llm").text
    refused = command(core, MEMBER, "summarizer extractive")
    assert not refused.ok
    assert "summarizer is either extractive or llm" in command(core, ADMIN, "summarizer gpt").text
    from bot.core.settings import workspace_settings

    with sessions() as session:
        assert workspace_settings(session, core.config, 1).summarizer == "llm"


def test_transient_database_errors_are_retried(core, sessions, monkeypatch) -> None:
    from sqlalchemy.exc import OperationalError

    set_up(core)
    real = Core._store_once
    failures = iter([True, True])

    def flaky(self, *args):
        if next(failures, False):
            raise OperationalError("INSERT", {}, Exception("server closed the connection"))
        return real(self, *args)

    monkeypatch.setattr(Core, "_store_once", flaky)
    monkeypatch.setattr("bot.core.router.STORE_BACKOFF_S", 0.001)
    assert chat(core, HERO, "1", "Ana Ruiz", "Hero run at 21.4% MFU after #812.", 10)
    assert stored(sessions) == {"1": "Hero run at 21.4% MFU after #812."}


def test_a_message_deleted_before_it_arrives_is_not_stored_late(core, sessions) -> None:
    """Out of order: the delete overtakes the message (or a backfill brings it back)."""
    set_up(core)
    run(core.on_delete(DeleteEvent(LAB, "9")))
    assert not chat(core, HERO, "9", "Ana Ruiz", "Posted then deleted: 21.4% MFU", 10)
    chat(core, HERO, "10", "Ana Ruiz", "Still here: 22.4% MFU", 11)
    assert stored(sessions) == {"10": "Still here: 22.4% MFU"}


def test_a_database_outage_does_not_freeze_event_handling(core, sessions, monkeypatch) -> None:
    """While a store waits out a failing database (its retries), the event loop keeps
    serving: another coroutine runs on, and the message is stored once the database is back."""
    from sqlalchemy.exc import OperationalError

    import bot.core.router

    set_up(core)
    real = Core._store_once
    failures = {"left": 3}

    def flaky(self, *args):
        if failures["left"]:
            failures["left"] -= 1
            time.sleep(0.05)  # a database that is slow to fail, too
            raise OperationalError("INSERT", {}, Exception("database restarting"))
        return real(self, *args)

    monkeypatch.setattr(bot.core.router, "STORE_BACKOFF_S", 0.1)  # waits 0.1, 0.2, 0.4 s
    monkeypatch.setattr(Core, "_store_once", flaky)
    message = MessageRecord(
        "9", PersonRecord("ana.ruiz", "Ana Ruiz"), MONDAY, "Stored after the outage (#830)"
    )

    async def scenario() -> tuple[bool, int, float]:
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        beating = asyncio.create_task(ticker())
        start = time.monotonic()
        stored_it = await core.on_message(MessageEvent(LAB, HERO, message))
        took = time.monotonic() - start
        beating.cancel()
        return stored_it, ticks, took

    stored_it, ticks, took = run(scenario())
    assert stored_it and failures["left"] == 0
    assert took >= 0.5  # three failures and three waits
    assert ticks >= 0.5 * took / 0.01  # the loop kept running throughout
    assert stored(sessions)["9"] == "Stored after the outage (#830)"
