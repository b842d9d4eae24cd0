"""The core's privacy flows: forget-me replies, platform deletions, retention purges."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from bot.core.ingest import store_batch
from bot.core.port import Caller
from bot.core.privacy import forget_me, on_delete, purge
from storage.drafts import save_draft
from storage.models import DraftSection, Message, Workspace
from storage.privacy import Purged, deleted_source_flag, forgotten_ids
from storage.records import ChannelRecord, ImportBatch, MessageRecord, PersonRecord, WorkspaceRecord
from summarizer.types import Section

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
