"""An async GitHub REST client for the few things a draft needs to know about a PR or issue.

It answers in plain dataclasses and never raises for GitHub's troubles: when GitHub cannot answer
(rate limit, outage, no network) the call says "unavailable" with one human line, so the draft can
still come out on time. It keeps no cache; remembering answers (ETags, 404s) is the caller's job.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import httpx
from tenacity import wait_exponential

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

__all__ = ["Fetched", "GitHubClient", "GitHubItem", "Listed"]

log = logging.getLogger(__name__)

# How giving up reads: 'GitHub answered 502 three times', 'no network: ... (3 attempts)'.
GAVE_UP = FailureWords("GitHub", silence="GitHub did not answer", tally="({n} attempts)")

ATTEMPTS = 3  # per request: the first try and two retries, on 5xx, timeouts and dropped connections
MAX_FILES = 3000  # GitHub lists at most 3000 files of a pull request
MAX_PAGES = 50  # merged_between: 5000 PRs updated in the window is more than any week needs
SECONDARY_WAIT = 60.0  # GitHub: without Retry-After, wait at least a minute after a secondary limit
_REPO = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")


@dataclass(frozen=True, slots=True)
class GitHubItem:
    """What the draft needs to know about one PR or issue."""

    repo: str  # "owner/repo" as GitHub now names it (after a rename redirect: the new name)
    number: int
    kind: str  # "pr" | "issue"
    title: str
    state: str  # "open" | "closed"
    merged_at: datetime | None  # aware UTC, PRs only
    author: str | None  # login
    labels: tuple[str, ...]
    url: str  # html_url


@dataclass(frozen=True, slots=True)
class Fetched:
    """The answer to `GitHubClient.item`."""

    status: str  # "ok" | "not_modified" | "not_found" | "unavailable"
    item: GitHubItem | None = None  # for "ok"
    etag: str | None = None  # for "ok" (and kept for "not_modified")
    problem: str | None = None  # for "unavailable": one human line


@dataclass(frozen=True, slots=True)
class Listed:
    """The answer to `GitHubClient.merged_between`: the PRs merged in the window, or, when
    the first page is unchanged since `etag` (304), none and `not_modified`."""

    items: list[GitHubItem]
    etag: str | None = None  # the first page's, for the next conditional request
    not_modified: bool = False


class GitHubClient(ClosingClient):
    """GitHub REST, bounded in concurrency, patient with outages, never waiting out a rate limit.

    Use as ``async with GitHubClient(token=...) as github: fetched = await github.item(...)``.
    `backoff` is the multiplier of the exponential wait between retries (seconds: 0.5, then 1);
    `clock` gives the time in epoch seconds (both are for tests). `limit_time` bounds the
    time all its requests may take together.
    """

    def __init__(
        self,
        *,
        base_url: str = "https://api.github.com",
        token: str | None = None,
        max_concurrency: int = 8,
        timeout: float = 10.0,
        max_wait: float = 30.0,
        transport: httpx.AsyncBaseTransport | None = None,
        backoff: float = 0.5,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if max_concurrency < 1:
            raise ValueError("max_concurrency must be at least 1")
        headers = {
            "Accept": "application/vnd.github+json",
            "X-GitHub-Api-Version": "2022-11-28",
            "User-Agent": "summarybot",
        }
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self._http = httpx.AsyncClient(
            base_url=base_url,
            headers=headers,
            timeout=timeout,
            follow_redirects=True,
            transport=transport,
            event_hooks={"request": [self._count_request]},
        )
        self._semaphore = asyncio.Semaphore(max_concurrency)
        self._timeout = timeout
        self._max_wait = max_wait
        self._backoff = backoff
        self._clock = clock
        self._blocked_until: float | None = None  # epoch seconds: the primary rate limit's reset
        self._budget: float | None = None
        self._deadline: float | None = None  # time.monotonic() when the budget runs out
        self.out_of_time = False  # the budget ran out before every request was answered
        self.requests_made = 0
        self.last_problem: str | None = None  # the latest "unavailable" reason, for logs

    # -- the three questions -------------------------------------------------------------------

    async def item(self, repo: str, number: int, etag: str | None = None) -> Fetched:
        """One PR or issue, in one request (the issues endpoint answers for PRs too)."""
        if not _valid(repo, number):
            return Fetched("not_found")
        headers = {"If-None-Match": etag} if etag else None
        try:
            response = await self._get(f"/repos/{repo}/issues/{number}", headers=headers)
        except Unavailable as exc:
            return self._unavailable(exc.problem)
        if response.status_code == 304:
            return Fetched("not_modified", etag=etag)
        if response.status_code in (404, 410):
            return Fetched("not_found")
        try:
            item = _parse_item(response.json())
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            return self._unavailable(f"GitHub sent an answer the client cannot read: {exc}")
        return Fetched("ok", item=item, etag=response.headers.get("etag"))

    async def paths(self, repo: str, number: int) -> tuple[str, ...] | None:
        """The distinct top-two-level folders a PR touches ("lib/iris", "docs"), or None.

        A file at the top of the repository counts as itself ("README.md"); a renamed file
        counts in both its old and its new place. None when GitHub cannot say (404 included).
        """
        if not _valid(repo, number):
            return None
        found: dict[str, None] = {}
        files = 0
        url: str | None = f"/repos/{repo}/pulls/{number}/files"
        params: dict[str, Any] | None = {"per_page": 100}
        while url and files < MAX_FILES:
            try:
                response = await self._get(url, params=params)
            except Unavailable as exc:
                self._unavailable(exc.problem)
                return None
            if response.status_code != 200:
                return None
            try:
                batch = response.json()
                for entry in batch:
                    files += 1
                    for name in (entry.get("filename"), entry.get("previous_filename")):
                        if name:
                            found.setdefault(_top_two(name))
            except (ValueError, TypeError, AttributeError) as exc:
                self._unavailable(f"GitHub sent a file list the client cannot read: {exc}")
                return None
            url, params = _next_link(response), None
        return tuple(found)

    async def merged_between(
        self, repo: str, start: datetime, end: datetime, *, etag: str | None = None
    ) -> Listed | None:
        """The PRs of `repo` merged in [start, end), oldest merge first; None when unavailable.

        Reads closed PRs most recently updated first and stops at the first one updated before
        `start` (a PR merged in the window was updated at or after its merge). With the `etag`
        of an earlier answer the first page is asked conditionally: a 304 means no PR was
        updated since, so the earlier answer stands (`Listed.not_modified`).
        """
        if start.tzinfo is None or end.tzinfo is None:
            raise ValueError("merged_between needs aware datetimes")
        if not _valid(repo, 1):
            return None
        merged: list[GitHubItem] = []
        url = f"/repos/{repo}/pulls"
        params: dict[str, Any] | None = {
            "state": "closed",
            "sort": "updated",
            "direction": "desc",
            "per_page": 100,
        }
        first_etag: str | None = None
        for page in range(MAX_PAGES):
            headers = {"If-None-Match": etag} if etag and page == 0 else None
            try:
                response = await self._get(url, params=params, headers=headers)
            except Unavailable as exc:
                self._unavailable(exc.problem)
                return None
            if page == 0 and response.status_code == 304:
                return Listed([], etag, not_modified=True)
            if response.status_code != 200:
                return None
            if page == 0:
                first_etag = response.headers.get("etag")
            try:
                done = False
                for pull in response.json():
                    updated = _parse_time(pull.get("updated_at"))
                    if updated is not None and updated < start:
                        done = True
                        break
                    item = _parse_item(pull)
                    if item.merged_at is not None and start <= item.merged_at < end:
                        merged.append(item)
            except (ValueError, KeyError, TypeError, AttributeError) as exc:
                self._unavailable(f"GitHub sent a PR list the client cannot read: {exc}")
                return None
            next_url = _next_link(response)
            if done or not next_url:
                break
            url, params = next_url, None
        else:
            log.warning("merged_between(%s): stopped after %d pages", repo, MAX_PAGES)
        merged.sort(key=lambda item: (item.merged_at, item.number))
        return Listed(merged, first_etag)

    # -- sending -------------------------------------------------------------------------------

    async def _count_request(self, request: httpx.Request) -> None:
        self.requests_made += 1

    def _unavailable(self, problem: str) -> Fetched:
        self.last_problem = problem
        log.info("GitHub unavailable: %s", problem)
        return Fetched("unavailable", problem=problem)

    async def _get(
        self,
        url: str,
        *,
        params: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> httpx.Response:
        """A 2xx, 304, 404 or 410 answer; anything else raises Unavailable with the reason."""
        waited = 0.0
        while True:
            response = await self._get_with_retries(url, params, headers)
            status = response.status_code
            if status < 300 or status in (304, 404, 410):
                return response
            if status in (403, 429):
                delay = _secondary_delay(response, self._clock())
                if delay is not None:
                    if waited + delay > min(self._max_wait, self._time_left()):
                        raise Unavailable(
                            f"secondary rate limit: GitHub asked to wait {delay:.0f} s"
                        )
                    waited += delay
                    await asyncio.sleep(delay)
                    continue
                if _remaining(response) == 0:
                    raise Unavailable(self._blocked_problem())
            raise Unavailable(_github_says(response))

    async def _get_with_retries(
        self, url: str, params: dict[str, Any] | None, headers: dict[str, str] | None
    ) -> httpx.Response:
        return await with_retries(
            lambda: self._send_once(url, params, headers),
            attempts=ATTEMPTS,
            wait=wait_exponential(multiplier=self._backoff, max=4),
            words=GAVE_UP,
        )

    async def _send_once(
        self, url: str, params: dict[str, Any] | None, headers: dict[str, str] | None
    ) -> httpx.Response:
        async with self._semaphore:
            # Checked inside the semaphore: calls queued behind the one that used up the
            # rate limit must not send anything either.
            if self._blocked():
                raise Unavailable(self._blocked_problem())
            left = self._time_left()
            if left <= 0:
                raise self._out_of_time()
            try:
                response = await asyncio.wait_for(
                    self._http.get(url, params=params, headers=headers),
                    None if self._deadline is None else left,
                )
            except TimeoutError as exc:  # the budget, not httpx's own timeout
                raise self._out_of_time() from exc
            except httpx.TimeoutException as exc:
                raise Retry(f"GitHub did not answer within {self._timeout:g} s") from exc
            except httpx.TransportError as exc:
                raise Retry(f"no network: {one_line(str(exc)) or type(exc).__name__}") from exc
            except httpx.HTTPError as exc:  # too many redirects, an unusable URL
                raise Unavailable(f"GitHub request failed: {one_line(str(exc))}") from exc
        self._note_rate_limit(response)
        if response.status_code >= 500:
            raise Retry(f"GitHub answered {response.status_code}", response.status_code)
        return response

    # -- the time budget -----------------------------------------------------------------------

    def limit_time(self, seconds: float) -> None:
        """From now on, all requests together may take `seconds`: once they are spent,
        requests in flight are cut and new ones are not sent (`out_of_time` then says so)."""
        self._budget = seconds
        self._deadline = time.monotonic() + seconds

    def _time_left(self) -> float:
        """Seconds left of the budget (infinite without one)."""
        if self._deadline is None:
            return float("inf")
        return self._deadline - time.monotonic()

    def _out_of_time(self) -> Unavailable:
        self.out_of_time = True
        return Unavailable(f"GitHub's time budget of {self._budget:g} s for this draft ran out")

    # -- the primary rate limit ----------------------------------------------------------------

    def _note_rate_limit(self, response: httpx.Response) -> None:
        if _remaining(response) != 0:
            return
        now = self._clock()
        reset = number(response.headers.get("x-ratelimit-reset"))
        if reset is not None and reset > 1e11:  # milliseconds (as in octokit's normalized fixtures)
            reset /= 1000
        if reset is None or reset <= now:  # no reset, or a clock that runs ahead of GitHub's
            reset = now + 60
        self._blocked_until = max(reset, self._blocked_until or 0)

    def _blocked(self) -> bool:
        if self._blocked_until is None:
            return False
        if self._clock() >= self._blocked_until:
            self._blocked_until = None
            return False
        return True

    def _blocked_problem(self) -> str:
        until = datetime.fromtimestamp(self._blocked_until or self._clock(), UTC)
        return f"rate limit exhausted until {until:%H:%M} UTC"


# -- reading GitHub's answers ------------------------------------------------------------------


def _valid(repo: str, number: int) -> bool:
    """Whether `repo` and `number` can name something on GitHub (and are safe in a URL path)."""
    return (
        isinstance(repo, str)
        and bool(_REPO.match(repo))
        and ".." not in repo
        and isinstance(number, int)
        and number > 0
    )


def _parse_item(data: dict[str, Any]) -> GitHubItem:
    """A GitHubItem from an issues-endpoint answer, or from a pulls-endpoint one."""
    pull_shaped = "head" in data and "base" in data  # /pulls/N and the /pulls list
    pull_request = data.get("pull_request")
    if pull_shaped:
        kind, merged_at = "pr", _parse_time(data.get("merged_at"))
    elif isinstance(pull_request, dict):
        # GitHub.com has put merged_at here since 2022; older answers (and older GitHub
        # Enterprise servers) leave it out, which reads as "not merged".
        kind, merged_at = "pr", _parse_time(pull_request.get("merged_at"))
    else:
        kind, merged_at = "issue", None
    state = data["state"]
    if state not in ("open", "closed"):
        raise ValueError(f"unknown state {state!r}")
    labels = tuple(
        label["name"] if isinstance(label, dict) else str(label)
        for label in data.get("labels") or ()
    )
    return GitHubItem(
        repo=_repo_of(data, pull_shaped),
        number=int(data["number"]),
        kind=kind,
        title=str(data.get("title") or ""),
        state=state,
        merged_at=merged_at,
        author=(data.get("user") or {}).get("login"),
        labels=labels,
        url=str(data["html_url"]),
    )


def _repo_of(data: dict[str, Any], pull_shaped: bool) -> str:
    """The item's "owner/repo" as GitHub names it now, from the answer (never from the request)."""
    if pull_shaped:
        name = ((data.get("base") or {}).get("repo") or {}).get("full_name")
        if name:
            return str(name)
    repository_url = data.get("repository_url")
    if repository_url and "/repos/" in repository_url:
        return repository_url.rsplit("/repos/", 1)[1].strip("/")
    # https://github.com/owner/repo/pull/12 (or a GitHub Enterprise host)
    parts = httpx.URL(data["html_url"]).path.strip("/").split("/")
    if len(parts) < 2:
        raise ValueError(f"cannot tell the repository from {data['html_url']!r}")
    return f"{parts[0]}/{parts[1]}"


def _parse_time(value: str | None) -> datetime | None:
    """An aware UTC datetime from GitHub's ISO 8601 ("2014-05-03T14:41:23Z"), or None."""
    if not value:
        return None
    moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def _top_two(path: str) -> str:
    """ "lib/iris/cube.py" -> "lib/iris", "docs/index.rst" -> "docs", "README.md" -> itself."""
    parts = [part for part in path.split("/") if part]
    folders = parts[:-1]
    return "/".join(folders[:2]) if folders else (parts[0] if parts else path)


def _next_link(response: httpx.Response) -> str | None:
    return response.links.get("next", {}).get("url")


def _remaining(response: httpx.Response) -> float | None:
    return number(response.headers.get("x-ratelimit-remaining"))


def _secondary_delay(response: httpx.Response, now: float) -> float | None:
    """Seconds to wait for a secondary rate limit, or None when the answer is not one."""
    retry_after = response.headers.get("retry-after")
    if retry_after is not None:
        seconds = number(retry_after)
        if seconds is None:  # an HTTP date
            seconds = seconds_until(retry_after, now)
        return max(0.0, SECONDARY_WAIT if seconds is None else seconds)
    if _remaining(response) == 0:
        return None  # the primary rate limit
    if response.status_code == 429 or "secondary rate limit" in _message(response).lower():
        return SECONDARY_WAIT
    return None


def _message(response: httpx.Response) -> str:
    try:
        body = response.json()
    except ValueError:
        return ""
    return str(body.get("message") or "") if isinstance(body, dict) else ""


def _github_says(response: httpx.Response) -> str:
    """'GitHub answered 422: Validation Failed (Label.color invalid)'."""
    text = f"GitHub answered {response.status_code}"
    message = _message(response)
    if message:
        text += f": {message}"
    try:
        errors = response.json().get("errors") or []
    except (ValueError, AttributeError):
        errors = []
    details = []
    for error in errors if isinstance(errors, list) else []:
        if isinstance(error, dict):
            if error.get("message"):
                details.append(str(error["message"]))
            else:
                where = ".".join(str(error[k]) for k in ("resource", "field") if error.get(k))
                details.append(" ".join(p for p in (where, str(error.get("code") or "")) if p))
        else:
            details.append(str(error))
    if details:
        text += f" ({'; '.join(details)})"
    return one_line(text)
