"""Signals every community has that a message is news, whatever its words.

People react to it and answer it; admins pin it or address the whole channel; it links to
something (a release, a slide deck, an event page); it names a day. None of these
depends on the community's vocabulary, so a week of meetup chat ranks as well as a week of PRs.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence

from summarizer.corrections import corrects
from summarizer.phrasing import REPLY_OPENER_RE
from summarizer.text import holds_any
from summarizer.types import SourceMessage

# A link, or a file someone shared (Slack's notice: "@Ana uploaded a file: plot.png").
_LINK_RE = re.compile(r"https?://| (?:uploaded|shared) a file: ")
_ANNOUNCEMENT_RE = re.compile(r"<!(?:here|channel|everyone)|@(?:here|channel|everyone)\b")
# A day: "this Saturday", "Oct 17", "17 October" (not a weekday alone: "happy
# Friday" is a greeting; not a time alone: "at 3am" is more often a joke than an event).
# Both patterns are searched in the lower-cased text: a case-sensitive search is several
# times faster. "on Saturday" is written to open with "day", looking behind it for the rest,
# so that the regex engine skips from one "day" to the next instead of trying every place.
_WEEKDAYS = ("mon", "tues", "wednes", "thurs", "fri", "satur", "sun")
_ON_A_WEEKDAY_RE = re.compile(
    "day(?:"
    + "|".join(
        rf"(?<=\b{before} {weekday}day)"
        for before in ("on", "this", "next", "until", "by")
        for weekday in _WEEKDAYS
    )
    + ")"
)
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
# A date, "Oct 17" or "17 October": `\b(?:MONTH \d{1,2}(?:st|nd|rd|th)?\b|\d{1,2}(?:st|nd|rd|th)?
# MONTH)` with MONTH `(?:jan|feb|...|dec)[a-z]*\.?`, written to open with the month's first three
# letters (the engine skips to the next place one can start), then looking behind them: for no
# word character before the month, or for the day before it (one look-behind per width).
_DAY_BEFORE = "|".join(
    rf"(?<=\b{day}{suffix} \w\w\w)"
    for day in (r"\d", r"\d\d")
    for suffix in ("", "st", "nd", "rd", "th")
)
_DATE_RE = re.compile(
    rf"(?:{'|'.join(_MONTHS)})(?:(?<!\w\w\w\w)[a-z]*\.? \d{{1,2}}(?:st|nd|rd|th)?\b|{_DAY_BEFORE})"
)
# A version or a release: "v2.1", "3.2.0rc1", "released", "is out".
_RELEASE_RE = re.compile(
    r"\bv?\d+\.\d+(?:\.\d+)?(?:[ab]|rc)?\d*\b"
    r"(?=.{0,40}\b(?:release|out|available|ship|dropped|published|tagged))"
    r"|\b(?:released|is out|now available|new release)\b"
    # ("tagged reduce v0.7.0")
    r"|\b(?:tagged|released|shipped|published)\b[^.\n]{0,30}\bv?\d+\.\d+\.\d+\b"
)  # (lower-cased text too)

_RELEASE_HINTS = ("release", " out", "available", "ship", "dropped", "published", "tagged")

# The asker's thanks for an answer: "that was it, thank you!!", "thx, works now".
_THANKS_RE = re.compile(
    r"\b(?:thanks|thank you|thx|ty|tysm|that (?:was|did) it|works now|that worked"
    # (in the languages chat is most often in besides English)
    r"|gracias|merci|danke|dankjewel|bedankt|grazie|obrigad[oa]|dzięki|dziękuję|спасибо"
    r"|funciona|funktioniert|ça marche)\b"
    r"|ありがとう|谢谢|謝謝|감사합니다|고마워",
    re.IGNORECASE,
)
THANKS_WORDS = 12  # a thanks is short: a longer reply goes on with its own question or news
# ... unless it says the answer worked: "the backports kernel + the group_add lines did it.
# 3 streams now, CPU at ~12%. thank you!!"
_WORKED_HINTS = ("did", "work", "trick")
_WORKED_RE = re.compile(r"\b(?:did it|did the trick|that (?:was|did) it|works now|worked)\b")

LINK_GAIN = 1.0
WHEN_GAIN = 1.0
THANKED_GAIN = math.log1p(2)  # as much as two reactions
RELEASE_GAIN = 1.0
ANNOUNCEMENT_GAIN = 2.0
PIN_GAIN = 2.0
FEED_GAIN = math.log1p(11)  # a bot's post of a page a dozen people reacted to is news
REPORT_GAIN = math.log1p(5)  # ... and its report of figures or a status that five did


def is_feed_post(message: SourceMessage) -> bool:
    """Whether `message` is a bot's post of a page that many people took up: a feed's new
    episode, video or blog post ("📻 **The Long Wave** has a new episode! <url>")."""
    return message.is_bot and _links(message.text) and social_gain(message) >= FEED_GAIN


def is_report_post(message: SourceMessage) -> bool:
    """Whether `message` is a bot's report that many people took up (the week's figures, a
    store's review of a release, a tally): not a page (`is_feed_post`), no PR's news (an
    integration's post says those), and said to no one member (a command's answer: "@Kofi
    🎲 Result: 1d20 (14) + 5")."""
    return (
        message.is_bot
        and not message.prs
        and "@" not in message.text
        and social_gain(message) >= REPORT_GAIN
        and not is_feed_post(message)
    )


def social_gain(message: SourceMessage) -> float:
    """What people made of the message: reactions and replies (each more worth less), a
    pin, an announcement to the whole channel."""
    gain = math.log1p(message.reactions) + math.log1p(message.replies)
    if message.pinned:
        gain += PIN_GAIN
    return gain + ANNOUNCEMENT_GAIN * _to_everyone(message.text)


def is_announcement(message: SourceMessage) -> bool:
    """Whether the message was pinned or said to the whole channel."""
    return message.pinned or _to_everyone(message.text)


def _to_everyone(text: str) -> bool:
    return ("@" in text or "<!" in text) and _ANNOUNCEMENT_RE.search(text) is not None


def text_gain(text: str) -> float:
    """What the text itself shows: a link, a day, a release."""
    lower = text.lower()
    gain = LINK_GAIN * _links(text) + WHEN_GAIN * _names_day(lower)
    return gain + RELEASE_GAIN * _names_release(lower)


def shows_something(text: str) -> bool:
    """Whether `text_gain(text)` is above zero, the cheap tests first (a link, then a
    release's words; most chat has neither, and the day's pattern is the slow one)."""
    if _links(text):
        return True
    lower = text.lower()
    return _names_release(lower) or _names_day(lower)


def _links(text: str) -> bool:
    return ("http" in text or " a file: " in text) and _LINK_RE.search(text) is not None


def names_day(text: str) -> bool:
    """Whether `text` names a day ("on Saturday", "Dec 2", "17 October")."""
    return _names_day(text.lower())


def _names_day(lower: str) -> bool:
    # Most chat names no month: the date pattern runs only where one's first letters are.
    if _ON_A_WEEKDAY_RE.search(lower) is not None:
        return True
    return holds_any(lower, _MONTHS) and _DATE_RE.search(lower) is not None


_DIGITS_RE = re.compile(r"(?P<day>\d+)")
_DAY_BEFORE_RE = re.compile(r"(?P<day>\d+)\D{0,3}$")


def dates_named(text: str) -> set[str]:
    """The dates `text` names by month, as day and month ("27 oct" for "Oct 27th" and
    "27 October")."""
    lower = text.lower()
    if not holds_any(lower, _MONTHS):
        return set()
    dates = set()
    for found in _DATE_RE.finditer(lower):
        # ("27 October": the pattern found the month; the day is before it)
        day = _DIGITS_RE.search(found[0]) or _DAY_BEFORE_RE.search(lower, 0, found.start())
        if day is not None:
            dates.add(f"{day['day']} {found[0][:3]}")
    return dates


def names_release(text: str) -> bool:
    """Whether `text` names a release: a version that is out, or "released"."""
    return _names_release(text.lower())


def _names_release(lower: str) -> bool:
    # Most chat names no release: the pattern runs only where its words are.
    hinted = holds_any(lower, _RELEASE_HINTS)
    return hinted and _RELEASE_RE.search(lower) is not None


def _says_it_worked(text: str) -> bool:
    """Whether `text` says an answer worked (`_WORKED_RE`) and asks nothing more."""
    return (
        "?" not in text and holds_any(text, _WORKED_HINTS) and _WORKED_RE.search(text) is not None
    )


def _since(said: Sequence[SourceMessage], author_id: str) -> list[SourceMessage]:
    """The messages of a thread (`said`, so far) after the last one by `author_id`, by
    others."""
    at = len(said)
    while at and said[at - 1].author_id != author_id:
        at -= 1
    return list(said[at:])


def _asked(
    answer: SourceMessage,
    by_id: Mapping[str, SourceMessage],
    in_thread: Mapping[str, Sequence[SourceMessage]],
    first_in_thread: Mapping[str, SourceMessage],
) -> SourceMessage | None:
    """What `answer` answers: the message it replies to; in a thread, the last message before
    it by another person who asked ("?"), or else the thread's first."""
    replied = by_id.get(answer.reply_to_id or "")
    if replied is not None or not answer.thread_id:
        return replied
    said = in_thread.get(answer.thread_id, [])
    before = said[: next((at for at, m in enumerate(said) if m is answer), len(said))]
    return next(
        (m for m in reversed(before) if m.author_id != answer.author_id and "?" in m.text),
        first_in_thread.get(answer.thread_id),
    )


def thanked_answers(item: Sequence[SourceMessage]) -> dict[str, str]:
    """The messages of a conversation that answered another person's question and that the
    asker then thanked, by id, each with the id of the question: a question answered in
    substance, by what it says (not "yes, ...": that needs the question to be read). A reply
    answers the message it replies to (where replies are unmarked, the one before it); in a
    thread, the one before it, and the thread's first message is what was asked (with or
    without a question mark, "crashes with 40 mods, log attached", unless it cites a PR or
    names a day: that is news of its own)."""
    by_id = {m.id: m for m in item}
    first_in_thread: dict[str, SourceMessage] = {}
    in_thread: dict[str, list[SourceMessage]] = {}
    thanked: dict[str, str] = {}
    previous: SourceMessage | None = None
    for message in item:
        thread = message.thread_id
        unmarked = thread is None and message.reply_to_id is None
        replied = by_id.get(message.reply_to_id or "")
        # (in a thread, every reply since the thanker last spoke: "thank you both")
        answers = (
            [replied]
            if replied
            else _since(in_thread.get(thread, []), message.author_id)
            if thread
            else [previous]
            if unmarked and previous
            else []
        )
        previous = message
        if thread:
            first_in_thread.setdefault(thread, message)
            in_thread.setdefault(thread, []).append(message)
        if (
            not answers
            or len(message.text.split()) > THANKS_WORDS
            and not _says_it_worked(message.text)
            or _THANKS_RE.search(message.text) is None
        ):
            continue  # (most messages: no thanks for another's answer)
        for answer in answers:
            asked = _asked(answer, by_id, in_thread, first_in_thread)
            if (
                asked is not None
                and asked.author_id == message.author_id != answer.author_id
                # (a thread's opener that names a day is a plan, whatever help it asks for:
                # "Grant ... Submission deadline: Thursday, Nov 5. What I need from you all:")
                and (
                    "?" in asked.text
                    or asked is first_in_thread.get(asked.thread_id or "")
                    and not asked.prs
                    and not _names_day(asked.text.lower())
                )
                # ("yes, filter for ..." needs its question; another's question is none)
                and not REPLY_OPENER_RE.match(answer.text)
                and not answer.text.rstrip().endswith("?")
                # (thanks for a correction of the post: "it's 2-260, not 2-206", "oops yes")
                and not corrects(answer.text, asked.text)
            ):
                thanked[answer.id] = asked.id
    return thanked
