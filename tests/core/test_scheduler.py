"""The weekly scheduler: which week a run drafts, catch-up after downtime, real fires, errors,
rescheduling. Nothing here waits more than a few seconds."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from apscheduler.triggers.cron import CronTrigger
from apscheduler.triggers.date import DateTrigger
from apscheduler.triggers.interval import IntervalTrigger
from sqlalchemy.orm import Session, sessionmaker

from bot.config import Config
from bot.core.database import Database
from bot.core.port import Caller
from bot.core.scheduler import WeeklyScheduler, last_fire_before, week_to_draft
from bot.core.settings import WorkspaceSettings, change_setting, cron_trigger
from bot.ops.config import load_config
from storage.messages import upsert_workspace
from storage.models import DraftRow, Workspace
from storage.records import WorkspaceRecord
from storage.settings import save_setting

AMS = "Europe/Amsterdam"
ADMIN = Caller("U1", "Admin", is_admin=True)
WEDNESDAY = datetime(2026, 11, 18, 12, 0, tzinfo=UTC)
PREVIOUS_WEEK = date(2026, 11, 9)  # the week before the one holding WEDNESDAY
TIMEOUT = 3.0


@pytest.fixture
def config() -> Config:
    return load_config()


def add_workspace(sessions: sessionmaker[Session], platform_id: str) -> int:
    with sessions.begin() as session:
        return upsert_workspace(session, WorkspaceRecord("slack", platform_id, platform_id))


def add_draft(sessions: sessionmaker[Session], workspace_id: int, week: date) -> None:
    with sessions.begin() as session:
        session.add(
            DraftRow(
                workspace_id=workspace_id,
                week_start=week,
                title="t",
                summarizer="extractive",
                created_at=WEDNESDAY,
            )
        )


class Recorder:
    """A `run_week` that records its calls, optionally failing for some workspaces."""

    def __init__(self, fail_for: set[int] = frozenset()) -> None:
        self.calls: list[tuple[int, date]] = []
        self.fail_for = fail_for
        self.changed = asyncio.Event()

    async def __call__(self, workspace_id: int, week: date) -> None:
        self.calls.append((workspace_id, week))
        self.changed.set()
        if workspace_id in self.fail_for:
            raise RuntimeError(f"drafting failed for {workspace_id}")

    def count(self, workspace_id: int) -> int:
        return sum(1 for w, _ in self.calls if w == workspace_id)

    async def wait_until(self, done: Callable[[], bool]) -> None:
        async def poll() -> None:
            while not done():
                self.changed.clear()
                await self.changed.wait()

        await asyncio.wait_for(poll(), TIMEOUT)


def run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(test())


# --- which week a run drafts --------------------------------------------------------------


@pytest.mark.parametrize(
    ("fire_time", "timezone", "week"),
    [
        # The default schedule: Monday 09:00 UTC drafts the previous Monday-Sunday.
        (datetime(2026, 11, 16, 9, 0, tzinfo=UTC), "UTC", date(2026, 11, 9)),
        # Sunday 23:30 is still in the current week: the week before it is drafted.
        (datetime(2026, 11, 22, 23, 30, tzinfo=UTC), "UTC", date(2026, 11, 9)),
        # A Wednesday fire drafts the previous full week too.
        (datetime(2026, 11, 18, 12, 0, tzinfo=UTC), "UTC", date(2026, 11, 9)),
        # Sunday 23:30 UTC is already Monday 00:30 in Amsterdam (CET, after the DST change
        # on 2026-10-25), so the week that just ended there is drafted.
        (datetime(2026, 10, 25, 23, 30, tzinfo=UTC), AMS, date(2026, 10, 19)),
        (datetime(2026, 10, 25, 23, 30, tzinfo=UTC), "UTC", date(2026, 10, 12)),
        # The week holding the DST change: Monday 00:30 CEST is Sunday 22:30 UTC.
        (datetime(2026, 10, 18, 22, 30, tzinfo=UTC), AMS, date(2026, 10, 12)),
        # Monday 09:00 local on both sides of the change (07:00 UTC in CEST, 08:00 in CET).
        (datetime(2026, 10, 19, 7, 0, tzinfo=UTC), AMS, date(2026, 10, 12)),
        (datetime(2026, 10, 26, 8, 0, tzinfo=UTC), AMS, date(2026, 10, 19)),
        # Sunday 02:30 on the change day (an ambiguous local hour) is still in its week.
        (datetime(2026, 10, 25, 0, 30, tzinfo=UTC), AMS, date(2026, 10, 12)),
        # The fire time's own offset does not matter, only the workspace timezone:
        # Monday 06:00 in Amsterdam is Sunday 22:00 in Los Angeles.
        (
            datetime(2026, 10, 26, 6, 0, tzinfo=ZoneInfo(AMS)),
            "America/Los_Angeles",
            date(2026, 10, 12),
        ),
    ],
)
def test_week_to_draft(fire_time: datetime, timezone: str, week: date) -> None:
    assert week_to_draft(fire_time, timezone) == week
    assert week.weekday() == 0


def test_week_to_draft_needs_an_aware_time() -> None:
    with pytest.raises(ValueError, match="naive"):
        week_to_draft(datetime(2026, 11, 16, 9, 0), "UTC")


# --- the last fire time --------------------------------------------------------------------


def test_last_fire_before_a_weekly_schedule() -> None:
    trigger = cron_trigger("mon 09:00", "UTC")
    monday = datetime(2026, 11, 16, 9, 0, tzinfo=UTC)
    assert last_fire_before(trigger, monday - timedelta(minutes=1)) == monday - timedelta(days=7)
    assert last_fire_before(trigger, monday) == monday
    assert last_fire_before(trigger, WEDNESDAY) == monday
    # Not within the horizon: None.
    assert last_fire_before(trigger, WEDNESDAY, horizon=timedelta(days=1)) is None


def test_last_fire_before_in_the_workspace_timezone() -> None:
    trigger = cron_trigger("mon 09:00", AMS)
    fired = last_fire_before(trigger, datetime(2026, 10, 28, tzinfo=UTC))
    assert fired == datetime(2026, 10, 26, 8, 0, tzinfo=UTC)  # 09:00 CET
    assert week_to_draft(fired, AMS) == date(2026, 10, 19)


def test_last_fire_before_a_frequent_or_one_off_trigger() -> None:
    now = datetime(2026, 11, 18, 12, 0, 30, tzinfo=UTC)
    every_minute = CronTrigger.from_crontab("* * * * *", timezone="UTC")
    assert last_fire_before(every_minute, now) == datetime(2026, 11, 18, 12, 0, tzinfo=UTC)
    once = DateTrigger(run_date=now - timedelta(days=2))
    assert last_fire_before(once, now) == now - timedelta(days=2)
    assert last_fire_before(DateTrigger(run_date=now + timedelta(seconds=1)), now) is None


# --- catch-up at start ---------------------------------------------------------------------


def test_start_catches_up_a_missed_run_once(
    sessions: sessionmaker[Session], config: Config
) -> None:
    workspace = add_workspace(sessions, "T1")
    run_week = Recorder()

    async def test() -> None:
        scheduler = WeeklyScheduler(Database(sessions), config, run_week, clock=lambda: WEDNESDAY)
        await scheduler.start()
        try:
            assert run_week.calls == [(workspace, PREVIOUS_WEEK)]
            next_run = scheduler.jobs()[workspace]
            assert next_run is not None
            assert (next_run.weekday(), next_run.hour, next_run.minute) == (0, 9, 0)
        finally:
            await scheduler.shutdown()
        assert scheduler.jobs() == {}

    run(test)


def test_start_does_not_repeat_a_week_already_drafted(
    sessions: sessionmaker[Session], config: Config
) -> None:
    workspace = add_workspace(sessions, "T1")
    add_draft(sessions, workspace, PREVIOUS_WEEK)
    run_week = Recorder()

    async def test() -> None:
        scheduler = WeeklyScheduler(Database(sessions), config, run_week, clock=lambda: WEDNESDAY)
        await scheduler.start()
        await scheduler.shutdown()

    run(test)
    assert run_week.calls == []


def test_start_catches_up_each_workspace_once(
    sessions: sessionmaker[Session], config: Config
) -> None:
    first = add_workspace(sessions, "T1")
    second = add_workspace(sessions, "T2")
    drafted = add_workspace(sessions, "T3")
    add_draft(sessions, drafted, PREVIOUS_WEEK)
    with sessions.begin() as session:
        change_setting(session, config, second, "timezone", AMS, ADMIN, datetime.now(UTC))
    run_week = Recorder()

    async def test() -> None:
        scheduler = WeeklyScheduler(Database(sessions), config, run_week, clock=lambda: WEDNESDAY)
        await scheduler.start()
        assert set(scheduler.jobs()) == {first, second, drafted}
        await scheduler.shutdown()

    run(test)
    assert sorted(run_week.calls) == [(first, PREVIOUS_WEEK), (second, PREVIOUS_WEEK)]


def test_catch_up_failure_is_logged_and_others_still_run(
    sessions: sessionmaker[Session], config: Config, caplog: pytest.LogCaptureFixture
) -> None:
    failing = add_workspace(sessions, "T1")
    other = add_workspace(sessions, "T2")
    run_week = Recorder(fail_for={failing})

    async def test() -> None:
        scheduler = WeeklyScheduler(Database(sessions), config, run_week, clock=lambda: WEDNESDAY)
        with caplog.at_level(logging.ERROR, logger="bot.core.scheduler"):
            await scheduler.start()
        assert set(scheduler.jobs()) == {failing, other}
        await scheduler.shutdown()

    run(test)
    assert sorted(run_week.calls) == [(failing, PREVIOUS_WEEK), (other, PREVIOUS_WEEK)]
    assert f"workspace {failing}: the weekly run for week {PREVIOUS_WEEK} failed" in caplog.text
    assert "drafting failed" in caplog.text  # with the traceback


def test_a_workspace_with_unusable_settings_does_not_stop_the_others(
    sessions: sessionmaker[Session], config: Config, caplog: pytest.LogCaptureFixture
) -> None:
    broken = add_workspace(sessions, "T1")
    good = add_workspace(sessions, "T2")
    with sessions.begin() as session:  # bypasses change_setting's validation
        save_setting(
            session, broken, "schedule", "whenever", actor_id="x", actor_name="x", at=WEDNESDAY
        )
    run_week = Recorder()

    async def test() -> None:
        scheduler = WeeklyScheduler(Database(sessions), config, run_week, clock=lambda: WEDNESDAY)
        with caplog.at_level(logging.ERROR, logger="bot.core.scheduler"):
            await scheduler.start()
        assert set(scheduler.jobs()) == {good}
        await scheduler.shutdown()

    run(test)
    assert run_week.calls == [(good, PREVIOUS_WEEK)]
    assert f"workspace {broken}: cannot schedule" in caplog.text


# --- real fires ----------------------------------------------------------------------------


def test_a_job_really_fires(sessions: sessionmaker[Session], config: Config) -> None:
    workspace = add_workspace(sessions, "T1")
    with sessions.begin() as session:
        change_setting(session, config, workspace, "timezone", AMS, ADMIN, datetime.now(UTC))
    run_week = Recorder()
    run_at = datetime.now(UTC) + timedelta(seconds=1)
    seen_timezones: list[str] = []

    def trigger_for(settings: WorkspaceSettings) -> DateTrigger:
        seen_timezones.append(settings.timezone)
        return DateTrigger(run_date=run_at)

    async def test() -> None:
        scheduler = WeeklyScheduler(Database(sessions), config, run_week, trigger_for=trigger_for)
        await scheduler.start()
        try:
            assert run_week.calls == []  # nothing to catch up: it has not fired yet
            assert scheduler.jobs() == {workspace: run_at}
            await run_week.wait_until(lambda: run_week.count(workspace) == 1)
        finally:
            await scheduler.shutdown()

    run(test)
    assert seen_timezones == [AMS]
    assert run_week.calls == [(workspace, week_to_draft(run_at, AMS))]


def test_a_failing_run_stops_neither_the_next_fire_nor_other_workspaces(
    sessions: sessionmaker[Session], config: Config, caplog: pytest.LogCaptureFixture
) -> None:
    failing = add_workspace(sessions, "T1")
    other = add_workspace(sessions, "T2")
    run_week = Recorder(fail_for={failing})

    async def test() -> None:
        scheduler = WeeklyScheduler(
            Database(sessions), config, run_week, trigger_for=lambda _: IntervalTrigger(seconds=0.2)
        )
        with caplog.at_level(logging.ERROR, logger="bot.core.scheduler"):
            await scheduler.start()
            try:
                await run_week.wait_until(
                    lambda: run_week.count(failing) >= 2 and run_week.count(other) >= 2
                )
                assert set(scheduler.jobs()) == {failing, other}
            finally:
                await scheduler.shutdown()

    run(test)
    assert f"workspace {failing}: the weekly run" in caplog.text


# --- rescheduling --------------------------------------------------------------------------


def test_reschedule_moves_the_next_run(sessions: sessionmaker[Session], config: Config) -> None:
    workspace = add_workspace(sessions, "T1")
    add_draft(sessions, workspace, PREVIOUS_WEEK)  # nothing to catch up

    async def test() -> None:
        scheduler = WeeklyScheduler(Database(sessions), config, Recorder(), clock=lambda: WEDNESDAY)
        await scheduler.start()
        try:
            before = scheduler.jobs()[workspace]
            assert before is not None
            assert (before.astimezone(UTC).weekday(), before.astimezone(UTC).hour) == (0, 9)

            with sessions.begin() as session:
                change_setting(
                    session, config, workspace, "schedule", "fri 17:00", ADMIN, datetime.now(UTC)
                )
                change_setting(
                    session, config, workspace, "timezone", AMS, ADMIN, datetime.now(UTC)
                )
            await scheduler.reschedule(workspace)

            after = scheduler.jobs()[workspace]
            assert after is not None
            local = after.astimezone(ZoneInfo(AMS))
            assert (local.weekday(), local.hour, local.minute) == (4, 17, 0)
            now = datetime.now(UTC)
            assert now < after <= now + timedelta(days=7)
        finally:
            await scheduler.shutdown()

    run(test)


def test_reschedule_adds_and_removes_workspaces(
    sessions: sessionmaker[Session], config: Config
) -> None:
    first = add_workspace(sessions, "T1")
    run_week = Recorder()

    async def test() -> None:
        scheduler = WeeklyScheduler(Database(sessions), config, run_week, clock=lambda: WEDNESDAY)
        await scheduler.reschedule(first)  # before start: nothing to do, start() reads everything
        await scheduler.start()
        try:
            assert set(scheduler.jobs()) == {first}
            later = add_workspace(sessions, "T2")
            await scheduler.reschedule(later)
            assert set(scheduler.jobs()) == {first, later}
            assert run_week.count(later) == 0  # a workspace added later is not caught up

            with sessions.begin() as session:
                session.delete(session.get(Workspace, first))
            await scheduler.reschedule(first)
            assert set(scheduler.jobs()) == {later}
        finally:
            await scheduler.shutdown()

    run(test)


def test_start_twice_is_an_error(sessions: sessionmaker[Session], config: Config) -> None:
    async def test() -> None:
        scheduler = WeeklyScheduler(Database(sessions), config, Recorder())
        await scheduler.start()
        try:
            with pytest.raises(RuntimeError, match="already started"):
                await scheduler.start()
        finally:
            await scheduler.shutdown()
        await scheduler.shutdown()  # a second shutdown is harmless

    run(test)
