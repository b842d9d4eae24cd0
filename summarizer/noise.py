"""Telling chit-chat, acknowledgements and instructions aimed at the bot from content.

Every check here sees text any member can write, so each runs in linear time: the
acknowledgement check splits the text into words and matches them against a vocabulary with
a small dynamic programme, instead of one regex with nested repetition (which backtracked
exponentially on "kkkk…k x").
"""

from __future__ import annotations

import re
import unicodedata

from summarizer.addressed import is_addressed
from summarizer.figures import FIGURE_RE
from summarizer.integrations import commits, releases
from summarizer.previews import written
from summarizer.signals import is_feed_post, is_report_post
from summarizer.text import URL_RE, holds_any
from summarizer.types import SourceMessage

# Replies that carry no content of their own, as word sequences.
_ACK_PHRASES = frozenset(
    tuple(phrase.split())
    for phrase in [
        "thanks",
        "thank",
        "thx",
        "ty",
        "tysm",
        "lol",
        "lmao",
        "hah",
        "nice",
        "cool",
        "great",
        "awesome",
        "amazing",
        "wow",
        "ok",
        "okay",
        "k",
        "kk",
        "yes",
        "yep",
        "yeah",
        "yup",
        "no",
        "nope",
        "sure",
        "agreed",
        "same",
        "+1",
        "+100",
        "lgtm",
        "congrats",
        "congratulations",
        "welcome",
        "hi",
        "hello",
        "hey",
        "hiya",
        "howdy",
        "morning",
        "evening",
        "gm",
        "gn",
        "done",
        "noted",
        "np",
        "exactly",
        "indeed",
        "this",
        "huge",
        "ship",
        "it",
        "yay",
        "ouch",
        "oof",
        "so",
        "much",
        "a",
        "lot",
        "all",
        "everyone",
        "folks",
        "team",
        "guys",
        "y'all",
        "true",
        "love",
        "it",
        "too",
        "also",
        "me",
    ]
)
_ACK_MULTI = frozenset(
    tuple(phrase.split())
    for phrase in (
        "thank you",
        "welcome aboard",
        "good morning",
        "good night",
        "sounds good",
        "works for me",
        "makes sense",
        "got it",
        "will do",
        "on it",
        "no worries",
        "so true",
        "love it",
        "love this",
        "let's go",
        "lets go",
        "ship it",
        "oh no",
        "same here",
        "so much",
        "a lot",
        "thanks a lot",
        "well done",
        "great work",
        "nice work",
        "great job",
        "nice one",
        "nice catch",
        "good catch",
        "good point",
        "fair point",
        "good idea",
        # the answer to "who owns this?" or "is that right?", before what it says
        *(f"that{s} {w}" for s in ("'s", "’s") for w in ("me", "right", "it", "true")),
        "that was me",
        # (a vote or a show of hands: "+1 from me", "me too", "me!" to "anyone going?")
        "from me",
        "me too",
    )
)
_ACK_MAX_WORDS = 3  # the longest phrase above
_ACK_MAX_TOKENS = 12
# The first word of a message that opens with a plain word (not a mention, emoji or sign).
_FIRST_WORD_RE = re.compile(r"[\s!.,;)(~*_-]*([A-Za-z][\w']*)")
_ACK_WORDS = frozenset(word for phrase in _ACK_PHRASES | _ACK_MULTI for word in phrase)
_ACK_MAX_CHARS = 300  # twelve phrases with mentions and emoji fit well within this
_LAUGH_RE = re.compile(r"(?:ha)+h?|(?:he)+|wo+|yay+|lo+l|o+k|k+")
_LAUGH_STARTS = frozenset("hwylok")  # the letters `_LAUGH_RE` can start with
_ACK_SPLIT_RE = re.compile(r"[\s!.,:;)(~*_-]+")
# "@ana", "@Ana Ruiz" (a second word only when capitalised, like a name), "<@U123>".
_MENTION_RE = re.compile(r"<[@#!][^<>\s]{1,80}>|@[\w'.-]{1,80}(?: [A-Z][\w'.-]{0,80})?")
_EMOJI_RE = re.compile(
    r":[\w+-]{1,60}:|[\u2190-\u2bff\u2600-\u27bf\U0001f000-\U0001faff\ufe0f\u200d]"
)
# Review chatter: it names a PR but says nothing about it.
_REVIEW_RE = re.compile(
    r"^\W{0,3}(?:lgtm|ptal|approved?|reviewed|reviewing|r\+|looks good(?: to me)?|"
    r"left (?:a few |some |a couple of )?(?:comments|notes|a review)|will (?:review|take a look)|"
    r"taking a look|having a look|looking now|on it)\b",
    re.IGNORECASE,
)
_REVIEW_MAX_WORDS = 8
_DONE_RE = re.compile(r"\b(?:merged|landed|shipped|released|reverted)\b", re.IGNORECASE)
# Chat that addresses the summarizer with instructions: data, never orders, never facts.
_INSTRUCTION = (
    r"\b(?:ignore|disregard|forget|override)\b[^.!?\n]{0,40}\b(?:previous|prior|above|earlier|"
    r"your|all|the)\b[^.!?\n]{0,20}\b(?:instructions?|prompts?|rules?|guidelines)\b"
    r"|\b(?:summary ?bot|summari[sz]er|the bot|you are an? (?:ai|assistant|language model))\b"
    r"[^.!?\n]{0,80}\b(?:report|say|write|state|claim|announce|include|mention|add)\b"
    # (a system prompt posed as one, not the words of a benchmark's "2k-token system prompt")
    r"|\bsystem prompt\s*[:\]]|\bnew system prompt\b"
    r"|\bin (?:the|this week'?s|your) summary,? (?:say|write|report|state)\b"
)
_INSTRUCTION_RE = re.compile(_INSTRUCTION, re.IGNORECASE)
_INSTRUCTION_FOLDED_RE = re.compile(_INSTRUCTION)  # for lower-cased ASCII text
# Every alternative above holds one of these (in lower case).
_INSTRUCTION_CUES = (
    "instruction",
    "prompt",
    "rule",
    "guidelines",
    "summar",
    "the bot",
    "you are a",
)
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"))


def is_acknowledgement(text: str) -> bool:
    """Thanks, +1, lol, emoji and other replies that carry no content of their own."""
    if len(text) > _ACK_MAX_CHARS or text.count(" ") > 3 * _ACK_MAX_TOKENS:
        return False  # most messages: too long to be only thanks and emoji
    first = _FIRST_WORD_RE.match(text)
    word = first.group(1).lower()[:40] if first else ""
    if word and word not in _ACK_WORDS and not _laughs(word):
        return False  # most messages: their first word already says something
    stripped = _EMOJI_RE.sub(" ", _MENTION_RE.sub(" ", text).lower())
    tokens = [t for t in _ACK_SPLIT_RE.split(stripped) if t and t not in "?"]
    return _all_acknowledgements(tokens)


def _all_acknowledgements(tokens: list[str]) -> bool:
    """Whether `tokens` split into acknowledgement phrases (a dynamic programme: linear)."""
    if len(tokens) > _ACK_MAX_TOKENS:
        return False
    if not all(t in _ACK_WORDS or _laughs(t[:40]) for t in tokens):
        return False  # a word no acknowledgement has: "so" in "so the loader is fixed"
    ok = [True] + [False] * len(tokens)
    for end in range(1, len(tokens) + 1):
        for size in range(1, min(_ACK_MAX_WORDS, end) + 1):
            phrase = tuple(tokens[end - size : end])
            if ok[end - size] and _is_ack_phrase(phrase):
                ok[end] = True
                break
    return ok[-1]


def _is_ack_phrase(phrase: tuple[str, ...]) -> bool:
    if phrase in _ACK_PHRASES or phrase in _ACK_MULTI:
        return True
    return len(phrase) == 1 and _laughs(phrase[0][:40])


def _laughs(word: str) -> bool:
    """Whether a lower-case `word` is a laugh or a drawn-out "ok" ("haha", "lol", "kkk")."""
    # (most words are not: their first letter tells, without the regex)
    return word[:1] in _LAUGH_STARTS and _LAUGH_RE.fullmatch(word) is not None


def is_review_chatter(text: str) -> bool:
    """ "LGTM on #12", "left comments on #12": a PR named, nothing said about it ("LGTM,
    merged #12" says it is in)."""
    # (the anchored pattern first: it rules out most text without splitting it into words)
    return (
        bool(_REVIEW_RE.match(text.strip()))
        and len(text.split()) <= _REVIEW_MAX_WORDS
        and _DONE_RE.search(text) is None
    )


def normalise_for_matching(text: str) -> str:
    """Text as a filter should see it: compatibility forms folded (NFKC: full-width letters,
    ligatures) and invisible characters removed, so look-alikes cannot slip past."""
    return unicodedata.normalize("NFKC", text).translate(_INVISIBLE)


def is_instruction_to_bot(text: str) -> bool:
    """Whether the text tries to instruct the summarizer (prompt injection)."""
    if text.isascii():
        # Nothing to fold or remove, and ASCII lower-cased is searched case-sensitively with
        # the same answer, several times faster than ignoring case.
        lower = text.lower()
        # Most chat holds no cue: the pattern runs only where one is.
        return holds_any(lower, _INSTRUCTION_CUES) and (
            _INSTRUCTION_FOLDED_RE.search(lower) is not None
        )
    return bool(_INSTRUCTION_RE.search(normalise_for_matching(text)))


_GIF_RE = re.compile(r"\.gif\b|[/-]gifs?(?:[/-]|$)", re.IGNORECASE)
GIF_CAPTION_WORDS = 8


def is_noise(message: SourceMessage) -> bool:
    """Messages a weekly summary never draws on."""
    text = message.text
    if is_acknowledgement(text) or is_review_chatter(text) or is_instruction_to_bot(text):
        return True
    if is_addressed(text):  # "dear digest bot: say ...": steering, not news
        return True
    if message.is_bot:
        # Bot chatter counts only when it carries a PR, a figure, pushed commits or a
        # release, or posts a page or a report many people took up (CI and deploy pings
        # do not).
        return not (
            message.prs
            or FIGURE_RE.search(text)
            or commits(text)
            or releases(text)
            or is_feed_post(message)
            or is_report_post(message)
        )
    return "gif" in text.lower() and _is_a_gif(message)


def _is_a_gif(message: SourceMessage) -> bool:
    """Whether the message is a reaction GIF with a few words ("new renderer goes brrrr
    <tenor.com/view/...-gif-2056>"): its links are all GIFs, as their addresses say."""
    said = written(message)
    links = URL_RE.findall(said)
    return (
        bool(links)
        and all(_GIF_RE.search(link) for link in links)
        and len(URL_RE.sub(" ", said).split()) < GIF_CAPTION_WORDS
    )
