"""A draft reads times in the community's timezone: "tomorrow" is said as the weekday it was
there."""

from __future__ import annotations

from datetime import UTC, date, datetime

from sqlalchemy.orm import Session, sessionmaker

from bot.core.ingest import store_batch
from bot.drafting.compose import compose
from bot.ops.config import load_config
from storage.records import ChannelRecord, ImportBatch, MessageRecord, PersonRecord, WorkspaceRecord
from summarizer.render import to_markdown
from tests.drafting.helpers import week_for

# Tuesday 21:30 in New York is already Wednesday in UTC.
SAID_AT = datetime(2026, 11, 18, 2, 30, tzinfo=UTC)


def test_tomorrow_is_the_weekday_after_the_day_it_was_said_where_it_was_said(
    sessions: sessionmaker[Session],
) -> None:
    news = MessageRecord(
        "m1",
        PersonRecord("U1", "Ana Ruiz"),
        SAID_AT,
        "@channel venue change for tomorrow: the workshop moves to room 2.14 of the east "
        "building, same time, 18:00",
    )
    with sessions.begin() as session:
        store_batch(
            session,
            ImportBatch(
                "test.json",
                WorkspaceRecord("slack", "T1", "Lab"),
                ChannelRecord("C1", "general"),
                [news],
            ),
        )
    config = load_config().model_copy(update={"timezone": "America/New_York"})
    week = week_for(sessions, config, date(2026, 11, 17))
    with sessions() as session:
        drafted = to_markdown(compose(session, config, week).draft)
    assert "Venue change for Wednesday: the workshop moves to room 2.14" in drafted
