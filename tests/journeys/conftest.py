"""Each journey chats in the week open when it starts (`helpers.STARTED`): the bot runs on the
real clock, so a journey that a week's end would cut short is skipped, not failed."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

import pytest

from bot.drafting.week import week_start
from tests.journeys import helpers

# Far more than a journey takes (under a minute here), so that the week cannot end mid-way.
JOURNEY_TIME = timedelta(minutes=10)


@pytest.fixture(autouse=True)
def open_week(monkeypatch: pytest.MonkeyPatch) -> None:
    now = datetime.now(UTC)
    ends = datetime.combine(week_start(now.date()) + timedelta(days=7), time.min, tzinfo=UTC)
    if ends - now < JOURNEY_TIME:
        pytest.skip(f"the week ends at {ends:%Y-%m-%d %H:%M} UTC, before this journey would")
    monkeypatch.setattr(helpers, "STARTED", now)
