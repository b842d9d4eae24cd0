"""How the core reaches the database without blocking the event loop.

Every unit of work is a plain function of a session: it runs in a transaction of its own on
one worker thread, in the order it was asked for (as it did on the loop), so no platform call
can be awaited while a transaction is open, and a slow or failing database never stalls the
platform connections, the scheduler or the health server.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker
from tenacity import Retrying, retry_if_exception_type, stop_after_attempt, wait_exponential

T = TypeVar("T")


class Database:
    """Runs units of work in transactions on the core's database thread."""

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self.sessions = sessions
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="summarybot-db")

    async def run(self, work: Callable[[Session], T]) -> T:
        """`work(session)` in a transaction of its own, committed when it returns."""
        return await asyncio.get_running_loop().run_in_executor(
            self._thread, self.transaction, work
        )

    async def run_retrying(
        self, work: Callable[[Session], T], *, attempts: int, backoff: float
    ) -> T:
        """Like `run`, with a transient database error (a restart, a dropped connection,
        SQLite busy) retried up to `attempts` times in all; the waits happen on the database
        thread, never on the event loop. A persisting error is raised."""

        def retrying() -> T:
            for attempt in Retrying(
                retry=retry_if_exception_type(OperationalError),
                stop=stop_after_attempt(attempts),
                wait=wait_exponential(multiplier=backoff, max=2),
                reraise=True,
            ):
                with attempt:
                    return self.transaction(work)
            raise AssertionError("unreachable: tenacity reraises")

        return await asyncio.get_running_loop().run_in_executor(self._thread, retrying)

    async def call(self, function: Callable[..., T], *args: object) -> T:
        """`function(*args)` on the database thread (for functions that open their own
        transactions, such as `bot.core.privacy`'s)."""
        return await asyncio.get_running_loop().run_in_executor(self._thread, function, *args)

    def transaction(self, work: Callable[[Session], T]) -> T:
        """`work(session)` in a transaction, on the calling thread (for synchronous callers)."""
        with self.sessions.begin() as session:
            return work(session)

    def close(self) -> None:
        """Stop the database thread once the work already asked for is done."""
        self._thread.shutdown(wait=True)
