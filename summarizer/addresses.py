"""A message that opens by addressing someone without a colon.

Slack and Discord show a mention as the person's name, so "@Neeraj Tandon Check out this
meetup" is an address followed by what was said; only the week's names tell where the name
ends. Such an address gets its colon, so it reads as one ("@Neeraj Tandon: Check out ...")
and is left out of what the message says, as any "@Name:" is (`summarizer.newsletter`).
"@Tim Abram uploaded a file" and "@Tim Abram just pushed a table" say something of the
person, even where Tim wrote in the week too: what follows the name is not a new sentence,
and they stay as they are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from summarizer.types import SourceMessage

MAX_NAME_WORDS = 4
# Words that open what is said to someone, not of them: "@Kai Lee the fix is merged",
# "@Kai Lee could you look at #12" ("@Kai Lee merged #12" says what Kai did).
_TO_THEM = frozenset((
    "the", "this", "that", "these", "those", "your", "you", "i", "i'm", "we", "thanks",
    "thank", "can", "could", "would", "will", "please", "do", "did", "does", "is", "are",
    "any", "fyi", "btw",
))  # fmt: skip


def with_addresses(messages: Sequence[SourceMessage]) -> list[SourceMessage]:
    """`messages`, each that opens with "@" and one of the week's authors' names followed
    by a capitalised word or one that opens what is said to them (`_TO_THEM`) given a colon
    after the name."""
    names = {message.author for message in messages}
    return [
        _addressed(message, names) if message.text.startswith("@") else message
        for message in messages
    ]


def _addressed(message: SourceMessage, names: set[str]) -> SourceMessage:
    words = message.text[1:].split(" ", MAX_NAME_WORDS)
    for n in range(min(MAX_NAME_WORDS, len(words) - 1), 0, -1):
        name = " ".join(words[:n])
        if name in names:  # the longest name that matches ("Bo Li", not "Bo")
            if not words[n][:1].isupper() and words[n].lower() not in _TO_THEM:
                return message  # "@Bo Li merged ...": said of Bo
            return replace(message, text=f"@{name}: {message.text[len(name) + 2 :]}")
    return message
