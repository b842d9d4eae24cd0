"""Where drafting's blocking work runs: in worker threads, never on the event loop, and not on
the core's ordered database thread either.

Drafting a week (loading its messages and the earlier weeks', grouping them, reading and
writing the GitHub cache, storing the draft) takes seconds on a big week. The core's
`bot.core.database.Database` thread runs short units of work one after another, in the order
they were asked for: every live message is stored there before Slack's HTTP request is
answered, and every command reads and writes there. A draft on that thread would hold all of
them for as long as it takes. Drafting needs no place in that order (it reads committed rows,
and a week's draft is stored once, in one transaction, guarded by the unique week), so its
units run in asyncio's worker threads (`asyncio.to_thread`), beside the database thread. The
review workflow waits for the stored draft before it posts it, so nothing reads it early.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TypeVar

from sqlalchemy.orm import Session, sessionmaker

T = TypeVar("T")


async def read(sessions: sessionmaker[Session], work: Callable[[Session], T]) -> T:
    """`work(session)` in a worker thread, in a session that commits nothing."""

    def run() -> T:
        with sessions() as session:
            return work(session)

    return await asyncio.to_thread(run)


async def write(sessions: sessionmaker[Session], work: Callable[[Session], T]) -> T:
    """`work(session)` in a worker thread, in a transaction committed when it returns."""

    def run() -> T:
        with sessions.begin() as session:
            return work(session)

    return await asyncio.to_thread(run)
