"""A fake GitHub REST API for tests: recorded answers and hand-made ones behind httpx.MockTransport.

Recordings come from ../shared/data/real (see realdata.py): Betamax cassettes of github3.py
(`load_cassette`) and octokit fixtures (`load_octokit`). A `FakeGitHub` serves answers keyed by
(method, path) - or (method, path?query) when the query matters, as for Link pagination - counts
the requests it gets, remembers them, and measures how many were in flight at once.

    fake = FakeGitHub()
    fake.add("GET", "/repos/o/r/issues/1", recorded)           # a Recorded, served as recorded
    fake.add("GET", "/repos/o/r/issues/2", json_answer(500), json_answer(200, {...}))  # in turn
    async with GitHubClient(transport=fake.transport) as github: ...
"""

from __future__ import annotations

import asyncio
import base64
import gzip
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import httpx

# Hop-by-hop and length headers of a recording describe the recorded connection, not the answer.
_DROPPED = {"transfer-encoding", "content-length", "connection", "status"}


@dataclass(frozen=True)
class Recorded:
    """One recorded (or hand-made) HTTP answer: sent again as it was on the wire."""

    method: str
    url: str
    status: int
    headers: tuple[tuple[str, str], ...]
    content: bytes  # gzip when a Content-Encoding header says so, as recorded

    @property
    def path(self) -> str:
        """The recorded URL's path and query: "/repos/o/r/issues?per_page=3"."""
        url = httpx.URL(self.url)
        return url.raw_path.decode()

    def header(self, name: str) -> str | None:
        for key, value in self.headers:
            if key.lower() == name.lower():
                return value
        return None

    def json(self) -> Any:
        """The body, decoded."""
        content = self.content
        if (self.header("content-encoding") or "").lower() == "gzip":
            content = gzip.decompress(content)
        return json.loads(content) if content else None

    def with_headers(self, **changes: str | None) -> Recorded:
        """A copy with headers set (x_ratelimit_remaining="0") or removed (location=None)."""
        names = {key.replace("_", "-").lower(): value for key, value in changes.items()}
        kept = tuple((k, v) for k, v in self.headers if k.lower() not in names)
        added = tuple((k, v) for k, v in names.items() if v is not None)
        return replace(self, headers=kept + added)

    def with_json(self, body: Any, status: int | None = None) -> Recorded:
        """A copy with a plain JSON body (and no Content-Encoding)."""
        headers = tuple((k, v) for k, v in self.headers if k.lower() != "content-encoding")
        return replace(
            self,
            headers=headers,
            content=json.dumps(body).encode(),
            status=self.status if status is None else status,
        )

    def response(self) -> httpx.Response:
        headers = [(k, v) for k, v in self.headers if k.lower() not in _DROPPED]
        return httpx.Response(self.status, headers=headers, content=self.content)


def json_answer(
    status: int, body: Any = None, headers: dict[str, str] | None = None, url: str = ""
) -> Recorded:
    """A hand-made answer (for the cases nobody recorded)."""
    content = b"" if body is None else json.dumps(body).encode()
    all_headers = {"Content-Type": "application/json; charset=utf-8", **(headers or {})}
    return Recorded("GET", url, status, tuple(all_headers.items()), content)


def load_cassette(path: Path) -> list[Recorded]:
    """The interactions of a Betamax cassette (github3.py's tests/cassettes/*.json).

    Bodies are in body.base64_string (newer) or body.string; github3.py's are gzip. Header values
    are strings in older cassettes and lists in newer ones; the status is `status: {code,
    message}` in newer cassettes and `status_code` in older ones.
    """
    recorded = []
    for interaction in json.loads(path.read_text())["http_interactions"]:
        request, response = interaction["request"], interaction["response"]
        body = response.get("body") or {}
        if body.get("base64_string"):
            content = base64.b64decode(body["base64_string"])
        else:
            text = body.get("string") or ""
            content = text.encode("utf-8") if isinstance(text, str) else bytes(text)
            if text.startswith("H4sI"):  # base64 of gzip kept in body.string
                content = base64.b64decode(text)
        headers = []
        for name, value in response["headers"].items():
            for one in value if isinstance(value, list) else [value]:
                headers.append((name, str(one)))
        status = response.get("status") or {}
        code = status.get("code") if isinstance(status, dict) else None
        recorded.append(
            Recorded(
                request["method"].upper(),
                request["uri"],
                int(code or response.get("status_code")),
                tuple(headers),
                content,
            )
        )
    return recorded


def load_octokit(path: Path) -> list[Recorded]:
    """The entries of an octokit fixture (normalized: `headers` dict; raw: `rawHeaders` list)."""
    recorded = []
    for entry in json.loads(path.read_text()):
        if "rawHeaders" in entry:
            raw = entry["rawHeaders"]
            headers = [(str(raw[i]), str(raw[i + 1])) for i in range(0, len(raw), 2)]
        else:
            headers = [(name, str(value)) for name, value in (entry.get("headers") or {}).items()]
        response = entry["response"]
        content = b"" if response == "" else json.dumps(response).encode()
        scope = entry["scope"].removesuffix(":443")
        recorded.append(
            Recorded(
                entry["method"].upper(),
                scope + entry["path"],
                int(entry["status"]),
                tuple(headers),
                content,
            )
        )
    return recorded


def find(recordings: list[Recorded], method: str, path: str) -> Recorded:
    """The recording of `method path` (path with its query when the recording has one)."""
    for recorded in recordings:
        if recorded.method == method.upper() and recorded.path == path:
            return recorded
    known = ", ".join(f"{r.method} {r.path}" for r in recordings)
    raise LookupError(f"no recording of {method} {path}; recorded: {known}")


Answer = Recorded | BaseException | Callable[[httpx.Request], Any]


@dataclass
class FakeGitHub:
    """Serves answers by (method, path); each route's answers in turn, the last one repeating.

    An answer is a Recorded, an exception to raise (httpx.ConnectError: no network), or a
    function of the request returning either (it may be async). `delay` holds each request that
    long, so that concurrency can be measured.
    """

    delay: float = 0.0
    routes: dict[tuple[str, str], list[Answer]] = field(default_factory=dict)
    requests: list[httpx.Request] = field(default_factory=list)
    in_flight: int = 0
    max_in_flight: int = 0

    def add(self, method: str, path: str, *answers: Answer) -> FakeGitHub:
        """Answer `method path` (e.g. "/repos/o/r/pulls" or "/repositories/1/issues?page=2")."""
        if not answers:
            raise ValueError("give at least one answer")
        self.routes[(method.upper(), path)] = list(answers)
        return self

    @property
    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self.handler)

    def count(self, path: str | None = None) -> int:
        """Requests received (for `path` only, when given; with or without a query)."""
        if path is None:
            return len(self.requests)
        return sum(1 for r in self.requests if path in (r.url.path, r.url.raw_path.decode()))

    async def handler(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            if self.delay:
                await asyncio.sleep(self.delay)
            answers = self._answers(request)
            answer = answers.pop(0) if len(answers) > 1 else answers[0]
            if callable(answer) and not isinstance(answer, Recorded | BaseException):
                answer = answer(request)
                if isinstance(answer, Awaitable):
                    answer = await answer
            if isinstance(answer, BaseException):
                raise answer
            return answer.response()
        finally:
            self.in_flight -= 1

    def _answers(self, request: httpx.Request) -> list[Answer]:
        method = request.method
        with_query = request.url.raw_path.decode()
        for key in ((method, with_query), (method, request.url.path)):
            if key in self.routes:
                return self.routes[key]
        raise AssertionError(f"FakeGitHub has no answer for {method} {with_query}")
