"""Integration posts: the PRs and issues they report, and who did the work."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest
from factories import TOPICS, msg

from summarizer.draft import make_draft
from summarizer.integrations import (
    commits,
    integration_items,
    post_repo,
    releases,
    reported,
    titled,
)
from summarizer.types import DraftSummary, SourceMessage

PUSH = (
    "[pyrallelsa:master] 3 new commits by hfaran and 1 other:\n"
    "173859f: Refactor into package for addition of setup - hfaran\n"
    " 2a78abd: Merge pull request #5 from mesos-magellan/hfaran_setup - Hamza Faran"
)


def drafted(messages: list[SourceMessage]) -> DraftSummary:
    """The draft of `messages` with the test topics."""
    return make_draft(
        messages, TOPICS, workspace="w", week_start=date(2026, 11, 16), title="t", max_chars=4000
    )


def test_a_merge_commit_reports_its_pr_with_the_push_s_other_commits_as_its_title() -> None:
    assert post_repo(PUSH) == "pyrallelsa"
    [merged] = integration_items(PUSH)
    assert merged.number == "5" and merged.person == "Hamza Faran"
    assert merged.title == "Refactor into package for addition of setup"


def test_a_merged_pr_is_titled_by_its_own_first_commit_not_by_all_the_push_s() -> None:
    post = (
        "[loader:main] 5 new commits by ana and 1 other:\n"
        "9c4f0fc: Download packages from a mirror; not wired in yet - ana\n"
        " a62a009: Retry a download once on a reset connection - ana\n"
        " ae5d8f2: Merge pull request #21 from acme/packages - Ana Ruiz\n"
        " 635621e: Add a coverage badge - bo\n"
        " b4234d2: Merge pull request #22 from acme/badge - Ana Ruiz"
    )
    assert [(m.number, m.title) for m in integration_items(post)] == [
        ("21", "Download packages from a mirror"),
        ("22", "Add a coverage badge"),
    ]


def test_a_commit_that_resolves_an_issue_reports_it() -> None:
    post = (
        "[enrique:master] 1 new commit by hfaran:\n"
        "a0e006b: New client interface; resolves #16 - hfaran"
    )
    [resolved] = integration_items(post)
    assert (resolved.number, resolved.title, resolved.person) == (
        "16",
        "New client interface",
        "hfaran",
    )


def test_pr_events_report_their_titles() -> None:
    post = "[lab/main] Pull request merged: #8498 Bump NCCL to 2.29"
    assert post_repo(post) == "lab/main"
    [merged] = integration_items(post)
    assert (merged.number, merged.title) == ("8498", "Bump NCCL to 2.29")


def test_a_pr_closed_without_merging_is_no_merge() -> None:
    [closed] = integration_items(
        "[o/r] Pull request closed: #37 Move to Hugo\nClosed without merging."
    )
    assert (closed.done, closed.merged, closed.rejected) == (True, False, True)
    [closed] = integration_items("[o/r] Pull request closed: #38 Pin the image")
    assert closed.rejected is False


def test_an_event_s_title_names_who_did_it_in_brackets_or_by_handle() -> None:
    posts = [
        "Pull request merged: #5509 Rescale operators live (by hmarsh)",
        "[lab/main] PR merged: #5510 Rescale operators live by @hmarsh",
        "Pull request merged: #5511 Sort results by date",
    ]
    items = [integration_items(post)[0] for post in posts]
    assert [(i.title, i.person) for i in items] == [
        ("Rescale operators live", "hmarsh"),
        ("Rescale operators live", "hmarsh"),
        ("Sort results by date", None),
    ]
    merged = replace(msg(posts[0], channel="data", author="GitHub"), is_bot=True)
    d = make_draft(
        [merged], TOPICS, workspace="w", week_start=date(2026, 11, 16), title="t", max_chars=4000
    )
    assert "Rescale operators live ([#5509](https://github.com/lab/main/pull/5509), hmarsh)." in (
        d.sections[0].markdown
    )


def test_the_slack_app_s_event_names_who_over_the_pr_s_title() -> None:
    post = (
        "[cellsim/cellsim] Pull request merged by mvoss\n#741 Deprecate the legacy HDF5 writer\n"
        "The old writer now warns."
    )
    [merged] = integration_items(post)
    assert (merged.number, merged.title, merged.person) == (
        "741",
        "Deprecate the legacy HDF5 writer",
        "mvoss",
    )


def test_the_slack_app_s_event_credits_the_pr_s_author_over_who_merged_it() -> None:
    post = "[cellsim/cellsim] Pull request merged by mvoss\n#741 Deprecate the HDF5 writer (by ana)"
    [merged] = integration_items(post)
    assert (merged.title, merged.person) == ("Deprecate the HDF5 writer", "ana")


def test_a_person_s_message_in_brackets_is_not_a_post() -> None:
    assert post_repo("Thanks! [see below]") is None
    assert integration_items("I merged it, resolves the flake") == []


def test_a_post_s_titles_are_given_to_the_refs_it_cites_and_to_no_other() -> None:
    post = msg("[lab/main] Pull request merged: #12 Fix the loader\nSee also #14")
    known = reported([(post.text, post.prs)])
    assert known.titles == {"lab/main#12": "Fix the loader"}
    cited = msg("#12 is in, #13 next").prs
    assert [m.title for m in titled(cited, known)] == ["Fix the loader", None]


def test_who_opened_a_pr_is_its_author_and_who_merged_it_is_not() -> None:
    posts = [
        msg("[lab/main] Pull request opened by khoatran\n#50 Add a zip code column"),
        msg("[lab/main] Pull request merged by tuan-pham\n#50 Add a zip code column"),
        msg("[lab/main] Pull request merged by tuan-pham\n#51 Fix the scraper"),
    ]
    known = reported([(p.text, p.prs) for p in posts])
    assert known.authors == {"lab/main#50": "khoatran"}
    assert [m.author for m in titled(msg("#50 and #51 are in").prs, known)] == ["khoatran", None]


def test_a_push_post_lists_its_commits_with_their_authors() -> None:
    post = (
        "[loader:main] 2 new commits by Ana Ruiz:\n"
        "9f31c2a: Retry reads on 503 - Ana Ruiz\n"
        "4b7e0d1: Document the retry budget"
    )
    assert [(c.sha, c.message, c.person) for c in commits(post)] == [
        ("9f31c2a", "Retry reads on 503", "Ana Ruiz"),
        ("4b7e0d1", "Document the retry budget", None),
    ]
    assert integration_items(post) == []  # no PR or issue: said by `summarizer.pushes`


def test_a_discord_push_post_s_linked_hashes_are_its_commits() -> None:
    # GitHub's Discord webhook: the embed's title, then one line per commit, its hash linked.
    post = (
        "[loader:main] 2 new commits\n"
        "[`9f31c2a`](https://github.com/acme/loader/commit/9f31c2a0d1) Retry reads on 503 - ana\n"
        "[`77aa001`](https://github.com/acme/loader/commit/77aa0011b2) Merge pull request #41"
        " from ana/retries - ana"
    )
    assert [(c.sha, c.message) for c in commits(post)][0] == ("9f31c2a", "Retry reads on 503")
    [merged] = integration_items(post)
    assert (merged.number, merged.title, merged.person) == ("41", "Retry reads on 503", "ana")


def test_a_published_release_is_reported_and_drafted() -> None:
    post = "[kern/boot] New release published: v0.9.2\nFaster cold boot on ARM (#44)"
    assert releases(post) == ["v0.9.2"]
    assert releases("[kern/boot] New tag created: v0.9.2") == []
    # GitHub's Slack app: who published it, over the release's name
    assert releases("Release published by ana-ruiz\nv0.9.2\nFaster cold boot (#44)") == ["v0.9.2"]
    bot = replace(msg(post, channel="data", author="GitHub", default_repo="kern/boot"), is_bot=True)
    d = make_draft(
        [bot],
        TOPICS,
        workspace="Kernels",
        week_start=date(2026, 11, 16),
        title="Kernels: Week of November 16th summary",
        max_chars=10000,
    )
    [data] = d.sections
    assert data.markdown == (
        "- kern/boot v0.9.2 is released ([#44](https://github.com/kern/boot/pull/44))."
    )


@pytest.mark.parametrize(
    ("channel", "said"),
    [
        ("data", "0.9 is out! The big one is a new allocator, 30% less memory"),
        ("iris", "0.9 is out! The big one is a new allocator, 30% less memory"),  # another topic
        ("data", "v0.9.2 is out! The big one is a new allocator, 30% less memory"),
    ],
)
def test_a_release_a_person_announces_is_said_once_with_the_bot_s_prs(
    channel: str, said: str
) -> None:
    post = "[kern/boot] New release published: v0.9.2\nFaster cold boot on ARM (#44)"
    bot = replace(
        msg(post, channel=channel, author="GitHub", default_repo="kern/boot"), is_bot=True
    )
    person = replace(msg(said, channel="data"), reactions=12)
    mention = msg("the 0.9 docs are released too, with a page on the allocator", channel="iris")
    d = drafted([bot, person, mention])
    data = next(s for s in d.sections if s.topic == "data")
    assert data.markdown.startswith(f"- {said[:40]}")
    assert all("v0.9.2 is released" not in s.markdown for s in d.sections)
    assert data.prs == ["kern/boot#44"]


def test_a_release_s_prs_go_to_the_post_naming_its_full_version_not_an_agenda() -> None:
    post = "[kern/boot] New release published: v0.9.2\nFaster cold boot on ARM (#44)"
    bot = replace(msg(post, channel="data", author="GitHub", default_repo="kern/boot"), is_bot=True)
    agenda = replace(
        msg(
            "@here community call Thursday Nov 19: agenda is the 0.9 release and the RFC",
            channel="data",
        ),
        pinned=True,
    )
    person = replace(
        msg("v0.9.2 is out, thanks to everyone who tested the rc", channel="iris"), reactions=3
    )
    d = drafted([bot, agenda, person])
    iris = next(s for s in d.sections if s.topic == "iris")
    assert iris.prs == ["kern/boot#44"]


def test_a_release_a_bot_reports_beside_an_advisory_is_said_too() -> None:
    post = "[kern/boot] New release published: v0.9.3\nSecurity release (#47)"
    bot = replace(msg(post, channel="data", author="GitHub", default_repo="kern/boot"), is_bot=True)
    advisory = replace(
        msg(
            "Versions 0.8.0 to 0.9.2 let any local user read the boot keys through the debug "
            "shell, reported by Lea Park. Fix: #47",
            channel="data",
            default_repo="kern/boot",
        ),
        pinned=True,
    )
    d = drafted([advisory, bot])
    [data] = d.sections
    assert "Versions 0.8.0 to 0.9.2 let any local user read the boot keys" in data.markdown
    assert "kern/boot v0.9.3 is released" in data.markdown


def test_a_stand_up_bot_s_post_is_the_person_s_update_credited_to_them() -> None:
    post = (
        "*Ana Ruiz* posted an update for *Daily Standup*\n*What did you do yesterday?*\n"
        "Finished the CSV export API (#45), exports of 100k rows take 3 s now\n"
        "*Anything blocking you?*\nNo"
    )
    standup = replace(msg(post, channel="data", author="Geekbot"), is_bot=True)
    chatter = replace(
        msg("*Deploy* posted an update for *prod*\nFinished the rollout (#46)", channel="data"),
        is_bot=True,
    )
    d = drafted([standup, chatter])
    [data] = d.sections
    assert data.markdown.startswith(
        "- Ana Ruiz finished the CSV export API ([#45](https://github.com/lab/main/pull/45)), "
        "exports of 100k rows take 3 s now"
    )
    assert "Geekbot" not in data.markdown and "Deploy" not in data.markdown
