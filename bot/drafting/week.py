"""Summary weeks: Monday 00:00 to the next Monday 00:00 in the configured timezone."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo


def week_start(day: date) -> date:
    """The Monday of the week `day` falls in."""
    return day - timedelta(days=day.weekday())


def week_bounds(day: date, timezone: str) -> tuple[datetime, datetime]:
    """The aware start and end instants of the week holding `day`."""
    zone = ZoneInfo(timezone)
    monday = week_start(day)
    start = datetime.combine(monday, time.min, tzinfo=zone)
    end = datetime.combine(monday + timedelta(days=7), time.min, tzinfo=zone)
    return start, end
