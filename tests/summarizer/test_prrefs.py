"""Tests for summarizer.prrefs: PR/issue reference extraction from chat text."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from summarizer.prrefs import (
    PRRef,
    _numbers_a_series,
    bare_refs_elsewhere,
    github_url,
    normalise,
    parse_pr_refs,
    resolve_in_week,
)


def keys(text: str) -> list[tuple[str | None, int]]:
    """(repo, number) of every reference found, in order."""
    return [(ref.repo, ref.number) for ref in parse_pr_refs(text)]


# --- positives ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # bare #N and what may follow it
        ("#8077", [PRRef(None, 8077, "#8077")]),
        ("see #1 now", [PRRef(None, 1, "#1")]),
        ("(#8077)", [PRRef(None, 8077, "#8077")]),
        ("fixed in #8077.", [PRRef(None, 8077, "#8077")]),
        ("#8077, then", [PRRef(None, 8077, "#8077")]),
        ("#8077: done", [PRRef(None, 8077, "#8077")]),
        (
            "#8077; #8078! #8079?",
            [
                PRRef(None, 8077, "#8077"),
                PRRef(None, 8078, "#8078"),
                PRRef(None, 8079, "#8079"),
            ],
        ),
        ("[#8077]", [PRRef(None, 8077, "#8077")]),
        ("#8077/#8078", [PRRef(None, 8077, "#8077"), PRRef(None, 8078, "#8078")]),
        ("#8077-#8079", [PRRef(None, 8077, "#8077"), PRRef(None, 8079, "#8079")]),
        # GitHub's own short form
        ("fixed in gh-104614", [PRRef(None, 104614, "gh-104614")]),
        ("(GH-12).", [PRRef(None, 12, "GH-12")]),
        ("**#12**", [PRRef(None, 12, "#12")]),
        ("#9999999", [PRRef(None, 9_999_999, "#9999999")]),
        ("line one\n#12\nline three", [PRRef(None, 12, "#12")]),
        # owner/repo#N
        ("openxla/xla#47283", [PRRef("openxla/xla", 47283, "openxla/xla#47283")]),
        ("see vercel/next.js#123.", [PRRef("vercel/next.js", 123, "vercel/next.js#123")]),
        ("my-org/my_repo#5", [PRRef("my-org/my_repo", 5, "my-org/my_repo#5")]),
        ("o/.github#2", [PRRef("o/.github", 2, "o/.github#2")]),
        ("(openxla/xla#1)", [PRRef("openxla/xla", 1, "openxla/xla#1")]),
        # short repo names
        ("MarinSkyRL#423", [PRRef("MarinSkyRL", 423, "MarinSkyRL#423")]),
        (
            "levanter#12 and marin#3",
            [
                PRRef("levanter", 12, "levanter#12"),
                PRRef("marin", 3, "marin#3"),
            ],
        ),
        ("x86#1", [PRRef("x86", 1, "x86#1")]),
        ("abc#12", [PRRef("abc", 12, "abc#12")]),
        # words that are not repos
        ("PR#12", [PRRef(None, 12, "PR#12")]),
        ("pr#12", [PRRef(None, 12, "pr#12")]),
        ("issue#12", [PRRef(None, 12, "issue#12")]),
        ("Issue#12", [PRRef(None, 12, "Issue#12")]),
        # "PR" and "pull request" keywords
        ("PR 123", [PRRef(None, 123, "PR 123")]),
        ("PR #123", [PRRef(None, 123, "PR #123")]),
        ("pr 123", [PRRef(None, 123, "pr 123")]),
        ("Pr: 7", [PRRef(None, 7, "Pr: 7")]),
        ("pull request #123", [PRRef(None, 123, "pull request #123")]),
        ("pull request 123", [PRRef(None, 123, "pull request 123")]),
        ("Pull Request 9.", [PRRef(None, 9, "Pull Request 9")]),
        ("PRs #12 and #13", [PRRef(None, 12, "PRs #12"), PRRef(None, 13, "#13")]),
        (
            "PRs 12, 13, and 14",
            [
                PRRef(None, 12, "PRs 12"),
                PRRef(None, 13, "13"),
                PRRef(None, 14, "14"),
            ],
        ),
        (
            "PRs 12/13 & 14 or #15",
            [
                PRRef(None, 12, "PRs 12"),
                PRRef(None, 13, "13"),
                PRRef(None, 14, "14"),
                PRRef(None, 15, "#15"),
            ],
        ),
        (
            "pull requests #1 and #2",
            [
                PRRef(None, 1, "pull requests #1"),
                PRRef(None, 2, "#2"),
            ],
        ),
        ("PR #12 and #13", [PRRef(None, 12, "PR #12"), PRRef(None, 13, "#13")]),
        # GitHub URLs
        (
            "https://github.com/o/r/pull/12",
            [PRRef("o/r", 12, "https://github.com/o/r/pull/12")],
        ),
        (
            "https://github.com/o/r/issues/12",
            [PRRef("o/r", 12, "https://github.com/o/r/issues/12")],
        ),
        (
            "see https://github.com/o/r/pull/12/files.",
            [PRRef("o/r", 12, "https://github.com/o/r/pull/12/files")],
        ),
        (
            "https://github.com/o/r/pull/12/commits",
            [PRRef("o/r", 12, "https://github.com/o/r/pull/12/commits")],
        ),
        (
            "https://github.com/o/r/pull/12#issuecomment-123",
            [PRRef("o/r", 12, "https://github.com/o/r/pull/12#issuecomment-123")],
        ),
        (
            "https://github.com/o/r/pull/12?foo=bar",
            [PRRef("o/r", 12, "https://github.com/o/r/pull/12?foo=bar")],
        ),
        (
            "http://github.com/o/r/pull/12",
            [PRRef("o/r", 12, "http://github.com/o/r/pull/12")],
        ),
        (
            "https://www.github.com/o/r/pull/12",
            [PRRef("o/r", 12, "https://www.github.com/o/r/pull/12")],
        ),
        (
            "www.github.com/o/r/pull/12",
            [PRRef("o/r", 12, "www.github.com/o/r/pull/12")],
        ),
        (
            "(https://github.com/openxla/xla/pull/47283)",
            [PRRef("openxla/xla", 47283, "https://github.com/openxla/xla/pull/47283")],
        ),
        (
            "https://github.com/o/r/pull/12.diff",
            [PRRef("o/r", 12, "https://github.com/o/r/pull/12.diff")],
        ),
        # Slack link markup
        (
            "<https://github.com/o/r/pull/12|#12>",
            [PRRef("o/r", 12, "<https://github.com/o/r/pull/12|#12>")],
        ),
        (
            "<https://github.com/o/r/pull/12>",
            [PRRef("o/r", 12, "<https://github.com/o/r/pull/12>")],
        ),
        (
            "<https://github.com/o/r/pull/12|o/r#12: fix the thing>",
            [PRRef("o/r", 12, "<https://github.com/o/r/pull/12|o/r#12: fix the thing>")],
        ),
        # Markdown links
        (
            "[#12](https://github.com/o/r/pull/12)",
            [PRRef("o/r", 12, "[#12](https://github.com/o/r/pull/12)")],
        ),
        (
            "fixed by [PR #12](https://github.com/o/r/pull/12).",
            [PRRef("o/r", 12, "[PR #12](https://github.com/o/r/pull/12)")],
        ),
        # a link that is not to a GitHub PR: its label still counts
        ("[see #12](https://example.com/build/5)", [PRRef(None, 12, "#12")]),
        ("<https://ci.example.com/5|build for #12>", [PRRef(None, 12, "#12")]),
    ],
)
def test_finds_references(text: str, expected: list[PRRef]) -> None:
    assert parse_pr_refs(text) == expected


# --- negatives ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        # channel names and mentions
        "#hero-run-2026",
        "#2026-planning",
        "#12-hotfix-#x",
        # "gh-" only as a word of its own, before a number
        "deployed to gh-pages",
        "ugh-12 retries",
        "join #general",
        "<#1234567890>",
        "<#C123ABC|general>",
        "<#C123ABC>",
        "<@123>",
        "<@!123>",
        "<@&456>",
        "<@U123|Jane Doe>",
        "<!here>",
        "<t:1700000000:R>",
        "<t:1700000000>",
        "<:name:123>",
        "<a:party:1234567>",
        "</deploy:123>",
        # hex colours
        "#ff0000",
        "#fff",
        "#1a2b3c",
        "#123abc",
        "color: #0a0a0a;",
        # entities, fragments, glued text
        "&#8077;",
        "&#8077",
        "page.html#12",
        "https://example.com/x#3",
        "https://example.com/x/#3 and more",
        "example.com/x#3",
        "https://en.wikipedia.org/wiki/Foo_(bar)#3",
        "a/b/c#3",
        "./x#1",
        "C#7",
        "F#6",
        "##12",
        # GitHub URLs that name no PR
        "https://github.com/o/r/blob/main/x.py#L12",
        "https://github.com/o/r#12",
        "https://github.com/o/r/pull/12abc",
        # headings and lists
        "# Title",
        "## 2. Results",
        "1. step\n2) step\n3. done",
        "we have 12 open items",
        "PR\n12. next item",
        # code
        "`#123`",
        "``#123 and `x` #124``",
        "```\n#123\n```",
        "```py\nx = 1  # see #123\n```",
        "~~~\n#123\n~~~",
        "```unclosed fence #123\nstill code #124",
        "`https://github.com/o/r/pull/12`",
        # bad numbers
        "#12345678",
        "#0",
        "#007",
        "PR 0",
        # look-alike suffixes
        "#8077-fix",
        "#8077abc",
        "#12_3",
        # keyword followed by a quantity
        "the PR 2 days ago",
        "PR 3 more times",
        # keyword glued to a word
        "April 12",
        "xpr 12",
        "",
        "   ",
    ],
)
def test_ignores_lookalikes(text: str) -> None:
    assert parse_pr_refs(text) == []


def test_relative_path_with_fragment_reads_as_owner_repo() -> None:
    # Known ambiguity: repo names may contain dots ("vercel/next.js#123"), so a two-part
    # relative path with a numeric fragment is indistinguishable from owner/repo#N.
    assert keys("docs/index.html#12") == [("docs/index.html", 12)]


def test_url_digits_do_not_also_count_as_bare_refs() -> None:
    text = "merged https://github.com/o/r/pull/12#issuecomment-99 today"
    assert keys(text) == [("o/r", 12)]


def test_code_is_skipped_but_text_around_it_counts() -> None:
    text = "#1 `#2` #3\n```\n#4\n```\n#5 ~~~ #6 ~~~ #7"
    assert keys(text) == [(None, 1), (None, 3), (None, 5), (None, 7)]


def test_keyword_list_does_not_swallow_html_entity() -> None:
    assert keys("PR #1 &#12; and PR #2") == [(None, 1), (None, 2)]


def test_singular_keyword_takes_only_hashed_list_items() -> None:
    assert keys("PR 12 and 13") == [(None, 12)]
    assert keys("PRs 12 and 13") == [(None, 12), (None, 13)]


def test_mixed_message_in_order() -> None:
    text = (
        "Status from #hero-run-2026: openxla/xla#47283 landed (see "
        "<https://github.com/marin-community/marin/pull/8077|#8077>), MarinSkyRL#423 is "
        "blocked on #8078; colour #ff0000 is fine. `#999` is a code sample. PR 12 too."
    )
    assert keys(text) == [
        ("openxla/xla", 47283),
        ("marin-community/marin", 8077),
        ("MarinSkyRL", 423),
        (None, 8078),
        (None, 12),
    ]


# --- order and deduplication -------------------------------------------------------------


def test_first_occurrence_wins() -> None:
    refs = parse_pr_refs("#12 then #11 then #12 again and PR 11")
    assert refs == [PRRef(None, 12, "#12"), PRRef(None, 11, "#11")]


def test_dedupe_compares_repo_case_insensitively_and_keeps_first_spelling() -> None:
    refs = parse_pr_refs(
        "OpenXLA/XLA#1 then openxla/xla#1 and https://github.com/openxla/xla/pull/1"
    )
    assert refs == [PRRef("OpenXLA/XLA", 1, "OpenXLA/XLA#1")]
    assert keys("Levanter#3 levanter#3") == [("Levanter", 3)]


def test_bare_and_repo_refs_are_different_keys() -> None:
    assert keys("#12 and o/r#12 and other/r#12") == [(None, 12), ("o/r", 12), ("other/r", 12)]


def test_link_construct_counts_once() -> None:
    assert keys("[#12](https://github.com/o/r/pull/12) and #12 later") == [
        ("o/r", 12),
        (None, 12),
    ]
    assert keys("[o/r#12](https://github.com/o/r/pull/12)") == [("o/r", 12)]
    assert keys("<https://github.com/o/r/pull/13|#12>") == [("o/r", 13)]


# --- normalise ---------------------------------------------------------------------------

ALIASES = {"MarinSkyRL": "marin-community/MarinSkyRL", "levanter": "marin-community/levanter"}


@pytest.mark.parametrize(
    ("ref", "default_repo", "aliases", "expected"),
    [
        (PRRef("openxla/xla", 1, "openxla/xla#1"), None, None, "openxla/xla#1"),
        (PRRef("OpenXLA/XLA", 1, "OpenXLA/XLA#1"), "a/b", ALIASES, "OpenXLA/XLA#1"),
        (PRRef("MarinSkyRL", 423, "x"), None, ALIASES, "marin-community/MarinSkyRL#423"),
        (PRRef("marinskyrl", 423, "x"), None, ALIASES, "marin-community/MarinSkyRL#423"),
        (PRRef("LEVANTER", 5, "x"), "a/b", ALIASES, "marin-community/levanter#5"),
        (PRRef("Unknown", 7, "x"), None, ALIASES, "Unknown#7"),
        (PRRef("Unknown", 7, "x"), "a/b", None, "Unknown#7"),
        (PRRef(None, 8077, "#8077"), "marin-community/marin", None, "marin-community/marin#8077"),
        (PRRef(None, 8077, "#8077"), None, ALIASES, "#8077"),
        (PRRef(None, 8077, "#8077"), "", None, "#8077"),
        # a short name that is the default repo's own name resolves to the default repo
        (PRRef("Marin", 9, "x"), "marin-community/marin", None, "marin-community/marin#9"),
        # ...but an alias wins
        (PRRef("marin", 9, "x"), "marin-community/marin", {"marin": "o/marin"}, "o/marin#9"),
    ],
)
def test_normalise(
    ref: PRRef, default_repo: str | None, aliases: dict[str, str] | None, expected: str
) -> None:
    assert normalise(ref, default_repo, aliases) == expected


def test_normalise_parsed_refs() -> None:
    text = "PR #3, levanter#4, o/r#5, other#6"
    got = [normalise(r, "marin-community/marin", ALIASES) for r in parse_pr_refs(text)]
    assert got == [
        "marin-community/marin#3",
        "marin-community/levanter#4",
        "o/r#5",
        "other#6",
    ]


# --- github_url --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ref", "kind", "expected"),
    [
        ("openxla/xla#47283", "pull", "https://github.com/openxla/xla/pull/47283"),
        ("openxla/xla#47283", "issues", "https://github.com/openxla/xla/issues/47283"),
        ("openxla/xla#47283", "issue", "https://github.com/openxla/xla/issues/47283"),
        ("vercel/next.js#1", "pull", "https://github.com/vercel/next.js/pull/1"),
        ("#12", "pull", None),
        ("MarinSkyRL#12", "pull", None),
        ("o/r", "pull", None),
        ("o/r#", "pull", None),
        ("o/r#x", "pull", None),
        ("", "pull", None),
    ],
)
def test_github_url(ref: str, kind: str, expected: str | None) -> None:
    assert github_url(ref, kind) == expected


def test_github_url_default_kind_is_pull() -> None:
    assert github_url("o/r#12") == "https://github.com/o/r/pull/12"


def test_github_url_rejects_unknown_kind() -> None:
    with pytest.raises(ValueError, match="kind"):
        github_url("o/r#12", "commits")


# --- properties --------------------------------------------------------------------------

numbers = st.integers(min_value=1, max_value=9_999_999)
owners = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9-]{0,38}", fullmatch=True)
repos = st.from_regex(r"[A-Za-z0-9_.-]{1,100}", fullmatch=True)
short_names = st.from_regex(r"[A-Za-z][A-Za-z0-9_-]{1,30}", fullmatch=True).filter(
    lambda s: s.lower() not in {"pr", "prs", "pull", "issue", "issues"}
)


@st.composite
def ref_texts(draw: st.DrawFn) -> tuple[str, tuple[str | None, int]]:
    """A reference as it may be written, and the (repo, number) it names."""
    n = draw(numbers)
    full = f"{draw(owners)}/{draw(repos)}"
    short = draw(short_names)
    forms = [
        (f"#{n}", (None, n)),
        (f"PR #{n}", (None, n)),
        (f"{full}#{n}", (full, n)),
        (f"{short}#{n}", (short, n)),
        (f"https://github.com/{full}/pull/{n}", (full, n)),
        (f"<https://github.com/{full}/issues/{n}|#{n}>", (full, n)),
        (f"[#{n}](https://github.com/{full}/pull/{n})", (full, n)),
    ]
    return draw(st.sampled_from(forms))


@given(numbers)
def test_any_number_is_a_bare_ref(n: int) -> None:
    assert parse_pr_refs(f"see #{n} now") == [PRRef(None, n, f"#{n}")]


@given(st.integers(min_value=10_000_000, max_value=10**12))
def test_numbers_longer_than_seven_digits_are_not_refs(n: int) -> None:
    assert parse_pr_refs(f"see #{n} now") == []


@given(st.lists(ref_texts(), min_size=1, max_size=5), st.sampled_from(["`", "``", "```"]))
def test_refs_in_code_are_ignored(refs: list[tuple[str, object]], fence: str) -> None:
    body = " ".join(text for text, _ in refs)
    assert parse_pr_refs(f"before {fence}{body}{fence} after") == []


@given(st.from_regex(r"#[0-9a-f]{6}", fullmatch=True).filter(lambda s: not s[1:].isdigit()))
def test_hex_colours_never_match(colour: str) -> None:
    assert parse_pr_refs(f"color: {colour}; background {colour}") == []


@given(st.from_regex(r"#[a-z][a-z0-9-]*", fullmatch=True))
def test_channel_names_never_match(channel: str) -> None:
    assert parse_pr_refs(f"over in {channel} today") == []


@given(st.from_regex(r"#[0-9]{1,7}-[a-z0-9][a-z0-9-]*", fullmatch=True))
def test_numbered_channel_names_never_match(channel: str) -> None:
    assert parse_pr_refs(f"over in {channel} today") == []


@given(st.text())
def test_never_raises_and_results_are_sane(text: str) -> None:
    refs = parse_pr_refs(text)
    assert len({(r.repo.lower() if r.repo else None, r.number) for r in refs}) == len(refs)
    for ref in refs:
        assert 1 <= ref.number <= 9_999_999
        assert ref.raw in text


# Prose around an inserted reference: letters, spaces and punctuation, but nothing that can
# open a construct (#, digits, backticks, brackets, <, /, &).
prose = st.text(
    alphabet=st.characters(
        categories=["L", "Zs"], include_characters=".,;:!?()'\"-\n", exclude_characters="#"
    ),
    max_size=40,
)


@given(
    prose,
    ref_texts(),
    st.sampled_from([" ", "(", "\n", "\t", ": "]),
    st.sampled_from([" ", ".", ",", ")", ":", ";", "!", "?", "\n", ""]),
    prose,
)
def test_inserted_ref_is_found(
    before: str,
    ref: tuple[str, tuple[str | None, int]],
    open_sep: str,
    close_sep: str,
    after: str,
) -> None:
    text, key = ref
    message = f"{before}{open_sep}{text}{close_sep} {after}"
    # (after "Week " or "is ", a bare "#N" numbers a series or a rank: tested on its own)
    assume(not (text.startswith("#") and _numbers_a_series(message, message.index(text), key[1])))
    assert keys(message) == [key]


@given(owners, repos, numbers, st.sampled_from(["pull", "issues"]))
@pytest.mark.parametrize("suffix", ["", "/files", "#issuecomment-1", "?w=1", "."])
def test_url_round_trips_through_normalise(
    suffix: str, owner: str, repo: str, n: int, kind: str
) -> None:
    canonical = f"{owner}/{repo}#{n}"
    url = github_url(canonical, kind)
    assert url is not None
    refs = parse_pr_refs(f"see {url}{suffix} now")
    assert [normalise(r) for r in refs] == [canonical]
    assert github_url(normalise(refs[0]), kind) == url


# Self-delimiting tokens: references, look-alikes and words that do not interact with their
# neighbours, so repeating a text cannot create a new reference at the seam.
tokens = st.one_of(
    ref_texts().map(lambda pair: pair[0]),
    st.sampled_from(
        [
            "the",
            "merged",
            "PRs",
            "and",
            "#hero-run",
            "#2026-planning",
            "#ff0000",
            "&#12;",
            "`#5`",
            "```#6```",
            "<@123>",
            "<#C1|general>",
            "https://example.com/x#3",
            "## 2.",
        ]
    ),
)


@given(st.lists(tokens, max_size=8).map(" ".join))
def test_repeating_a_text_adds_nothing(text: str) -> None:
    # On a new line: joined by a space, a keyword ending the text ("PRs") would stand right
    # before a ref starting it ("#100"), which rightly makes a PR of a number that was bare
    # (Hypothesis found "#100 #1 <#C1|general> PRs").
    assert parse_pr_refs(text + "\n" + text) == parse_pr_refs(text)


def test_a_keyword_before_a_bare_number_makes_it_a_pr() -> None:
    assert parse_pr_refs("#100 #1 <#C1|general> PRs #100") == [
        PRRef(None, 1, "#1"),
        PRRef(None, 100, "PRs #100"),
    ]


def test_a_repo_name_that_starts_like_the_pr_keyword_is_a_short_ref() -> None:
    # Found by Hypothesis: "PR1#1" once read as the keyword "PR" and a bare #1.
    assert parse_pr_refs("PR1#1") == [PRRef("PR1", 1, "PR1#1")]
    assert parse_pr_refs("PR 1") == [PRRef(None, 1, "PR 1")]


# --- look-alikes only the whole message reveals ------------------------------------------


def test_a_numbered_list_is_not_a_list_of_prs() -> None:
    text = "How you can help: #1 keep an eye on the dashboard, #2 be patient, #3 file bugs"
    assert parse_pr_refs(text) == []
    assert parse_pr_refs("#1 and #2 are done, the real fix is #8538") == [
        PRRef(None, 8538, "#8538")
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Devlog #12 is up, with the new renderer",
        "Meetup #34 is on Thursday at the library",
        "Week #47 summary, episode #3 of the podcast and sprint #8 planning",
        "we're #1 on the leaderboard, ranked #2 last week",
        "the #1 request from users",
        "Build #4513 failed on main, I re-ran job #88 (pipeline #7)",
        "Modjam #4 starts Friday, and Hacktoberfest #5 after it",
        "Paper submitted! Submission #318, and Table #3 has the ablation",
        "Priority #1 target on Friday is the comet; step #2 is the darks",
        "first time ever I'm #1 on anything",
        "we're #2 on EN constrained now, with a 3B model",
        "It's rule #1 in the pinned laser rules",
        "*Widget Meetup Utrecht #4*: Thursday 29 October, 18:30",
        "#1 rule: safety glasses on when anyone is cutting",
        "They're team #12 on the list, and we placed #3 last year",
        "we're #23!! 2,150 pts. I'm #41 on the solo board, final #14 overall",
        "Is it agenda item #9 or #11? Sensor #17 is down again",
        "bus #601 then the #606? the crash is on line #212, we're in room #4",
        "skip task #12, tasks #1–#9 are the easy grid",
    ],
)
def test_a_number_in_a_series_or_a_rank_is_not_a_pr(text: str) -> None:
    assert parse_pr_refs(text) == []


def test_a_number_after_a_verb_or_an_issue_is_still_a_pr() -> None:
    text = "Merged #830, see #12, issue #5, the fix is #14 and let's run #15 on the cluster"
    assert [r.number for r in parse_pr_refs(text)] == [830, 12, 5, 14, 15]
    assert [r.number for r in parse_pr_refs("the fix is #2 in lab/main")] == [2]
    assert [r.number for r in parse_pr_refs("the fix is #12 or #13, item #4 or #14")] == [12, 13]
    assert [r.number for r in parse_pr_refs("#2 fixes the rule parser")] == [2]
    assert [r.number for r in parse_pr_refs("they're #812 and #813, both merged")] == [812, 813]


def test_a_lone_small_number_is_still_a_pr() -> None:
    assert parse_pr_refs("see #8538 and #2") == [PRRef(None, 8538, "#8538"), PRRef(None, 2, "#2")]


def test_digit_only_hex_colours_among_colours_are_not_prs() -> None:
    assert parse_pr_refs("theme: #112233 text on #ff8800") == []
    assert parse_pr_refs("set the background to #123456") == []
    assert parse_pr_refs("#123456 fixes the theme loader") == []  # a colour word nearby
    assert parse_pr_refs("#123456 fixes the loader") == [PRRef(None, 123456, "#123456")]
    # Three digits are a colour only beside a lettered one or right after a colour's word.
    assert parse_pr_refs("theme colours: #fff and #333, text colour #444") == []
    assert parse_pr_refs("theme: #982 adds dark mode") == [PRRef(None, 982, "#982")]
    assert [r.number for r in parse_pr_refs("#980 faster startup, #981 new theme API")] == [
        980,
        981,
    ]


def test_a_bare_ref_resolves_to_the_one_full_repo_the_week_names() -> None:
    week = ["#9197", "marin-community/marin#9197", "Levanter#12", "stanford/levanter#12", "#5"]
    assert resolve_in_week(week) == {
        "#9197": "marin-community/marin#9197",
        "Levanter#12": "stanford/levanter#12",
    }
    # Two repositories with that number: it stays as written.
    assert resolve_in_week(["#7", "a/b#7", "c/d#7"]) == {}


def test_a_github_notification_names_the_repository_of_its_bare_refs() -> None:
    text = "[quillstack/quill-orm] Pull request merged: #84 Release pooled connections"
    assert parse_pr_refs(text) == [PRRef("quillstack/quill-orm", 84, "#84")]


def test_a_bare_ref_is_the_other_repository_s_the_week_names_it_in() -> None:
    week = {
        ("pipelines", 329, "pipelines#329"): "org/pipelines#329",
        (None, 329, "#329"): "org/core#329",
        (None, 2214, "#2214"): "org/core#2214",
        ("org/charts", 212, "org/charts#212"): "org/charts#212",
        ("org/core", 212, "org/core#212"): "org/core#212",
        (None, 212, "#212"): "org/core#212",
    }
    assert bare_refs_elsewhere(week, "org/core") == {(None, 329, "#329"): "org/pipelines#329"}
    assert bare_refs_elsewhere(week, None) == {}
