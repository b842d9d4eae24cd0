"""Storing messages: idempotent, edits replace text and refs, threads find their channel."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from bot.core.ingest import store_batch
from storage.messages import count_messages
from storage.models import Channel, Message, PRRefRow
from storage.records import (
    ChannelRecord,
    ImportBatch,
    MessageRecord,
    PersonRecord,
    WorkspaceRecord,
)
from storage.week_rows import week_messages

WORKSPACE = WorkspaceRecord("discord", "g1", "Lab")
GENERAL = ChannelRecord("c1", "general")
ANA = PersonRecord("u1", "Ana Ruiz")
T0 = datetime(2026, 11, 17, 9, 0, tzinfo=UTC)


def message(pid: str, text: str, *, minutes: int = 0, **kw) -> MessageRecord:
    return MessageRecord(pid, ANA, T0 + timedelta(minutes=minutes), text, **kw)


def batch(*messages: MessageRecord, channel: ChannelRecord = GENERAL) -> ImportBatch:
    return ImportBatch("test.json", WORKSPACE, channel, list(messages))


def store(sessions: sessionmaker[Session], b: ImportBatch):
    with sessions.begin() as session:
        return store_batch(session, b)


def texts(sessions: sessionmaker[Session]) -> dict[str, str]:
    with sessions() as session:
        return dict(session.execute(select(Message.platform_id, Message.text)).all())


def test_storing_the_same_batch_twice_stores_nothing_twice(sessions) -> None:
    b = batch(message("m1", "fixed in #12"), message("m2", "hello there", minutes=1))
    first = store(sessions, b)
    second = store(sessions, b)
    assert (first.new, first.updated, first.unchanged) == (2, 0, 0)
    assert (second.new, second.updated, second.unchanged) == (0, 0, 2)
    with sessions() as session:
        assert count_messages(session) == 2
        assert session.scalars(select(PRRefRow.raw)).all() == ["#12"]


def test_an_edited_message_replaces_text_and_refs(sessions) -> None:
    store(sessions, batch(message("m1", "fixed in #12")))
    edited = message("m1", "fixed in #13 (not 12)", edited_at=T0 + timedelta(hours=1))
    counts = store(sessions, batch(edited))
    assert counts.updated == 1
    assert texts(sessions) == {"m1": "fixed in #13 (not 12)"}
    with sessions() as session:
        assert session.scalars(select(PRRefRow.number)).all() == [13]


def test_an_older_copy_never_overwrites_a_newer_edit(sessions) -> None:
    store(sessions, batch(message("m1", "v2", edited_at=T0 + timedelta(hours=1))))
    counts = store(sessions, batch(message("m1", "v1")))
    assert (counts.updated, counts.unchanged) == (0, 1)
    assert texts(sessions) == {"m1": "v2"}


def test_new_reactions_update_the_count(sessions) -> None:
    store(sessions, batch(message("m1", "shipped", reaction_count=1)))
    store(sessions, batch(message("m1", "shipped", reaction_count=5)))
    with sessions() as session:
        assert session.scalars(select(Message.reaction_count)).one() == 5


def test_a_thread_read_before_its_channel_is_placed_under_it(sessions) -> None:
    thread = ChannelRecord("t1", "Crash on rack 3", parent_platform_id="c1", parent_name="general")
    store(sessions, batch(message("m2", "same here", thread_id="t1"), channel=thread))
    store(sessions, batch(message("m1", "the crash", thread_id="t1")))
    with sessions() as session:
        channels = dict(session.execute(select(Channel.platform_id, Channel.name)).all())
        assert channels == {"c1": "general", "t1": "Crash on rack 3"}
        week = week_messages(session, 1, T0 - timedelta(days=1), T0 + timedelta(days=1))
        placed = {r.platform_id: week.channels[r.channel_id][0] for r in week.rows}
        assert placed == {"m1": "general", "m2": "general"}


def test_a_message_exported_in_two_channels_keeps_its_first_link(sessions) -> None:
    thread = ChannelRecord("t1", "Thread", parent_platform_id="c1", parent_name="general")
    in_channel = message("m1", "anchor", permalink="https://x/c1/m1", thread_id="m1")
    in_thread = message("m1", "anchor", permalink="https://x/t1/m1", thread_id="m1")
    store(sessions, batch(in_channel))
    for _ in range(2):
        counts = store(sessions, batch(in_thread, channel=thread))
        assert counts.unchanged == 1
    with sessions() as session:
        assert session.scalars(select(Message.permalink)).one() == "https://x/c1/m1"


def test_reactions_are_counted_and_never_go_below_zero(sessions) -> None:
    from storage.messages import add_reactions

    store(sessions, batch(message("m1", "shipped", reaction_count=1)))
    with sessions.begin() as session:
        assert add_reactions(session, 1, "m1", +1)
        assert add_reactions(session, 1, "m1", -1)
        assert add_reactions(session, 1, "m1", -5)
        assert not add_reactions(session, 1, "unknown", +1)
    with sessions() as session:
        assert session.scalars(select(Message.reaction_count)).one() == 0
