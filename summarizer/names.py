"""Members' display names as a newsletter prints them, and channel names as admins write them.

Discord and Slack names often carry emoji ("Ana 🌸", "Kofi :coffee:"). In a bullet they read
as chat, and the voice check (`summarizer.voice`) then left out every sentence that named
such a member, so nothing they did was drafted. Their emoji are decoration, not part of the
name: they are left out, and a name that is only emoji stays as it is. So are the pronouns
a name may carry in brackets ("Ben (he/him)"), which made a credit "(..., Ben (he/him))",
and a role after a bar ("Elk | Loader Dev").

Discord servers decorate channel names the same way ("👋・introductions", "🦀┃uefi-rs"); an
admin's config names the channel plainly, and `channel_key` lets the two meet.

A reply often opens by calling its addressee ("Greg, the key is derived from ...", "Dev! I
found your keys ..."): in a summary it speaks of them, not to them (`without_vocatives`).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import replace
from functools import lru_cache

from summarizer.types import SourceMessage
from summarizer.voice import EMOJI_RE, EMOJI_START_RE

_SPACES_RE = re.compile(r"\s+")
# A role after the name: "Elk | Loader Dev", "Gwen - Show Sec", or in brackets in words of
# its own, "Tony G (timing)", "Kofi (Ama's dad)" (a name in brackets, "Ben (ETH)", "Maria
# (Director)", may say where they are from or what they are: it stays).
_ROLE_RE = re.compile(r"\s+[|｜–—-]\s+.*$|\s+\((?=[^()]*\b[a-z])[^()/]{1,30}\)$")
_CHANNEL_EDGES_RE = re.compile(r"^[\W_]+|[\W_]+$")  # emoji, "・", "┃", "#" around the name
# A mention right after the name it stands for: "please welcome *Dr. Amara Okafor*
# @Amara Okafor", "*Ifeoma Okafor* (@Ifeoma Okafor)" (the writer wrote the name, then
# mentioned them so they are notified).
_REPEATED_MENTION_RE = re.compile(
    r"\b([A-Z][\w'-]*(?: [A-Z][\w'-]*){0,3})([*_]*)(?:[ ,]*@\1(?![\w'-])| \(@\1\))"
)
_PRONOUNS_RE = re.compile(
    r"[(\[]\s*(?:he|she|they|xe|ze|it|any)(?:\s*/\s*[a-z]+)+\s*[)\]]", re.IGNORECASE
)


def plain_name(name: str) -> str:
    """`name` without its emoji, pronouns and role ("Ana 🌸" -> "Ana", "Ben (he/him)" ->
    "Ben", "Elk | Loader Dev" -> "Elk", "Gwen - Show Sec" -> "Gwen", "Tony G (timing)" ->
    "Tony G"); as it is if nothing else is left."""
    if EMOJI_START_RE.search(name) is None and "/" not in name and _ROLE_RE.search(name) is None:
        return name  # (most names: a cheap look)
    plain = _ROLE_RE.sub("", name)
    plain = _SPACES_RE.sub(" ", without_pronouns(EMOJI_RE.sub(" ", plain))).strip()
    return plain if any(c.isalnum() for c in plain) else name


def without_pronouns(text: str) -> str:
    """`text` without the pronouns someone gives in brackets ("I'm Lin (she/her)!" ->
    "I'm Lin!")."""
    return _PRONOUNS_RE.sub("", text) if "/" in text else text


def stated_pronoun(text: str) -> str | None:
    """The subject pronoun someone gives in brackets ("I'm Lin (she/her)" -> "she"), lower
    case; None where they give none."""
    if "/" not in text:
        return None
    given = _PRONOUNS_RE.search(text)
    return given[0].strip("([ ").split("/")[0].strip().lower() if given else None


def with_plain_names(messages: Sequence[SourceMessage]) -> list[SourceMessage]:
    """`messages`, each whose author's name carries emoji or pronouns with the name
    without them."""
    plain = {name: plain_name(name) for name in {m.author for m in messages}}
    changed = {name: to for name, to in plain.items() if to != name}
    if not changed:
        return list(messages)  # (most weeks)
    return [replace(m, author=changed[m.author]) if m.author in changed else m for m in messages]


def without_vocatives(
    messages: Sequence[SourceMessage], people: Collection[str]
) -> list[SourceMessage]:
    """`messages`, each opening by calling another member of the week by name ("Greg, ...",
    "@Dev! ...", "@Sam you need ...", "@Sam why is the form ...?") without the call, and
    "your" after it as that member's ("I found your keys" -> "I found Dev's keys"). A name
    followed by another ("Greg, Ana and I will run the stall") is a list of people, not a
    call; one before a colon ("Ana: fixes the build", "@Ana: thought you'd enjoy <url>") may
    say who does what, or whom a link is for; a mention saying something of its member ("@Sam
    is our new treasurer") stays."""
    names = {
        part
        for person in people
        for part in {person, person.split(" ", 1)[0]}
        if len(part) > 1 and part[0].isupper()
    }
    # (a week has thousands of messages and hundreds of names: the regex of all of them is
    # tried only on a message whose first word opens one)
    openers = {name.split(" ", 1)[0] for name in names}
    calling = {
        id(m) for m in messages if (first := _FIRST_WORD_RE.match(m.text)) and first[1] in openers
    }
    if not calling:
        return list(messages)
    alternatives = "|".join(map(re.escape, sorted(names, key=len, reverse=True)))
    called = re.compile(
        rf"^\W{{0,2}}(?:@?(?P<name>{alternatives})[,!]+\s+"
        rf"|@(?P<mentioned>{alternatives})\s+(?=you\b|[a-z][^.!\n]*\?))(?=[a-z]|I\b)"
    )
    found = []
    for message in messages:
        call = called.match(message.text) if id(message) in calling else None
        who = call["mentioned"] or call["name"] if call else None
        if call is None or not who or message.author.startswith(who):
            found.append(message)  # (most messages)
            continue
        found.append(replace(message, text=_YOUR_RE.sub(f"{who}'s", message.text[call.end() :])))
    return found


_YOUR_RE = re.compile(r"\byour\b")
_FIRST_WORD_RE = re.compile(r"\W{0,2}@?([\w'-]+)")


def with_mentions_once(messages: Sequence[SourceMessage]) -> list[SourceMessage]:
    """`messages`, each that mentions someone right after writing their name without the
    mention ("welcome *Dr. Amara Okafor* @Amara Okafor" -> "welcome *Dr. Amara Okafor*")."""
    return [
        replace(m, text=_REPEATED_MENTION_RE.sub(r"\1\2", m.text)) if "@" in m.text else m
        for m in messages
    ]


@lru_cache(maxsize=4096)  # (a week has few channels and many messages in each)
def channel_key(name: str) -> str:
    """A channel's name as an admin writes it: lower case, without what decorates it
    ("👋・introductions" -> "introductions", "🦀┃uefi-rs" -> "uefi-rs", "#Data" -> "data")."""
    return _CHANNEL_EDGES_RE.sub("", name.casefold())
