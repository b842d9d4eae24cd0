"""One process at a time does a draft's platform work (posting it for review, publishing
it), so that several `summarybot run` processes on one PostgreSQL never post twice.

The holder re-reads what is already delivered once it has the lock, so whoever comes second
finds the work done (or finishes what a killed holder left). On PostgreSQL the lock is an
advisory lock held by a connection of its own (released by PostgreSQL when a killed
process's connection drops); SQLite serves one process, where an in-process lock is enough.
Taking and releasing it are short units of work on the core's database thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator

from sqlalchemy.orm import Session, sessionmaker

from bot.core.database import Database
from storage.locks import advisory_unlock, try_advisory_lock

# The advisory lock space of drafts' platform work (any constant no other lock user takes).
DRAFT_WORK = 0x53_42_44_57  # "SBDW"
POLL_SECONDS = 0.1
WAIT_SECONDS = 120.0


class DraftLocks:
    """`async with locks.hold(draft_id) as held:` runs the block holding the draft's lock;
    `held` is False when another holder kept it for `wait` seconds (the block must then
    leave the work to that holder)."""

    def __init__(self, database: Database, *, wait: float = WAIT_SECONDS) -> None:
        self._db = database
        with database.sessions() as session:  # no connection is opened to learn the dialect
            self._shared = session.get_bind().dialect.name == "postgresql"
        self._wait = wait
        self._local: dict[int, asyncio.Lock] = {}  # a few drafts a week: kept, not pruned

    @contextlib.asynccontextmanager
    async def hold(self, draft_id: int) -> AsyncIterator[bool]:
        local = self._local.setdefault(draft_id, asyncio.Lock())
        try:
            async with asyncio.timeout(self._wait):
                await local.acquire()
        except TimeoutError:
            yield False
            return
        try:
            if not self._shared:
                yield True
                return
            holder = await self._acquire(draft_id)
            try:
                yield holder is not None
            finally:
                if holder is not None:
                    await self._db.call(_release, holder, draft_id)
        finally:
            local.release()

    async def _acquire(self, draft_id: int) -> Session | None:
        """A session whose connection holds the draft's advisory lock; None after waiting
        in vain."""
        deadline = time.monotonic() + self._wait
        while True:
            holder = await self._db.call(_take, self._db.sessions, draft_id)
            if holder is not None or time.monotonic() >= deadline:
                return holder
            await asyncio.sleep(POLL_SECONDS)


def _take(sessions: sessionmaker[Session], draft_id: int) -> Session | None:
    session = sessions()
    try:
        # Autocommit: the lock is the connection's, held with no transaction open.
        connection = session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})
        if try_advisory_lock(connection, DRAFT_WORK, draft_id):
            return session
    except BaseException:
        session.close()
        raise
    session.close()
    return None


def _release(holder: Session, draft_id: int) -> None:
    try:
        advisory_unlock(holder.connection(), DRAFT_WORK, draft_id)
    finally:
        holder.close()
