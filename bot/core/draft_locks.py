"""One process at a time does a draft's platform work (posting it for review, publishing
it), so that several `summarybot run` processes on one PostgreSQL never post twice.

The holder re-reads what is already delivered once it has the lock, so whoever comes second
finds the work done (or finishes what a killed holder left). On PostgreSQL the lock is an
advisory lock held by a connection of its own (released by PostgreSQL when a killed
process's connection drops); SQLite serves one process, where an in-process lock is enough.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator

from sqlalchemy import Connection, Engine

from storage.locks import advisory_unlock, try_advisory_lock

# The advisory lock space of drafts' platform work (any constant no other lock user takes).
DRAFT_WORK = 0x53_42_44_57  # "SBDW"
POLL_SECONDS = 0.1
WAIT_SECONDS = 120.0


class DraftLocks:
    """`async with locks.hold(draft_id) as held:` runs the block holding the draft's lock;
    `held` is False when another holder kept it for `wait` seconds (the block must then
    leave the work to that holder)."""

    def __init__(self, engine: Engine, *, wait: float = WAIT_SECONDS) -> None:
        self._engine = engine
        self._shared = engine.dialect.name == "postgresql"
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
            connection = await self._acquire(draft_id)
            try:
                yield connection is not None
            finally:
                if connection is not None:
                    await asyncio.to_thread(_release, connection, draft_id)
        finally:
            local.release()

    async def _acquire(self, draft_id: int) -> Connection | None:
        """A connection holding the draft's advisory lock; None after waiting in vain."""
        deadline = time.monotonic() + self._wait
        while True:
            connection = await asyncio.to_thread(_take, self._engine, draft_id)
            if connection is not None or time.monotonic() >= deadline:
                return connection
            await asyncio.sleep(POLL_SECONDS)


def _take(engine: Engine, draft_id: int) -> Connection | None:
    connection = engine.connect().execution_options(isolation_level="AUTOCOMMIT")
    try:
        if try_advisory_lock(connection, DRAFT_WORK, draft_id):
            return connection
    except BaseException:
        connection.close()
        raise
    connection.close()
    return None


def _release(connection: Connection, draft_id: int) -> None:
    try:
        advisory_unlock(connection, DRAFT_WORK, draft_id)
    finally:
        connection.close()
