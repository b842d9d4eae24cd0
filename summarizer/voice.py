"""Telling a newsletter's sentence from pasted chat.

A summary item reads as chat when it carries one of these markers:

- `paste`: a "**Name**: quote" label, a speaker's words pasted under their name;
- `first person`: "I", "we", "my", "our"... outside quotation marks;
- `emoji`: an emoji character or a `:code:`;
- `mention`: an @mention;
- `reply opener`: a sentence opening as a reply does ("Yes,", "Not yet", "Thanks", "lol");
- `lower-case start`: a sentence starting with a lower-case word.

Code spans, link targets, URLs and quoted words are not judged: "`uv` is now the default" and
'Ana called it "our best run"' are a newsletter's sentences. The drafters use `markers` to
keep chat out of what they write; the quality benchmark counts it with `chat_voice`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_LIST_ITEM_RE = re.compile(r"^\s{0,3}(?:[-*+•]|\d{1,3}[.)])\s+")
CODE_SPAN_RE = re.compile(r"`[^`\n]{0,400}`")
_LINK_RE = re.compile(r"\[([^\]\n]{0,400})\]\([^)\s]{0,2000}(?:\s\"[^\"\n]{0,400}\")?\)")
_URL_RE = re.compile(r"\bhttps?://\S{1,2000}")
# Quoted words are someone's words, shown as such: "…", “…”, '…' between word edges, and a
# title of three words or more in italics ("_how far can we trust them?_", "*what the port
# taught us*").
QUOTE_RE = re.compile(
    r"\"[^\"\n]{0,600}\"|“[^”\n]{0,600}”|(?<!\w)'[^'\n]{0,600}'(?!\w)"
    r"|(?<![\w_])_(?=[^_\n]{0,600}?\s[^_\n]{0,600}?\s)[^_\n]{5,600}_(?![\w_])"
    r"|(?<![\w*])\*(?=[^*\n]{0,600}?\s[^*\n]{0,600}?\s)[^*\n]{5,600}\*(?![\w*])"
)
# (opening the item or a sentence of it: "Working bee this **Sunday 24 May**: clearing out
# the rack" stresses a date, pasting nobody's words)
_PASTE_RE = re.compile(r"(?:^|(?<=[.!?]\s))\*\*[^*\n]{1,80}\*\*\s?(?::|wrote:)")
_FIRST_PERSON_RE = re.compile(
    # (not a letter among letters: "an H or I motor")
    r"(?<![\w'’/-])(?:(?<!\b[A-Z] or )(?<!\b[A-Z] and )(?<!\b[A-Z], )I"
    r"|I['’](?:m|ve|ll|d)|[Mm](?:e|y|ine|yself)|[Ww]e(?:['’](?:re|ve|ll|d))?"
    r"|[Uu]s|[Oo]ur(?:s|selves)?)(?![\w'’/-])"
)
# A title's words before its numeral "I", inside a sentence: "an offer as a Software
# Engineer I at ..." (no one speaks there).
TITLE_WORDS = r"(?<=[a-z] )[*_]{0,2}(?:[A-Z][a-z]+ ){2,}"
_TITLE_I_RE = re.compile(rf"{TITLE_WORDS}I\b")
# An emoji character (with its variation selector or joiner), a `:code:` or a face typed in
# punctuation (":-)", " ;P"); the drafters remove what this finds.
EMOJI_RE = re.compile(
    r"[\u2600-\u27bf\u2b50\u2b55\ufe0f\u200d\U0001f000-\U0001faff]"
    r"|(?<![\w:]):[a-z0-9_+-]{1,40}:(?![\w:])"
    r"|[:;]-[()DPp](?![\w()])|(?<!\S)[:;][()DP](?![\w()])"
)
# How every emoji EMOJI_RE finds begins, its look-arounds left out: where this finds nothing,
# EMOJI_RE finds nothing either. It opens with a set of characters, which the regex engine
# skips to, while EMOJI_RE's look-behinds make it try every place ("16:00", "https:").
EMOJI_START_RE = re.compile(
    r"[\u2600-\u27bf\u2b50\u2b55\ufe0f\u200d\U0001f000-\U0001faff]|:[a-z0-9_+-]{1,40}:|[:;]-?[()DPp]"
)
_MENTION_RE = re.compile(r"(?<![\w.])@[A-Za-z0-9_][\w.-]{0,80}|<@[!&]?\w{1,40}>")
# Openers that are replies wherever they stand, and words that are replies only when
# punctuation follows them ("No, not yet" is a reply; "No regressions were found" is not).
_REPLY_RE = re.compile(
    r"(?:yes|yeah|yep|yup|nope|not yet|agreed|thanks(?! to\b)|thank you(?! to\b)|thx|thnx|ty|"
    r"lol|lmao|haha\w*|"
    r"heh|hmm+|oh|ah|ok|okay|exactly|sounds good|makes sense|good (?:question|point|catch)|"
    r"\+1|lgtm)\b(?!-\w)"  # ("Exactly-once sinks" opens no reply)
    r"|(?:no|right|sure|same|true|fair|nice|cool|great|correct|indeed|yes|known|no need"
    r"|of course|absolutely|definitely)[,.!]",
    re.IGNORECASE,
)
# (An abbreviation's stop ends no sentence: "Debug, Eq etc. on the number types".)
_SENTENCE_START_RE = re.compile(
    # (not after a name's initial: "Priya N. fixed the sheet")
    r"(?:^|(?<!\betc)(?<!\be\.g)(?<!\bi\.e)(?<!\bvs)(?<!\s[A-Z])[.!?]\s+)([\w+*]\S*)"
)
_LOWER_WORD_RE = re.compile(r"[a-z]+[,;:]?")


@dataclass(frozen=True, slots=True)
class VoiceReport:
    """How many of a text's items read as chat, and which markers each of those carries."""

    items: int
    chat: list[tuple[str, tuple[str, ...]]]  # (item, its markers) for each item read as chat

    @property
    def share(self) -> float:
        """The share of items that read as chat (0 for no items)."""
        return len(self.chat) / self.items if self.items else 0.0


def items(markdown: str) -> list[str]:
    """The items of a summary: each list item (with its continuation lines) and each prose
    paragraph; headings, block quotes, tables and code blocks are not items."""
    found: list[str] = []
    current: list[str] = []
    fenced = False

    def close() -> None:
        if current:
            found.append(" ".join(current))
            current.clear()

    for line in markdown.splitlines():
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            fenced = not fenced
            close()
            continue
        if fenced or not stripped or stripped.startswith(("#", ">", "|")):
            close()
            continue
        bullet = _LIST_ITEM_RE.match(line)
        if bullet:
            close()
            stripped = line[bullet.end() :].strip()
        current.append(stripped)
    close()
    return found


def markers(item: str) -> tuple[str, ...]:
    """The chat markers `item` carries (see the module docstring), in a fixed order."""
    found = []
    if _PASTE_RE.search(item):
        found.append("paste")
    # (a link's label is its page's title, as written: quoted)
    text = _URL_RE.sub("URL", _LINK_RE.sub(r'"\1"', item))
    text = CODE_SPAN_RE.sub("Code", text)
    unquoted = QUOTE_RE.sub("Quote", text)
    if " I" in unquoted:
        unquoted = _TITLE_I_RE.sub("Title", unquoted)
    if _FIRST_PERSON_RE.search(unquoted):
        found.append("first person")
    if EMOJI_RE.search(text):
        found.append("emoji")
    if _MENTION_RE.search(text):
        found.append("mention")
    plain = unquoted.replace("**", "").replace("__", "")
    starts = [m.start(1) for m in _SENTENCE_START_RE.finditer(plain)]
    if "(" in plain:
        starts = _outside_brackets(plain, starts)
    if any(_REPLY_RE.match(plain, start) for start in starts):
        found.append("reply opener")
    if any(_lower_word(plain, start) for start in starts):
        found.append("lower-case start")
    return tuple(found)


def _outside_brackets(text: str, starts: list[int]) -> list[int]:
    """The `starts` (in order) not inside brackets: a stop inside them ends no sentence
    ("Adoration (arr. for strings)")."""
    kept, depth, at = [], 0, 0
    for start in starts:
        depth += text.count("(", at, start) - text.count(")", at, start)
        at = start
        if depth <= 0:
            kept.append(start)
    return kept


def _lower_word(text: str, start: int) -> bool:
    """Whether a plain lower-case word starts at `start` ("the", not "vLLM" or "x86_64")."""
    end = text.find(" ", start)
    word = text[start : end if end != -1 else len(text)]
    return bool(_LOWER_WORD_RE.fullmatch(word.rstrip(".!?")))


def chat_voice(markdown: str) -> VoiceReport:
    """How much of `markdown` reads as pasted chat: its items and those carrying markers."""
    listed = items(markdown)
    chat = [(item, found) for item in listed if (found := markers(item))]
    return VoiceReport(items=len(listed), chat=chat)
