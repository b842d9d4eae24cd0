"""Several bot processes on one database: each event stored once, each week drafted once,
posted for review once and published once, however the processes race.

A "process" here is what `summarybot run` builds: its own engine (its own connections) and
its own core; they share the database and the platform (one `FakePort`, slowed down so that
the races overlap). Racing processes are PostgreSQL only (SQLite serves one process);
two tasks of one process racing run on both databases.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import Engine, func, select

from bot.core.port import Button, Caller, Posted
from bot.core.review import ReviewWorkflow
from bot.core.router import Core
from bot.core.settings import change_setting
from storage.db import make_engine, make_sessionmaker, migrate
from storage.drafts import list_drafts
from storage.models import Delivery, DraftRow, Message
from storage.records import ChannelRecord, MessageRecord, PersonRecord
from tests.core.test_review import (
    ADMIN,
    CONFIG,
    EDITOR,
    WEEK,
    WORKSPACE,
    draft_of,
    run,
    week,  # noqa: F401 (a fixture these tests use)
)
from tests.fakes.fakeport import FakePort

OTHER_EDITOR = Caller("U-ed2", "Otto Editor")
# Monday 2026-11-23 09:00 UTC is the default schedule's run for the week of WEEK.
WEDNESDAY_AFTER = datetime(2026, 11, 25, 12, tzinfo=UTC)


class SlowPort(FakePort):
    """The platform, taking a moment per call: time enough for another process to race."""

    async def post(self, channel_id: str, text: str, buttons: Sequence[Button] = ()) -> Posted:
        await asyncio.sleep(0.02)
        return await super().post(channel_id, text, buttons)

    async def reply(self, parent: Posted, text: str, buttons: Sequence[Button] = ()) -> Posted:
        await asyncio.sleep(0.02)
        return await super().reply(parent, text, buttons)


@pytest.fixture
def platform() -> SlowPort:
    return SlowPort()


@pytest.fixture
def processes(request: pytest.FixtureRequest, engine: Engine, database_url: str) -> Iterator[list]:
    """Two more engines on the week's test database: two processes' worth of connections."""
    if engine.dialect.name != "postgresql":
        pytest.skip("several processes share PostgreSQL (SQLite serves one process)")
    sessions = request.getfixturevalue("week")
    with sessions.begin() as session:
        change_setting(session, CONFIG, 1, "editors", ["U-ed", "U-ed2"], ADMIN, T_SETUP)
    engines = [make_engine(database_url) for _ in range(2)]
    yield [make_sessionmaker(e) for e in engines]
    for e in engines:
        e.dispose()


T_SETUP = datetime(2026, 11, 20, tzinfo=UTC)


def review_posts(port: FakePort) -> list[str]:
    return [m.text for m in port.in_channel("C-review")]


def assert_published_once(sessions, port: FakePort) -> None:
    with sessions() as session:
        (draft,) = list_drafts(session, 1)
        positions = session.scalars(select(Delivery.position).where(Delivery.channel_id == "C-pub"))
        assert sorted(positions) == list(range(len(port.in_channel("C-pub"))))
        assert draft.status == "published"
    assert port.in_channel("C-pub") and len(port.in_channel("C-pub")) == len(
        port.in_channel("C-pub2")
    )
    assert len({m.text for m in port.in_channel("C-pub")}) == len(port.in_channel("C-pub"))


def test_two_schedulers_catching_up_together_draft_post_and_publish_once(
    processes, platform
) -> None:
    """Both processes start after a missed Monday run: each scheduler catches it up at once.
    One draft, one review thread; then both approve and resume: one publication."""

    async def race() -> list[str]:
        cores = [
            Core(s, CONFIG, platform, clock=lambda: WEDNESDAY_AFTER, platform="discord")
            for s in processes
        ]
        try:
            await asyncio.gather(*(c.scheduler.start() for c in cores))
            await asyncio.gather(*(c.resume() for c in cores))
            draft_id = draft_of(processes[0]).id
            replies = await asyncio.gather(
                cores[0].review.approve(1, EDITOR, draft_id),
                cores[1].review.approve(1, OTHER_EDITOR, draft_id),
            )
            await asyncio.gather(*(c.resume() for c in cores))
            return [r.text for r in replies]
        finally:
            for core in cores:
                await core.scheduler.shutdown()
                core.close()

    replies = run(race())
    with processes[0]() as session:
        assert session.scalar(select(func.count(DraftRow.id))) == 1
    (header,) = review_posts(platform)
    assert "3 sections" in header
    assert len(platform.thread(platform.in_channel("C-review")[0].posted)) == 3
    assert sum(r.startswith("Published") for r in replies) == 1, replies
    assert any("already approved" in r for r in replies), replies
    assert_published_once(processes[0], platform)


def test_two_processes_posting_the_same_draft_post_each_message_once(processes, platform) -> None:
    """A draft stored but not yet posted (a crash) is resumed by both processes at once."""
    flows = [ReviewWorkflow(s, CONFIG, platform) for s in processes]
    with processes[0].begin() as session:
        change_setting(session, CONFIG, 1, "review_channel", None, ADMIN, T_SETUP)
    run(flows[0].draft_and_post(1, WEEK))  # stored, waiting for a review channel
    with processes[0].begin() as session:
        change_setting(session, CONFIG, 1, "review_channel", "C-review", ADMIN, T_SETUP)
    draft_id = draft_of(processes[0]).id

    async def race() -> None:
        await asyncio.gather(*(f.post_for_review(draft_id) for f in flows))

    run(race())
    assert len(review_posts(platform)) == 1
    assert len(platform.thread(platform.in_channel("C-review")[0].posted)) == 3
    assert draft_of(processes[0]).status == "in_review"


def test_two_processes_publishing_at_once_deliver_each_chunk_once(processes, platform) -> None:
    flows = [ReviewWorkflow(s, CONFIG, platform) for s in processes]
    run(flows[0].draft_and_post(1, WEEK))
    draft_id = draft_of(processes[0]).id
    platform.fail("post", after=0)  # approval stored, publishing interrupted
    with pytest.raises(ConnectionError):
        run(flows[0].approve(1, EDITOR, draft_id))

    async def race() -> None:
        await asyncio.gather(*(f.publish(draft_id) for f in flows))

    run(race())
    assert_published_once(processes[0], platform)


@pytest.mark.usefixtures("week")
def test_posting_for_review_twice_at_once_in_one_process_posts_once(sessions, platform) -> None:
    flow = ReviewWorkflow(sessions, CONFIG, platform)
    with sessions.begin() as session:
        change_setting(session, CONFIG, 1, "review_channel", None, ADMIN, T_SETUP)
    run(flow.draft_and_post(1, WEEK))
    with sessions.begin() as session:
        change_setting(session, CONFIG, 1, "review_channel", "C-review", ADMIN, T_SETUP)
    draft_id = draft_of(sessions).id

    async def twice() -> None:
        await asyncio.gather(flow.post_for_review(draft_id), flow.post_for_review(draft_id))
        await flow.approve(1, EDITOR, draft_id)
        await asyncio.gather(flow.publish(draft_id), flow.publish(draft_id))

    run(twice())
    assert len(review_posts(platform)) == 1
    assert_published_once(sessions, platform)


@pytest.mark.usefixtures("week")
def test_the_same_events_stored_by_two_processes_at_once_are_stored_once(
    sessions, engine: Engine, database_url: str
) -> None:
    """A Slack retry that reaches the other process, or two shards' overlap, stores the
    same message twice at once: one row each, with the newest text."""
    if engine.dialect.name != "postgresql":
        pytest.skip("several processes share PostgreSQL (SQLite serves one process)")
    channel = ChannelRecord("c-hero-run", "hero-run")
    records = [
        MessageRecord(
            f"live-{n}",
            PersonRecord(f"p{n % 7}", f"Person {n % 7}"),
            datetime(2026, 11, 18, tzinfo=UTC) + timedelta(seconds=n),
            f"Result {n}: {n % 50}.5% MFU (#{700 + n})",
        )
        for n in range(300)
    ]
    batches = [records[i : i + 10] for i in range(0, len(records), 10)]
    with sessions.begin() as session:
        change_setting(session, CONFIG, 1, "channels", ["c-hero-run"], ADMIN, T_SETUP)
    engines = [make_engine(database_url) for _ in range(2)]
    start = threading.Barrier(2)

    def process(engine: Engine, order: list) -> None:
        async def store_all() -> None:
            core = Core(make_sessionmaker(engine), CONFIG, FakePort(), platform="discord")
            try:
                start.wait()
                await asyncio.gather(*(core.store(WORKSPACE, channel, b) for b in order))
            finally:
                core.close()

        asyncio.run(store_all())

    threads = [
        threading.Thread(target=process, args=(engines[0], batches)),
        threading.Thread(target=process, args=(engines[1], batches[::-1])),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    for e in engines:
        e.dispose()
    with sessions() as session:
        ids = session.scalars(select(Message.platform_id).where(Message.platform_id.like("live-%")))
        stored = list(ids)
    assert len(stored) == len(set(stored)) == 300


def test_processes_starting_together_migrate_one_after_another(database_url: str) -> None:
    """Every `summarybot run` migrates at start-up; two starting at once on a new database
    both come up."""
    if not database_url.startswith("postgresql"):
        pytest.skip("several processes share PostgreSQL")
    engines = [make_engine(database_url) for _ in range(3)]
    errors: list[BaseException] = []

    def start(engine: Engine) -> None:
        try:
            migrate(engine)
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=start, args=(e,)) for e in engines]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    for e in engines:
        e.dispose()
    assert errors == []


def test_an_approval_and_a_discard_at_once_in_two_processes_leave_one_of_them(
    processes, platform
) -> None:
    flows = [ReviewWorkflow(s, CONFIG, platform) for s in processes]
    run(flows[0].draft_and_post(1, WEEK))
    draft_id = draft_of(processes[0]).id

    async def race() -> list:
        return await asyncio.gather(
            flows[0].approve(1, EDITOR, draft_id), flows[1].discard(1, OTHER_EDITOR, draft_id)
        )

    approved, discarded = run(race())
    status = draft_of(processes[0]).status
    assert approved.ok != discarded.ok, (approved.text, discarded.text)
    assert status == ("published" if approved.ok else "discarded")
    assert bool(platform.in_channel("C-pub")) == approved.ok
