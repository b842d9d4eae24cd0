"""The core's privacy flows: forget-me replies, platform deletions, retention purges."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select, text
from sqlalchemy.orm import Session, sessionmaker

from bot.core import privacy
from bot.core.ingest import store_batch
from bot.core.port import Caller, CommandEvent, DeleteEvent, MessageEvent
from bot.core.privacy import purge
from bot.core.review import ReviewWorkflow
from bot.core.router import Core
from bot.ops.config import load_config
from storage.drafts import save_draft
from storage.models import DraftSection, Message, Workspace
from storage.privacy import PURGED_TABLES, Purged, deleted_source_flag, forgotten_ids
from storage.records import ChannelRecord, ImportBatch, MessageRecord, PersonRecord, WorkspaceRecord
from summarizer.types import Section
from tests.fakes.fakeport import FakePort

WORKSPACE = WorkspaceRecord("slack", "T1", "Lab")
GENERAL = ChannelRecord("C1", "general")
ANA = PersonRecord("U1", "Ana Ruiz")
BEN = PersonRecord("U2", "Ben Ode")
WEEK = date(2026, 11, 16)
T0 = datetime(2026, 11, 17, 9, 0, tzinfo=UTC)
NOW = datetime(2026, 12, 1, tzinfo=UTC)


def setup(sessions: sessionmaker[Session], *messages: MessageRecord) -> int:
    with sessions.begin() as session:
        store_batch(session, ImportBatch("live", WORKSPACE, GENERAL, list(messages)))
        return session.scalars(select(Workspace.id)).one()


def forget_me(sessions: sessionmaker[Session], workspace_id: int, caller: Caller, now: datetime):
    flow = ReviewWorkflow(sessions, load_config(), FakePort())
    return asyncio.run(privacy.forget_me(flow, workspace_id, caller, now))


def on_delete(sessions: sessionmaker[Session], workspace_id: int, message_id: str, at: datetime):
    flow = ReviewWorkflow(sessions, load_config(), FakePort())
    asyncio.run(privacy.on_delete(flow, workspace_id, message_id, at))


def stored(sessions: sessionmaker[Session]) -> set[str]:
    with sessions() as session:
        return set(session.scalars(select(Message.platform_id)))


def test_forget_me_deletes_and_says_so_then_says_it_was_done(sessions) -> None:
    ws = setup(
        sessions,
        MessageRecord("1.1", ANA, T0, "fixed #12"),
        MessageRecord("1.2", ANA, T0 + timedelta(minutes=1), "again"),
        MessageRecord("1.3", BEN, T0 + timedelta(minutes=2), "thanks"),
    )
    caller = Caller("U1", "Ana Ruiz")
    first = forget_me(sessions, ws, caller, NOW)
    assert first.private and first.ok
    assert first.text == (
        "Done: 2 of your messages were deleted, nothing new of yours will be stored, "
        "and summaries will not name you."
    )
    assert stored(sessions) == {"1.3"}

    second = forget_me(sessions, ws, caller, NOW + timedelta(days=1))
    assert second.private and second.ok
    assert second.text.startswith("Already done")
    assert "0 messages deleted" in second.text
    with sessions() as session:
        assert forgotten_ids(session, ws) == {"U1"}


def test_forget_me_before_ever_posting(sessions) -> None:
    ws = setup(sessions, MessageRecord("1.3", BEN, T0, "hi"))
    reply = forget_me(sessions, ws, Caller("U9", "Cleo Lind"), NOW)
    assert reply.text.startswith("Done: 0 of your messages were deleted")
    with sessions() as session:
        assert forgotten_ids(session, ws) == {"U9"}


def test_forget_me_counts_one_message_in_the_singular(sessions) -> None:
    ws = setup(sessions, MessageRecord("1.1", ANA, T0, "hi"))
    reply = forget_me(sessions, ws, Caller("U1", "Ana Ruiz"), NOW)
    assert reply.text.startswith("Done: 1 of your messages was deleted,")


def test_a_platform_deletion_removes_the_message_and_flags_the_draft(sessions) -> None:
    ws = setup(sessions, MessageRecord("1.1", ANA, T0, "fixed #12"))
    with sessions.begin() as session:
        draft = save_draft(
            session,
            workspace_id=ws,
            week_start=WEEK,
            title="Week",
            summarizer="extractive",
            created_at=NOW,
            sections=[Section("general", "General", "A fix", sources=["1.1"])],
        )
        draft.status = "in_review"
    on_delete(sessions, ws, "1.1", datetime.now(UTC))
    on_delete(sessions, ws, "1.1", datetime.now(UTC))  # the platform may say it twice
    assert stored(sessions) == set()
    with sessions() as session:
        flags = session.scalars(select(DraftSection.flags)).one()
    assert flags == [deleted_source_flag("1.1")]


def test_purge_keeps_what_is_younger_than_the_retention(sessions) -> None:
    ws = setup(
        sessions,
        MessageRecord("1.1", ANA, T0, "old"),
        MessageRecord("1.2", ANA, T0 + timedelta(days=3), "recent"),
    )
    with sessions.begin() as session:
        draft = save_draft(
            session,
            workspace_id=ws,
            week_start=WEEK,
            title="Week",
            summarizer="extractive",
            created_at=NOW,
            sections=[],
        )
        draft.status = "published"
    now = T0 + timedelta(days=30, hours=1)
    assert purge(sessions, ws, 30, now) == Purged(messages=1, drafts=0)  # the week is younger
    assert stored(sessions) == {"1.2"}
    later = now + timedelta(days=10)
    assert purge(sessions, ws, 30, later, timezone="Europe/Amsterdam") == Purged(1, 1)
    assert stored(sessions) == set()


def test_purge_refuses_a_retention_under_a_day(sessions) -> None:
    with pytest.raises(ValueError, match="at least 1"):
        purge(sessions, 1, 0, NOW)


# --- what was removed goes everywhere: review threads, the WAL, dead rows ----------------------

LAB = WorkspaceRecord("slack", "T1", "Lab")
HERO = ChannelRecord("CHERO01", "hero-run")
ADMIN = Caller("UADMIN", "Ada Admin", is_admin=True)
MONDAY = datetime(2026, 11, 16, tzinfo=UTC)
SECRET = "ZQXSECRET"  # in Ana's message
GONE = "ZQXGONE"  # in Ben's message


def a_week_in_review(core: Core) -> None:
    """Ana's and Ben's messages logged, the week drafted and posted for review."""

    async def go() -> None:
        for line in ("channels add #hero-run", "review-channel #review"):
            assert (await core.on_command(CommandEvent(LAB, ADMIN, line, "C1"))).ok
        for pid, person, words, hours in [
            ("1", ANA, f"Hero run {SECRET} reached 22.4% MFU after #812 merged.", 10),
            ("2", BEN, f"Checkpoint saves {GONE} are 3.5x faster after #815 landed.", 11),
            ("3", BEN, "Iris preemption is off for CPU jobs now with #820.", 12),
        ]:
            message = MessageRecord(pid, person, MONDAY + timedelta(hours=hours), words)
            assert await core.on_message(MessageEvent(LAB, HERO, message))
        assert (await core.on_command(CommandEvent(LAB, ADMIN, "draft 2026-11-16", "C1"))).ok

    asyncio.run(go())


def thread_text(port: FakePort) -> str:
    (header,) = port.in_channel("CREVIEW1")
    return "\n".join(m.text for m in [header, *port.thread(header.posted)])


@pytest.fixture
def core(sessions) -> Iterator[Core]:
    port = FakePort(channel_ids={"hero-run": "CHERO01", "review": "CREVIEW1"})
    core = Core(sessions, load_config(), port, clock=lambda: NOW)
    yield core
    core.db.close()


def test_forget_me_and_a_delete_rewrite_the_review_thread(core) -> None:
    a_week_in_review(core)
    port = core.port
    assert SECRET in thread_text(port) and GONE in thread_text(port)

    reply = asyncio.run(
        core.on_command(CommandEvent(LAB, Caller("U1", "Ana Ruiz"), "forget-me", "C1"))
    )
    assert reply.ok
    assert SECRET not in thread_text(port) and "Ana Ruiz" not in thread_text(port)
    assert "a source message was deleted: 1" in thread_text(port)
    assert "1 section needs a look" in thread_text(port)  # the header too

    asyncio.run(core.on_delete(DeleteEvent(LAB, "2")))
    assert GONE not in thread_text(port)
    assert all(SECRET not in m.text and GONE not in m.text for m in port.messages.values())


def test_a_purge_leaves_no_removed_text_in_the_sqlite_wal(core, engine) -> None:
    if engine.dialect.name != "sqlite":
        pytest.skip("the WAL is SQLite's")
    path = Path(engine.url.database)
    wal = path.with_name(path.name + "-wal")
    a_week_in_review(core)
    assert SECRET.encode() in wal.read_bytes()  # the bot is running: its WAL is in use

    asyncio.run(core.on_command(CommandEvent(LAB, Caller("U1", "Ana Ruiz"), "forget-me", "C1")))
    asyncio.run(core.on_delete(DeleteEvent(LAB, "2")))

    for file in (path, wal):
        data = file.read_bytes() if file.exists() else b""
        assert SECRET.encode() not in data and GONE.encode() not in data, file.name


def test_a_purge_vacuums_the_purged_tables_on_postgresql(core, engine, sessions) -> None:
    if engine.dialect.name != "postgresql":
        pytest.skip("VACUUM is PostgreSQL's")
    a_week_in_review(core)
    asyncio.run(core.on_delete(DeleteEvent(LAB, "2")))

    with engine.connect() as connection:
        vacuumed = set(
            connection.execute(
                text(
                    "SELECT relname FROM pg_stat_user_tables WHERE last_vacuum IS NOT NULL "
                    "AND schemaname = current_schema()"
                )
            ).scalars()
        )
    assert set(PURGED_TABLES) <= vacuumed

    purge(sessions, 1, 30, NOW + timedelta(days=400))  # retention: everything is old now
    assert stored(sessions) == set()
