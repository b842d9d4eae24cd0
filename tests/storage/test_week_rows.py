"""Reading a week for drafting: instants, threads placed under their channel, authors."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from sqlalchemy.orm import Session, sessionmaker

from bot.core.ingest import store_batch
from storage.records import (
    ChannelRecord,
    ImportBatch,
    MessageRecord,
    PersonRecord,
    WorkspaceRecord,
)
from storage.week_rows import week_messages, week_refs

WORKSPACE = WorkspaceRecord("discord", "g1", "Lab")
GENERAL = ChannelRecord("c1", "general")
THREAD = ChannelRecord("t1", "Crash on rack 3", parent_platform_id="c1", parent_name="general")
ANA = PersonRecord("u1", "Ana Ruiz")
BOT = PersonRecord("b1", "GitHub", is_bot=True)
MONDAY = datetime(2026, 11, 16, tzinfo=UTC)


def store(sessions: sessionmaker[Session], channel: ChannelRecord, *messages: MessageRecord):
    with sessions.begin() as session:
        store_batch(session, ImportBatch("test.json", WORKSPACE, channel, list(messages)))


def test_a_week_is_read_by_instant_with_aware_times(sessions) -> None:
    plus_two = timezone(timedelta(hours=2))
    sunday = MessageRecord("m1", ANA, datetime(2026, 11, 16, 1, 30, tzinfo=plus_two), "PR #7")
    tuesday = MessageRecord("m2", ANA, MONDAY + timedelta(days=1, hours=9), "see #8 and #9")
    store(sessions, GENERAL, sunday, tuesday)
    with sessions() as session:
        rows = week_messages(session, 1, MONDAY, MONDAY + timedelta(days=7)).rows
        assert [r.platform_id for r in rows] == ["m2"]  # m1 was Sunday 23:30 UTC
        assert rows[0].created_at == tuesday.created_at
        assert rows[0].created_at.utcoffset() == timedelta(0)
        refs = week_refs(session, 1, MONDAY, MONDAY + timedelta(days=7))
        assert [(r.message_id, r.repo, r.number, r.raw) for r in refs] == [
            (rows[0].id, None, 8, "#8"),
            (rows[0].id, None, 9, "#9"),
        ]


def test_thread_messages_name_their_channel_and_thread(sessions) -> None:
    store(sessions, GENERAL, MessageRecord("m1", ANA, MONDAY, "the crash", thread_id="t1"))
    store(sessions, THREAD, MessageRecord("m2", BOT, MONDAY, "same here", thread_id="t1"))
    with sessions() as session:
        week = week_messages(session, 1, MONDAY, MONDAY + timedelta(days=7))
    rows, channels, authors = week.rows, week.channels, week.authors
    placed = {r.platform_id: channels[r.channel_id] for r in rows}
    assert placed == {"m1": ("general", None), "m2": ("general", "Crash on rack 3")}
    named = {r.platform_id: authors[r.author_id] for r in rows}
    assert named == {"m1": ("Ana Ruiz", "u1", False), "m2": ("GitHub", "b1", True)}
