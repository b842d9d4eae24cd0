"""Group commit: small units of work queued for a few milliseconds and committed together.

A live event stored in a transaction of its own pays a commit each (a round trip and a WAL
flush on PostgreSQL, a journal sync on SQLite); at hundreds of events a second the commits
are most of the cost. `GroupCommit` queues units of work for `window` seconds (or until
`max_batch` are waiting), runs them in one transaction on the database thread in the order
they were asked for, and resumes each caller only when that transaction has committed: what
an adapter acknowledges after `await` is stored. While one batch is being committed the next
one fills up, so a busy bot commits larger batches rather than falling behind.

A batch that fails is retried whole while the error is transient (`OperationalError`); if it
still fails, its units run again one transaction each, so one bad event fails alone and the
others are stored. Units of one kind may also share their statements (`_each`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from functools import partial
from itertools import groupby
from typing import Any, NamedTuple, TypeVar

from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session
from tenacity import Retrying, retry_if_exception_type, stop_after_attempt, wait_exponential

T = TypeVar("T")
Work = Callable[[Session], Any]
Transaction = Callable[[Work], Any]

log = logging.getLogger(__name__)

WINDOW_S = 0.002
MAX_BATCH = 256


class Retry(NamedTuple):
    """How often a unit of work is tried in all, and the first wait between tries (s)."""

    attempts: int = 1
    backoff: float = 0.0


def retried(call: Callable[[], T], retry: Retry) -> T:
    """`call()`, tried again after a transient database error (a restart, a dropped
    connection, SQLite busy) up to `retry.attempts` times in all, waiting on this thread."""
    for attempt in Retrying(
        retry=retry_if_exception_type(OperationalError),
        stop=stop_after_attempt(retry.attempts),
        wait=wait_exponential(multiplier=retry.backoff, max=2),
        reraise=True,
    ):
        with attempt:
            return call()
    raise AssertionError("unreachable: tenacity reraises")


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one unit of work returned, or the error it raised."""

    value: Any = None
    error: BaseException | None = None


@dataclass(frozen=True, slots=True)
class _Queued:
    work: Work
    retry: Retry
    future: asyncio.Future[Any]


class GroupCommit:
    """Queues units of work on the event loop and commits them in batches on `executor`
    (the database's single thread), through `transaction(work)`."""

    def __init__(
        self,
        executor: Executor,
        transaction: Transaction,
        *,
        window: float = WINDOW_S,
        max_batch: int = MAX_BATCH,
    ) -> None:
        self.window = window
        self.max_batch = max_batch
        self._executor = executor
        self._transaction = transaction
        self._queue: list[_Queued] = []
        self._timer: asyncio.TimerHandle | None = None
        self._in_flight = 0
        self._loop: asyncio.AbstractEventLoop | None = None

    async def run(self, work: Callable[[Session], T], retry: Retry) -> T:
        """`work(session)` in the next batch's transaction; returns once that committed."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            # A new event loop (the command line runs one per step): what the old one left
            # queued belonged to callers it cancelled, and its timer and callbacks never run.
            self._queue, self._timer, self._in_flight, self._loop = [], None, 0, loop
        future: asyncio.Future[T] = loop.create_future()
        self._queue.append(_Queued(work, retry, future))
        if len(self._queue) >= self.max_batch:
            self.flush()
        elif self._timer is None:
            self._timer = loop.call_later(self.window, self._window_over)
        return await future

    def flush(self) -> None:
        """Send what is queued to the database thread now, ahead of any work asked for after
        this call (the database keeps the order in which work was asked for)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if not self._queue or self._loop is None:
            return
        batch, self._queue = self._queue, []
        retry = max(queued.retry for queued in batch)
        self._in_flight += 1
        done = self._loop.run_in_executor(
            self._executor, self._commit, [queued.work for queued in batch], retry
        )
        done.add_done_callback(partial(self._resolve, batch))

    def _window_over(self) -> None:
        self._timer = None
        if not self._in_flight:  # else the batch being committed sends this one when done
            self.flush()

    def _resolve(self, batch: list[_Queued], done: asyncio.Future[list[Outcome]]) -> None:
        """On the loop: resume each caller of a committed (or failed) batch."""
        self._in_flight -= 1
        error = done.exception()
        outcomes = [Outcome(error=error)] * len(batch) if error else done.result()
        for queued, outcome in zip(batch, outcomes, strict=True):
            if queued.future.done():  # its caller was cancelled
                continue
            if outcome.error is not None:
                queued.future.set_exception(outcome.error)
            else:
                queued.future.set_result(outcome.value)
        if self._queue and not self._in_flight:
            self.flush()

    def _commit(self, works: list[Work], retry: Retry) -> list[Outcome]:
        """On the database thread: the batch in one transaction, or one by one if it fails."""
        try:
            values = retried(lambda: self._transaction(partial(_each, works)), retry)
            return [Outcome(value) for value in values]
        except Exception as error:
            if len(works) == 1:
                return [Outcome(error=error)]
            log.warning(
                "a batch of %d failed (%s); storing them one by one",
                len(works),
                type(error).__name__,
            )
            # A database that stayed down for the batch's retries gets one more try each.
            alone = Retry(1, retry.backoff) if isinstance(error, OperationalError) else retry
            return [self._alone(work, alone) for work in works]

    def _alone(self, work: Work, retry: Retry) -> Outcome:
        try:
            return Outcome(retried(lambda: self._transaction(work), retry))
        except Exception as error:  # noqa: BLE001 (handed to the unit's caller)
            return Outcome(error=error)


def _each(works: list[Work], session: Session) -> list[Any]:
    """Each unit's value, in order. Neighbouring units whose class has a `run_together`
    classmethod are handed to it together (it returns their values in order): live stores
    of one channel then cost one set of statements, not one each."""
    values: list[Any] = []
    for together, run in groupby(works, key=lambda work: getattr(work, "run_together", None)):
        units = list(run)
        values += together(session, units) if together else [unit(session) for unit in units]
    return values
