"""What the HTTP clients of drafting (GitHub, the LLM) share: closing their httpx client, and
retrying a request with backoff until it answers or the attempts are used up.

A client's single attempt raises `Retry` for a failure worth another try (a 5xx, a timeout, a
dropped connection) and `Unavailable` for one that is not; `with_retries` turns the attempts
into an answer or one `Unavailable` whose `problem` sums them up for people.
"""

from __future__ import annotations

import email.utils
import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from types import TracebackType
from typing import Self

import httpx
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception_type, stop_after_attempt

_TIMES = {1: "once", 2: "twice", 3: "three times"}


class Retry(Exception):
    """A failure worth another attempt; `status` is the HTTP status when there was one."""

    def __init__(
        self, reason: str, status: int | None = None, retry_after: float | None = None
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = status
        self.retry_after = retry_after  # seconds the server asked to wait (Retry-After)


class Unavailable(Exception):
    """The service cannot answer this request; `problem` says why in one line."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem


class ClosingClient:
    """Use as `async with Client(...) as client:`; the httpx client is closed on exit."""

    _http: httpx.AsyncClient

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()


@dataclass(frozen=True, slots=True)
class FailureWords:
    """How a client sums up the attempts it gave up on, for people."""

    service: str  # "GitHub", "LLM"
    silence: str  # when nothing was tried: "GitHub did not answer"
    tally: str  # after the last reason, with {n} attempts: "({n} attempts)"

    def summarize(self, reasons: list[Retry]) -> str:
        """ "GitHub answered 502 three times", "LLM answered 502, 503 and 500", "LLM rate
        limited (429) twice", or the last reason followed by the tally."""
        statuses = [reason.status for reason in reasons]
        if reasons and all(status is not None for status in statuses):
            if len(set(statuses)) == 1:
                times = _TIMES.get(len(statuses), f"{len(statuses)} times")
                if statuses[0] == 429:
                    return f"{self.service} rate limited (429) {times}"
                return f"{self.service} answered {statuses[0]} {times}"
            *first, last = (str(status) for status in statuses)
            return f"{self.service} answered {', '.join(first)} and {last}"
        last = reasons[-1].reason if reasons else self.silence
        return f"{last} {self.tally.format(n=len(reasons))}" if len(reasons) > 1 else last


async def with_retries(
    send: Callable[[], Awaitable[httpx.Response]],
    *,
    attempts: int,
    wait: Callable[[RetryCallState], float],
    words: FailureWords,
) -> httpx.Response:
    """`send()`'s answer, tried up to `attempts` times while it raises `Retry`; then
    `Unavailable` summing them up in `words`. `Unavailable` from `send` passes through at once."""
    reasons: list[Retry] = []
    retrying = AsyncRetrying(
        stop=stop_after_attempt(attempts),
        wait=wait,
        retry=retry_if_exception_type(Retry),
        reraise=True,
    )
    try:
        async for attempt in retrying:
            with attempt:
                try:
                    response = await send()
                except Retry as exc:
                    reasons.append(exc)
                    raise
    except Retry:
        raise Unavailable(words.summarize(reasons)) from None
    return response


def number(value: str | None) -> float | None:
    """A header's value as a finite number, or None."""
    try:
        parsed = float(value) if value is not None else None
    except ValueError:
        return None
    return parsed if parsed is not None and math.isfinite(parsed) else None


def seconds_until(http_date: str, now: float) -> float | None:
    """Seconds from `now` (epoch seconds) to an HTTP date (a Retry-After form), or None."""
    try:
        return email.utils.parsedate_to_datetime(http_date).timestamp() - now
    except (TypeError, ValueError, IndexError):
        return None


def one_line(text: str, limit: int = 300) -> str:
    """`text` on one line, at most `limit` characters."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
