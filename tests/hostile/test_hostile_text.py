"""One member cannot stall the bot with text: every function that runs on member text (PR
references, the Slack converter, the review page's previews) takes time linear in the text's
length on every adversarial shape (`tests.hostile.text_shapes`), measured as a growth ratio
between n and 4n characters, never against a clock budget. The converter's rewrite reads
links on ordinary text exactly as before."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core import mrkdwn
from bot.core.mrkdwn import escape, to_mrkdwn
from bot.discord.preview import discord_html
from bot.slack.preview import slack_html
from summarizer.newsletter import tidy
from summarizer.prrefs import parse_pr_refs
from summarizer.text import chat_lines, visible_length
from tests.hostile.text_shapes import SCALE, Shape, growth, seconds, worst_shapes

# Linear growth is SCALE (4); quadratic is SCALE ** 2 (16). Between them, room for noise.
LIMIT = 2.5 * SCALE
N = 1000

# The converter's link pattern before it was made linear, to compare on ordinary text.
_OLD_LINK_RE = re.compile(
    r"\[([^\]\n]+)\]\((https?://[^)\s]+)(?: &quot;[^\n]*?&quot;| \"[^\"\n]*\")?\)"
)


@pytest.mark.parametrize(
    "func",
    [parse_pr_refs, to_mrkdwn, slack_html, visible_length, chat_lines, tidy],
    ids=lambda f: f.__name__,
)
def test_no_adversarial_shape_makes_a_text_function_superlinear(func) -> None:  # noqa: ANN001
    slow = worst_shapes(func, N, LIMIT)
    assert not slow, f"{func.__name__} grows faster than linear on: {slow}"


STOPS_OVER_LETTERS = 40  # (about 12 here; 160 when each "No." had its own alternation)


def test_a_run_of_stops_costs_a_bounded_multiple_of_a_run_of_letters() -> None:
    """Every stop is a place a sentence may end: the abbreviations that end none ("Dr.",
    "No. 8") are ruled out there at a fixed cost, not one that doubles with each listed."""
    n = 40 * N
    assert seconds(tidy, "." * n) < STOPS_OVER_LETTERS * seconds(tidy, "a" * n)


@pytest.mark.parametrize(
    "shape",
    [
        Shape("PR then spaces", "PR", " "),  # took 13 s at 40,000 characters
        Shape("pull request: then tabs", "pull request:", "\t"),
        Shape("opening brackets", "", "["),  # the preview took 9.4 s
        Shape("unclosed links", "", "[a](http://x"),
        Shape("unclosed titled links", "", '[a](http://x "'),
    ],
    ids=lambda s: s.name,
)
def test_the_shapes_that_stalled_the_bot_grow_linearly(shape: Shape) -> None:
    for func in (parse_pr_refs, to_mrkdwn, slack_html):
        assert growth(func, shape, N) < LIMIT, func.__name__


def test_the_discord_preview_grows_linearly_on_opening_brackets() -> None:
    assert growth(discord_html, Shape("opening brackets", "", "["), N) < LIMIT


def test_pr_keywords_still_read_spaces_and_a_colon() -> None:
    refs = parse_pr_refs("PR  :  12, PRs:#13 and #14, pull request\t15")
    assert [r.number for r in refs] == [12, 13, 14, 15]
    assert parse_pr_refs("PR " + " " * 40_000) == []


_PIECES = [
    *("[#12]", "[a b]", "[", "]", "(https://github.com/o/r/pull/12", "(http://x.example/a_(b)"),
    *(' "Fix it, by bob"', '"', ")", "(", " ", "\n", "x", "**", "# ", "&", "<", ">", "|", "`"),
]


@settings(max_examples=500)
@given(st.lists(st.sampled_from(_PIECES), max_size=16).map("".join))
def test_links_without_nested_brackets_convert_as_before(sample: str) -> None:
    escaped = escape(sample)
    if any("[" in m[1] or "[" in m[2] or "]" in m[2] for m in _OLD_LINK_RE.finditer(escaped)):
        return  # a bracket inside a label or URL: read as Markdown reads it now (see below)
    before = _OLD_LINK_RE.sub(lambda m: f"<{m[2]}|{m[1]}>", escaped)
    before = mrkdwn._HEADING_RE.sub(r"*\1*", mrkdwn._BOLD_RE.sub(r"*\1*", before))
    assert to_mrkdwn(sample) == before


def test_a_bracket_before_a_link_stays_text() -> None:
    assert to_mrkdwn("[[#12](https://github.com/o/r/pull/12)") == (
        "[<https://github.com/o/r/pull/12|#12>"
    )
