"""A fake OpenAI-compatible Chat Completions server for tests, on 127.0.0.1 (aiohttp, port 0).

It runs inside the test's own event loop; point the real client at `url`:

    async with FakeLLM() as fake:
        fake.script(section_reply("Iris shipped.", ["m1"]), Reply(status=500))
        async with LLMClient(base_url=fake.url, model="m") as llm:
            completion = await llm.chat([{"role": "user", "content": "hi"}])

`POST /v1/chat/completions` serves the scripted replies in order, then `respond(body)` when it is
set (a model whose answer depends on the prompt), then `default` (None: a 500).
The fake remembers each request's JSON body in `requests` and its headers in `headers`, and
measures how many requests were being answered at once (`max_in_flight`). Answers have OpenAI's
shape: a chat.completion object, or {"error": {"message", "type", "code"}} for a non-200 status.
A request the client gives up on (a timeout) is cancelled at the fake too.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

_ERRORS = {  # status: (type, message), as OpenAI words them
    400: ("invalid_request_error", "Invalid request"),
    401: ("invalid_request_error", "Incorrect API key provided"),
    404: ("invalid_request_error", "The model does not exist"),
    429: ("rate_limit_exceeded", "Rate limit reached for requests"),
    500: ("server_error", "The server had an error while processing your request"),
    502: ("server_error", "Bad gateway"),
    503: ("server_error", "The engine is currently overloaded, please try again later"),
}


@dataclass
class Reply:
    """One scripted answer."""

    content: str | None = None  # the assistant text (e.g. json.dumps({...})); None -> null
    status: int = 200
    delay: float = 0.0  # seconds before answering (for timeouts)
    headers: dict[str, str] = field(default_factory=dict)  # e.g. {"Retry-After": "1"}
    usage: tuple[int, int] | None = (100, 50)  # (prompt, completion); None: no "usage" key
    finish_reason: str = "stop"
    body: Any = None  # when set, sent instead of the usual body (a dict as JSON, a str as text)


def section_reply(markdown: str, sources: list[str]) -> Reply:
    """A reply whose content is a drafted section: {"markdown": ..., "sources": [...]}."""
    return Reply(content=json.dumps({"markdown": markdown, "sources": sources}))


class FakeLLM:
    def __init__(self, default: Reply | None = None) -> None:
        self.url = ""  # "http://127.0.0.1:PORT/v1"
        self.default = default
        self.respond: Callable[[dict], Reply] | None = None
        self.requests: list[dict] = []  # JSON bodies received, in order
        self.headers: list[dict[str, str]] = []  # their headers, in the same order
        self.in_flight = 0
        self.max_in_flight = 0
        self._queue: deque[Reply] = deque()
        self._ids = itertools.count(1)
        self._runner: web.AppRunner | None = None

    def script(self, *replies: Reply) -> None:
        """Queue replies, served in order; when the queue is empty, `default` is served."""
        self._queue.extend(replies)

    @property
    def pending(self) -> int:
        """Scripted replies not served yet."""
        return len(self._queue)

    # ---- lifecycle -------------------------------------------------------------------------

    async def __aenter__(self) -> FakeLLM:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._chat)
        # handler_cancellation: a handler still sleeping when the client hangs up is cancelled,
        # so a timed-out request does not hold up the fake's shutdown.
        self._runner = web.AppRunner(app, shutdown_timeout=1.0, handler_cancellation=True)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        try:
            await site.start()
        except BaseException:
            await self._runner.cleanup()
            raise
        port = self._runner.addresses[0][1]
        self.url = f"http://127.0.0.1:{port}/v1"
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # ---- answering -------------------------------------------------------------------------

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            try:
                body = await request.json()
            except ValueError:
                return _error(400, "We could not parse the JSON body of your request.")
            self.requests.append(body)
            self.headers.append(dict(request.headers))
            if self._queue:
                reply = self._queue.popleft()
            elif self.respond is not None:
                reply = self.respond(body)
            else:
                reply = self.default
            if reply is None:
                return _error(500, _ERRORS[500][1], "server_error")
            if reply.delay:
                await asyncio.sleep(reply.delay)
            return self._answer(reply, body)
        finally:
            self.in_flight -= 1

    def _answer(self, reply: Reply, request: dict) -> web.Response:
        headers = dict(reply.headers)
        if reply.body is not None:
            if isinstance(reply.body, str):
                return web.Response(status=reply.status, text=reply.body, headers=headers)
            return web.json_response(reply.body, status=reply.status, headers=headers)
        if reply.status != 200:
            kind, message = _ERRORS.get(reply.status, ("api_error", "Error"))
            return _error(reply.status, message, kind, headers)
        answer: dict[str, Any] = {
            "id": f"chatcmpl-fake{next(self._ids)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": request.get("model", "fake-model"),
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": reply.content},
                    "finish_reason": reply.finish_reason,
                }
            ],
        }
        if reply.usage is not None:
            prompt, completion = reply.usage
            answer["usage"] = {
                "prompt_tokens": prompt,
                "completion_tokens": completion,
                "total_tokens": prompt + completion,
            }
        return web.json_response(answer, headers=headers)


def _error(
    status: int,
    message: str,
    kind: str = "invalid_request_error",
    headers: dict[str, str] | None = None,
) -> web.Response:
    code = None if status >= 500 else kind
    body = {"error": {"message": message, "type": kind, "param": None, "code": code}}
    return web.json_response(body, status=status, headers=headers)
