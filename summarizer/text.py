"""Text helpers shared by the drafters: sentences, words, and making chat text safe to publish."""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Sequence

from summarizer.tables import table_line
from summarizer.voice import EMOJI_RE

# (with the line break before it, where the line it ends says no stop: a table is said on
# the line of the words introducing it or of its title)
# (with the word a sentence ran into it with: "every job fails at `get` with\n```...")
_CODE_BLOCK_RE = re.compile(
    r"(?P<dangling> (?:with|at|to|of|from|by|like|as|and|or|the|a|an|is|was|into|in|on))?"
    r"(?P<block>(?:(?<=[^.!?\s])[ \t]*\n)?(?:```.*?(?:```|\Z)|~~~.*?(?:~~~|\Z)))",
    re.DOTALL,
)
# A sentence ends at white space after . ! or ? before what can start one, or at a newline:
# `(?<=[.!?])\s+(?=[A-Z0-9"'(\[*_#@])|\n+`, written to open with the white space itself so
# that the regex engine skips straight to it instead of trying every character.
# (a stop may be followed by the marks closing bold or italic text: "**Update now.** The ...";
# a title's stop ends nothing: "Dr. Amara Osei will speak", "St. Louis city", nor an
# address's, "Av. Tamaulipas 66", or an abbreviation's: "$5,110 (incl. Hartwell's $2,000)")
# (the words whose stop is an abbreviation's)
ABBREVIATIONS = (
    *("Dr", "Mr", "Mrs", "Ms", "Prof", "St", "Mt", "Jr", "Sr"),
    *("Av", "Ave", "Blvd", "vs", "incl", "approx"),
)
# ... and those that stop no sentence before a number: "FIDE Art. 6.9", "Fig. 3", "Vol. 2"
NUMBERING = ("Art", "Nr", "No", "Op", "Fig", "Sec", "Ch", "Vol", "pp", "Eq")


def not_after_abbreviation(gap: str = "") -> str:
    """A pattern that holds where the text before is none of the `ABBREVIATIONS` with its
    stop, then `gap` (a pattern of fixed width; none: the text after is spaces first), nor
    an initial opening an item of a list, nor one of the `NUMBERING` before a number."""
    ahead = "" if gap else r"\s+"
    # (nor an initial opening an item of a list: "; R. Fenwick 1-0 Kwame Mensah")
    initial = rf"(?<![;,:]\s[A-Z]\.{gap})"
    # (one lookahead for all of them, which cannot backtrack: an alternation per word gave
    # the regex engine two ways through each, 2 ** len(NUMBERING) at every stop)
    numbered = "|".join(rf"(?<=\b{word}\.{gap})" for word in NUMBERING)
    return (
        initial
        + "".join(rf"(?<!\b{word}\.{gap})" for word in ABBREVIATIONS)
        + rf"(?!(?:{numbered}){ahead}\d)"
    )


_SPACE = r"\s"
_SENTENCE_END_RE = re.compile(
    rf"\s(?:(?:(?<=[.!?]\s){not_after_abbreviation(_SPACE)}"
    r"|(?<=[.!?][*_]\s)|(?<=[.!?]\*\*\s))"
    r"\s*(?=[A-Z0-9\"'(\[*_#@])|(?<=\n)\n*)"
)
# Chat starts sentences in lower case: "fixed in #12. the old path is gone." ("e.g. the",
# "19th c. newspapers", a name's initial, "Priya N. fixed it", are one sentence).
LOWER_START_RE = re.compile(
    r"\s(?:(?<=[A-Za-z0-9)\]`][.!?]\s)|(?<=[A-Za-z0-9)\]][!?][!?]\s))"  # ("today!! thank")
    r"(?<!e\.g\.\s)(?<!i\.e\.\s)(?<!vs\.\s)(?<!\s[a-zA-Z]\.\s)(?=[a-z])"
)
_WORD_RE = re.compile(r"[a-z0-9]++(?:['.][a-z0-9]++)*+")  # (possessive: nothing to retry)
_WS_RE = re.compile(r"[ \t]+")
# Speaking for oneself, or for one's team ("We're evaluating X for our maps").
# The English words a message opens with to greet ("hii", "Hello", "good morning"), as a
# pattern for a regex's alternatives.
GREETING = r"hi+|hel+o+|hey+|hiya|heya|greetings|howdy|good (?:morning|evening|afternoon)"
FIRST_PERSON_RE = re.compile(r"\b(?:i|i'm|i've|my|me|we|we're|we've|our)\b", re.IGNORECASE)
LIST_HEADING_WORDS = 3
# Words no clause ends on: what follows them is theirs ("the 🎙️ Office Hours stage").
_PHRASE_OPENERS = "the a an our my your their its this that to of in on at for with"
PHRASE_OPENERS = frozenset(_PHRASE_OPENERS.split())
LIST_LEAD_WORDS = 5  # a statement before a list's few introducing words
LIST_INTRO_CHARS = 60  # ... which are at most this long
TITLE_LINE_WORDS = 8  # a bold line this short over others is their heading
# A list said in one line: this many items, each this short.
MIN_INLINE_ITEMS = 2
MAX_INLINE_ITEMS = 6
INLINE_ITEM_WORDS = 12
WHOLE_LIST_WORDS = 50  # a list said whole stays one sentence of a bullet
# The few words that introduce the list under a line, after what the line says: "ENG 101 is
# closed Dec 1-8, so we lose our main room, options:", "... lose the room 😩 two choices:".
_LIST_INTRO_RE = re.compile(
    rf"(?:,(?!\d)|\s[—–-]|(?:\s?(?:{EMOJI_RE.pattern}))+)\s*(?:[^\s.!?]+\s){{0,2}}\S+:$"
)
_UNMARKED_INTROS = frozenset(["are", "is", "were", "include", "includes"])
_BULLET_RE = re.compile(r"^\s*(?:[-*•+]|\d{1,2}[.)])\s+(?:\[[ xX]\]\s+)?")
# An item that cites a PR or holds a link keeps its line (one that labels a value, "Fixed:
# the rounding", is said with the others).
_OWN_LINE_RE = re.compile(r"#\d|://")
_PR_NUMBER_RE = re.compile(r"#\d")
_ASIDE_RE = re.compile(r" \((?:[^()\s]+ ){2,}[^()\n]*\)")  # (three words or more)
# A line that is all bold or italic ("*Release plan*", "_Weekly update_"): a heading.
_BOLD_LINE_RE = re.compile(r"\*{1,2}([^*\n]{1,80})\*{1,2}:?|_{1,2}([^_\n]{1,80})_{1,2}:?")
# (a task list's box comes after its mark: "- [x] freeze the branch")
_LIST_MARK_RE = re.compile(r"^\s*(?:[-*•+]|\d+[.)]|#{1,6})\s+(?:\[[ xX]\]\s+)?")
# Lines that are not prose: list items, quotes, tables, and Slack's file-upload notices
# ("@Ana Ruiz uploaded a file: plot.png"; one that goes on "and commented: ..." is prose).
_NOT_PROSE_RE = re.compile(
    r"^\s*(?:[-*•+]\s|\d{1,2}[.)]\s|#\d{1,2}\s|>|\|"
    r"|(?:\S+ ){1,4}(?:uploaded|shared) a file\b(?!.*\band commented\b))"
)
# What Discord's markdown strikes out, hides or puts in small print: "~~old~~", "||spoiler||"
# and a line of subtext ("-# ping me if it breaks"), an aside.
_HIDDEN_RE = re.compile(
    r"~~(?=\S)[^~\n]{1,200}(?<=\S)~~|\|\|(?=\S)[^|\n]{1,200}(?<=\S)\|\||^-# [^\n]*"
    # Slack strikes out with one tilde ("~moved to Wednesday~"; "~6s, not ~3min" is no strike)
    r"|(?<![\w~])~(?=[^\s\d~])[^~\n]{1,200}(?<=\S)~(?![\w~])",
    re.MULTILINE,
)
# Slack's emoji codes (":simple_smile:"), but not clock times ("10:30:00", "9:30am: open
# day") nor a word's colons ("gradlew :android:assembleDebug").
EMOJI_CODE_RE = re.compile(r"(?<!\d):(?=[0-9+-]*+[a-z_])[a-z0-9_+-]*+:(?![A-Za-z0-9])")
# Emoji codes where chat left out a stop: "4.2.0 is released :tada: Exactly-once sinks ...",
# "thanks to our sponsors :heart: *Acme* bought ..."; or a dash: "#12 merged :tada: the cache
# now has a quota" (as `summarizer.newsletter` reads an emoji).
_EMOJI_CODE_GAP_RE = re.compile(
    rf"(?<=[\w*_]) ?(?:{EMOJI_CODE_RE.pattern} ?)+ "
    r"(?:(?=[A-Z`]|[*_]+[A-Z])|(?P<dash>(?=[a-z0-9])(?!https?:)))"
)
_EMOJI_AFTER_STOP_RE = re.compile(rf"([.!?]) ?(?:{EMOJI_RE.pattern})+(?= )")
_MASS_MENTION_RE = re.compile(
    r"<!(?:here|channel|everyone)(?:\|[^>]*)?>|@(?:everyone|here|channel)\b"
)
# A time of day: "16:00", "7pm", "9:30 am".
CLOCK_RE = re.compile(r"\b\d{1,2}(?::\d{2}\s?(?:[ap]m)?|\s?[ap]m)\b", re.IGNORECASE)
# A bare link ("https://..."), up to the next white space.
URL_RE = re.compile(r"https?://\S+")
# What chat says to whoever reads it: "you", "your", "y'all" ("you're" holds "you").
_TO_THE_READER_RE = re.compile(r"\b(?:you|your|y'all)\b", re.IGNORECASE)
_MARKDOWN_LINK_RE = re.compile(r"\[([^\[\]\n]*+)\]\([^()\[\]\s]*+(?:\s\"[^\"\n]*+\")?\)")

# Anything that would notify people if published as-is on Discord or Slack.
_PING_RES = (
    (re.compile(r"<!(?:here|channel|everyone)(?:\|[^>]*)?>"), "everyone"),
    (re.compile(r"<!subteam\^[A-Z0-9]+(?:\|@?([^>]*))?>"), r"\1"),
    (re.compile(r"<@[!&]?[A-Z0-9]+(?:\|([^>]*))?>"), r"\1"),
    (re.compile(r"@(everyone|here|channel)\b"), r"\1"),
)


def strip_code_blocks(text: str) -> str:
    """The text without fenced code blocks (their content is not prose), except a table of
    figures, said as a line of its own (`summarizer.tables`)."""
    if "```" not in text and "~~~" not in text:
        return text
    return _CODE_BLOCK_RE.sub(_block_as_prose, text)


TABLE_TITLE_WORDS = 12  # a line this short over a table, ending in no stop, is its title


def _block_as_prose(found: re.Match[str]) -> str:
    block, dangling = found["block"], found["dangling"] or ""
    line = table_line(block)
    text, start = found.string, found.start("block")
    introduced = text.endswith(":", 0, start)
    broken = "\n" if block[:1] in " \t\n" and not introduced else ""  # (the break it took)
    if line is None:
        code = _one_line_code(block)
        # (a command the sentence runs into: "repack with\n```\nhmpak repack ...\n```")
        if code and not introduced and text[:start].rstrip()[-1:].isalpha():
            return f"{dangling} `{code}`\n"
        # (a sentence running into a longer block ends before the word that led into it)
        return f"{broken} "
    # (said with the words that introduce it: "numbers from the bench rig: p50: 61 ms ...",
    # or the title over it: "**Weekly numbers** (Mon-Sun): Loader: 2.7.1 ...")
    if introduced:
        return f"{dangling} {line}\n"
    title = text[text.rfind("\n", 0, start) + 1 : start].strip()
    if broken and title and len(title.split()) <= TABLE_TITLE_WORDS:
        return f"{dangling}: {line}\n"
    return f"{dangling}{broken}\n{line}\n"


def _one_line_code(block: str) -> str:
    """The one line of code a fenced block holds ("" for none or several), without its
    fences and language tag."""
    lines = [line.strip() for line in block.strip().splitlines()[1:] if line.strip()]
    if len(lines) == 2 and lines[1] in ("```", "~~~") and "`" not in lines[0]:
        return lines[0]
    return ""


def without_hidden(text: str) -> str:
    """`text` without what it strikes out, hides or puts in small print (`_HIDDEN_RE`)."""
    if "~" in text or "||" in text or "-# " in text:
        return _HIDDEN_RE.sub("", text)
    return text


# Emoji that stand for a letter or a number ("🅱️ wins 13-6", "1️⃣ The Old Mill", Slack's ":b:
# wins"): a vote's options and results are said with them.
_SYMBOLS = {
    "\U0001f170": "A", "\U0001f171": "B", "\U0001f17e": "O", "\U0001f17f": "P",
    "\U0001f51f": "10", ":a:": "A", ":b:": "B", ":o2:": "O", ":parking:": "P",
    ":keycap_ten:": "10",
    **{f":{name}:": str(n) for n, name in enumerate(
        ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
    )},
}  # fmt: skip
_SYMBOL_RE = re.compile(
    "(?:" + "|".join(map(re.escape, _SYMBOLS)) + ")\ufe0f?|([0-9#*])\ufe0f?\u20e3"
)


# (the cheap looks first: characters in a set, then a code, which opens with a colon)
_SYMBOL_CHARS = frozenset(k for k in _SYMBOLS if len(k) == 1) | {"\u20e3"}
_SYMBOL_CODE_RE = re.compile("|".join(re.escape(k) for k in _SYMBOLS if len(k) > 1))


def said_symbols(text: str) -> str:
    """`text` with the emoji that stand for a letter or a number as that letter or number."""
    if (text.isascii() or _SYMBOL_CHARS.isdisjoint(text)) and not (
        ":" in text and _SYMBOL_CODE_RE.search(text)
    ):
        return text  # (most chat)
    return _SYMBOL_RE.sub(lambda m: m[1] or _SYMBOLS[m[0].rstrip("\ufe0f")], text)


def chat_lines(text: str, *, whole_lists: bool = False) -> list[str]:
    """The prose lines of a chat message, ready to split into sentences: code blocks, list
    items, quotes and file-upload notices left out; HTML entities decoded; emoji codes,
    struck-out and spoiler text and mass mentions ("@here", "<!channel>") removed, those
    standing for a letter or number said (`said_symbols`). A short
    list under a heading is a line (`_short_lists_inline`; with `whole_lists`, any list
    citing no PR that fits one sentence)."""
    text = without_mass_mentions(without_hidden(with_entities_decoded(strip_code_blocks(text))))
    text = said_symbols(text)
    if ":" in text and EMOJI_CODE_RE.search(text):  # (the gap's pattern is the slower)
        text = EMOJI_CODE_RE.sub("", _EMOJI_CODE_GAP_RE.sub(_emoji_code_gap, text))
    if not text.isascii():  # ("tonight! 🎉 18 people": a new sentence)
        text = _EMOJI_AFTER_STOP_RE.sub(r"\1", text)
    lines = [_single_spaced(line).strip() for line in text.replace("\u00a0", " ").splitlines()]
    lines = [line for line in lines if line]
    if len(lines) > 1:
        # ("Options are" over "1) Story County Fairgrounds ...": an introduction, colon or not)
        lines = [
            f"{line}:"
            if _BULLET_RE.match(after) and line.rsplit(None, 1)[-1].lower() in _UNMARKED_INTROS
            else line
            for line, after in zip(lines, [*lines[1:], ""], strict=True)
        ]
    if len(lines) > 2 and ("*" in text or "_\n" in text):
        lines = _bold_headings(lines)
    if len(lines) > 2 and any(line[-1] in ":!" for line in lines[:-2]):  # (a heading)
        lines = _short_lists_inline(lines, whole_lists)
    following = [*lines[1:], ""] if lines else []
    return [
        _said_before_list(line) if line[-1] == ":" and _BULLET_RE.match(after) else line
        for line, after in zip(lines, following, strict=True)
        if not _NOT_PROSE_RE.match(line) and not _heads_a_list(line, after)
    ]


# An HTML entity written whole, with its closing semicolon: "&amp;", "&#39;", "&#x27;".
_ENTITY_RE = re.compile(r"&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


def with_entities_decoded(text: str) -> str:
    """`text` with its HTML entities decoded, only those written whole: "&amp;parallel_nml"
    is "&parallel_nml" once an importer has decoded it, and must not become "¶llel_nml"."""
    if "&" not in text:
        return text  # (most text)
    return _ENTITY_RE.sub(lambda entity: html.unescape(entity[0]), text)


def without_mass_mentions(text: str) -> str:
    """`text` without "@here", "@channel", "@everyone" (or Slack's "<!channel>")."""
    return _MASS_MENTION_RE.sub("", text) if "@" in text or "<!" in text else text


def _said_before_list(line: str) -> str:
    """A line over a list as what it says before the few words that introduce the list ("ENG
    101 is closed Dec 1-8, so we lose our room, options:" -> "ENG 101 is closed Dec 1-8, so
    we lose our room."); the line as it is where nothing is said before them."""
    intro = _LIST_INTRO_RE.search(line, max(0, len(line) - LIST_INTRO_CHARS))
    said = line[: intro.start()] if intro else ""
    if said.count("(") > said.count(")"):  # ("... boxes (thanks all 🙏):": an aside's end)
        said = said[: said.rindex("(")].rstrip()
    return f"{said}." if len(said.split()) >= LIST_LEAD_WORDS else line


def _emoji_code_gap(gap: re.Match[str]) -> str:
    return " — " if gap["dash"] is not None else ". "


_SAYS_A_VALUE_RE = re.compile(r":\s+\S*\d")


def _bold_headings(lines: list[str]) -> list[str]:
    """A short line that is all bold or italic over others is a heading: over a list
    ("*Release plan*" over "• freeze Friday") one ending in a colon (one saying a value
    after its own colon stays a sentence: "**FINAL plant sale total: $3,185!**" over what
    made it up), over prose
    ("_Weekly update_") a title, not a sentence, unless it holds a number (a day, a time) or
    ends as a sentence does ("**Fernwood Coffee signed!**")."""
    headed: list[str] = []
    for line, after in zip(lines, [*lines[1:], ""], strict=True):
        bold = _BOLD_LINE_RE.fullmatch(line) if after else None
        if bold is None or len(line.split()) > TITLE_LINE_WORDS:
            headed.append(line)
        elif _BULLET_RE.match(after) and not _SAYS_A_VALUE_RE.search(bold[1] or bold[2]):
            headed.append(f"{(bold[1] or bold[2]).strip().rstrip(':')}:")
        elif any(c.isdigit() for c in line) or (bold[1] or bold[2]).endswith((".", "!")):
            headed.append(line)  # (when: "*Thu June 11, 3:00-4:00 pm*" is news, no title)
    return headed


def _short_lists_inline(lines: list[str], whole_lists: bool = False) -> list[str]:
    """A heading ending in a colon over a few short items that cite nothing, as one line:
    "Highlights:" over "- new plugin API", "- 40% faster startup" -> "Highlights: new plugin
    API and 40% faster startup." (`_OWN_LINE_RE`: a list that cites PRs or links is read
    line by line). An exclamation over such a list announces it: "v3.1 is released!" over
    "- cron triggers" -> "v3.1 is released: cron triggers and ...". With `whole_lists` (a
    list people took up as news: "Steering update:" over "1. We adopted the new code of
    conduct: <url>", "2. Aisha is our Data Lead"), any list of one-sentence items citing no
    PR, up to `WHOLE_LIST_WORDS`."""
    result: list[str] = []
    at = 0
    while at < len(lines):
        line = lines[at]
        items: list[str] = []
        if line.endswith((":", "!")) and not _LIST_MARK_RE.match(line):
            for item in lines[at + 1 : at + 2 + MAX_INLINE_ITEMS]:
                if not _BULLET_RE.match(item):
                    break
                items.append(_BULLET_RE.sub("", item).rstrip(".;,"))
        if not MIN_INLINE_ITEMS <= len(items) <= MAX_INLINE_ITEMS:
            items = []
        elif not all(
            len(item.split()) <= INLINE_ITEM_WORDS and not _OWN_LINE_RE.search(item)
            for item in items
        ):
            items = _said_whole(items) if whole_lists else []
        if items:
            result.append(f"{line.rstrip('!:')}: {listed(_in_a_sentence(items))}.")
            at += 1 + len(items)
        else:
            result.append(line)
            at += 1
    return result


def _said_whole(items: list[str]) -> list[str]:
    """A list's items as they read in one sentence, without their asides ("new tiled
    renderer (big win on dense scenes, see #perf)" -> "new tiled renderer"; a short one
    names: "code of conduct (v2)"); none where an item cites a PR or is more than one
    sentence, or all of them say more than `WHOLE_LIST_WORDS`."""
    if any(_PR_NUMBER_RE.search(item) or _SENTENCE_END_RE.search(item) for item in items):
        return []
    told = [without_asides(item) for item in items]
    return told if sum(len(item.split()) for item in told) <= WHOLE_LIST_WORDS else []


def without_asides(text: str) -> str:
    """`text` without its asides in brackets of three words or more (`_ASIDE_RE`)."""
    return _ASIDE_RE.sub("", text) if "(" in text else text


# Words that open a list item but not a name: said inside a sentence, in lower case.
_COMMON_OPENERS = frozenset(
    ("a", "an", "the", "from", "in", "on", "at", "for", "with", "by", "to", "new")
    + ("our", "their", "its", "we", "they", "this", "these")
)


def _in_a_sentence(items: list[str]) -> list[str]:
    """A list's items as they read joined in one sentence: those after the first opening
    with a common word in lower case ("... and from January, Project Night moves ...")."""
    return items[:1] + [
        item[0].lower() + item[1:] if item.split(" ", 1)[0].lower() in _COMMON_OPENERS else item
        for item in items[1:]
    ]


def _heads_a_list(line: str, after: str) -> bool:
    """A few words without a full stop over a list ("tl;dr", "Next steps") are its heading."""
    return (  # (the cheap tests first: most lines head no list)
        line[-1] not in ".!?"
        and bool(_LIST_MARK_RE.match(after))
        and len(line.split()) <= LIST_HEADING_WORDS
    )


def _single_spaced(text: str) -> str:
    """Runs of spaces and tabs as one space."""
    return _WS_RE.sub(" ", text) if "  " in text or "\t" in text else text


def visible_length(markdown: str) -> int:
    """How long `markdown` reads: links count as their labels, bold marks not at all."""
    return len(_MARKDOWN_LINK_RE.sub(r"\1", markdown).replace("**", ""))


def sentences(text: str) -> list[str]:
    """Sentences and lines of chat text, list markers removed, code blocks left out."""
    parts = _SENTENCE_END_RE.split(strip_code_blocks(text))
    if '"' in text or "“" in text or "(" in text:
        parts = quotes_whole(parts)
    cleaned = (_single_spaced(_LIST_MARK_RE.sub("", part)).strip() for part in parts)
    return [part for part in cleaned if part]


QUOTED_SENTENCES = 3  # a quotation runs on over at most this many sentences


def quotes_whole(parts: list[str]) -> list[str]:
    """`parts` with a quotation's sentences kept in the sentence quoting them ('VS Code says
    "the server crashed 5 times. It will not be restarted."'), where its quote closes; so are
    a bracket's ("Florence Price: Adoration (arr. for strings)")."""
    whole: list[str] = []
    i = 0
    while i < len(parts):
        part = parts[i]
        ends = i + 1
        if _open_quote(part):
            for j in range(i + 1, min(len(parts), i + 1 + QUOTED_SENTENCES)):
                if "\n" in parts[j]:
                    break  # (a quotation does not run over a line)
                if not _open_quote(" ".join(parts[i : j + 1])):
                    part, ends = " ".join(parts[i : j + 1]), j + 1
                    break
        whole.append(part)
        i = ends
    return whole


def _open_quote(text: str) -> bool:
    """Whether `text` opens a quotation or a bracket it does not close."""
    return (
        text.count('"') % 2 == 1
        or text.count("“") > text.count("”")
        or text.count("(") > text.count(")")
    )


# Kana and CJK ideographs: scripts written without spaces between words.
_UNSPACED_SCRIPT_RE = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]")


def holds_word(text: str, word: str) -> bool:
    """Whether `text` holds `word` as a whole word: "ana" is not in "hana kim", nor "wren"
    in "github.com/pixelwren" (nor a word of a link's path or address). Japanese and Chinese
    put no spaces between words: there, holding it is enough ("ハルです" holds "ハル")."""
    if not word.isascii() and _UNSPACED_SCRIPT_RE.search(word):
        return word in text
    at = text.find(word)
    while at >= 0:
        end = at + len(word)
        before = text[at - 1] if at else " "
        if not (before.isalnum() or before in "/.@") and not text[end : end + 1].isalnum():
            return True
        at = text.find(word, at + 1)
    return False


def holds_any(text: str, parts: Iterable[str]) -> bool:
    """Whether `text` holds one of `parts` as a substring (the pre-check of many patterns)."""
    # A plain loop: `any()` over a generator costs about twice as much per call.
    for part in parts:  # noqa: SIM110
        if part in text:
            return True
    return False


def says_to_the_reader(text: str) -> bool:
    """Whether `text` speaks to its reader ("you", "your", "y'all"), not about someone."""
    return _TO_THE_READER_RE.search(text) is not None


def without_list_mark(line: str) -> str:
    """The line without its list marker ("- ", "• ", "2. ") or heading marks."""
    return _LIST_MARK_RE.sub("", line)


def words(text: str) -> frozenset[str]:
    """Lower-case words, for near-duplicate comparison (links left out: two messages are
    not alike for both linking to one site)."""
    if "://" in text:
        text = URL_RE.sub(" ", text)
    return frozenset(_WORD_RE.findall(text.lower()))


def similarity(a: frozenset[str], b: frozenset[str]) -> float:
    """Jaccard similarity of two word sets."""
    if not a or not b:
        return 0.0
    shared = len(a & b)
    return shared / (len(a) + len(b) - shared)  # the union's size, without building it


# Past about this many first letters, most characters of a text are one of them: skipping to
# the next saves nothing (`any_phrase`).
FEW_LETTERS = 10


def word_opening(first: str, rest: str) -> str:
    r"""A pattern for words that start with the character `first` and go on as the pattern
    `rest`, written to open with that character and look behind it for the word boundary
    ("f(?<!\wf)" is "\bf"): a pattern that opens with a character lets the regex engine skip
    straight to the next one in the text instead of trying every place."""
    char = re.escape(first)
    return f"{char}(?<!\\w{char})(?:{rest})"


def any_phrase(phrases: Sequence[str]) -> Callable[[str], bool]:
    """A test of whether a text holds one of `phrases` as whole words, in any case.

    Each phrase is a regex written in lower case that starts with a plain letter, e.g.
    "fix(?:ed|es)?". The phrases are grouped by that letter, so that the regex engine tries a
    dozen letters at each place in the text instead of every phrase. For ASCII text (most
    chat) the search runs case-sensitively on the lower-cased text: several times faster than
    ignoring case, and the same answer, since lower-casing ASCII moves no character and
    changes no word class.
    """
    by_letter: dict[str, list[str]] = {}
    for phrase in phrases:
        by_letter.setdefault(phrase[0], []).append(phrase[1:])
    body = "|".join(f"{letter}(?:{'|'.join(rests)})" for letter, rests in by_letter.items())
    if len(by_letter) <= FEW_LETTERS:
        starts = "|".join(word_opening(c, "|".join(rests)) for c, rests in by_letter.items())
        folded = re.compile(rf"(?:{starts})\b")
    else:
        folded = re.compile(rf"\b(?:{body})\b")
    any_case = re.compile(rf"\b(?:{body})\b", re.IGNORECASE)

    def found(text: str) -> bool:
        if text.isascii():
            return folded.search(text.lower()) is not None
        return any_case.search(text) is not None

    return found


def defuse_pings(text: str) -> str:
    """Text that notifies nobody: mass mentions and raw user/role mentions become plain words."""
    for pattern, replacement in _PING_RES:
        text = pattern.sub(replacement, text)
    return text


_CLOSING = ".!?。！？"  # (and the full-width stops of Chinese and Japanese)
_URL_END_RE = re.compile(r"(?<!\]\()(?<!<)https?://[^\s()<>]+$")


def listed(items: Sequence[str]) -> str:
    """ "A", "A and B", "A, B and C"."""
    return ", ".join(items[:-1]) + f" and {items[-1]}" if len(items) > 1 else items[0]


def full_stop(text: str) -> str:
    """A sentence ends with its punctuation. A bare URL at the end is put in angle brackets
    first (an autolink on Slack, Discord and in Markdown), so the full stop does not become
    part of the link. A clause cut at its comma ends there ("The issue is <url>, it lists"
    split before "it")."""
    if text[-1] in _CLOSING or text[-1] in "*_" and text.rstrip("*_")[-1:] in _CLOSING:
        return text  # (also "... are open.**", a stop inside closing bold marks)
    text = text.rstrip(",;") or text
    url = _URL_END_RE.search(text)
    if url:
        return f"{text[: url.start()]}<{url.group(0)}>."
    return text + "."
