"""Link previews: stored apart from what the member wrote, replaced when they change, and
handed to the drafter as the end of the message's text."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from bot.core.ingest import store_batch
from bot.drafting.compose import load_week
from bot.ops.config import load_config
from storage.models import Message, PRRefRow
from storage.privacy import forget_person
from storage.records import (
    ChannelRecord,
    ImportBatch,
    MessageRecord,
    PersonRecord,
    WorkspaceRecord,
)
from tests.drafting.helpers import week_for

WORKSPACE = WorkspaceRecord("slack", "T1", "Lab")
GENERAL = ChannelRecord("C1", "general")
ANA = PersonRecord("U1", "Ana Ruiz")
CLEO = PersonRecord("U2", "Cleo Lind")
TUESDAY = datetime(2026, 11, 17, 9, 0, tzinfo=UTC)
SHARED = "thought you'd enjoy this <https://example.org/post>"
PAGE = "Ten years of charts\nCleo Lind looks back at #12 dashboards"


def store(sessions: sessionmaker[Session], *messages: MessageRecord):
    with sessions.begin() as session:
        return store_batch(session, ImportBatch("test.json", WORKSPACE, GENERAL, list(messages)))


def stored(sessions: sessionmaker[Session]) -> list[tuple[str, str]]:
    with sessions() as session:
        return [tuple(row) for row in session.execute(select(Message.text, Message.preview))]


def test_a_preview_is_stored_apart_and_its_refs_are_not_the_member_s(sessions) -> None:
    store(sessions, MessageRecord("m1", ANA, TUESDAY, SHARED, preview=PAGE))
    assert stored(sessions) == [(SHARED, PAGE)]
    with sessions() as session:
        assert session.scalars(select(PRRefRow.raw)).all() == []  # "#12" is the page's


def test_a_preview_unfurled_later_replaces_the_stored_one(sessions) -> None:
    """Slack and Discord add a link's preview to a message after it was sent (an edit)."""
    store(sessions, MessageRecord("m1", ANA, TUESDAY, SHARED))
    later = MessageRecord("m1", ANA, TUESDAY, SHARED, preview=PAGE)
    counts = store(sessions, later)
    assert counts.updated == 1
    assert stored(sessions) == [(SHARED, PAGE)]
    assert store(sessions, later).unchanged == 1


def test_the_drafter_reads_the_preview_after_the_member_s_words(sessions) -> None:
    store(
        sessions,
        MessageRecord("m1", ANA, TUESDAY, SHARED, preview=PAGE),
        MessageRecord("m2", ANA, TUESDAY + timedelta(minutes=1), "no link here"),
        MessageRecord("m3", ANA, TUESDAY + timedelta(minutes=2), "", preview="A card alone"),
    )
    config = load_config()
    week = week_for(sessions, config, date(2026, 11, 17))
    with sessions() as session:
        loaded = {m.id: (m.text, m.preview) for m in load_week(session, config, week)}
    assert loaded == {
        "m1": (f"{SHARED}\n{PAGE}", PAGE),
        "m2": ("no link here", ""),
        "m3": ("A card alone", "A card alone"),
    }


def test_a_member_who_opted_out_is_unnamed_in_previews_too(sessions) -> None:
    store(
        sessions,
        MessageRecord("m1", ANA, TUESDAY, SHARED, preview=PAGE),
        MessageRecord("m2", CLEO, TUESDAY + timedelta(minutes=1), "hello"),
    )
    with sessions.begin() as session:
        forget_person(session, 1, "U2", TUESDAY + timedelta(days=1))
    config = load_config()
    week = week_for(sessions, config, date(2026, 11, 17))
    with sessions() as session:
        [message] = load_week(session, config, week)
    assert "Cleo" not in message.text and "Cleo" not in message.preview
    assert message.preview == "Ten years of charts\na member looks back at #12 dashboards"
    assert message.text.endswith(message.preview)
