"""The GitHub client against recorded GitHub answers, served by httpx.MockTransport (no network).

Which recording backs which case (all under ../shared/data/real):

- github-github3py-cassettes/PullRequest_single.json: GET /pulls/235, a merged PR. Its JSON,
  reshaped the way the issues endpoint shows a PR (see `issue_answer_from_pull`), is the
  /issues/235 answer of the merged-PR case; served unchanged in a /pulls list page, it backs
  the merged_between parsing case.
- github-github3py-cassettes/GitHub_pull_request.json: GET /pulls/119, a closed unmerged PR with a
  label; reshaped the same way, and in the merged_between list page.
- github-github3py-cassettes/Issue_pull_request.json: GET /issues/301, served exactly as recorded
  (gzip, headers, ETag): an issues-endpoint answer with a pull_request key, for a closed unmerged PR
  (the cassette's own GET /pulls/301 says merged: false). Also the 304 case's ETag.
- github-github3py-cassettes/Issue_edit_both_assignee_and_assignees.json: GET /issues/637 as
  recorded (an issue, not a PR) and the PATCH's 422 body; issue 637 is also the plain "ok" answer of
  the rate-limit, retry, concurrency and header cases.
- github-github3py-cassettes/Repository_assignees.json: the 301 GitHub sent for the renamed
  kennethreitz/requests (its headers and body, Location moved from the repository to its issue)
  and the repository it led to (requests/requests), whose URLs make the redirected issue answer.
- github-github3py-cassettes/GitHub_is_blocking.json, Organization_is_public_member.json and
  github-octokit-fixtures/branch-protection: recorded 404 answers, replayed at an /issues/N path.
- github-octokit-fixtures/errors (normalized): the 422 "Validation Failed" with its real headers.
- github-github3py-cassettes/GitHubCore_ratelimit_remaining.json: the real rate-limit headers of
  GET /rate_limit, with X-RateLimit-Remaining set to 0 and the reset moved an hour ahead.
- github-octokit-fixtures/paginate-issues: five pages joined by real Link headers (rel="next" to
  /repositories/1000/issues?per_page=3&page=N), served as the /pulls pages of merged_between.

Hand-made answers (nobody recorded them) are marked where they are built: the rate-limit and
secondary-limit 403 bodies, 410, 5xx, 304, the /pulls pages with chosen dates, the
/pulls/N/files pages, and the redirected issue.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from bot.drafting.github.client import Fetched, GitHubClient, GitHubItem
from tests.fakes.fakegithub import (
    FakeGitHub,
    Recorded,
    find,
    json_answer,
    load_cassette,
    load_octokit,
)
from tests.support.realdata import REAL_DATA

GITHUB3 = "github-github3py-cassettes"
OCTOKIT = "github-octokit-fixtures"
API = "https://api.github.com"
REPO = "sigmavirus24/github3.py"


def real(folder: str) -> Path:
    path = REAL_DATA / folder
    if not path.exists():
        pytest.skip(f"{path} is not present (a fresh clone has no ../shared/data/real)")
    return path


def cassette(name: str) -> list[Recorded]:
    return load_cassette(real(GITHUB3) / f"{name}.json")


def octokit(scenario: str, kind: str = "normalized") -> list[Recorded]:
    return load_octokit(real(OCTOKIT) / scenario / f"{kind}-fixture.json")


def ask(
    fake: FakeGitHub, call: Callable[[GitHubClient], Awaitable[Any]], **options: Any
) -> tuple[Any, int]:
    """Run `call` with a client on the fake; its answer and the number of requests it sent."""

    async def main() -> tuple[Any, int]:
        options.setdefault("backoff", 0.01)
        async with GitHubClient(transport=fake.transport, **options) as github:
            result = await call(github)
            return result, github.requests_made

    return asyncio.run(main())


def issue_637() -> Recorded:
    """GET /repos/sigmavirus24/github3.py/issues/637, as recorded: an open issue."""
    return find(
        cassette("Issue_edit_both_assignee_and_assignees"), "GET", f"/repos/{REPO}/issues/637"
    )


def issue_answer_from_pull(pull: Recorded) -> Recorded:
    """The /issues/N answer for a recorded /pulls/N answer: same headers, the PR's fields in the
    shape the issues endpoint uses (repository_url; pull_request with merged_at, as GitHub.com
    has sent it since 2022). Built, not recorded: the cassettes only hold these PRs' /pulls/N."""
    data = pull.json()
    issue = {key: data[key] for key in ("number", "state", "title", "user", "labels", "html_url")}
    issue |= {key: data[key] for key in ("created_at", "updated_at", "closed_at")}
    issue["url"] = data["issue_url"]
    issue["repository_url"] = data["base"]["repo"]["url"]
    issue["pull_request"] = {
        "url": data["url"],
        "html_url": data["html_url"],
        "diff_url": data["diff_url"],
        "patch_url": data["patch_url"],
        "merged_at": data["merged_at"],
    }
    return pull.with_json(issue)


# -- one item ----------------------------------------------------------------------------------


def test_merged_pr() -> None:
    pull = find(cassette("PullRequest_single"), "GET", f"/repos/{REPO}/pulls/235")
    fake = FakeGitHub().add("GET", f"/repos/{REPO}/issues/235", issue_answer_from_pull(pull))

    fetched, sent = ask(fake, lambda github: github.item(REPO, 235))

    assert fetched == Fetched(
        "ok",
        item=GitHubItem(
            repo=REPO,
            number=235,
            kind="pr",
            title="Add Release.assets attribute",
            state="closed",
            merged_at=datetime(2014, 5, 3, 14, 41, 23, tzinfo=UTC),
            author="bgilbert",
            labels=(),
            url="https://github.com/sigmavirus24/github3.py/pull/235",
        ),
        etag=pull.header("etag"),
    )
    assert fetched.item.merged_at.utcoffset() == timedelta(0)
    assert sent == 1
    assert fake.requests[0].url == f"{API}/repos/{REPO}/issues/235"


def test_closed_unmerged_pr_with_a_label() -> None:
    pull = find(cassette("GitHub_pull_request"), "GET", f"/repos/{REPO}/pulls/119")
    fake = FakeGitHub().add("GET", f"/repos/{REPO}/issues/119", issue_answer_from_pull(pull))

    fetched, sent = ask(fake, lambda github: github.item(REPO, 119))

    assert fetched.status == "ok"
    assert (fetched.item.kind, fetched.item.state, fetched.item.merged_at) == ("pr", "closed", None)
    assert fetched.item.labels == ("Request For Comments",)
    assert fetched.item.author == "sigmavirus24"
    assert sent == 1


def test_recorded_issue_answer_for_a_closed_unmerged_pr() -> None:
    recordings = cassette("Issue_pull_request")
    issue = find(recordings, "GET", f"/repos/{REPO}/issues/301")
    # The same cassette asked /pulls/301 too: GitHub said the PR was not merged.
    assert find(recordings, "GET", f"/repos/{REPO}/pulls/301").json()["merged"] is False
    # Recorded in 2021, before GitHub.com added merged_at to an issue's pull_request object.
    assert "merged_at" not in issue.json()["pull_request"]
    fake = FakeGitHub().add("GET", f"/repos/{REPO}/issues/301", issue)  # gzip, as recorded

    fetched, sent = ask(fake, lambda github: github.item(REPO, 301))

    assert fetched == Fetched(
        "ok",
        item=GitHubItem(
            repo=REPO,
            number=301,
            kind="pr",
            title="GitHubEnterprise: Add url attribute; show in _repr",
            state="closed",
            merged_at=None,
            author="msabramo",
            labels=(),
            url="https://github.com/sigmavirus24/github3.py/pull/301",
        ),
        etag='W/"5e1f982719a1faec85e423a51440bfa0ef32b0e9c37bf56538d0536c6adda825"',
    )
    assert sent == 1


def test_issue_that_is_not_a_pr() -> None:
    fake = FakeGitHub().add("GET", f"/repos/{REPO}/issues/637", issue_637())

    fetched, sent = ask(fake, lambda github: github.item(REPO, 637))

    assert fetched.status == "ok"
    item = fetched.item
    assert (item.kind, item.state, item.merged_at) == ("issue", "open", None)
    assert (item.number, item.author) == (637, "itsmemattchung")
    assert item.title == "Integration test for editing an issue"
    assert item.url == "https://github.com/sigmavirus24/github3.py/issues/637"
    assert sent == 1


def test_renamed_repository_redirect_is_followed_and_the_new_name_kept() -> None:
    recordings = cassette("Repository_assignees")
    moved = find(recordings, "GET", "/repos/kennethreitz/requests")
    assert (moved.status, moved.header("location")) == (301, f"{API}/repositories/1362490")
    repository = find(recordings, "GET", "/repositories/1362490").json()
    assert repository["full_name"] == "requests/requests"
    # Hand-made: an issue of the renamed repository, with the recorded repository's URLs.
    issue = json_answer(
        200,
        {
            "number": 4242,
            "title": "A PR cited under the old name",
            "state": "open",
            "user": {"login": "someone"},
            "labels": [{"name": "bug"}],
            "repository_url": repository["url"],
            "html_url": f"{repository['html_url']}/pull/4242",
            "pull_request": {"url": f"{repository['url']}/pulls/4242", "merged_at": None},
        },
    )
    fake = FakeGitHub()
    fake.add(
        "GET",
        "/repos/kennethreitz/requests/issues/4242",
        moved.with_headers(location=f"{API}/repositories/1362490/issues/4242"),
    )
    fake.add("GET", "/repositories/1362490/issues/4242", issue)

    fetched, sent = ask(fake, lambda github: github.item("kennethreitz/requests", 4242))

    assert fetched.status == "ok"
    assert fetched.item.repo == "requests/requests"
    assert (fetched.item.kind, fetched.item.labels) == ("pr", ("bug",))
    assert sent == 2  # the 301 and the request it led to
    assert [r.url.path for r in fake.requests] == [
        "/repos/kennethreitz/requests/issues/4242",
        "/repositories/1362490/issues/4242",
    ]


def recorded_404s() -> list[Recorded]:
    return [
        find(cassette("GitHub_is_blocking"), "GET", "/user/blocks/sigmavirus24"),
        find(
            cassette("Organization_is_public_member"),
            "GET",
            "/orgs/github3py/public_members/defunkt",
        ),
        octokit("branch-protection")[0],
    ]


@pytest.mark.parametrize("which", [0, 1, 2], ids=["is_blocking", "public_member", "octokit"])
def test_404_is_not_found(which: int) -> None:
    not_found = recorded_404s()[which]
    assert not_found.status == 404
    fake = FakeGitHub().add("GET", f"/repos/{REPO}/issues/99999", not_found)

    fetched, sent = ask(fake, lambda github: github.item(REPO, 99999))

    assert fetched == Fetched("not_found")
    assert sent == 1  # no retry


def test_410_deleted_issue_is_not_found() -> None:
    gone = json_answer(410, {"message": "This issue was deleted"})  # hand-made
    fake = FakeGitHub().add("GET", f"/repos/{REPO}/issues/5", gone)

    fetched, sent = ask(fake, lambda github: github.item(REPO, 5))

    assert fetched == Fetched("not_found")
    assert sent == 1


def test_422_is_unavailable_with_githubs_message() -> None:
    invalid = octokit("errors")[0]
    assert invalid.status == 422 and invalid.header("x-ratelimit-remaining") == "4999"
    fake = FakeGitHub().add("GET", f"/repos/{REPO}/issues/1", invalid)

    fetched, sent = ask(fake, lambda github: github.item(REPO, 1))

    assert fetched == Fetched(
        "unavailable", problem="GitHub answered 422: Validation Failed (Label.color invalid)"
    )
    assert sent == 1


def test_422_from_the_github3_cassette() -> None:
    invalid = find(
        cassette("Issue_edit_both_assignee_and_assignees"), "PATCH", f"/repos/{REPO}/issues/637"
    )
    fake = FakeGitHub().add("GET", f"/repos/{REPO}/issues/637", invalid)

    fetched, sent = ask(fake, lambda github: github.item(REPO, 637))

    assert fetched.status == "unavailable"
    assert fetched.problem == (
        "GitHub answered 422: You cannot pass both `assignee` and `assignees`. "
        "Only one may be provided."
    )
    assert sent == 1


def test_304_not_modified_when_the_etag_still_matches() -> None:
    issue = find(cassette("Issue_pull_request"), "GET", f"/repos/{REPO}/issues/301")
    etag = issue.header("etag")

    def conditional(request: httpx.Request) -> Recorded:
        if request.headers.get("if-none-match") == etag:
            return issue.with_json(None, status=304).with_headers(content_type=None)  # hand-made
        return issue

    fake = FakeGitHub().add("GET", f"/repos/{REPO}/issues/301", conditional)

    async def twice(github: GitHubClient) -> tuple[Fetched, Fetched]:
        first = await github.item(REPO, 301)
        return first, await github.item(REPO, 301, etag=first.etag)

    (first, second), sent = ask(fake, twice)

    assert first.status == "ok" and first.etag == etag
    assert second == Fetched("not_modified", etag=etag)
    assert "if-none-match" not in fake.requests[0].headers
    assert fake.requests[1].headers["if-none-match"] == etag
    assert sent == 2


def test_invalid_names_send_nothing() -> None:
    fake = FakeGitHub()

    async def calls(github: GitHubClient) -> list[Any]:
        return [
            await github.item("not a repo", 1),
            await github.item("../../user", 1),
            await github.item(REPO, 0),
            await github.paths("o/r/x", 1),
            await github.merged_between("bad", datetime.now(UTC), datetime.now(UTC)),
        ]

    answers, sent = ask(fake, calls)

    assert answers == [Fetched("not_found")] * 3 + [None, None]
    assert sent == 0


# -- rate limits -------------------------------------------------------------------------------


def exhausted(reset: int, status: int = 403) -> Recorded:
    """The recorded /rate_limit headers, used up: remaining 0, reset at `reset`."""
    rate_limit = find(cassette("GitHubCore_ratelimit_remaining"), "GET", "/rate_limit")
    assert rate_limit.header("x-ratelimit-limit") == "60"  # an unauthenticated client's limit
    # The body is hand-made, in the words GitHub uses for a used-up primary rate limit.
    body = {
        "message": "API rate limit exceeded for 192.0.2.1. (But here's the good news: "
        "Authenticated requests get a higher rate limit.)",
        "documentation_url": "https://docs.github.com/rest/overview/resources-in-the-rest-api"
        "#rate-limiting",
    }
    return rate_limit.with_json(body, status=status).with_headers(
        x_ratelimit_remaining="0", x_ratelimit_reset=str(reset)
    )


@pytest.mark.parametrize("status", [403, 429])
def test_primary_rate_limit_exhausted_sends_nothing_until_the_reset(status: int) -> None:
    now = [time.time()]
    reset = int(now[0]) + 3600
    until = f"rate limit exhausted until {datetime.fromtimestamp(reset, UTC):%H:%M} UTC"
    fake = FakeGitHub()
    fake.add("GET", f"/repos/{REPO}/issues/1", exhausted(reset, status))
    fake.add("GET", f"/repos/{REPO}/issues/637", issue_637())

    async def calls(github: GitHubClient) -> list[Any]:
        started = time.monotonic()
        answers = [
            await github.item(REPO, 1),
            await github.item(REPO, 637),
            await github.paths(REPO, 637),
            await github.merged_between(REPO, datetime(2020, 1, 1, tzinfo=UTC), datetime.now(UTC)),
        ]
        assert time.monotonic() - started < 0.5  # never waits for the reset
        sent_while_blocked = github.requests_made
        now[0] = reset + 1  # the hour has passed
        answers.append(await github.item(REPO, 637))
        return [*answers, sent_while_blocked]

    answers, sent = ask(fake, calls, clock=lambda: now[0])

    assert answers[0] == Fetched("unavailable", problem=until)
    assert answers[1] == Fetched("unavailable", problem=until)
    assert answers[2:4] == [None, None]
    assert answers[5] == 1  # only the answer that said the limit was used up
    assert answers[4].status == "ok"
    assert sent == 2


def test_last_allowed_request_is_answered_and_the_next_is_not_sent() -> None:
    reset = int(time.time()) + 3600
    last = issue_637().with_headers(x_ratelimit_remaining="0", x_ratelimit_reset=str(reset))
    fake = FakeGitHub().add("GET", f"/repos/{REPO}/issues/637", last)

    async def twice(github: GitHubClient) -> list[Fetched]:
        return [await github.item(REPO, 637), await github.item(REPO, 637)]

    (first, second), sent = ask(fake, twice)

    assert first.status == "ok"
    assert second.status == "unavailable"
    assert second.problem.startswith("rate limit exhausted until ")
    assert sent == 1


def test_calls_queued_behind_the_exhausting_one_send_nothing() -> None:
    fake = FakeGitHub(delay=0.01).add(
        "GET", f"/repos/{REPO}/issues/1", exhausted(int(time.time()) + 3600)
    )

    async def many(github: GitHubClient) -> list[Fetched]:
        return await asyncio.gather(*(github.item(REPO, 1) for _ in range(10)))

    answers, sent = ask(fake, many, max_concurrency=1)

    assert {a.status for a in answers} == {"unavailable"}
    assert sent == 1


def secondary(retry_after: str | None) -> Recorded:
    """Hand-made: a secondary rate limit's 403, with the primary limit far from used up."""
    headers = {"X-RateLimit-Remaining": "4990", "X-RateLimit-Reset": str(int(time.time()) + 900)}
    if retry_after is not None:
        headers["Retry-After"] = retry_after
    body = {
        "message": "You have exceeded a secondary rate limit. Please wait a few minutes "
        "before you try again.",
        "documentation_url": "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api",
    }
    return json_answer(403, body, headers)


def test_secondary_rate_limit_waits_retry_after_then_succeeds() -> None:
    fake = FakeGitHub().add("GET", f"/repos/{REPO}/issues/637", secondary("1"), issue_637())

    started = time.monotonic()
    fetched, sent = ask(fake, lambda github: github.item(REPO, 637))
    waited = time.monotonic() - started

    assert fetched.status == "ok" and fetched.item.number == 637
    assert sent == 2
    assert 0.9 <= waited < 1.9


def test_secondary_rate_limit_longer_than_max_wait_is_unavailable_at_once() -> None:
    fake = FakeGitHub().add("GET", f"/repos/{REPO}/issues/637", secondary("120"), issue_637())

    started = time.monotonic()
    fetched, sent = ask(fake, lambda github: github.item(REPO, 637))

    assert fetched == Fetched(
        "unavailable", problem="secondary rate limit: GitHub asked to wait 120 s"
    )
    assert sent == 1
    assert time.monotonic() - started < 0.5


def test_secondary_rate_limit_without_retry_after_means_a_minute() -> None:
    fake = FakeGitHub().add("GET", f"/repos/{REPO}/issues/637", secondary(None), issue_637())

    fetched, sent = ask(fake, lambda github: github.item(REPO, 637))

    assert fetched == Fetched(
        "unavailable", problem="secondary rate limit: GitHub asked to wait 60 s"
    )
    assert sent == 1


def test_403_that_is_no_rate_limit_is_unavailable_with_githubs_message() -> None:
    forbidden = json_answer(  # hand-made
        403,
        {"message": "Resource not accessible by integration"},
        {"X-RateLimit-Remaining": "4999"},
    )
    fake = FakeGitHub().add("GET", f"/repos/{REPO}/issues/637", forbidden)

    fetched, sent = ask(fake, lambda github: github.item(REPO, 637))

    assert fetched == Fetched(
        "unavailable", problem="GitHub answered 403: Resource not accessible by integration"
    )
    assert sent == 1


# -- outages -----------------------------------------------------------------------------------


def test_5xx_is_retried_with_backoff_then_ok() -> None:
    fake = FakeGitHub().add(
        "GET",
        f"/repos/{REPO}/issues/637",
        json_answer(502, {"message": "Server Error"}),  # hand-made
        json_answer(503),
        issue_637(),
    )

    fetched, sent = ask(fake, lambda github: github.item(REPO, 637))

    assert fetched.status == "ok"
    assert sent == 3


def test_5xx_three_times_is_unavailable() -> None:
    fake = FakeGitHub().add("GET", f"/repos/{REPO}/issues/637", json_answer(502))  # for ever

    fetched, sent = ask(fake, lambda github: github.item(REPO, 637))

    assert fetched == Fetched("unavailable", problem="GitHub answered 502 three times")
    assert sent == 3


def test_backoff_grows_between_attempts() -> None:
    times: list[float] = []

    def failing(request: httpx.Request) -> Recorded:
        times.append(time.monotonic())
        return json_answer(500)

    fake = FakeGitHub().add("GET", f"/repos/{REPO}/issues/637", failing)

    fetched, sent = ask(fake, lambda github: github.item(REPO, 637), backoff=0.05)

    assert fetched.problem == "GitHub answered 500 three times"
    assert sent == 3
    first_wait, second_wait = times[1] - times[0], times[2] - times[1]
    assert first_wait >= 0.045 and second_wait >= 0.095  # 0.05 s, then 0.1 s


def test_connection_error_is_unavailable_no_network() -> None:
    def no_network(request: httpx.Request) -> BaseException:
        return httpx.ConnectError(
            "[Errno -3] Temporary failure in name resolution", request=request
        )

    fake = FakeGitHub().add("GET", f"/repos/{REPO}/issues/637", no_network)

    async def calls(github: GitHubClient) -> list[Any]:
        return [
            await github.item(REPO, 637),
            await github.paths(REPO, 637),
            await github.merged_between(REPO, datetime(2024, 1, 1, tzinfo=UTC), datetime.now(UTC)),
        ]

    fake.add("GET", f"/repos/{REPO}/pulls/637/files", no_network)
    fake.add("GET", f"/repos/{REPO}/pulls", no_network)
    (fetched, paths, merged), sent = ask(fake, calls)

    assert fetched.status == "unavailable"
    assert fetched.problem == (
        "no network: [Errno -3] Temporary failure in name resolution (3 attempts)"
    )
    assert (paths, merged) == (None, None)
    assert sent == 9  # three attempts each


def test_timeout_is_retried_then_unavailable() -> None:
    def slow(request: httpx.Request) -> BaseException:
        return httpx.ReadTimeout("timed out", request=request)

    fake = FakeGitHub().add("GET", f"/repos/{REPO}/issues/637", slow)

    fetched, sent = ask(fake, lambda github: github.item(REPO, 637), timeout=2.5)

    assert fetched == Fetched(
        "unavailable", problem="GitHub did not answer within 2.5 s (3 attempts)"
    )
    assert sent == 3


def test_unreadable_answer_is_unavailable() -> None:
    broken = Recorded("GET", "", 200, (("Content-Type", "text/html"),), b"<html>oops</html>")
    fake = FakeGitHub().add("GET", f"/repos/{REPO}/issues/637", broken)  # hand-made

    fetched, sent = ask(fake, lambda github: github.item(REPO, 637))

    assert fetched.status == "unavailable"
    assert fetched.problem.startswith("GitHub sent an answer the client cannot read")
    assert sent == 1


# -- lists -------------------------------------------------------------------------------------


def test_merged_between_follows_the_recorded_link_headers_through_five_pages() -> None:
    pages = octokit("paginate-issues")
    first, *rest = pages
    assert 'rel="next"' in first.header("link")
    assert 'rel="next"' not in pages[-1].header("link")
    fake = FakeGitHub()
    # Page 1 answers the first /pulls request; its Link leads to /repositories/1000/issues?...
    fake.add("GET", "/repos/octokit-fixture-org/paginate-issues/pulls", first)
    for page in rest:
        fake.add("GET", page.path, page)
    # The recorded items are open issues, all updated 2017-10-10T16:00:00Z (normalized).
    start, end = datetime(2017, 10, 1, tzinfo=UTC), datetime(2017, 11, 1, tzinfo=UTC)

    merged, sent = ask(
        fake,
        lambda github: github.merged_between("octokit-fixture-org/paginate-issues", start, end),
    )

    assert merged.items == []  # none of them is a merged PR
    assert sent == 5
    assert [r.url.raw_path.decode() for r in fake.requests[1:]] == [p.path for p in rest]
    assert dict(fake.requests[0].url.params) == {
        "state": "closed",
        "sort": "updated",
        "direction": "desc",
        "per_page": "100",
    }


def test_merged_between_stops_reading_at_start_on_the_recorded_pages() -> None:
    first, *rest = octokit("paginate-issues")
    fake = FakeGitHub().add("GET", "/repos/octokit-fixture-org/paginate-issues/pulls", first)
    for page in rest:
        fake.add("GET", page.path, page)
    start = datetime(2017, 10, 11, tzinfo=UTC)  # after every recorded item was last updated

    merged, sent = ask(
        fake,
        lambda github: github.merged_between(
            "octokit-fixture-org/paginate-issues", start, start + timedelta(days=7)
        ),
    )

    assert merged.items == []
    assert sent == 1


def test_merged_between_parses_recorded_pull_answers() -> None:
    merged_pr = find(cassette("PullRequest_single"), "GET", f"/repos/{REPO}/pulls/235")
    unmerged_pr = find(cassette("GitHub_pull_request"), "GET", f"/repos/{REPO}/pulls/119")
    # A /pulls list page put together from the two recorded /pulls/N bodies, updated_at desc.
    page = json_answer(200, [merged_pr.json(), unmerged_pr.json()])
    fake = FakeGitHub().add("GET", f"/repos/{REPO}/pulls", page)

    merged, sent = ask(
        fake,
        lambda github: github.merged_between(
            REPO, datetime(2014, 5, 1, tzinfo=UTC), datetime(2014, 6, 1, tzinfo=UTC)
        ),
    )

    assert merged.items == [
        GitHubItem(
            repo=REPO,
            number=235,
            kind="pr",
            title="Add Release.assets attribute",
            state="closed",
            merged_at=datetime(2014, 5, 3, 14, 41, 23, tzinfo=UTC),
            author="bgilbert",
            labels=(),
            url="https://github.com/sigmavirus24/github3.py/pull/235",
        )
    ]
    assert sent == 1


def pull(number: int, updated: str, merged: str | None, repo: str = "o/r") -> dict[str, Any]:
    """Hand-made: the fields of a /pulls list item that the client reads."""
    return {
        "number": number,
        "title": f"PR {number}",
        "state": "closed",
        "user": {"login": f"dev{number}"},
        "labels": [{"name": "lib"}],
        "html_url": f"https://github.com/{repo}/pull/{number}",
        "updated_at": updated,
        "merged_at": merged,
        "head": {"ref": f"branch-{number}"},
        "base": {"ref": "main", "repo": {"full_name": repo}},
    }


def link(repo_id: int, page: int, last: int) -> dict[str, str]:
    """A Link header in GitHub's form (as in the octokit recordings)."""
    base = f"{API}/repositories/{repo_id}/pulls?state=closed&sort=updated&direction=desc"
    rels = []
    if page < last:
        rels.append(f'<{base}&per_page=100&page={page + 1}>; rel="next"')
        rels.append(f'<{base}&per_page=100&page={last}>; rel="last"')
    if page > 1:
        rels.append(f'<{base}&per_page=100&page=1>; rel="first"')
    return {"Link": ", ".join(rels)}


def test_merged_between_keeps_merges_in_the_window_and_stops_at_start() -> None:
    start, end = datetime(2024, 5, 6, tzinfo=UTC), datetime(2024, 5, 13, tzinfo=UTC)
    page1 = [
        pull(10, "2024-05-20T09:00:00Z", "2024-05-12T23:59:59Z"),  # updated later, merged inside
        pull(9, "2024-05-14T09:00:00Z", "2024-05-13T00:00:00Z"),  # merged at `end`: out
        pull(8, "2024-05-12T09:00:00Z", None),  # closed, not merged
    ]
    page2 = [
        pull(7, "2024-05-08T09:00:00+02:00", "2024-05-08T07:00:00+02:00"),  # offset, inside
        pull(6, "2024-05-06T00:00:00Z", "2024-05-06T00:00:00Z"),  # merged at `start`: in
        pull(5, "2024-05-05T23:59:59Z", "2024-05-05T12:00:00Z"),  # updated before start: stop
        pull(4, "2024-05-06T10:00:00Z", "2024-05-06T10:00:00Z"),  # never looked at
    ]
    page3 = [pull(3, "2024-05-07T00:00:00Z", "2024-05-07T00:00:00Z")]  # never asked for
    base = "/repositories/77/pulls?state=closed&sort=updated&direction=desc&per_page=100"
    fake = FakeGitHub()
    fake.add("GET", "/repos/o/r/pulls", json_answer(200, page1, link(77, 1, 3)))
    fake.add("GET", f"{base}&page=2", json_answer(200, page2, link(77, 2, 3)))
    fake.add("GET", f"{base}&page=3", json_answer(200, page3, link(77, 3, 3)))

    listed, sent = ask(fake, lambda github: github.merged_between("o/r", start, end))
    merged = listed.items

    assert [item.number for item in merged] == [6, 7, 10]  # oldest merge first
    assert merged[1].merged_at == datetime(2024, 5, 8, 5, 0, tzinfo=UTC)
    assert all(item.kind == "pr" and item.labels == ("lib",) for item in merged)
    assert merged[0].author == "dev6" and merged[0].repo == "o/r"
    assert sent == 2
    assert fake.count(f"{base}&page=3") == 0


def test_merged_between_needs_aware_datetimes() -> None:
    with pytest.raises(ValueError):
        ask(
            FakeGitHub(),
            lambda github: github.merged_between("o/r", datetime(2024, 5, 6), datetime.now(UTC)),
        )


def files(*names: str, renamed_from: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Hand-made: /pulls/N/files entries."""
    entries = []
    for name in names:
        entry = {"filename": name, "status": "modified"}
        if renamed_from and name in renamed_from:
            entry |= {"status": "renamed", "previous_filename": renamed_from[name]}
        entries.append(entry)
    return entries


def test_paths_are_the_top_two_folders_over_all_pages() -> None:
    next_page = f'<{API}/repositories/77/pulls/12/files?per_page=100&page=2>; rel="next"'
    fake = FakeGitHub()
    fake.add(
        "GET",
        "/repos/o/r/pulls/12/files",
        json_answer(
            200,
            files("lib/iris/cube.py", "lib/iris/fileformats/pp.py", "docs/index.rst", "README.md"),
            {"Link": next_page},
        ),
    )
    fake.add(
        "GET",
        "/repositories/77/pulls/12/files?per_page=100&page=2",
        json_answer(
            200,
            files(
                "lib/iris/tests/test_cube.py",
                "docs/src/a.rst",
                renamed_from={"docs/src/a.rst": "doc/a.rst"},
            ),
        ),
    )

    paths, sent = ask(fake, lambda github: github.paths("o/r", 12))

    assert paths == ("lib/iris", "docs", "README.md", "docs/src", "doc")
    assert sent == 2
    assert fake.requests[0].url.params["per_page"] == "100"


def test_paths_stop_after_3000_files() -> None:
    def endless(request: httpx.Request) -> Recorded:
        page = int(request.url.params.get("page", "1"))
        next_url = f"{API}/repos/o/r/pulls/1/files?per_page=100&page={page + 1}"
        names = [f"pkg{page}/sub/file{i}.py" for i in range(100)]
        return json_answer(200, files(*names), {"Link": f'<{next_url}>; rel="next"'})

    fake = FakeGitHub().add("GET", "/repos/o/r/pulls/1/files", endless)

    paths, sent = ask(fake, lambda github: github.paths("o/r", 1))

    assert sent == 30
    assert len(paths) == 30 and paths[0] == "pkg1/sub"


def test_paths_of_a_missing_pr_is_none() -> None:
    not_found = recorded_404s()[0]
    fake = FakeGitHub().add("GET", "/repos/o/r/pulls/3/files", not_found)

    paths, sent = ask(fake, lambda github: github.paths("o/r", 3))

    assert paths is None
    assert sent == 1


# -- the client itself -------------------------------------------------------------------------


def test_concurrency_is_bounded() -> None:
    fake = FakeGitHub(delay=0.01).add("GET", f"/repos/{REPO}/issues/637", issue_637())

    async def many(github: GitHubClient) -> list[Fetched]:
        return await asyncio.gather(*(github.item(REPO, 637) for _ in range(50)))

    answers, sent = ask(fake, many, max_concurrency=4)

    assert [a.status for a in answers] == ["ok"] * 50
    assert sent == 50
    assert fake.max_in_flight == 4


def test_headers_and_token() -> None:
    fake = FakeGitHub().add("GET", f"/repos/{REPO}/issues/637", issue_637())

    ask(fake, lambda github: github.item(REPO, 637))
    ask(fake, lambda github: github.item(REPO, 637), token="ghp_example")

    anonymous, authenticated = fake.requests
    for request in (anonymous, authenticated):
        assert request.headers["accept"] == "application/vnd.github+json"
        assert request.headers["x-github-api-version"] == "2022-11-28"
        assert request.headers["user-agent"] == "summarybot"
    assert "authorization" not in anonymous.headers
    assert authenticated.headers["authorization"] == "Bearer ghp_example"


def test_base_url_override() -> None:
    fake = FakeGitHub().add("GET", f"/api/v3/repos/{REPO}/issues/637", issue_637())

    fetched, sent = ask(
        fake, lambda github: github.item(REPO, 637), base_url="https://ghe.example.com/api/v3"
    )

    assert fetched.status == "ok"
    assert sent == 1
    assert str(fake.requests[0].url) == f"https://ghe.example.com/api/v3/repos/{REPO}/issues/637"


def test_loader_reads_both_cassette_generations() -> None:
    old = find(cassette("GitHubCore_ratelimit_remaining"), "GET", "/rate_limit")  # 2013
    new = find(cassette("PullRequest_single"), "GET", f"/repos/{REPO}/pulls/235")  # 2021
    assert old.status == 200 and old.json()["rate"]["remaining"] == 60
    assert new.status == 200 and new.json()["number"] == 235
    assert old.header("content-encoding") == new.header("content-encoding") == "gzip"
