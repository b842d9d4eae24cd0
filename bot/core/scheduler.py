"""The weekly run: each workspace's draft on its own schedule, and one catch-up after downtime.

This module only decides *when* to run and *which week* a run drafts. The work itself is
`run_week(workspace_id, week_monday)`, supplied by the review workflow: it drafts, stores and
posts the week, and is idempotent because a draft per (workspace, week) is unique in the
database.

A run at a fire time drafts the week that just ended: the Monday-to-Sunday week before the
week holding the fire time's local date (in the workspace's timezone). Jobs live in memory
only; a run missed while the bot was down is caught up once by `WeeklyScheduler.start()`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.base import BaseTrigger
from sqlalchemy.orm import Session

from bot.config import Config
from bot.core.clock import Clock, utcnow
from bot.core.database import Database
from bot.core.settings import WorkspaceSettings, cron_trigger, workspace_settings
from bot.drafting.week import week_start
from storage.drafts import get_draft
from storage.messages import find_workspaces
from storage.models import Workspace

log = logging.getLogger(__name__)

RunWeek = Callable[[int, date], Awaitable[None]]
"""`run_week(workspace_id, week_monday)`: draft, store and post that week (idempotent)."""

TriggerFor = Callable[[WorkspaceSettings], BaseTrigger]
"""Builds a workspace's trigger from its settings."""

JOB_PREFIX = "weekly:"
DEFAULT_HORIZON = timedelta(days=8)
# A run delayed by a stalled loop or a suspended host still happens if it is this late.
DEFAULT_MISFIRE_GRACE = timedelta(hours=24)
_FIRST_WINDOW = timedelta(minutes=1)
_MICROSECOND = timedelta(microseconds=1)


def week_to_draft(fire_time: datetime, timezone: str) -> date:
    """The Monday of the week a run at `fire_time` drafts: the week before the one holding
    `fire_time`'s date in `timezone` (a Monday 09:00 run drafts the previous Monday-Sunday)."""
    if fire_time.tzinfo is None:
        raise ValueError(f"naive datetime {fire_time!r}: fire times must be timezone-aware")
    local_day = fire_time.astimezone(ZoneInfo(timezone)).date()
    return week_start(local_day) - timedelta(days=7)


def last_fire_before(
    trigger: BaseTrigger, now: datetime, horizon: timedelta = DEFAULT_HORIZON
) -> datetime | None:
    """The latest fire time of `trigger` at or before `now`, looking back at most `horizon`;
    None when it did not fire in that span."""
    if now.tzinfo is None:
        raise ValueError(f"naive datetime {now!r}: `now` must be timezone-aware")
    # Look back over growing windows so a trigger firing every minute is not walked for days.
    window = min(_FIRST_WINDOW, horizon)
    while True:
        last = _last_fire_between(trigger, now - window, now)
        if last is not None or window >= horizon:
            return last
        window = min(window * 60, horizon)


def _last_fire_between(trigger: BaseTrigger, start: datetime, now: datetime) -> datetime | None:
    last = None
    fire = trigger.get_next_fire_time(None, start)
    while fire is not None and fire <= now:
        if last is not None and fire <= last:
            break  # a trigger that does not move forward (e.g. jitter): keep what we have
        last = fire
        fire = trigger.get_next_fire_time(fire, fire + _MICROSECOND)
    return last


def _default_trigger(settings: WorkspaceSettings) -> BaseTrigger:
    return cron_trigger(settings.schedule, settings.timezone)


class WeeklyScheduler:
    """One cron job per workspace calling `run_week` for the week that just ended.

    `clock` returns the aware current time (injectable for tests); `trigger_for` builds a
    workspace's trigger from its settings (default: its `schedule` in its `timezone`).
    Settings and drafts are read on the core's database thread (`database`).
    Errors from `run_week` are logged and affect neither later runs nor other workspaces.
    """

    def __init__(
        self,
        database: Database,
        config: Config,
        run_week: RunWeek,
        clock: Clock = utcnow,
        *,
        trigger_for: TriggerFor = _default_trigger,
        misfire_grace_time: timedelta = DEFAULT_MISFIRE_GRACE,
        platform: str | None = None,
    ) -> None:
        self._db = database
        self._config = config
        self._run_week = run_week
        self._clock = clock
        self._trigger_for = trigger_for
        self._platform = platform  # only this platform's workspaces: each has its own bot
        self._misfire_grace = int(misfire_grace_time.total_seconds())
        self._scheduler: AsyncIOScheduler | None = None
        # Per workspace: its trigger and timezone, as last scheduled.
        self._plans: dict[int, tuple[BaseTrigger, str]] = {}
        self._locks: dict[int, asyncio.Lock] = {}

    async def start(self) -> None:
        """Schedule every stored workspace, start, then catch up once: a workspace whose
        last scheduled run (within 8 days) has no draft yet is run now."""
        if self._scheduler is not None:
            raise RuntimeError("the weekly scheduler is already started")
        self._scheduler = AsyncIOScheduler(event_loop=asyncio.get_running_loop(), timezone=UTC)
        workspaces = await self._db.run(self._every_workspace)
        for workspace_id, settings in workspaces:
            if settings is None:
                continue
            try:
                self._schedule(workspace_id, settings)
            except Exception:
                log.exception("workspace %s: cannot schedule its weekly run", workspace_id)
        self._scheduler.start()
        workspace_ids = [workspace_id for workspace_id, _ in workspaces]
        for workspace_id in workspace_ids:
            if workspace_id in self._plans:
                await self._catch_up(workspace_id)

    @property
    def running(self) -> bool:
        """Whether the scheduler is started (for /healthz)."""
        return self._scheduler is not None and self._scheduler.running

    async def reschedule(self, workspace_id: int) -> None:
        """Re-read the workspace's settings and replace its job (after an admin changed
        `schedule` or `timezone`); a new workspace gets a job, a deleted one loses it.

        Before `start()` this does nothing: `start()` reads every workspace's settings.
        Invalid settings raise (`SettingsError`) and leave the previous job in place.
        """
        if self._scheduler is None:
            return
        settings = await self._db.run(lambda session: self._settings(session, workspace_id))
        if self._scheduler is None:  # shut down meanwhile
            return
        if settings is None:
            self._unschedule(workspace_id)
            return
        self._schedule(workspace_id, settings)

    async def shutdown(self) -> None:
        """Stop the scheduler; runs in progress are cancelled."""
        scheduler, self._scheduler = self._scheduler, None
        self._plans.clear()
        if scheduler is not None and scheduler.running:
            scheduler.shutdown(wait=False)
            await asyncio.sleep(0)  # AsyncIOScheduler shuts down in a loop callback

    def jobs(self) -> dict[int, datetime | None]:
        """The next run time of each scheduled workspace (None: it will not run again)."""
        if self._scheduler is None:
            return {}
        return {
            int(job.id.removeprefix(JOB_PREFIX)): getattr(job, "next_run_time", None)
            for job in self._scheduler.get_jobs()
            if job.id.startswith(JOB_PREFIX)
        }

    def _every_workspace(self, session: Session) -> list[tuple[int, WorkspaceSettings | None]]:
        """This platform's workspaces, each with its settings (None: they cannot be read)."""
        found: list[tuple[int, WorkspaceSettings | None]] = []
        for workspace in find_workspaces(session, self._platform):
            try:
                settings = workspace_settings(session, self._config, workspace.id)
            except Exception:
                log.exception("workspace %s: cannot schedule its weekly run", workspace.id)
                settings = None
            found.append((workspace.id, settings))
        return found

    def _settings(self, session: Session, workspace_id: int) -> WorkspaceSettings | None:
        """The workspace's settings; None when it is gone."""
        if session.get(Workspace, workspace_id) is None:
            return None
        return workspace_settings(session, self._config, workspace_id)

    def _schedule(self, workspace_id: int, settings: WorkspaceSettings) -> None:
        assert self._scheduler is not None
        trigger = self._trigger_for(settings)
        self._scheduler.add_job(
            self._fire,
            trigger,
            args=[workspace_id],
            id=f"{JOB_PREFIX}{workspace_id}",
            name=f"weekly summary of workspace {workspace_id}",
            replace_existing=True,
            misfire_grace_time=self._misfire_grace,
            coalesce=True,
            max_instances=1,
        )
        self._plans[workspace_id] = (trigger, settings.timezone)

    def _unschedule(self, workspace_id: int) -> None:
        assert self._scheduler is not None
        self._plans.pop(workspace_id, None)
        job_id = f"{JOB_PREFIX}{workspace_id}"
        if self._scheduler.get_job(job_id) is not None:
            self._scheduler.remove_job(job_id)

    def _week_of_last_fire(self, workspace_id: int) -> date | None:
        plan = self._plans.get(workspace_id)
        if plan is None:
            return None
        trigger, timezone = plan
        fired = last_fire_before(trigger, self._clock())
        return None if fired is None else week_to_draft(fired, timezone)

    async def _fire(self, workspace_id: int) -> None:
        """The job: draft the week of the fire time that is due (even if the job runs late)."""
        week = self._week_of_last_fire(workspace_id)
        if week is None:
            plan = self._plans.get(workspace_id)
            timezone = plan[1] if plan else self._config.timezone
            week = week_to_draft(self._clock(), timezone)
        async with self._lock(workspace_id):
            await self._run(workspace_id, week)

    async def _catch_up(self, workspace_id: int) -> None:
        async with self._lock(workspace_id):
            try:
                week = self._week_of_last_fire(workspace_id)
                if week is None:
                    return
                drafted = await self._db.run(
                    lambda session: get_draft(session, workspace_id, week) is not None
                )
                if drafted:
                    return
            except Exception:
                log.exception("workspace %s: cannot check for a missed weekly run", workspace_id)
                return
            log.info("workspace %s: catching up the missed run for week %s", workspace_id, week)
            await self._run(workspace_id, week)

    async def _run(self, workspace_id: int, week: date) -> None:
        try:
            await self._run_week(workspace_id, week)
        except Exception:
            log.exception("workspace %s: the weekly run for week %s failed", workspace_id, week)

    def _lock(self, workspace_id: int) -> asyncio.Lock:
        return self._locks.setdefault(workspace_id, asyncio.Lock())
