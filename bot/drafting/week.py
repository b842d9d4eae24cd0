"""Summary weeks, Monday 00:00 to the next Monday 00:00 in the workspace's timezone, and the
`Week` value the drafting service drafts."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from summarizer.types import Topic


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


@dataclass(frozen=True, slots=True)
class Week:
    """One workspace's week to draft, with everything about the workspace drafting needs,
    read once where the draft is asked for (the CLI, the schedule, a command)."""

    workspace_id: int
    workspace_name: str
    monday: date
    start: datetime  # aware: Monday 00:00 in the workspace's timezone
    end: datetime  # the next Monday 00:00
    topics: tuple[Topic, ...]  # in section order, the catch-all last
    default_repo: str  # "" when none: bare #N refs stay bare
    drafter: str  # "extractive" or "llm"

    @classmethod
    def holding(
        cls,
        day: date,
        *,
        workspace_id: int,
        workspace_name: str,
        timezone: str,
        topics: tuple[Topic, ...],
        default_repo: str,
        drafter: str,
    ) -> Week:
        """The week holding `day` in `timezone`."""
        start, end = week_bounds(day, timezone)
        return cls(
            workspace_id,
            workspace_name,
            week_start(day),
            start,
            end,
            topics,
            default_repo,
            drafter,
        )
