"""GitHub in the draft: one conditional request per cited PR, nothing spent on a second run,
labels and paths placing PRs chat left ambiguous, merged PRs nobody cited, and a draft that
still comes out when GitHub is unreachable."""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, date, datetime
from pathlib import Path

import httpx
import pytest

from bot.core.ingest import store_batch
from bot.drafting.github.client import GitHubClient
from bot.drafting.github.refresh import refresh_week
from bot.drafting.store import as_summary
from bot.ops.config import load_config
from storage.records import ChannelRecord, ImportBatch, MessageRecord, PersonRecord, WorkspaceRecord
from summarizer.render import to_markdown
from tests.drafting.helpers import draft_now, week_for

WEEK = date(2026, 11, 16)
NOW = datetime(2026, 11, 23, 9, tzinfo=UTC)
LAB = WorkspaceRecord("discord", "g1", "Lab")
ISSUE_RE = re.compile(r"/repos/(?P<repo>[^/]+/[^/]+)/issues/(?P<n>\d+)$")


@pytest.fixture
def config(tmp_path: Path):
    path = tmp_path / "bot.toml"
    path.write_text(
        """
default_repo = "lab/main"
[github]
enabled = true
repos = ["lab/main"]

[[topics]]
id = "hero-run"
title = "Hero run"
channels = ["hero-run"]
keywords = ["MFU"]

[[topics]]
id = "iris"
title = "Iris"
channels = ["iris"]
keywords = ["scheduler"]
labels = ["iris"]
paths = ["lib/iris/**"]
"""
    )
    return load_config(path)


def say(sessions, channel: str, pid: str, text: str, hour: int = 10) -> None:
    person = PersonRecord("ana", "Ana Ruiz")
    message = MessageRecord(pid, person, datetime(2026, 11, 17, hour, tzinfo=UTC), text)
    with sessions.begin() as session:
        store_batch(
            session, ImportBatch("t", LAB, ChannelRecord(f"c-{channel}", channel), [message])
        )


class FakeGitHub:
    """Answers /repos/lab/main/issues/N from a table, with ETags and 304s; counts requests."""

    def __init__(self) -> None:
        self.items: dict[int, dict] = {}
        self.merged: list[dict] = []
        self.files: dict[int, list[str]] = {}
        self.log: list[tuple[str, int]] = []  # (path, status)

    def pr(self, n: int, title: str, *, labels=(), merged_at: datetime | None = None) -> None:
        self.items[n] = {
            "number": n,
            "title": title,
            "state": "closed" if merged_at else "open",
            "html_url": f"https://github.com/lab/main/pull/{n}",
            "repository_url": "https://api.github.com/repos/lab/main",
            "user": {"login": "nadia-h"},
            "labels": [{"name": label} for label in labels],
            "pull_request": {"merged_at": merged_at.isoformat() if merged_at else None},
            "created_at": "2026-11-10T00:00:00Z",
            "updated_at": "2026-11-18T00:00:00Z",
        }

    def handler(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        response = self._answer(request, path)
        self.log.append((path, response.status_code))
        return response

    def _answer(self, request: httpx.Request, path: str) -> httpx.Response:
        headers = {"X-RateLimit-Remaining": "4999", "X-RateLimit-Reset": "1900000000"}
        if match := ISSUE_RE.search(path):
            item = self.items.get(int(match["n"]))
            if item is None:
                return httpx.Response(404, json={"message": "Not Found"}, headers=headers)
            etag = f'W/"{item["number"]}-{item["title"]}"'
            if request.headers.get("If-None-Match") == etag:
                return httpx.Response(304, headers=headers | {"ETag": etag})
            return httpx.Response(200, json=item, headers=headers | {"ETag": etag})
        if path.endswith("/repos/lab/main/pulls"):
            return httpx.Response(200, json=self.merged, headers=headers)
        if match := re.search(r"/pulls/(\d+)/files$", path):
            files = [{"filename": f} for f in self.files.get(int(match[1]), [])]
            return httpx.Response(200, json=files, headers=headers)
        return httpx.Response(404, json={"message": "Not Found"}, headers=headers)

    def client(self) -> GitHubClient:
        return GitHubClient(transport=httpx.MockTransport(self.handler), backoff=0.01)


def refresh(sessions, config, github: FakeGitHub | GitHubClient):
    async def run():
        client = github.client() if isinstance(github, FakeGitHub) else github
        async with client:
            return await refresh_week(
                sessions, config, client, week_for(sessions, config, WEEK), NOW
            )

    return asyncio.run(run())


def draft(sessions, config):
    week = week_for(sessions, config, WEEK)
    return as_summary(draft_now(sessions, config, week), week.workspace_name)


def test_sixty_prs_cost_one_request_each_then_nothing(sessions, config) -> None:
    github = FakeGitHub()
    for n in range(9100, 9160):
        github.pr(n, f"Change number {n}")
        say(sessions, "hero-run", f"m{n}", f"Hero run at 21.{n % 10}% MFU after #{n}")
    refresh(sessions, config, github)
    issues = [s for p, s in github.log if "/issues/" in p]
    assert len(issues) == 60 and set(issues) == {200}
    assert len(github.log) == 61  # and one page of the week's merged PRs; no file lists

    github.log.clear()
    refresh(sessions, config, github)
    issues = [s for p, s in github.log if "/issues/" in p]
    assert len(issues) == 60 and set(issues) == {304}  # 304s cost no rate limit


def test_a_404_is_remembered_instead_of_asked_every_run(sessions, config) -> None:
    github = FakeGitHub()
    say(sessions, "hero-run", "m1", "Hero run at 21% MFU after #404")
    refresh(sessions, config, github)
    refresh(sessions, config, github)
    assert [s for p, s in github.log if "/issues/" in p] == [404]


def test_unreachable_github_still_drafts_and_says_what_is_missing(sessions, config) -> None:
    say(sessions, "hero-run", "m1", "Hero run at 22.4% MFU after #9141")

    def down(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("no route to host", request=request)

    report = refresh(
        sessions, config, GitHubClient(transport=httpx.MockTransport(down), backoff=0.01)
    )
    assert report.unavailable
    result = draft(sessions, config)
    assert [s.topic for s in result.sections] == ["hero-run"]
    assert result.notes == ["GitHub details are missing for 1 PR(s): lab/main#9141."]
    assert "Note for the editor: GitHub details are missing" in to_markdown(result)


def test_labels_and_paths_place_prs_chat_left_ambiguous(sessions, config) -> None:
    say(sessions, "general", "m1", "Finally got #9188 over the line, big relief")
    say(sessions, "general", "m2", "Could someone look at #9190 before Friday, it is small")
    unplaced = draft(sessions, config)
    assert [s.topic for s in unplaced.sections] == ["other"]  # chat alone: no topic

    github = FakeGitHub()
    github.pr(9188, "Gang-aware preemption budget", labels=("iris",))
    github.pr(9190, "Quota alerts per prefix")
    github.files[9190] = ["lib/iris/src/quota.py", "lib/iris/tests/test_quota.py"]
    refresh(sessions, config, github)
    placed = draft(sessions, config)
    (iris,) = placed.sections
    assert iris.topic == "iris" and sorted(iris.prs) == ["lab/main#9188", "lab/main#9190"]
    # The PR's meaning and author ride on the link.
    assert '"Gang-aware preemption budget, by nadia-h"' in iris.markdown
    assert placed.notes == []


def test_merged_prs_nobody_cited_are_brought_in_under_their_topic(sessions, config) -> None:
    say(sessions, "hero-run", "m1", "Hero run at 22.4% MFU after #9141")
    github = FakeGitHub()
    github.pr(9141, "Skip MoE dispatch for zero-token groups")
    merged_at = datetime(2026, 11, 19, 12, tzinfo=UTC)
    base = {"head": {"ref": "topic"}, "base": {"ref": "main", "repo": {"full_name": "lab/main"}}}
    github.merged = [
        dict(github.items[9141], **base),
        {
            **base,
            "number": 9201,
            "title": "Scheduler: drain racks with XID errors",
            "state": "closed",
            "html_url": "https://github.com/lab/main/pull/9201",
            "user": {"login": "mbell"},
            "labels": [{"name": "iris"}],
            "merged_at": merged_at.isoformat(),
            "updated_at": merged_at.isoformat(),
            "created_at": "2026-11-18T00:00:00Z",
        },
        {
            **base,
            "number": 9202,
            "title": "Docs: contributing on CPU",
            "state": "closed",
            "html_url": "https://github.com/lab/main/pull/9202",
            "user": {"login": "elena"},
            "labels": [],
            "merged_at": merged_at.isoformat(),
            "updated_at": merged_at.isoformat(),
            "created_at": "2026-11-18T00:00:00Z",
        },
        {
            **base,
            "number": 9000,
            "title": "Merged the week before",
            "state": "closed",
            "html_url": "https://github.com/lab/main/pull/9000",
            "user": {"login": "x"},
            "labels": [],
            "merged_at": "2026-11-10T12:00:00Z",
            "updated_at": "2026-11-15T12:00:00Z",
            "created_at": "2026-11-01T00:00:00Z",
        },
    ]
    refresh(sessions, config, github)
    sections = {s.topic: s for s in draft(sessions, config).sections}
    assert "Also merged: [lab/main#9201]" in sections["iris"].markdown
    assert "drain racks" not in sections["hero-run"].markdown
    assert "lab/main#9202" in sections["other"].prs
    assert all("9000" not in s.markdown for s in sections.values())
    assert "lab/main#9141" not in sections["other"].prs  # cited in chat: not brought in again


class ListingGitHub(FakeGitHub):
    """Also answers the /pulls list with an ETag and 304s, like GitHub."""

    def _answer(self, request: httpx.Request, path: str) -> httpx.Response:
        if path.endswith("/repos/lab/main/pulls"):
            etag = f'W/"pulls-{len(self.merged)}"'
            if request.headers.get("If-None-Match") == etag:
                return httpx.Response(304, headers={"ETag": etag})
            return httpx.Response(200, json=self.merged, headers={"ETag": etag})
        return super()._answer(request, path)


def test_a_second_draft_of_the_week_sends_only_conditional_requests(sessions, config) -> None:
    """A PR that is both cited and merged keeps the ETag of its own answer: the merged list
    (which carries no per-item ETag) never overwrites it, and the list is conditional too."""
    github = ListingGitHub()
    merged_at = datetime(2026, 11, 18, 12, tzinfo=UTC)
    base = {"head": {"ref": "t"}, "base": {"ref": "main", "repo": {"full_name": "lab/main"}}}
    for n in (9141, 9142, 9143):
        github.pr(n, f"Change {n}", merged_at=merged_at)
        github.items[n]["updated_at"] = merged_at.isoformat()
        github.merged.append({**github.items[n], **base, "merged_at": merged_at.isoformat()})
        say(sessions, "hero-run", f"m{n}", f"Hero run at 22.4% MFU after #{n}")
    github.pr(9150, "Cited, still open")
    say(sessions, "hero-run", "m9150", "Hero run at 22.5% MFU after #9150")

    refresh(sessions, config, github)
    assert {s for _, s in github.log} == {200}
    first = draft(sessions, config)

    github.log.clear()
    report = refresh(sessions, config, github)
    assert len(github.log) == 5  # four items and the merged list: each answered 304
    assert {s for _, s in github.log} == {304}
    assert not report.unavailable
    assert draft(sessions, config).sections == first.sections


def test_one_draft_spends_at_most_its_github_budget(sessions, config) -> None:
    """GitHub answering in 30 s: the draft gives up after its budget, not after 3 attempts
    per PR, and says why PR details are missing."""
    from bot.drafting.service import DraftingService
    from tests.drafting.helpers import NOW as DRAFT_NOW

    for n in range(9100, 9110):
        say(sessions, "hero-run", f"m{n}", f"Hero run at 21.{n % 10}% MFU after #{n}")
    config = config.model_copy(
        update={"github": config.github.model_copy(update={"budget_seconds": 0.5})}
    )

    async def slow(request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(30)
        return httpx.Response(200, json={})

    def client() -> GitHubClient:
        return GitHubClient(transport=httpx.MockTransport(slow), backoff=0.01)

    async def run():
        service = DraftingService(sessions, config, lambda: DRAFT_NOW, github=client)
        started = asyncio.get_running_loop().time()
        drafted = await service.draft(week_for(sessions, config, WEEK))
        return drafted, asyncio.get_running_loop().time() - started

    drafted, took = asyncio.run(asyncio.wait_for(run(), 20))
    assert took < 3
    assert drafted.github.out_of_time and len(drafted.github.unavailable) == 11
    result = draft_row_notes(sessions, drafted.draft_id)
    assert any("0.5 s budget" in note for note in result)
    assert any(note.startswith("GitHub details are missing for 10 PR(s)") for note in result)


def draft_row_notes(sessions, draft_id: int) -> list[str]:
    from storage.drafts import get_draft_by_id

    with sessions() as session:
        return list(get_draft_by_id(session, draft_id).notes)
