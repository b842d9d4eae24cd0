"""A message that quotes an earlier one answers it.

Where replies are not used (Slack before threads, bridged chats, habit), an answer quotes
what it answers ("> we could drop the old path" and then the answer). Such a message is read
as a reply to the message it quotes, and the quoted message counts one more reply: someone
took it up, a sign of news (`summarizer.signals`).
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Sequence
from dataclasses import replace

from summarizer.text import with_entities_decoded
from summarizer.types import SourceMessage

LOOKBACK = 200  # earlier messages of the channel a quote is looked for in
MIN_QUOTE_WORDS = 4  # "> yes" quotes nothing in particular

_QUOTE_LINE_RE = re.compile(r"^\s*(?:>|&gt;)\s?(.*)$")
_NOT_WORD_RE = re.compile(r"\W+")


def quoted_replies(messages: Sequence[SourceMessage]) -> list[SourceMessage]:
    """`messages` (in time order) with each message that opens by quoting an earlier
    message of its channel, by someone else, made a reply to it (where it replies to nothing
    yet), and the quoted message counting that reply."""
    found = list(messages)
    seen: dict[str, deque[int]] = {}  # channel -> its latest messages' indices
    for i, message in enumerate(found):
        earlier = seen.setdefault(message.channel, deque(maxlen=LOOKBACK))
        if message.reply_to_id is None and (quote := _opening_quote(message.text)):
            j = next(
                (
                    j
                    for j in reversed(earlier)
                    if found[j].author_id != message.author_id and quote in _normal(found[j].text)
                ),
                None,
            )
            if j is not None:
                found[i] = replace(message, reply_to_id=found[j].id)
                found[j] = replace(found[j], replies=found[j].replies + 1)
        earlier.append(i)
    return found


def _opening_quote(text: str) -> str:
    """The normalised text of the quote a message opens with, "" if it opens with none or a
    quote too short to point at one message."""
    if not text.lstrip().startswith((">", "&gt;")):
        return ""  # (most messages: the week's every message is looked at)
    quoted = []
    for line in text.splitlines():
        match = _QUOTE_LINE_RE.match(line)
        if match is None:
            break
        quoted.append(match.group(1))
    said = _normal(" ".join(quoted))
    return said if len(said.split()) >= MIN_QUOTE_WORDS else ""


def _normal(text: str) -> str:
    return " ".join(_NOT_WORD_RE.sub(" ", with_entities_decoded(text).casefold()).split())
