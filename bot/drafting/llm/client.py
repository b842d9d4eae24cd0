"""An async client for the OpenAI-compatible Chat Completions API, and a weekly token budget.

It speaks the `POST {base_url}/chat/completions` dialect that vLLM, Ollama, the llama.cpp server,
OpenAI and most gateways share, and answers in plain dataclasses. Like the GitHub client it never
raises for the network's or the server's troubles: when the LLM cannot answer (down, slow, rate
limited, out of budget) `chat` returns a `Completion` without content and with one human line in
`problem`, so the draft can still come out on time without that section.

Retries: 5xx, 408, 409, timeouts and dropped connections are tried again with exponential backoff
(`backoff` seconds, then twice that, ...; at most `max_wait`), up to `max_attempts` attempts in all.
A 429 waits what its Retry-After asks when that is at most `max_wait` seconds (else gives up at
once), or backs off like a 5xx when it names no wait; a 429 for a spent quota gives up at once.
Other 4xx answers are not retried. At most `max_concurrency` requests are in flight at once; a
call waiting to retry does not hold a slot.

Budget: `TokenBudget` counts the tokens of a week. Before sending, `chat` reserves an estimate
(`estimate_tokens` of the messages plus `max_tokens`) and refuses without a request when it does
not fit; after the answer the server's `usage` is recorded (or an estimate when it sends none) and
the reservation is dropped. Reserving keeps concurrent calls from overspending the budget together.
One budget belongs to one event loop (it has no lock).
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import time
from dataclasses import dataclass
from typing import Any

import httpx
from tenacity import RetryCallState, wait_exponential

from bot.drafting.http import (
    ClosingClient,
    FailureWords,
    Retry,
    Unavailable,
    number,
    one_line,
    seconds_until,
    with_retries,
)

__all__ = ["Completion", "LLMClient", "TokenBudget", "Usage", "estimate_tokens"]

log = logging.getLogger(__name__)

# How giving up reads: 'LLM rate limited (429) twice', 'LLM timed out after 30 s (tried 3 times)'.
GAVE_UP = FailureWords("LLM", silence="the LLM did not answer", tally="(tried {n} times)")

CHARS_PER_TOKEN = 4  # the usual rule of thumb for English text with OpenAI-style BPE tokenizers
RETRY_STATUSES = frozenset({408, 409})  # besides 5xx: what OpenAI's own SDK retries
SCHEMA_NAME = "section"


@dataclass(frozen=True, slots=True)
class Usage:
    """Tokens one answer cost, as the server counted them (or as estimated)."""

    prompt_tokens: int
    completion_tokens: int

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


@dataclass(frozen=True, slots=True)
class Completion:
    """The answer to `LLMClient.chat`."""

    content: str | None  # the assistant message text (None when unavailable)
    usage: Usage
    problem: str | None = None  # one human line when content is None


def estimate_tokens(text: str) -> int:
    """About how many tokens `text` is: its length in characters / 4, rounded up.

    Cheap and tokenizer-free (nothing to download). It is close for English prose and code with
    OpenAI-style tokenizers, and low for text in scripts such as Chinese or Japanese (about one
    token per character), so a budget checked with it should keep some headroom.
    """
    return math.ceil(len(text) / CHARS_PER_TOKEN)


class TokenBudget:
    """Tokens a week may spend, and what that costs.

    `limit` is in tokens (prompt and completion together); prices are per million tokens, in
    whatever currency they are given (the summary writes "$", as for USD). With both prices at 0
    (a model you run yourself) the summary leaves the cost out.
    """

    def __init__(
        self,
        limit: int,
        *,
        prompt_price_per_mtok: float = 0.0,
        completion_price_per_mtok: float = 0.0,
    ) -> None:
        if limit < 0:
            raise ValueError("a token budget's limit cannot be negative")
        if prompt_price_per_mtok < 0 or completion_price_per_mtok < 0:
            raise ValueError("token prices cannot be negative")
        self.limit = limit
        self.used = 0  # prompt and completion tokens recorded so far
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self.prompt_price_per_mtok = prompt_price_per_mtok
        self.completion_price_per_mtok = completion_price_per_mtok
        self._reserved = 0  # estimates of calls in flight (see LLMClient.chat)

    def __repr__(self) -> str:
        return f"TokenBudget({self.summary()})"

    def can_spend(self, estimate: int) -> bool:
        """Whether `estimate` more tokens fit in what is left (calls in flight counted)."""
        return self.used + self._reserved + max(0, estimate) <= self.limit

    def record(self, usage: Usage) -> None:
        prompt, completion = max(0, usage.prompt_tokens), max(0, usage.completion_tokens)
        self.prompt_tokens += prompt
        self.completion_tokens += completion
        self.used += prompt + completion

    @property
    def cost(self) -> float:
        """What the recorded tokens cost, in the currency of the prices."""
        return (
            self.prompt_tokens * self.prompt_price_per_mtok
            + self.completion_tokens * self.completion_price_per_mtok
        ) / 1_000_000

    def summary(self) -> str:
        """'41,200 of 120,000 tokens, about $0.06' (no cost when the prices are 0)."""
        text = f"{self.used:,} of {self.limit:,} tokens"
        if self.prompt_price_per_mtok or self.completion_price_per_mtok:
            cost = self.cost
            text += ", under $0.01" if 0 < cost < 0.005 else f", about ${cost:,.2f}"
        return text

    def _refusal(self, estimate: int) -> str:
        if self.used >= self.limit:
            return f"token budget for this week spent ({self.used:,} of {self.limit:,})"
        return (
            f"token budget for this week spent ({self.used:,} of {self.limit:,}"
            f"{f', {self._reserved:,} more in flight' if self._reserved else ''};"
            f" this request needs about {estimate:,})"
        )


class LLMClient(ClosingClient):
    """Chat completions from an OpenAI-compatible server, bounded, patient, never raising.

    Use as ``async with LLMClient(base_url="http://127.0.0.1:8000/v1", model=...) as llm:``
    then ``completion = await llm.chat(messages, budget=budget, json_schema=schema)``.
    `base_url` is the API root, with or without a trailing slash (".../v1"). `timeout` bounds
    each attempt as a whole, in seconds; `backoff` is the first wait between retries (then 2x,
    4x, ... up to `max_wait`), and `transport` replaces the network (both are for tests).
    """

    def __init__(
        self,
        *,
        base_url: str,
        model: str,
        api_key: str | None = None,
        max_concurrency: int = 2,
        timeout: float = 60.0,
        max_attempts: int = 3,
        backoff: float = 1.0,
        max_wait: float = 30.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        if max_concurrency < 1:
            raise ValueError("max_concurrency must be at least 1")
        if max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")
        if timeout <= 0:
            raise ValueError("timeout must be positive")
        root = base_url.strip().rstrip("/")
        if root.endswith("/chat/completions"):  # the whole endpoint given: use it as it is
            root = root[: -len("/chat/completions")]
        self.url = f"{root}/chat/completions"
        self.model = model
        headers = {"User-Agent": "summarybot", "Accept": "application/json"}
        self._api_key = api_key or None
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        self._http = httpx.AsyncClient(
            headers=headers,
            timeout=httpx.Timeout(timeout),
            transport=transport,
            event_hooks={"request": [self._count_request]},
        )
        self._semaphore = asyncio.Semaphore(max_concurrency)
        self._timeout = timeout
        self._max_attempts = max_attempts
        self._max_wait = max_wait
        self._exponential = wait_exponential(multiplier=backoff, max=max_wait)
        self.requests_made = 0  # HTTP requests sent, retries included
        self.last_problem: str | None = None  # the latest problem line, for logs

    # -- the one question ----------------------------------------------------------------------

    async def chat(
        self,
        messages: list[dict[str, str]],
        *,
        budget: TokenBudget | None = None,
        json_schema: dict | None = None,
        temperature: float = 0.2,
        max_tokens: int = 1200,
    ) -> Completion:
        """The assistant's answer to `messages`, or a Completion without content and a problem.

        With `json_schema`, the server is asked for JSON matching it (OpenAI's structured-output
        `response_format`, which vLLM, llama.cpp and OpenAI accept); the content is still text,
        for the caller to parse and check.
        """
        prompt_estimate = estimate_tokens("\n".join(_text(message) for message in messages))
        reserved = prompt_estimate + max(0, max_tokens)
        if budget is not None:
            if not budget.can_spend(reserved):
                return self._problem(budget._refusal(reserved))
            budget._reserved += reserved
        body: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "temperature": temperature,
            "max_tokens": max_tokens,
        }
        if json_schema is not None:
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": SCHEMA_NAME, "schema": json_schema, "strict": True},
            }
        try:
            try:
                response = await self._post(body)
            except Unavailable as exc:
                return self._problem(exc.problem)
            read = self._read(response, max_tokens)
            usage = read.usage
            if usage is None:  # the server did not count: estimate
                usage = Usage(prompt_estimate, estimate_tokens(read.content or ""))
            if budget is not None:
                budget.record(usage)
            if read.problem:
                self.last_problem = read.problem
                log.info("LLM answer unusable: %s", read.problem)
            return Completion(read.content, usage, read.problem)
        finally:
            if budget is not None:
                budget._reserved -= reserved

    # -- sending -------------------------------------------------------------------------------

    async def _count_request(self, request: httpx.Request) -> None:
        self.requests_made += 1

    def _problem(self, problem: str) -> Completion:
        self.last_problem = problem
        log.info("LLM unavailable: %s", problem)
        return Completion(None, Usage(0, 0), problem=problem)

    async def _post(self, body: dict[str, Any]) -> httpx.Response:
        """A 2xx answer; anything else raises Unavailable with the reason, after retries."""
        return await with_retries(
            lambda: self._send_once(body),
            attempts=self._max_attempts,
            wait=self._wait,
            words=GAVE_UP,
        )

    def _wait(self, state: RetryCallState) -> float:
        failure = state.outcome.exception() if state.outcome is not None else None
        if isinstance(failure, Retry) and failure.retry_after is not None:
            return failure.retry_after
        return self._exponential(state)

    async def _send_once(self, body: dict[str, Any]) -> httpx.Response:
        async with self._semaphore:
            try:
                async with asyncio.timeout(self._timeout):  # the whole attempt, body included
                    response = await self._http.post(self.url, json=body)
            except (TimeoutError, httpx.TimeoutException) as exc:
                if isinstance(exc, httpx.ConnectTimeout):
                    reason = f"LLM unreachable: no connection within {self._timeout:g} s"
                else:
                    reason = f"LLM timed out after {self._timeout:g} s"
                raise Retry(reason) from exc
            except (httpx.ConnectError, httpx.UnsupportedProtocol) as exc:
                detail = self._redact(one_line(str(exc)) or type(exc).__name__)
                if isinstance(exc, httpx.UnsupportedProtocol):  # a base_url without http(s)://
                    raise Unavailable(f"LLM unreachable: {detail}") from exc
                raise Retry(f"LLM unreachable: {detail}") from exc
            except httpx.TransportError as exc:  # dropped mid-answer, a broken proxy
                detail = self._redact(one_line(str(exc)) or type(exc).__name__)
                raise Retry(f"LLM connection failed: {detail}") from exc
            except httpx.HTTPError as exc:  # an unusable URL, a decoding failure
                raise Unavailable(f"LLM request failed: {self._redact(str(exc))}") from exc
        status = response.status_code
        if status < 300:
            return response
        if status == 429:
            raise self._rate_limited(response)
        if status >= 500 or status in RETRY_STATUSES:
            raise Retry(f"LLM answered {status}", status)
        problem = _server_says(response)
        if status == 404 and ":" not in problem:  # no JSON error: likely not an OpenAI-style API
            problem = f"LLM answered 404 at {self.url}: is base_url right (it usually ends in /v1)?"
        raise Unavailable(self._redact(problem))

    def _rate_limited(self, response: httpx.Response) -> Exception:
        """What a 429 means: wait and retry (Retry) or give up now (Unavailable)."""
        if _error_code(response) == "insufficient_quota":  # OpenAI: billing, not a rate
            return Unavailable(self._redact(_server_says(response)))
        delay = _retry_after(response)
        if delay is not None and delay > self._max_wait:
            return Unavailable(f"LLM rate limited (429) and Retry-After {delay:.0f} s is too long")
        return Retry("LLM rate limited (429)", 429, delay)

    def _read(self, response: httpx.Response, max_tokens: int) -> _Read:
        """The content and usage of a 2xx answer (usage None when the server sent none)."""
        try:
            data = json.loads(response.content)
        except (ValueError, UnicodeDecodeError):
            return _Read(None, None, "the LLM sent an answer the client cannot read (not JSON)")
        if not isinstance(data, dict):
            return _Read(None, None, "the LLM sent an answer the client cannot read")
        usage = _usage(data.get("usage"))
        choices = data.get("choices")
        choice = choices[0] if isinstance(choices, list) and choices else None
        message = choice.get("message") if isinstance(choice, dict) else None
        if not isinstance(message, dict):
            message = {}
        content = _content(message.get("content"))
        if content is not None and content.strip():
            return _Read(content, usage, None)
        problem = "the LLM sent an answer without content"
        refusal = message.get("refusal")
        error = data.get("error")
        if refusal:
            problem = f"the LLM refused: {one_line(str(refusal))}"
        elif choice is None and error:  # a gateway's error inside a 200
            said = error.get("message") if isinstance(error, dict) else error
            problem += f": {self._redact(one_line(str(said)))}"
        elif isinstance(choice, dict) and choice.get("finish_reason") == "length":
            problem += f" (it stopped at max_tokens={max_tokens})"
        return _Read(None, usage, problem)

    def _redact(self, text: str) -> str:
        return text.replace(self._api_key, "***") if self._api_key else text


@dataclass(frozen=True, slots=True)
class _Read:
    content: str | None
    usage: Usage | None
    problem: str | None


# -- reading the server's answers ----------------------------------------------------------------


def _text(message: dict[str, Any]) -> str:
    content = message.get("content") if isinstance(message, dict) else None
    return content if isinstance(content, str) else _content(content) or ""


def _content(value: Any) -> str | None:
    """A message's text: a string, or the text parts of a list of content parts."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        parts = []
        for part in value:
            if isinstance(part, dict) and part.get("type", "text") == "text":
                text = part.get("text")
                if isinstance(text, str):
                    parts.append(text)
        return "".join(parts) if parts else None
    return None


def _usage(value: Any) -> Usage | None:
    if not isinstance(value, dict):
        return None
    try:
        prompt = int(value.get("prompt_tokens") or 0)
        completion = int(value.get("completion_tokens") or 0)
    except (TypeError, ValueError):
        return None
    if not prompt and not completion:
        total = value.get("total_tokens")
        if not isinstance(total, int) or total <= 0:
            return None
        prompt = total
    return Usage(max(0, prompt), max(0, completion))


def _error(response: httpx.Response) -> dict[str, Any]:
    """The error object of an answer: OpenAI's {"error": {...}} or vLLM's older flat shape."""
    try:
        body = response.json()
    except (ValueError, UnicodeDecodeError):
        return {}
    if not isinstance(body, dict):
        return {}
    error = body.get("error")
    if isinstance(error, dict):
        return error
    if isinstance(error, str):  # Ollama: {"error": "model 'x' not found"}
        return {"message": error}
    return body if "message" in body else {}


def _error_code(response: httpx.Response) -> str:
    error = _error(response)
    return str(error.get("code") or error.get("type") or "")


def _server_says(response: httpx.Response) -> str:
    """'LLM answered 400: This model's maximum context length is 8192 tokens. ...'."""
    text = f"LLM answered {response.status_code}"
    message = _error(response).get("message")
    if message:
        text += f": {message}"
    return one_line(text)


def _retry_after(response: httpx.Response) -> float | None:
    """Seconds a 429 asks to wait: retry-after-ms (OpenAI), Retry-After seconds or an HTTP date."""
    milliseconds = number(response.headers.get("retry-after-ms"))
    if milliseconds is not None:
        return max(0.0, milliseconds / 1000)
    value = response.headers.get("retry-after")
    if value is None:
        return None
    seconds = number(value)
    if seconds is None:
        seconds = seconds_until(value, time.time())
    return None if seconds is None else max(0.0, seconds)
