"""A week's grouping leans on where earlier weeks' drafts placed its PRs."""

from __future__ import annotations

from datetime import UTC, date, datetime

from sqlalchemy.orm import Session, sessionmaker

from bot.core.ingest import store_batch
from bot.ops.config import load_config
from storage.records import ChannelRecord, ImportBatch, MessageRecord, PersonRecord, WorkspaceRecord
from tests.drafting.helpers import draft_now, week_for

WORKSPACE = WorkspaceRecord("discord", "g1", "Lab")
GENERAL = ChannelRecord("c1", "general")
ANA = PersonRecord("u1", "Ana Ruiz")
BEN = PersonRecord("u2", "Ben Cho")


def store(sessions: sessionmaker[Session], *messages: MessageRecord) -> None:
    with sessions.begin() as session:
        store_batch(session, ImportBatch("test.json", WORKSPACE, GENERAL, list(messages)))


def cited_under(draft) -> dict[str, str]:
    return {ref: section.topic for section in draft.sections for ref in section.prs}


def test_a_pr_placed_last_week_brings_this_weeks_vague_mention_along(sessions) -> None:
    config = load_config()
    store(
        sessions,
        MessageRecord(
            "m1",
            ANA,
            datetime(2026, 11, 10, 9, tzinfo=UTC),
            "#812 makes the scheduler drain nodes before preemption, the scheduler is calmer",
        ),
        MessageRecord(
            "m2",
            BEN,
            datetime(2026, 11, 17, 9, tzinfo=UTC),
            "#812 needed a small follow-up for the drain timeout, merged this morning",
        ),
    )
    this_week = week_for(sessions, config, date(2026, 11, 17))
    assert cited_under(draft_now(sessions, config, this_week))["#812"] == "other"

    last_week = week_for(sessions, config, date(2026, 11, 10))
    assert cited_under(draft_now(sessions, config, last_week))["#812"] == "iris"
    assert cited_under(draft_now(sessions, config, this_week))["#812"] == "iris"
