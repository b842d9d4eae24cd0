"""What both journeys share: the week they chat in and the bot process's environment.

They chat in the open week (so far), so that whenever they run the week has no draft yet;
the first start's catch-up drafts last week, which the journeys leave alone."""

from __future__ import annotations

from datetime import UTC, date, datetime, time

from bot.drafting.week import week_start
from tests.ops.test_health import free_port

STARTED = datetime.now(UTC)  # (each journey's own start: tests/journeys/conftest.py)


def this_week() -> date:
    """Monday of the open week (UTC)."""
    return week_start(STARTED.date())


def during(fraction: float) -> datetime:
    """A moment of the open week so far: 0 is its Monday 00:00, 1 when the tests started."""
    monday = datetime.combine(this_week(), time.min, tzinfo=UTC)
    return monday + (STARTED - monday) * fraction


def environment(database_url: str, **platform: str) -> dict[str, str]:
    return {
        "SUMMARYBOT_DATABASE_URL": database_url,
        "SUMMARYBOT_HEALTH_PORT": str(free_port()),
        **platform,
    }
