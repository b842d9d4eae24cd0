"""A figure someone corrected, read as corrected.

People post a result and then fix a number: in a reply ("correction: wall time is *4h41m*,
not 4h14m", "you're right, it's 8x H100, so *40 GPUs total*. my typo"), or in a later post
of their own ("correction: 34 people, I missed the ones who joined late", "small correction
to the survey: it's **61** responses ... **72%** (was 71)"). The draft says what the post
says, so the post is read with the corrected value in place of the wrong one, saying once
what it was first reported as, as editors do; the author's own correction, said, is left out.

Another person's correction is taken where the week vouches for it: people reacted to it, or
the post's author answered it ("correction 9 people, greta joined late" / "9 people then!").
It stays in the week: it says who found what.
"""

from __future__ import annotations

import calendar
import re
from bisect import bisect_left
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace

from summarizer.figures import FIGURE_RE, MEASURE, find_figures
from summarizer.termmodel import STOPWORDS
from summarizer.text import EMOJI_CODE_RE, holds_any, words
from summarizer.types import SourceMessage
from summarizer.voice import EMOJI_RE

# A value a correction gives: a number with what is written onto it ("4h41m", "6pm", "38%",
# "19:30", "$1,200", "2.3 GB"), or a day of a month ("Dec 14").
_MONTH_NAME = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*"
_DAY_NAME = rf"(?:{'|'.join(day[:3].lower() for day in calendar.day_name)})[a-z]*"
_MONTH = rf"(?i:{_MONTH_NAME})\.?\s"
_VALUE = (  # (a score too: "13-10")
    rf"(?:{_MONTH})?[~≈$€£]?\d[\w.,:/]*(?:-\d+\b)?(?:\s?%|\s(?:[KMGT]i?B|ms|s|min|h|am|pm)\b)?"
)
# "NEW, not OLD", "NEW instead of OLD", "NEW fps, not OLD", "NEW Å, not OLD", "NEW CET, not
# OLD", "NEW Wh/km, not OLD", "NEW (was OLD)", "NEW (not OLD)", "N × NEW, not OLD" (markup
# taken out first).
_NOT_RE = re.compile(
    # (not the end of a range: "3–6pm, not 2–5" gives no value of its own)
    rf"(?<![\d–-])(?P<new>{_VALUE})(?:(?:\s?×\s?|\sx\s)(?P<factor>{_VALUE}))?(?:\s(?:[a-z]+(?:/[a-z]+)?|{MEASURE}|[A-Z]{{2,5}}|[^\x00-\x7f\W\d_]{{1,3}}))?"
    # (a word of what it was measured at may come before the brackets: "27.4 at 96k (not 31.8)";
    # an aside in brackets before ", not": "17:00 UTC (18:00 CET), not 16:00"; or a few words
    # of where it was seen: "1,284,517 rows from the API count, not 1,248,517")
    rf"(?:(?:(?:\s[\w'’-]+){{1,4}},|(?:\s\([^()\n]{{1,40}}\))?,?)"
    rf"\s+(?i:not|instead of)\s+(?:the\s)?"  # ("... November, not the 20th")
    rf"|(?:\s[\w.]+)?\s\((?:was|not)\s)"
    rf"(?P<old>{_VALUE})"
)
# "NEW, not OLD" where both are ranges of times: "it's *14:00–15:00*, not 15:00–16:00",
# "4–7pm, not 3–6pm" (`_NOT_RE` reads no range).
_RANGE = r"\d{1,2}(?::\d{2})?(?:\s?[ap]\.?m\.?)?\s?[–-]\s?\d{1,2}(?::\d{2})?(?:\s?[ap]\.?m\.?)?"
_RANGE_RE = re.compile(_RANGE, re.IGNORECASE)
_RANGE_NOT_RE = re.compile(
    rf"(?<![\w:.])(?P<new>{_RANGE})(?:\s[A-Z]{{2,5}})?,?\s+(?:not|instead of)\s+"
    rf"(?P<old>{_RANGE})(?![\w:])",
    re.IGNORECASE,
)
# "NEW, not OLD" where both are days: "*Thursday Dec 10*, not Wednesday", "15 January 2027,
# not 31 January", "Monday December 7, NOT Friday December 4" (names spelled out or cut short
# as people write them; not "Mayor" or "decide").
_WEEKDAY_WORD = (
    r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday"
    r"|mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)\b\.?"
)
_MONTH_WORD = (
    r"(?:january|february|march|april|may|june|july|august|september|october|november"
    r"|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\b\.?"
)
_DATE = (
    rf"(?:{_WEEKDAY_WORD},?\s+)?(?:\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH_WORD}"
    rf"|{_MONTH_WORD}\s+\d{{1,2}}(?:st|nd|rd|th)?\b)(?:,?\s+\d{{4}}\b)?"
)
_DAY = rf"(?:{_DATE}|{_WEEKDAY_WORD})"
# (a few words may come between: "*Saturday 7 November*, so *this Saturday*, not the 15th")
_DATE_NOT_RE = re.compile(
    rf"(?<!\w)(?P<new>{_DAY})(?:,?(?:\s[\w'’-]+){{1,4}})?,?\s+(?:not|instead of)\s+(?:the\s+)?"
    rf"(?P<old>{_DAY}|\d{{1,2}}(?:st|nd|rd|th)\b)",
    re.IGNORECASE,
)
# A day as a post gives it, with the weekday it may add in brackets: "Dec 4 (Fri)".
_WEEKDAY_OPENING_RE = re.compile(rf"^{_WEEKDAY_WORD},?\s+(?=\S)", re.IGNORECASE)
_WEEKDAY_IN_BRACKETS_RE = re.compile(rf"\s\({_WEEKDAY_WORD}\)", re.IGNORECASE)
_DAY_IN_POST_RE = re.compile(rf"(?<!\w){_DAY}(?:{_WEEKDAY_IN_BRACKETS_RE.pattern})?", re.IGNORECASE)
_DAY_NUMBER_RE = re.compile(r"(?<![\d:])\d{1,2}(?![\d:])")
_NAME_RE = re.compile(r"[a-z]+", re.IGNORECASE)
_MONTH_ABBRS = tuple(name.lower() for name in calendar.month_abbr[1:])
_WEEKDAY_ABBRS = tuple(name.lower() for name in calendar.day_abbr)


def _day_parts(day: str) -> tuple[str | None, str | None, str | None]:
    """A day's weekday, month (each as its first three letters) and day of the month, where
    it gives them ("Friday December 4": ("fri", "dec", "4"))."""
    names = [name[:3].lower() for name in _NAME_RE.findall(day)]
    weekday = next((n for n in names if n in _WEEKDAY_ABBRS), None)
    month = next((n for n in names if n in _MONTH_ABBRS), None)
    number = _DAY_NUMBER_RE.search(day)
    return weekday, month, number[0].lstrip("0") if number else None


def _same_day(wrong: tuple[str | None, str | None, str | None], day: str) -> bool:
    """Whether `day` may be the day `wrong` gives: it gives the day of the month where
    `wrong` does, the weekday where `wrong` gives only that, and nothing else differs."""
    said = _day_parts(day)
    if wrong[2] is not None and said[2] is None or wrong[2] is None and said[0] is None:
        return False
    return all(a is None or b is None or a == b for a, b in zip(wrong, said, strict=True))


# "the OLD was ...", "the OLD figure was ...", opening a clause "(3.1x was a warm run" or
# "edit: +1.3 was with ...": the value a correction says was wrong.
_WAS_RE = re.compile(
    rf"(?:\b[Tt]he\s|^|(?<=\()|(?<=[:.;,]\s))[+−-]?(?P<old>{_VALUE})(?:\s[a-z]+)?\swas\b",
    re.MULTILINE,
)
# "the "memory usage down 40%" line in the notes is wrong": a clause saying its values are
# wrong (the clause, up to the saying).
_WRONG_HINTS = ("wrong", "Wrong", "WRONG", "ncorrect", "NCORRECT")
_WRONG_RE = re.compile(
    r"(?:[^.!?\n]|[.!?](?=\S))*?\b(?:is|was|are|were)\s+(?:wrong|incorrect)\b", re.IGNORECASE
)
# (opening any line: "**Postmortem** <url>\n\ncorrection to what I posted yesterday: ..."; after
# a word saying what it corrects: "coverage correction: the +6.3% ... is wrong")
_OPENS_CORRECTING_RE = re.compile(
    r"^\W*(?:(?:small|quick|one|a|two)\s+|\w+,?\s(?=correction:)|\w+\s/\s(?=correction))?"
    r"(?:(?:corrections?|corrected|erratum|typo)\b|edit\s*:)",
    re.IGNORECASE | re.MULTILINE,
)
# What a correction says: a word or phrase of correcting anywhere in it ("I swapped the
# digits", "the 40% line is wrong"), or, opening it, "edit:" or, opening a reply, "you're
# right" ("ugh you're right, it's 8 bytes per 4 KiB page, so ~0.2%"; later in a reply it
# agrees with what someone else said), or "good catch".
_CORRECTING_WORD_RE = re.compile(
    r"\b(?:corrections?|corrected|erratum|typo|misread|miscounted|mistyped)\b"
    r"|\bswapped (?:the )?digits\b|\bmy (?:bad|mistake)\b"
    r"|^\W*edit\s*:|^\W*(?:\w+\W+)?(?:you'?re right|good catch)\b"
    r"|\b(?:is|was|are|were)\s+(?:wrong|incorrect)\b",
    re.IGNORECASE,
)
# (in each word `_CORRECTING_WORD_RE` finds, lower-cased: most text holds none)
_CORRECTION_HINTS = (
    *("correct", "erratum", "typo", "right", "wrong", "misread", "miscount", "mistyp"),
    *("digits", "my bad", "mistake", "dit:", "dit :", "catch"),
)
_MARKUP_RE = re.compile(r"[*_`~]")
_DIGIT_RE = re.compile(r"\d")
# "19k" is "19,000" and "19000"
_THOUSANDS_RE = re.compile(r"(\d+)[kK]")
_EMPHASIS_RE = re.compile(r"(\*{1,2}|_)([^*_\n]+?)\1")
# A sum of money ("£72", "$4,410"), a score ("15-9", "2–1") or a day ("Sunday 18 Oct", "Oct
# 18"), as a correction may stress it.
_SUM_OR_SCORE_RE = re.compile(
    r"[$€£]\d(?:[\d,.]*\d)?|(?<![\w.,/:-])\d{1,3}[-–]\d{1,3}(?!\w|[.,/:-]\d)"
    rf"|(?i:\b(?:{_DAY_NAME},?\s)?(?:\d{{1,2}}(?:st|nd|rd|th)?\s{_MONTH_NAME}"
    rf"|{_MONTH_NAME}\.?\s\d{{1,2}})\b(?![-–]\d))"  # (not a range's start: "Sept 19-20")
)
# A count a correction may give with what it counts ("9 people", "61 responses"; not a sum:
# "$216 students" is what the students pay).
# (or in capitals: "71 YES / 9 NO")
_COUNT_RE = re.compile(r"(?<![\w#/.:,$€£-])(\d{1,3}(?:,\d{3})+|\d+)[^\S\n]([a-z]+|[A-Z]{2,}\b)")
# The word after a count ("71 units pledged": "pledged").
_WORD_AFTER_RE = re.compile(r"[^\S\n]([a-z]{3,})")
# The unit of a figure: what follows its number.
_UNIT_RE = re.compile(r"^[~≈$€£]?[\d.,]+\s?")
FIRST_REPORTED = "first reported as"
_NOT_HINTS = ("not ", "NOT ", "instead of", "(was ")  # (one in any text `_NOT_RE` matches)
_ACTUALLY_RE = re.compile(r"\bactually\b", re.IGNORECASE)
# A word right after a number: what it counts ("22 riders").
_OTHER_UNIT_RE = re.compile(r"\s?[^\W\d_]")
# What may open a reply before the right value: "it's 2-260, not 2-206".
_IT_IS_RE = re.compile(r"^(?:it'?s|it is|that'?s|that is|should be)\s+", re.IGNORECASE)
# What says a value is not what it is, just before it ("..., not 3.1x", "(was 3.1x")
_NOT_BEFORE_RE = re.compile(r"(?:\b(?i:not|instead of)|\(was)\s+[~≈*_]*\Z")
_CLAUSE_ENDS = " \n.,;:!?)*_"  # (a value in a range, "7–10pm", is replaced without a word)
DATE_CHARS = 12  # a day's or month's name and its comma or space before a day's number
EARLIER = 30  # how many earlier posts in its channel (its author's, others') a correction reaches
MIN_SHARED_WORDS = 2  # a post a "... is wrong" clause means says this many of its long words
MIN_WORD = 4  # (letters of a long word)


def corrected(messages: Sequence[SourceMessage]) -> list[SourceMessage]:
    """`messages` (in time order) with each post a correction fixes read with the corrected
    values, and its author's own correction of them left out where it cites no PR; the
    others as they are."""
    by_id = {m.id: i for i, m in enumerate(messages)}
    posts = _Posts(messages)
    found = list(messages)
    dropped: set[int] = set()
    for i, message in enumerate(messages):
        if not _may_correct(message):
            continue  # (most messages)
        correction = _Correction.read(message.text)
        says = correction.says_wrong or bool(message.reactions and correction.measured_pairs)
        fixed = redated = False
        targets = _on_its_subject(
            _targets(messages, by_id, posts, i, says), found, message, correction, by_id, posts, i
        )
        for nearest, (j, explicit_only) in enumerate(targets):
            # (a day it says was "not" is its author's, or the post's it answers: the first
            # that gives that day, nearest first)
            text = (
                correction.redated(found[j].text)
                if correction.days
                and not redated
                and (
                    found[j].author_id == message.author_id
                    or j == by_id.get(_replies(message) or "")
                )
                else found[j].text
            )
            moved = text != found[j].text
            redated = redated or moved
            # (after the post it fixes, others saying what it says was "not": meeting notes)
            explicit = explicit_only or fixed
            if explicit and not moved and not correction.names_any_in(text):
                continue  # (most posts it reaches say none of the values it names)
            text = _with_corrections(text, correction, explicit, days=nearest == 0)
            if text != found[j].text:
                # (another's correction says who found what; one citing a PR, what was done)
                # (one pinned is the news: "Change of meeting point ... we start at 7:15
                # instead of 7:30")
                if found[j].author_id == message.author_id and not (message.prs or message.pinned):
                    dropped.add(i)
                found[j] = replace(found[j], text=text)
                fixed = True
        if not fixed and not message.prs and _restates(found, by_id, message, correction):
            dropped.add(i)  # ("my mistake: it's 10 TB ... I've edited the post")
    return [m for i, m in enumerate(found) if i not in dropped]


def _on_its_subject(
    targets: list[tuple[int, bool]],
    found: Sequence[SourceMessage],
    message: SourceMessage,
    correction: _Correction,
    by_id: dict[str, int],
    posts: _Posts,
    i: int,
) -> list[tuple[int, bool]]:
    """`targets`, or, where the values the correction says were not are times or days
    (which many events share) and some targets speak of what it speaks of (a long word in
    common) and say one, those and the posts of its conversation: "the concert starts at
    7:30 PM, not 7:00" fixes the concert's post, not the make-up rehearsal's "7:00-9:00 PM"
    nearer to it."""
    olds = [old for _, old in correction.pairs] + [old for _, old in correction.days]
    if not olds or not all(_WHEN_VALUE_RE.search(old) for old in olds):
        return targets  # (a score or a sum is that post's: "5-2, not 6-1")
    about = _subject_words(message.text)
    on_it = [
        (j, explicit)
        for j, explicit in targets
        if not about.isdisjoint(_subject_words(found[j].text))
        and (
            correction.names_any_in(found[j].text)
            or bool(correction.days)
            and correction.redated(found[j].text) != found[j].text
        )
    ]
    if not on_it:
        return targets  # (most corrections: the post it fixes is the nearest)
    near = {by_id.get(_replies(message) or ""), *posts.before_in_conversation(i)}
    return [(j, explicit) for j, explicit in targets if j in near or (j, explicit) in on_it]


# A time of day or a day: "7:00", "6pm", "Nov 19", "Friday", "the 15th".
_WHEN_VALUE_RE = re.compile(
    rf"\d:\d\d|\d\s?[ap]\.?m\b|{_MONTH_WORD}|{_WEEKDAY_WORD}|\d(?:st|nd|rd|th)\b", re.IGNORECASE
)
_CALENDAR_NAMES = frozenset(name.lower() for name in (*calendar.day_name, *calendar.month_name[1:]))


def _subject_words(text: str) -> set[str]:
    """The words of `text` that may say what it is about: its long words (no days' or months'
    names, no common words) and its versions ("2.6.0")."""
    return {
        w
        for w in words(text)
        if len(w) >= MIN_WORD
        and w.isalpha()
        and w not in _CALENDAR_NAMES
        and w not in STOPWORDS
        or "." in w
        and w[0].isdigit()
    }


def opens_as_correction(text: str) -> bool:
    """Whether `text` opens as a correction ("**Corrected numbers** (release wheel ...)",
    "correction: 34 people")."""
    return _OPENS_CORRECTING_RE.match(text) is not None


def corrects(text: str, post: str) -> bool:
    """Whether `text` gives the right value of one `post` says ("it's 2-260, not 2-206"): a
    correction of it, not an answer to it."""
    if not holds_any(text, _NOT_HINTS):
        return False  # (most replies)
    return any(any(_said(_value(m["old"]), post)) for m in _values_not(_plain(text)))


def _restates(
    found: Sequence[SourceMessage],
    by_id: dict[str, int],
    message: SourceMessage,
    correction: _Correction,
) -> bool:
    """Whether `message` corrects its author's own post it replies to, which already says
    every value the correction gives: the post was edited to say them."""
    j = by_id.get(_replies(message) or "")
    if j is None or found[j].author_id != message.author_id or not correction.given:
        return False
    said = {(_number(f), _unit(f)) for f in _counted(found[j].text)}
    return all((_number(f), _unit(f)) in said for f in correction.given)


def _plain(text: str) -> str:
    """`text` without markup and emoji codes: how its values are read."""
    # (":sweat_smile:" between the values)
    return _MARKUP_RE.sub("", EMOJI_CODE_RE.sub("", text) if ":" in text else text)


def _may_correct(message: SourceMessage) -> bool:
    """A cheap look: a correction says so, or, replying or taken up, says what a value was
    "not" (or "was"); one pasting a code block (a table or a log counted again) is a post of
    its own, which replaces the earlier one as a newer status does."""
    text = message.text
    if _DIGIT_RE.search(text) is None or "```" in text:
        return False  # (a correction gives a value)
    if holds_any(text.lower(), _CORRECTION_HINTS) and _CORRECTING_WORD_RE.search(text):
        return True
    if _replies(message) is None and not message.reactions:
        return False
    if not holds_any(text, _NOT_HINTS):
        return _says_was(text)
    return bool(_values_not(_plain(text)))


def _says_was(text: str, post: str = "") -> bool:
    """Whether `text` says what a value "actually" is and which value "was" wrong (of
    those `post` says, where given): "It's actually *£437.60* ... The £412.60 was missing
    the card payments"."""
    if " was" not in text or _ACTUALLY_RE.search(text) is None:
        return False  # (most replies)
    olds = [_value(m["old"]) for m in _WAS_RE.finditer(_plain(text))]
    return bool(olds) and (not post or any(any(_said(old, _plain(post))) for old in olds))


def _targets(
    messages: Sequence[SourceMessage],
    by_id: dict[str, int],
    posts: _Posts,
    i: int,
    says_which: bool,
) -> list[tuple[int, bool]]:
    """The posts message `i` may correct, nearest first (it corrects the first it changes,
    and then what it says was "not" in the others), each with whether only the values it
    says were "not" (or wrong) may be changed: the post it replies to (its author's own, or
    another's where the correction is vouched for); for a correction posted on its own
    (opening as one, or `says_which` values were wrong: "the 40% line is wrong", or, taken
    up, "71%, not 78%"), its author's earlier posts in the channel, then in other channels
    and others' in the channel and then in any (only what it says they were not)."""
    message = messages[i]
    target = _replies(message)
    # (a thread that opened with no message of its own, as a Discord thread may, answers
    # none: a correction in it is read as posted on its own)
    if target is not None and (target in by_id or message.reply_to_id):
        j = by_id.get(target)
        if j is None or j == i:
            return []
        post = messages[j]
        # (one opening as a correction may fix what its author said earlier in the thread:
        # "Correction: ... so it's *£72* to the fund" under the simul's results, after
        # "**£52** goes to the fund"; nearest first)
        mine = (
            [
                (k, False)
                for k in posts.before_in_conversation(i)
                if k != j and messages[k].author_id == message.author_id
            ]
            if _OPENS_CORRECTING_RE.match(message.text) is not None
            else []
        )
        if post.author_id == message.author_id:
            # (and what its author said again since, the value it says was "not": "Reminder:
            # extrication is SATURDAY 0800" before "... is 0900, NOT 0800" under the change)
            said = {w for w in words(post.text) if len(w) > MIN_WORD and w.isalpha()}
            since = [
                (k, True)
                for k in posts.before(i, message.channel, message.author_id)
                if k > j
                and all(k != m for m, _ in mine)
                # (of the same thing: not "Pump test tomorrow at 0800")
                and not said.isdisjoint(words(messages[k].text))
            ]
            return [*mine, (j, False), *since]
        # (its author agreeing with a remark on their own post: "I think you missed me?" /
        # "you're right, sorry. **8 yes**, 2 no")
        remarked = by_id.get(_replies(post) or "")
        if (
            remarked is not None
            and messages[remarked].author_id == message.author_id
            and _CORRECTING_WORD_RE.search(message.text) is not None
        ):
            return [(remarked, False)]
        # (or opens with the right value: "1,900 :sweat_smile: not 19k", "it's 2-260, not
        # 2-206")
        opens = (
            _OPENS_CORRECTING_RE.match(message.text) is not None
            or _opens_with_the_value(_IT_IS_RE.sub("", _plain(message.text).lstrip(), 1))
            or _says_was(message.text, post.text)
        )
        if opens and _vouched(messages, posts, i, post):
            return [*mine, (j, False)]
        # (or, anywhere in it, says what a value was "not" and the post's author then says the
        # right one: "I think it's PL 100.0 not 103.5?" / "you're right, sorry! PL 100.0")
        # (or the post's author says they corrected it: "Corrected in the minutes: ...")
        given = _given(_plain(message.text))
        taken_up = _confirmed(messages, posts, i, post, given) or (
            bool(given) and _author_corrected(messages, posts, i, post)
        )
        return [*mine, (j, True)] if taken_up else mine
    if _OPENS_CORRECTING_RE.search(message.text) is None and not says_which:
        return []  # ("we run 4 GPUs, not 8" on its own corrects nothing)
    # (one whose correction opens a later line, after news of its own, says what was "not")
    explicit = _OPENS_CORRECTING_RE.match(message.text) is None
    own = [(j, explicit) for j in posts.before(i, message.channel, message.author_id)]
    # (its author's posts in other channels: only what it says they were not)
    own += [
        (j, True)
        for j in posts.before(i, None, message.author_id)
        if messages[j].channel != message.channel
    ]
    if not message.reactions:
        return own
    # (others' posts: in its channel, then in any: "correction to the announcement: ...")
    recent = dict.fromkeys(posts.before(i, message.channel) + posts.before(i, None))
    return own + [(j, True) for j in recent if messages[j].author_id != message.author_id]


class _Posts:
    """The week's posts by channel and by channel and author, indexed once when a correction
    posted on its own first looks for what it corrects."""

    def __init__(self, messages: Sequence[SourceMessage]) -> None:
        self._messages = messages
        self._index: dict[tuple[str | None, str | None], list[int]] | None = None
        self._conversations: dict[str, list[int]] | None = None

    def after_in_conversation(self, i: int) -> list[int]:
        """The positions after `i` of the posts in its thread, or replying to what it replies
        to."""
        found = self._conversation(i)
        return found[bisect_left(found, i + 1) :]

    def before_in_conversation(self, i: int) -> list[int]:
        """The positions before `i` of the posts in its conversation, nearest first."""
        found = self._conversation(i)
        return found[: bisect_left(found, i)][::-1]

    def _conversation(self, i: int) -> list[int]:
        """The positions of the posts in the thread of post `i`, or replying to what it
        replies to; none for a post on its own."""
        if self._conversations is None:
            self._conversations = {}
            for j, m in enumerate(self._messages):
                if key := m.thread_id or m.reply_to_id:
                    self._conversations.setdefault(key, []).append(j)
        message = self._messages[i]
        return self._conversations.get(message.thread_id or message.reply_to_id or "", [])

    def before(self, i: int, channel: str | None, author_id: str | None = None) -> list[int]:
        """The positions of the `EARLIER` posts before `i` in `channel` (any channel: None), by
        `author_id` (anyone's: None), nearest first."""
        if self._index is None:
            self._index = {}
            for j, m in enumerate(self._messages):
                self._index.setdefault((None, None), []).append(j)
                self._index.setdefault((m.channel, None), []).append(j)
                self._index.setdefault((m.channel, m.author_id), []).append(j)
                self._index.setdefault((None, m.author_id), []).append(j)
        key = (channel, author_id)
        found = self._index.get(key, [])
        end = bisect_left(found, i)
        return found[max(0, end - EARLIER) : end][::-1]


def _values_not(plain: str) -> list[re.Match[str]]:
    """Each "NEW, not OLD" of `plain`: its ranges of times, then its other values outside
    them (not one of several OLD: `_listed_pairs`)."""
    ranges = list(_RANGE_NOT_RE.finditer(plain)) if "–" in plain or "-" in plain else []
    return ranges + [
        m
        for m in _NOT_RE.finditer(plain)
        if not any(r.start() < m.end() and m.start() < r.end() for r in ranges)
        and not _MORE_OLD_RE.match(plain, m.end())
    ]


_MORE_OLD_RE = re.compile(r"\s?/\s?\d")
# "NEW1 with NEW2 (not OLD1 / OLD2)": several values, each not what it was first reported as.
_OLD_LIST_RE = re.compile(rf"\((?:not|was)\s(?P<olds>{_VALUE}(?:\s?/\s?{_VALUE})+)\)")
_ORDINAL_END_RE = re.compile(r"\d(?:st|nd|rd|th)$")
_VALUE_RE = re.compile(rf"(?<![\w.,]){_VALUE}")


def _listed_pairs(plain: str) -> list[tuple[str, str]]:
    """(NEW, OLD) for each value of "(not OLD1 / OLD2)" and the value said in its place just
    before it ("we're officially 21st with 4,180 points (not 23rd / 4,215)"), where each is
    of the same kind (a place, "21st", or a number)."""
    if "/" not in plain:
        return []  # (most corrections)
    pairs: list[tuple[str, str]] = []
    for listed in _OLD_LIST_RE.finditer(plain):
        olds = [_value(v) for v in re.split(r"\s?/\s?", listed["olds"])]
        before = [_value(v) for v in _VALUE_RE.findall(plain, 0, listed.start())][-len(olds) :]
        if len(before) == len(olds) and all(
            bool(_ORDINAL_END_RE.search(new)) == bool(_ORDINAL_END_RE.search(old))
            for new, old in zip(before, olds, strict=True)
        ):
            pairs += zip(before, olds, strict=True)
    return pairs


def _opens_with_the_value(text: str) -> bool:
    """Whether `text` opens with "NEW, not OLD" (a value or a range)."""
    return _NOT_RE.match(text) is not None or _RANGE_NOT_RE.match(text) is not None


def _replies(message: SourceMessage) -> str | None:
    """The id of the message `message` replies to, in its thread or as a reply; None."""
    return message.reply_to_id or (message.thread_id if message.thread_id != message.id else None)


def _vouched(messages: Sequence[SourceMessage], posts: _Posts, i: int, post: SourceMessage) -> bool:
    """Whether another person's correction (message `i`) of `post` stands: people reacted
    to it, or the post's author said its value after it in the same conversation ("9 people
    then!")."""
    if messages[i].reactions:
        return True
    plain = _plain(messages[i].text)
    values = {_number(f) for f in _counted(plain)}
    return _confirmed(messages, posts, i, post, _given(plain), values)


def _author_corrected(
    messages: Sequence[SourceMessage], posts: _Posts, i: int, post: SourceMessage
) -> bool:
    """Whether the post's author, later in the conversation of message `i`, says they
    corrected it ("Corrected in the minutes: **garden irrigation passed 19 yes, 8 no**")."""
    return any(
        later.author_id == post.author_id and opens_as_correction(later.text)
        for later in (messages[j] for j in posts.after_in_conversation(i))
    )


def _given(plain: str) -> list[str]:
    """The values a correction gives as "NEW, not OLD", whatever they are ("Keller 2-260")."""
    if not holds_any(plain, _NOT_HINTS):
        return []  # (most replies)
    return [_value(m["new"]) for m in _values_not(plain)]


def _confirmed(
    messages: Sequence[SourceMessage],
    posts: _Posts,
    i: int,
    post: SourceMessage,
    given: Collection[str],
    values: Collection[str] = (),
) -> bool:
    """Whether the post's author, later in the conversation of message `i`, says one of the
    values `given` ("NEW" of its "NEW, not OLD"), or one whose number is among `values`."""
    if not given and not values:
        return False
    return any(
        later.author_id == post.author_id
        and (
            any(_number(f) in values for f in _counted(later.text))
            or any(any(_said(new, _plain(later.text))) for new in given)
        )
        for later in (messages[j] for j in posts.after_in_conversation(i))
    )


def _emphasised(text: str) -> set[str]:
    """The numbers `text` sets in bold or italics: the values a correction gives."""
    return {n for span in _stressed_spans(text) for n in re.findall(r"\d[\d,.]*", span)}


def _stressed_spans(text: str) -> list[str]:
    """What `text` sets in bold or italics."""
    if "*" not in text and "_" not in text:
        return []
    return [span[2] for span in _EMPHASIS_RE.finditer(text)]


def _kind(value: str) -> str:
    """What a sum, a score, a day or a count is: its currency's sign, "score", "day" or
    "count"."""
    if value[0] in "$€£":
        return value[0]
    if _COUNT_ALONE_RE.fullmatch(value):
        return "count"
    return "day" if value[-1].isalpha() or value[0].isalpha() else "score"


# A number stressed alone ("it's **8**!"): the count a correction gives anew.
_COUNT_ALONE_RE = re.compile(r"\d{1,3}(?:,\d{3})+|\d+")


@dataclass(frozen=True)
class _Correction:
    """What a correction says, read once for every post it may fix."""

    pairs: tuple[tuple[str, str], ...]  # its "NEW, not OLD" values
    given: tuple[str, ...]  # its figures and counts ("9 people")
    emphasised: frozenset[str]  # the numbers it sets in bold or italics
    named: frozenset[str]  # the numbers it says were wrong ("the 97.1% was ...")
    # the values it says were wrong, each with the long words of the clause saying so where
    # that clause is all that says which post it means ('the "memory usage down 40%" line is
    # wrong': "40%", {"memory", "usage", ...}); "the 97.1% was": "97.1%", None
    wrong: tuple[tuple[str, frozenset[str] | None], ...]
    labelled: tuple[tuple[str, str], ...]  # its values after a label: ("total", "$4,410")
    # the sums and scores it sets in bold or italics ("*£72*", "*15-9*"), each with the long
    # words said with it ("**board 2 Tom Ellison 0-1 Sunita Chaudhary**")
    stressed: tuple[tuple[str, frozenset[str]], ...]
    # the word after each count it gives, where one follows ("71 units pledged": "pledged")
    after: Mapping[str, str]
    # the sums and scores it says, stressed or not: one it says again is not what it corrects
    # ("Still over 25, so still the $8 group rate. Total: ... **$384**")
    sums: frozenset[str]
    # its "NEW, not OLD" of days ("Thursday Dec 10", "Wednesday")
    days: tuple[tuple[str, str], ...] = ()

    @classmethod
    def read(cls, text: str) -> _Correction:
        plain = _plain(text)
        # (each pattern only where its words are: most corrections say neither)
        wrong: list[tuple[str, frozenset[str] | None]] = (
            [(_value(m["old"]), None) for m in _WAS_RE.finditer(plain)] if " was" in plain else []
        )
        if holds_any(plain, _WRONG_HINTS):
            wrong += [
                (value, frozenset(w for w in words(clause[0]) if len(w) >= MIN_WORD))
                for clause in _WRONG_RE.finditer(plain)
                for value in find_figures(clause[0])
            ]
        spans = _stressed_spans(text)
        stressed = [
            (value, frozenset(w for w in words(span) if len(w) >= MIN_WORD))
            for span in spans
            for value in _SUM_OR_SCORE_RE.findall(span)
        ] + [(span, frozenset()) for span in spans if _COUNT_ALONE_RE.fullmatch(span)]
        return cls(
            pairs=tuple(
                (_value(m["new"]), _value(m["old"]))
                if m.re is _RANGE_NOT_RE
                else _pair(_factor(m), m["old"])
                for m in _values_not(plain)
            )
            + tuple(_listed_pairs(plain)),
            given=tuple(_without_changes(_counted(plain), plain)),
            emphasised=frozenset(_emphasised(text)),
            named=frozenset(_number(value) for value, _ in wrong),
            wrong=tuple(wrong),
            labelled=tuple(_labelled(text)),
            stressed=tuple(stressed),
            sums=frozenset(_SUM_OR_SCORE_RE.findall(plain)) if stressed else frozenset(),
            after={
                m[0]: word[1]
                for m in _COUNT_RE.finditer(plain)
                if (word := _WORD_AFTER_RE.match(plain, m.end()))
            },
            days=tuple((m["new"], m["old"]) for m in _DATE_NOT_RE.finditer(plain)),
        )

    def redated(self, text: str) -> str:
        """`text` with each day it gives once that is the OLD of one of its "NEW, not OLD" of
        days in NEW's place, saying once what it was first reported as ("Dec 4 (Fri): closed"
        -> "Monday December 7 (first reported as Dec 4): closed"); `text` where it gives
        none, or several."""
        for new, old in self.days:
            wrong = _day_parts(old)
            found = [m for m in _DAY_IN_POST_RE.finditer(text) if _same_day(wrong, m[0])]
            if len(found) == 1 and not _same_day(_day_parts(new), found[0][0]):
                said = _WEEKDAY_IN_BRACKETS_RE.sub("", found[0][0])
                # (its weekday said once: "Friday 27 November (first reported as 20 November)")
                if _day_parts(said)[0] == _day_parts(new)[0]:
                    said = _WEEKDAY_OPENING_RE.sub("", said)
                start, end = found[0].span()
                text = f"{text[:start]}{new} ({FIRST_REPORTED} {said}){text[end:]}"
        return text

    @property
    def measured_pairs(self) -> bool:
        """Whether one of its "NEW, not OLD" says what OLD measures ("71%, not 78%"; "use 4,
        not 8" may be advice)."""
        return any(_unit(old) not in ("", ",") for _, old in self.pairs)

    def names_any_in(self, text: str) -> bool:
        """Whether `text` holds one of the values it says were not, or were wrong, as
        written (a cheap look before `_with_corrections`)."""
        olds = [old for _, old in self.pairs] + [old for old, _ in self.wrong]
        return any(form in text for old in olds for form in _forms(old))

    @property
    def says_wrong(self) -> bool:
        """Whether a clause of it says a value is wrong ("the 40% line is wrong")."""
        return any(said is not None for _, said in self.wrong)

    def replacing_labelled(self, text: str) -> list[tuple[str, str]]:
        """(NEW, OLD) for each value it gives after a label ("Real Thursday total: $4,410")
        where `text` gives one other value after the same label ("total: $4,910")."""
        found = []
        for label, new in self.labelled:
            olds = {v for said, v in _labelled(text, _LABELLED_PLAINLY_RE) if said == label}
            if len(olds) == 1 and (old := olds.pop()) != new:
                found.append((new, old))
        return found

    def replacing_stressed(self, text: str, days: bool) -> list[tuple[str, str]]:
        """(NEW, OLD) for each sum, score or (where `days`) day it stresses where `text`
        gives one other of its kind (of several, the one `text` stresses: "So it's *£72* to
        the fund" over "£120, so **£52** goes to the fund"; of days, the one on its weekday:
        "**Sunday March 1**" over "**Sunday Feb 29** ... **Saturday March 7**")."""
        found = []
        for new, _ in self.stressed:
            kind = _kind(new)
            if kind == "day" and not days:
                continue
            if sum(_kind(v) == kind for v, _ in self.stressed) > 1:
                continue  # (a list of changes, each said with its own label: "almonds: **$31.90**")
            if kind == "count":
                # (of the counts the post stresses, with what they count: "**7 dogs adopted
                # today**" gives way to "it's **8**!" as "8 dogs")
                counts = {
                    m[0]: m[1] for span in _stressed_spans(text) for m in _COUNT_RE.finditer(span)
                }
                olds = {count for count, n in counts.items() if n != new}
                if len(olds) == 1:
                    old = olds.pop()
                    found.append((f"{new} {old.split(None, 1)[1]}", old))
                continue
            olds = {
                v
                for v in _SUM_OR_SCORE_RE.findall(text)
                if _kind(v) == kind and v != new and v not in self.sums
            }
            if len(olds) > 1:
                olds &= set(_SUM_OR_SCORE_RE.findall(" ".join(_stressed_spans(text))))
            if len(olds) > 1 and kind == "day":
                weekday = new.split(None, 1)[0].lower()
                olds = {v for v in olds if v.split(None, 1)[0].lower() == weekday}
            if len(olds) == 1:
                found.append((new, olds.pop()))
        return found

    def fixing_rows(self, text: str) -> str:
        """`text` with each score or sum it stresses with words of a line of `text` (a row
        of a table: "2  Tom Ellison  1-0  Sunita Chaudhary") in place of the one other of
        its kind that line gives, saying once what it was first reported as."""
        if "\n" not in text:
            return text  # (most posts: no rows)
        lines = text.split("\n")
        for new, said in self.stressed:
            rows = [
                at
                for at, line in enumerate(lines)
                if len(said & words(line)) >= MIN_SHARED_WORDS
                and any(_kind(v) == _kind(new) for v in _SUM_OR_SCORE_RE.findall(line))
            ]
            if len(rows) != 1:
                continue
            line = lines[rows[0]]
            olds = [v for v in _SUM_OR_SCORE_RE.findall(line) if _kind(v) == _kind(new)]
            if len(olds) == 1 and olds[0] != new:
                at = line.index(olds[0])
                lines[rows[0]] = (
                    f"{line[:at]}{new} ({FIRST_REPORTED} {olds[0]}){line[at + len(olds[0]) :]}"
                )
        return "\n".join(lines)

    def replacing_wrong(self, text: str) -> list[tuple[str, str]]:
        """(NEW, OLD) for each value it says was wrong (that `text` says in the words of the
        clause saying so, where one does), where it gives one other value of its unit (of
        several, the one it stresses)."""
        found = []
        for old, said in self.wrong:
            if said is not None and len(said & words(text)) < MIN_SHARED_WORDS:
                continue  # (another post with that value: "40% longer on ARM")
            unit = _unit(old)
            others = [f for f in self.given if _unit(f) == unit and _number(f) != _number(old)]
            if len(others) > 1:
                others = [f for f in others if _number(f) in self.emphasised]
            if len(others) == 1:
                # (a sum's currency, which the figures it gives are read without)
                currency = old[0] if old[0] in "$€£" and others[0][0].isdigit() else ""
                found.append((currency + others[0], old))
        return found


def _with_corrections(
    text: str, correction: _Correction, explicit_only: bool, *, days: bool
) -> str:
    """`text` with each "NEW, not OLD" of the correction applied where OLD is in it once, and
    (unless `explicit_only`) each other figure of the correction in place of the one figure
    of `text` with the same unit; a day it stresses only where `days` (the post nearest it:
    one further back that gives a day is another event's)."""
    if not explicit_only and correction.stressed:
        text = correction.fixing_rows(text)
    pairs = list(dict.fromkeys([*correction.pairs, *correction.replacing_wrong(text)]))
    said = {old for _, old in pairs} | {new for new, _ in pairs}
    given = () if explicit_only else correction.given
    if not explicit_only and (correction.labelled or correction.stressed):
        more = correction.replacing_labelled(text) + correction.replacing_stressed(text, days)
        # (a day stressed in full, "**Saturday June 20**", that a "June 20, not June 13" says)
        more = [(new, old) for new, old in more if not any(value in new for value in said)]
        pairs = list(dict.fromkeys([*pairs, *more]))
        said = {old for _, old in pairs} | {new for new, _ in pairs}
    emphasised = correction.emphasised
    pairs += [
        (new, old)
        for new in given
        if new not in said
        and (old := _same_unit(text, new, given, emphasised, correction.named, correction.after))
    ]
    # The value the correction stresses first (of those, the first in the post): the
    # newsletter says what it was first reported as, once ("83% (first reported as 87%)"), as
    # editors do; the others are replaced.
    pairs.sort(
        key=lambda pair: (_number(pair[0]) not in emphasised, text.find(pair[1]), len(pair[1]))
    )
    annotated = False
    # (the value "1,340", fixed, is not fixed again as "1,340 viewers"; "68 YES" fixed, "68
    # units" still is)
    fixed: dict[str, set[str]] = {}
    for new, given_old in pairs:
        old = next((form for form in _forms(given_old, new) if any(_said(form, text))), given_old)
        if old[-2:] in ("am", "pm") and _CLOCK_RE.fullmatch(new):
            new += old[-2:]  # ("9am" gives way to "9:30am")
        found = list(_said(old, text))
        units = fixed.get(_number(old), set())
        if len(found) != 1 or units and not units.isdisjoint({"", _unit(old).strip(" ,")}):
            continue
        if any(_said(new, text)):
            continue  # (a post saying both values compares them: "31.8 test-shots, 27.4 dev")
        if _NOT_BEFORE_RE.search(text, 0, found[0].start()):
            continue  # (a post saying what it was not: "so *2.4x*, not 3.1x")
        if (
            old == given_old
            and old.isdigit()
            and len(old) <= 2  # (a day of a month: "SATURDAY 0800" is a time)
            and _in_a_date(text, *found[0].span())
        ):
            continue  # (a count's "18, not 16" leaves "Saturday 16 May" as it is; "the 16th" not)
        fixed.setdefault(_number(old), set()).add(_unit(old).strip(" ,"))
        start, end = found[0].span()
        # ("118 fps, not 131" over "131 fps": the unit is there already)
        said_unit = not _unit(old) and _unit(new)
        unit = re.match(rf"\s?{re.escape(_unit(new))}", text[end:]) if said_unit else None
        if said_unit and unit is None and _OTHER_UNIT_RE.match(text, end):
            continue  # ("13 s behind, not 22" does not make "22 riders" "13 s riders")
        value = _number(new) if unit else new
        after = end + (unit.end() if unit else 0)
        if unit is None:  # ("36.4 Wh/km, not 34.6" over "34.6 Wh/km": said after its unit)
            after = _measured_to(text, start, after)
        zone = _ZONE_RE.match(text, after)  # ("17:00 CET": said with the value)
        if zone is not None:
            after = zone.end()
        month = _DATE_AFTER_RE.match(text, after) if old != given_old else None
        if month is not None:  # ("Friday 27 November (first reported as 20 November)")
            after = month.end()
        if not annotated and (after == len(text) or text[after] in _CLAUSE_ENDS):
            annotated = True
            sign = text[start - 1] if start and text[start - 1] in "+-−" else ""  # ("+6.3%")
            first = f"{sign}{old}{text[end:after]}".strip()
            # (within brackets, a clause of theirs: "(16:00 UTC, first reported as 17:00 UTC)")
            bracketed = text.count("(", 0, start) > text.count(")", 0, start)
            note = f", {FIRST_REPORTED} {first}" if bracketed else f" ({FIRST_REPORTED} {first})"
            text = f"{text[:start]}{value}{text[end:after]}{note}{text[after:]}"
        else:
            text = f"{text[:start]}{value}{text[end:]}"
    return text


_UNIT_WORD_RE = re.compile(r"\s?[^\W\d][\w/°²]*")


def _measured_to(text: str, start: int, end: int) -> int:
    """Where the figure at `start` of `text` ends, its unit of measure ("34.6 Wh/km")
    included, where `end` (after its number) leaves that unit out; else `end`."""
    figure = FIGURE_RE.match(text, start)
    if (
        figure is None
        or figure.end() <= end
        or not _UNIT_WORD_RE.fullmatch(text, end, figure.end())
    ):
        return end
    return figure.end()


# A day's or a month's name right before a number, or a month's right after it: a date.
_DATE_BEFORE_RE = re.compile(rf"\b(?:{_DAY_NAME}|{_MONTH_NAME})[,.]?\s+\Z", re.I)
_DATE_AFTER_RE = re.compile(rf"(?:st|nd|rd|th)?\s+{_MONTH_NAME}\b", re.I)


def _in_a_date(text: str, start: int, end: int) -> bool:
    """Whether the number at `start`:`end` of `text` is a day of a month ("Saturday 16
    May", "May 16")."""
    return (
        _DATE_BEFORE_RE.search(text, max(0, start - DATE_CHARS), start) is not None
        or _DATE_AFTER_RE.match(text, end) is not None
    )


def _forms(value: str, new: str = "") -> list[str]:
    """How `value` may be written: "19k" as "19k", "19,000" and "19000"; a bare number with
    the unit written onto the `new` value it gives way to ("25.4s, not 24.5": "24.5s")."""
    if _CLOCK_RE.fullmatch(new) and value.isdigit() and len(value) <= 2:
        # ("we start at 9:30, not 9" over "same time 9am")
        return [value, *(value + end for end in _HOUR_ENDS)]
    if new[-2:].lower() in ("am", "pm") and (
        _RANGE_RE.fullmatch(value) or _CLOCK_RE.fullmatch(value)
    ):
        # ("3–6pm, not 2–5" over "Tuesdays 2–5pm"; "6:30am, not 6:00" over "from 6:00am")
        return [value, value + new[-2:]]
    unit = _unit(new)
    if unit.isalpha() and not _unit(value):
        return [value, value + unit]
    ordinal = _ORDINAL_RE.fullmatch(value)
    if ordinal is not None:  # ("Friday 27 November, not the 20th" over "Friday 20 November")
        return [value, ordinal[1]]
    short = _THOUSANDS_RE.fullmatch(value)
    if short is None:
        return [value]
    thousands = int(short[1]) * 1000
    return [value, f"{thousands:,}", str(thousands)]


_CLOCK_RE = re.compile(r"\d{1,2}:\d{2}")
_ORDINAL_RE = re.compile(r"(\d{1,2})(?:st|nd|rd|th)")
_ZONE_RE = re.compile(r" [A-Z]{2,5}\b")
_HOUR_ENDS = ("am", " am", "pm", " pm", ":00")


def _said(value: str, text: str) -> Iterator[re.Match[str]]:
    """Where `text` says `value` (not as part of a longer number, nor as a clock's hour: "4
    buses, not 3" leaves "3:40 PM" as it is)."""
    return re.finditer(rf"(?<![\w.,]){re.escape(value)}(?![\w]|[.,:]\d)", text)


# A value said as a change, not as what is now: "we removed 9 votes", "threw out 16 subs",
# "we're down to 38 dogs" (what is left after what the correction fixes), "they disqualified 2
# teams".
_CHANGE_RE = re.compile(
    r"\b(?:removed|added|dropped|deducted|subtracted|threw out|took out|minus|another|down to"
    r"|disqualified)"
    r"(?:\s+(?:another|an extra|extra|the|about|around|~))?\s+[*_]*$",
    re.IGNORECASE,
)
_CHANGE_HINTS = (
    *("removed", "added", "dropped", "deducted"),
    *("subtracted", "out ", "minus", "another", "down to", "disqualified"),
)


def _without_changes(given: list[str], text: str) -> list[str]:
    """The values of `given` that `text` does not say as a change (`_CHANGE_RE`)."""
    if not holds_any(text.lower(), _CHANGE_HINTS):
        return given  # (most corrections)
    return [
        value
        for value in given
        if not any(_CHANGE_RE.search(text, 0, at) for at in _starts(text, value))
    ]


def _starts(text: str, value: str) -> list[int]:
    return [m.start() for m in re.finditer(re.escape(value), text)]


def _counted(text: str) -> list[str]:
    """The figures of `text`, and the counts it gives with what they count."""
    figures = find_figures(text)
    return figures + [m[0] for m in _COUNT_RE.finditer(text) if m[0] not in figures]


def _value(said: str) -> str:
    return said.strip().rstrip(".,:")


def _factor(said: re.Match[str]) -> str:
    """NEW of "NEW, not OLD"; of a product, the factor of OLD's unit ("48 × 180 s, not 64"
    corrects 64 to 48; "48 × 180 s, not 120 s" 120 s to 180 s)."""
    factor = said["factor"]
    if factor is None or _unit(said["new"]) == _unit(said["old"]):
        return said["new"]
    return factor


def _pair(new: str, old: str) -> tuple[str, str]:
    """(NEW, OLD) of "NEW, not OLD"; OLD in NEW's month where it names none ("Dec 14, not
    4")."""
    month = re.match(_MONTH, new)
    if month and not re.match(_MONTH, old):
        old = month[0] + old
    return _value(new), _value(old)


# A value after the word labelling it: "total: $4,410", "PL **100.0**", "score: 5,396". In a
# correction, the label ends in a colon or the value is stressed, as a value given anew is;
# in the post it corrects, it may stand plainly before it ("PL 103.5").
_VALUE_AFTER = r"(?P<value>[$€£]?\d(?:[\d,.]*\d)?)(?![\w.,:]\d)"
_LABELLED_RE = re.compile(
    rf"\b(?P<label>[A-Za-z]{{2,}})(?::[^\S\n]*[*_]*|[^\S\n]+[*_]+"
    # (or said to be it: "so gross is $5,935", "FOS 1.68")
    rf"|[^\S\n]+(?:(?:is|was|are|were)(?:[^\S\n]+now)?[^\S\n]+[*_]*)?){_VALUE_AFTER}"
)
# (an emoji between them says nothing: "Raffle weekly total 🎟️ $2,696")
_LABELLED_PLAINLY_RE = re.compile(
    rf"\b(?P<label>[A-Za-z]{{2,}}):?[^\S\n]+(?:(?:{EMOJI_RE.pattern})+[^\S\n]+)?[*_]*{_VALUE_AFTER}"
)
# (words of grammar before a number label nothing: "at **9:30**", "is **12**"; nor does a day's
# or a month's name: "Friday **19:00**" is a time, "Friday 9 Oct" a date)
_NOT_LABELS = frozenset(
    ["is", "was", "are", "were", "be", "at", "of", "to", "by", "and", "or", "not", "it"]
    + [name.lower() for name in (*calendar.day_name, *calendar.month_name, *calendar.month_abbr)]
    + [name.lower() for name in calendar.day_abbr]
)


def _labelled(text: str, pattern: re.Pattern[str] = _LABELLED_RE) -> list[tuple[str, str]]:
    """The values of `text` each after a word labelling it, the label lower-cased."""
    return [
        (label, m["value"])
        for m in pattern.finditer(text)
        if (label := m["label"].lower()) not in _NOT_LABELS
    ]


def _number(figure: str) -> str:
    unit = _unit(figure)
    # (a bare count's "," unit is in its number: "1,340")
    return figure[: len(figure) - len(unit)].strip() if unit and unit != "," else figure


def _unit(figure: str) -> str:
    """What follows a figure's number ("%", "GPUs", "/60"); for a bare count with thousands
    separators, ","."""
    unit = _UNIT_RE.sub("", figure)
    return unit or ("," if "," in figure else "")


def _same_unit(
    text: str,
    figure: str,
    given: Sequence[str],
    emphasised: Collection[str],
    named: Collection[str],
    after: Mapping[str, str],
) -> str | None:
    """The one figure of `text` with the unit of `figure` and another value (one the
    correction names too, where it names others; of several, the one it says was wrong,
    `named`, or the one followed by the word the correction says after it, `after`), where
    the correction's figures (`given`) have that unit once (or once in bold or italics,
    `emphasised`); None where there is none or several."""
    unit = _unit(figure)
    if not unit:
        return None
    alike = [f for f in given if _unit(f) == unit]
    # (the values the post says already are not what it corrects: "31 ms → 9 ms" over "84
    # ms ... 9 ms"; a post saying them all was edited to say them, or says what was meant)
    own = {_number(f) for f in _counted(text) if _unit(f) == unit}
    if len(own) == 1 and any(_number(f) in own for f in alike):
        return None  # (the post's one value of it, said again: "Correct numbers: 27 students,
        # 14 adults" over "33 students, 14 adults" leaves the adults as they were)
    alike = [f for f in alike if _number(f) not in own]
    if len(alike) > 1:
        alike = [f for f in alike if _number(f) in emphasised]
    if alike != [figure]:
        return None
    found = {f for f in _counted(text) if _unit(f) == unit and _number(f) != _number(figure)}
    # (a correction naming the value it replaces, "the +6.3% ... is wrong ... *+4.1%*",
    # replaces that one, not another post's "2.1%")
    said = {_number(f) for f in given if _unit(f) == unit} - {_number(figure)}
    if said and said.isdisjoint(named) and said <= own:
        # (what it says as the post did stays: "2.95 s Agg, 0.61 s Skia" over "4.21 s Agg,
        # 0.61 s Skia" corrects the 4.21 s)
        found = {f for f in found if _number(f) not in said}
    elif said:
        found = {f for f in found if _number(f) in said}
    if len(found) > 1:
        found = {f for f in found if _number(f) in named} or {
            f for f in found if figure in after and _followed_by(text, f, after[figure])
        }
    return found.pop() if len(found) == 1 else None


def _followed_by(text: str, figure: str, word: str) -> bool:
    """Whether `figure` is said once in `text`, followed by `word` ("68 units pledged")."""
    places = [m.end() for m in _said(figure, text)]
    return (
        len(places) == 1
        and (m := _WORD_AFTER_RE.match(text, places[0])) is not None
        and m[1] == word
    )
