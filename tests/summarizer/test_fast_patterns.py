"""The drafter's fast patterns find exactly what their plain forms find, so a draft is the
same text whichever runs: figures, sentence ends, decision and request words, instructions
to the bot or the summary, trailing emoji, a text's signs of news, self-introductions, and
sentences whose stop chat left out."""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from summarizer import addressed, figures, grouping, noise, phrasing, signals, text
from summarizer.facts import (
    _SENTENCE_GAP_RE,
    _is_decision,
    _is_of_the_moment,
    _is_request,
    _split,
)

_PLAIN_FIGURE_RE = re.compile(
    rf"(?<![\w#/.:-])(?:~|≈)?(?:{figures._NUMBER})[ \u202f]?(?:{figures._UNIT})"
    rf"|(?<![\w#/.:-])\d+/\d+(?![\w/])"
    rf"|(?<=[$€£])(?:{figures._NUMBER})(?:[kKmM]\b)?"
    r"|(?<=(?<!\w)[+−±])\d+\.\d+(?![\w.])"
    r"|(?<![\w#/.:-])\d{1,3}(?:,\d{3})+(?![\d,])"
)
_PLAIN_SENTENCE_END_RE = re.compile(
    r"(?:(?<=[.!?])|(?<=[.!?][*_])|(?<=[.!?]\*\*))\s+(?=[A-Z0-9\"'(\[*_#@])|\n+"
)
_PLAIN_DECISION_RE = re.compile(
    r"\b(?:fix(?:ed|es)?|merged?|landed|lands|shipped|added|adds|moved|switched|decided|"
    r"decision|"
    r"root[- ]?caused|found|finished|completed?|released|enabled|disabled|reverted|upgraded|"
    r"migrated|deprecated|removed|replaced|launched|started|resolved|filed|opened|closed|"
    r"validated|confirmed|proposed|measured|reached|refactored|published|registered|"
    r"approved|accepted|awarded|granted|renewed|won(?![’'])|"
    r"now (?:\w+s|runs|has|is|uses))\b",
    re.IGNORECASE,
)
_PLAIN_REQUEST_RE = re.compile(
    r"\b(?:could (?:you|someone|somebody|anyone|we|i)|should|would you|please|can someone|"
    r"anyone(?<!for anyone)|use your eyes|let me know|"
    r"if you (?:like|want|wish|are interested|.re interested))\b",
    re.I,
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
    *("$", "£", "$1,200", "M", "€15k"),
    *("h", "m", "s", "2h10m", "41h12m5s", "3m10s", "+", "−", "±", "+5.8", "±0.27"),
    *(" votes", " sign-ups", " players", " contributors", "31,540", "612,904", ","),
]
_SENTENCE_PIECES = [
    ". ",
    "! ",
    "? ",
    ".",
    "\n",
    "\n\n",
    " ",
    "\t",
    "A",
    "a",
    "1",
    "(",
    "#",
    "*",
    "_",
]
_SENTENCE_PIECES += [".** ", ".* ", "._ ", "!** "]
_PHRASE_PIECES = [
    *("fix", "Fixed", "FIXES", "merge", "merged", "now ", "Now ", "runs", "is", "has", "uses"),
    *("root", "-", "caused", "Root Caused", "x", " ", ".", "_", "é", "İ", "ſ", "\u212a"),
    *("could", "Should", "would you", "please", "can someone", "let me know", "ANYONE"),
    *("could ", "COULD we", "could i", "you", "someone", " we"),
    *("rootcaused", "found", "s", "9", "if you ", "IF YOU", "like", "want", "'re interested"),
    *("won", "won't", "Won’t"),
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
@example(sample="$12,345.6 GiB1")  # (money with thousands was read as a bare count)
def test_figures_are_found_as_by_the_plain_pattern(sample: str) -> None:
    assert [m.span() for m in figures.FIGURE_RE.finditer(sample)] == [
        m.span() for m in _PLAIN_FIGURE_RE.finditer(sample)
    ]


@settings(max_examples=300)
@given(_texts(_SENTENCE_PIECES))
def test_sentences_end_where_the_plain_pattern_ends_them(sample: str) -> None:
    assert text._SENTENCE_END_RE.split(sample) == _PLAIN_SENTENCE_END_RE.split(sample)


@settings(max_examples=300)
@given(_texts(["a. b", "x. y", "e.g. a", " ", "😬", "🎉", ":", ";", "-", ")", "A", "`", "a", "é"]))
def test_a_sentence_splits_where_chat_left_out_its_stop_as_by_the_whole_pattern(
    sample: str,
) -> None:
    assert _split(sample) == _SENTENCE_GAP_RE.split(sample)


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


_ADDRESSED_PIECES = [
    *("Dear digest bot:", "note for the newsletter writer", "whoever writes", "the recap"),
    *("report in the", "weekly", "Weekly  Update", "weekly\nreport", "notes", "post", "update"),
    *("write-up", "writeup", "write up", "round-up", "roundup", "round up", "summary", "should"),
    *("say", "ignore", "your", "previous", "instructions", "rules", "directions", "prompt"),
    *("you are now", "You  are\tnow", "you", "are", "now", "language model", "language\n model"),
    *(" ", "  ", "\n", "\t", ".", "-", "x", "Ｄ", "dіgеst", "\u200b", "é"),
]
_NEWS_PIECES = [
    *("http", "https://x.org", " uploaded a file: ", " a file: ", "on ", "this ", "next "),
    *("Friday", "saturday", "Oct 17", "17 October", "3rd", "may", "sept", " ", "\n", "."),
    *("v2.1", "3.2.0rc1", " release", "released", " is out", "held-out", "-out", "out"),
    *("now available", "available", "ship", "shipping", "1", "12", "x", "é", "\u0663"),
]
_INTRO_PIECES = [
    *("I'm a", "i am an ", "Im ", "I'm Ana", "I am Luca", "my name is", "MYSELF", "new here"),
    *("Just joined", "first post", "long-time lurker", "LONG TIME LURKER", "been lurking"),
    *("introduce myself", "quick intro", "glad to be here", "excited to join", "excited to"),
    *(" ", "\n", ".", "x", "a", "A", "İ", "ſ", "\u212a", "é", "'"),
]


@settings(max_examples=300)
@given(_texts(_ADDRESSED_PIECES))
def test_messages_to_the_summary_are_found_as_without_the_cue_words(sample: str) -> None:
    plain = addressed.normalised(sample)
    assert addressed.is_addressed(sample) == bool(addressed._ADDRESSED.search(plain))


@settings(max_examples=300)
@given(_texts(_NEWS_PIECES))
def test_a_text_shows_something_where_its_text_gain_is_above_zero(sample: str) -> None:
    assert signals.shows_something(sample) == (signals.text_gain(sample) > 0)


@settings(max_examples=300)
@given(_texts(_INTRO_PIECES))
def test_who_one_is_is_found_in_any_case(sample: str) -> None:
    found = grouping._says_who_or_new(sample, sample.lower())
    assert found == bool(grouping._SELF_OR_NEWCOMER_RE.search(sample))


@given(_texts(["x", " ", "🎉", "👍", ":", ",", "-", "\n", "\u3000", "!"]))
def test_trailing_emoji_are_looked_for_only_where_they_can_be(sample: str) -> None:
    ends_in_junk = bool(sample) and (sample[-1].isspace() or sample[-1] in phrasing._TRAILING_JUNK)
    assert bool(phrasing._TRAILING_JUNK_RE.search(sample)) == ends_in_junk


def test_the_fast_scan_leaves_a_name_s_capital_to_the_plain_pattern() -> None:
    starting = "so I'm starting monthly updates"
    assert not grouping._says_who_or_new(starting, starting.lower())
    assert grouping._says_who_or_new("Hi, I'm Mei.", "hi, i'm mei.")


_KEYWORD_PIECES = ["hero", " run", "hero run", "iris", "k8s", "+1", "a.b", "x", " ", "-", "_"]
_KEYWORD_TEXT_PIECES = [*_KEYWORD_PIECES, "é", "\n", ".", "heros", "xhero", "1"]


@settings(max_examples=300)
@given(
    st.lists(st.sampled_from(_KEYWORD_PIECES), min_size=1, max_size=3).map("".join),
    st.lists(st.lists(st.sampled_from(_KEYWORD_PIECES), min_size=1, max_size=3).map("".join)),
    _texts(_KEYWORD_TEXT_PIECES),
)
def test_keywords_are_found_as_by_the_plain_alternation(
    first: str, more: list[str], sample: str
) -> None:
    # (longest first, as the scorer orders them; with and without a keyword that another
    # one extends, so both the trie and the plain layout are checked)
    words = sorted(dict.fromkeys([first, *more]), key=len, reverse=True)
    plain = re.compile(rf"(?<!\w)(?:{'|'.join(map(re.escape, words))})(?!\w)")
    assert grouping._keywords_regex(words).findall(sample) == plain.findall(sample)


@settings(max_examples=300)
@given(_texts(["today", "Tonight", "this morning", "this evening", "right now", "x", " ", "."]))
def test_words_of_the_moment_are_found_in_any_case(sample: str) -> None:
    plain = re.compile(r"\b(?:today|tonight|this (?:morning|afternoon|evening)|right now)\b", re.I)
    assert _is_of_the_moment(sample) == bool(plain.search(sample))
