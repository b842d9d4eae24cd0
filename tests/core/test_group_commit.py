"""Group commit: live stores asked for together share a transaction, each acknowledged only
once it is committed, and one bad event never fails the others."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import Engine, event, select
from sqlalchemy.orm import Session, sessionmaker

from bot.core.port import CommandEvent, DeleteEvent, EditEvent, MessageEvent
from bot.core.router import Core
from bot.ops.config import load_config
from storage.models import Channel, Message, Person
from storage.records import ChannelRecord, MessageRecord, PersonRecord, WorkspaceRecord
from tests.core.test_router import ADMIN
from tests.fakes.fakeport import FakePort

LAB = WorkspaceRecord("slack", "T1", "Lab")
HERO = ChannelRecord("C-hero", "hero-run")
ANA = PersonRecord("ana.ruiz", "Ana Ruiz")
MONDAY = datetime(2026, 11, 16, tzinfo=UTC)
EVENTS = 40


@pytest.fixture
def core(sessions: sessionmaker[Session]) -> Iterator[Core]:
    core = Core(sessions, load_config(), FakePort(), clock=lambda: MONDAY)
    reply = asyncio.run(core.on_command(CommandEvent(LAB, ADMIN, "channels add #hero-run", "C")))
    assert reply.ok, reply.text
    yield core
    core.close()


@pytest.fixture
def commits(engine: Engine) -> Iterator[list[int]]:
    """One entry per transaction committed on the engine."""
    seen: list[int] = []

    def on_commit(_connection: object) -> None:
        seen.append(1)

    event.listen(engine, "commit", on_commit)
    yield seen
    event.remove(engine, "commit", on_commit)


def message(pid: str, text: str, minutes: int = 0, edited: int | None = None) -> MessageRecord:
    edited_at = None if edited is None else MONDAY + timedelta(minutes=edited)
    return MessageRecord(pid, ANA, MONDAY + timedelta(minutes=minutes), text, edited_at=edited_at)


def stored(sessions: sessionmaker[Session]) -> dict[str, str]:
    with sessions() as session:
        return dict(session.execute(select(Message.platform_id, Message.text)).all())


def test_concurrent_stores_share_transactions_and_return_once_committed(
    core: Core, sessions: sessionmaker[Session], commits: list[int]
) -> None:
    seen_after_return: list[bool] = []

    async def store(pid: str) -> bool:
        stored_it = await core.on_message(MessageEvent(LAB, HERO, message(pid, f"run {pid}")))
        # Read through a connection of its own: only committed rows are visible there.
        seen_after_return.append(pid in stored(sessions))
        return stored_it

    async def scenario() -> list[bool]:
        return await asyncio.gather(*(store(str(i)) for i in range(EVENTS)))

    commits.clear()
    assert all(asyncio.run(scenario()))
    assert seen_after_return == [True] * EVENTS
    assert 1 <= len(commits) < EVENTS
    assert len(stored(sessions)) == EVENTS


def test_one_bad_event_fails_alone(
    core: Core, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = Core._store_once

    def picky(self: Core, session: Session, *args: object) -> object:
        messages = args[3]  # after the workspace id, the workspace and the channel
        assert isinstance(messages, list)
        if any(m.platform_id == "13" for m in messages):
            raise ValueError("an event this database refuses")
        return real(self, session, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(Core, "_store_once", picky)

    async def scenario() -> list[bool | BaseException]:
        events = [MessageEvent(LAB, HERO, message(str(i), f"run {i}")) for i in range(20)]
        return await asyncio.gather(*map(core.on_message, events), return_exceptions=True)

    results = asyncio.run(scenario())
    assert isinstance(results[13], ValueError)
    assert [r for i, r in enumerate(results) if i != 13] == [True] * 19
    assert sorted(stored(sessions), key=int) == [str(i) for i in range(20) if i != 13]


def test_edits_and_deletes_keep_their_order(core: Core, sessions: sessionmaker[Session]) -> None:
    """A message, its edit and a stale copy in one batch: the edit wins; a delete asked for
    after a queued store runs after it, and a late copy of the deleted message stays out."""

    async def scenario() -> None:
        await asyncio.gather(
            core.on_message(MessageEvent(LAB, HERO, message("1", "first"))),
            core.on_message(EditEvent(LAB, HERO, message("1", "edited", edited=5))),
            core.on_message(MessageEvent(LAB, HERO, message("1", "first"))),
            core.on_message(MessageEvent(LAB, HERO, message("2", "gone soon"))),
            core.on_delete(DeleteEvent(LAB, "2")),
        )
        await core.on_message(MessageEvent(LAB, HERO, message("2", "gone soon")))

    asyncio.run(scenario())
    assert stored(sessions) == {"1": "edited"}


def test_stores_sharing_statements_each_get_their_own_answer(
    core: Core, sessions: sessionmaker[Session]
) -> None:
    """One channel's stores in a batch are stored in one call; each still learns whether
    its own message was stored (new, or a copy of one already there, or another bot's)."""
    bot = PersonRecord("B0BOT", "Deploy Bot", is_bot=True)
    chatter = MessageRecord("3", bot, MONDAY, "Deployed.")
    iris = ChannelRecord("C0IRIS", "iris")  # not logged

    async def scenario() -> list[bool]:
        await core.on_message(MessageEvent(LAB, HERO, message("1", "first")))
        return await asyncio.gather(
            core.on_message(MessageEvent(LAB, HERO, message("1", "first"))),
            core.on_message(MessageEvent(LAB, HERO, message("2", "second"))),
            core.on_message(MessageEvent(LAB, HERO, chatter)),
            core.on_message(MessageEvent(LAB, iris, message("4", "elsewhere"))),
            core.on_message(MessageEvent(LAB, HERO, message("5", "fifth", edited=1))),
        )

    assert asyncio.run(scenario()) == [False, True, False, False, True]
    assert stored(sessions) == {"1": "first", "2": "second", "5": "fifth"}


def test_a_store_left_queued_by_an_ended_loop_does_not_stall_the_next(
    core: Core, sessions: sessionmaker[Session]
) -> None:
    async def abandoned() -> None:
        task = asyncio.create_task(core.on_message(MessageEvent(LAB, HERO, message("1", "a"))))
        for _ in range(100):  # until it waits in the queue, then end the loop
            await asyncio.sleep(0)
            if core.db.group._queue:
                return
        task.cancel()

    asyncio.run(abandoned())
    stored_it = asyncio.run(
        asyncio.wait_for(core.on_message(MessageEvent(LAB, HERO, message("2", "b"))), 10)
    )
    assert stored_it
    assert "2" in stored(sessions)


def people(sessions: sessionmaker[Session]) -> dict[str, str]:
    with sessions() as session:
        return dict(session.execute(select(Person.platform_id, Person.display_name)).all())


def channel_of(sessions: sessionmaker[Session], pid: str) -> str:
    with sessions() as session:
        query = select(Channel.platform_id).join(Message).where(Message.platform_id == pid)
        return session.execute(query).scalar_one()


def test_a_person_renamed_between_live_messages_is_renamed_in_storage(
    core: Core, sessions: sessionmaker[Session]
) -> None:
    """Live stores skip upserting people already stored as they are, never a rename."""
    names = ["Ana Ruiz", "Ana R.", "Ana Ruiz"]
    for n, name in enumerate(names):
        author = PersonRecord(ANA.platform_id, name)
        record = MessageRecord(f"m{n}", author, MONDAY + timedelta(minutes=n), f"run {n}")
        assert asyncio.run(core.on_message(MessageEvent(LAB, HERO, record)))
        assert people(sessions)[ANA.platform_id] == name


def test_a_channel_stored_in_a_rolled_back_transaction_is_stored_again(
    core: Core, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A channel row inserted by a batch that then failed does not exist: the next store in
    that channel inserts it again instead of using the id the failed batch saw."""
    real = Core._store_once
    refused = {"refused"}

    def refuse_after_storing(self: Core, session: Session, *args: object) -> object:
        counts = real(self, session, *args)  # type: ignore[arg-type]
        if any(m.platform_id in refused for m in args[3]):  # type: ignore[attr-defined]
            raise ValueError("refused after the channel and message were written")
        return counts

    monkeypatch.setattr(Core, "_store_once", refuse_after_storing)
    new = ChannelRecord("C-new", "hero-run")  # logged by name, not stored yet
    other = ChannelRecord("C-other", "hero-run")

    async def scenario() -> None:
        with pytest.raises(ValueError):
            await core.on_message(MessageEvent(LAB, new, message("refused", "run 1")))
        # Another new channel may now get the row id the rolled-back insert had.
        assert await core.on_message(MessageEvent(LAB, other, message("other", "run 2")))
        assert await core.on_message(MessageEvent(LAB, new, message("kept", "run 3")))

    asyncio.run(scenario())
    assert channel_of(sessions, "other") == "C-other"
    assert channel_of(sessions, "kept") == "C-new"
    assert "refused" not in stored(sessions)
