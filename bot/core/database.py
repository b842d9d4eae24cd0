"""How the core reaches the database without blocking the event loop.

Every unit of work is a plain function of a session: it runs in a transaction of its own on
one worker thread, in the order it was asked for (as it did on the loop), so no platform call
can be awaited while a transaction is open, and a slow or failing database never stalls the
platform connections, the scheduler or the health server. Live events are stored through
`run_grouped`: several in one transaction (`bot.core.group_commit`), still in order with
the rest of the work.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from sqlalchemy.orm import Session, sessionmaker

from bot.core.group_commit import GroupCommit, Retry

T = TypeVar("T")


class Database:
    """Runs units of work in transactions on the core's database thread."""

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self.sessions = sessions
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="summarybot-db")
        self.group = GroupCommit(self._thread, self.transaction)

    async def run(self, work: Callable[[Session], T]) -> T:
        """`work(session)` in a transaction of its own, committed when it returns."""
        self.group.flush()
        return await asyncio.get_running_loop().run_in_executor(
            self._thread, self.transaction, work
        )

    async def run_grouped(
        self, work: Callable[[Session], T], *, attempts: int, backoff: float
    ) -> T:
        """`work(session)` in a transaction shared with the other units of work asked
        for within a few milliseconds (group commit); returns once it is committed. A transient
        database error (a restart, a dropped connection, SQLite busy) is retried up to
        `attempts` times in all, waiting on the database thread, never on the loop; a unit
        that fails the shared transaction fails alone: the others are stored without it."""
        return await self.group.run(work, Retry(attempts, backoff))

    async def call(self, function: Callable[..., T], *args: object) -> T:
        """`function(*args)` on the database thread (for functions that open their own
        transactions, such as `bot.core.privacy`'s)."""
        self.group.flush()
        return await asyncio.get_running_loop().run_in_executor(self._thread, function, *args)

    def transaction(self, work: Callable[[Session], T]) -> T:
        """`work(session)` in a transaction, on the calling thread (for synchronous callers)."""
        with self.sessions.begin() as session:
            return work(session)

    def close(self) -> None:
        """Stop the database thread once the work already asked for is done."""
        self.group.flush()
        self._thread.shutdown(wait=True)
