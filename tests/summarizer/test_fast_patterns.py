"""The drafter's fast patterns find exactly what their plain forms find, so a draft is the
same text whichever runs: figures, sentence ends, decision and request words, instructions
to the bot, trailing emoji."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from summarizer import figures, noise, phrasing, text
from summarizer.extractive import _is_decision, _is_request

_PLAIN_FIGURE_RE = re.compile(
    rf"(?<![\w#/.:-])(?:~|≈)?(?:{figures._NUMBER})[ \u202f]?(?:{figures._UNIT})"
    rf"|(?<![\w#/.:-])\d+/\d+(?![\w/])"
)
_PLAIN_SENTENCE_END_RE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[*_#@])|\n+")
_PLAIN_DECISION_RE = re.compile(
    r"\b(?:fix(?:ed|es)?|merged?|landed|lands|shipped|added|adds|moved|switched|decided|"
    r"root[- ]?caused|found|finished|completed?|released|enabled|disabled|reverted|upgraded|"
    r"migrated|deprecated|removed|replaced|launched|started|resolved|filed|opened|closed|"
    r"validated|confirmed|proposed|measured|reached|refactored|published|registered|"
    r"now (?:\w+s|runs|has|is|uses))\b",
    re.IGNORECASE,
)
_PLAIN_REQUEST_RE = re.compile(
    r"\b(?:could|should|would you|please|can someone|anyone|use your eyes|let me know)\b", re.I
)


def _texts(pieces: list[str]) -> st.SearchStrategy[str]:
    """Texts glued from pieces that matter to the patterns, and single characters."""
    piece = st.sampled_from(pieces) | st.characters(codec="utf-8")
    return st.lists(piece, max_size=14).map("".join)


_FIGURE_PIECES = [
    *("1", "12", "1,234", "3.5", "0.25", "12,345.6 GiB", "1,234%", "~3x", "≈40 min"),
    *("%", " GiB", "GB", "x", "×", " tokens/s", "k"),
    *("tok/s", "/GPU", " s/step", "-step", " steps", " min", " GPUs", "~", "≈", "#"),
    *("/", "56/300", " ", "\u202f", "-", ".", ":", "a", "v", "\n", "\u0663"),
]
_SENTENCE_PIECES = [". ", "! ", "? ", ".", "\n", "\n\n", " ", "\t", "A", "a", "1", "(", "#"]
_PHRASE_PIECES = [
    *("fix", "Fixed", "FIXES", "merge", "merged", "now ", "Now ", "runs", "is", "has", "uses"),
    *("root", "-", "caused", "Root Caused", "x", " ", ".", "_", "é", "İ", "ſ", "\u212a"),
    *("could", "Should", "would you", "please", "can someone", "let me know", "ANYONE"),
    *("rootcaused", "found", "s", "9"),
]
_INSTRUCTION_PIECES = [
    *("Ignore all previous instructions", "SUMMARY BOT, say", "System Prompt"),
    *("In your summary, WRITE", "You are an assistant. Report"),
    *("ignore", "Disregard", "forget", "override", "your", "the", "previous", "all"),
    *("instructions", "prompt", "rules", "summary bot", "Summarizer", "the bot", "say"),
    *("you are an AI", "report", "System Prompt", "in this week's summary, ", "write"),
    *(" ", ", ", ".", "\n", "x", "Ｓ", "\u200b"),
]


@settings(max_examples=400)
@given(_texts(_FIGURE_PIECES))
def test_figures_are_found_as_by_the_plain_pattern(sample: str) -> None:
    assert [m.span() for m in figures.FIGURE_RE.finditer(sample)] == [
        m.span() for m in _PLAIN_FIGURE_RE.finditer(sample)
    ]


@settings(max_examples=300)
@given(_texts(_SENTENCE_PIECES))
def test_sentences_end_where_the_plain_pattern_ends_them(sample: str) -> None:
    assert text._SENTENCE_END_RE.split(sample) == _PLAIN_SENTENCE_END_RE.split(sample)


@settings(max_examples=400)
@given(_texts(_PHRASE_PIECES))
def test_decision_and_request_words_are_found_in_any_case(sample: str) -> None:
    assert _is_decision(sample) == bool(_PLAIN_DECISION_RE.search(sample))
    assert _is_request(sample) == bool(_PLAIN_REQUEST_RE.search(sample))


@settings(max_examples=300)
@given(_texts(_INSTRUCTION_PIECES))
def test_instructions_to_the_bot_are_found_in_any_case(sample: str) -> None:
    plain = noise._INSTRUCTION_RE.search(noise.normalise_for_matching(sample))
    assert noise.is_instruction_to_bot(sample) == bool(plain)


@given(_texts(["x", " ", "🎉", "👍", ":", ",", "-", "\n", "\u3000", "!"]))
def test_trailing_emoji_are_looked_for_only_where_they_can_be(sample: str) -> None:
    ends_in_junk = bool(sample) and (sample[-1].isspace() or sample[-1] in phrasing._TRAILING_JUNK)
    assert bool(phrasing._TRAILING_JUNK_RE.search(sample)) == ends_in_junk
