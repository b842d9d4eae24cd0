"""A link and its comment sent as two messages, read as one share.

People paste a link and then say what it is, or say it and then paste the link, a few
seconds apart ("a graph datajam would be fun" and then the datasets' address). Apart, the
link says nothing and the comment points at nothing; together they are one share, placed and
drafted as a message that says "comment <link>".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from summarizer.types import SourceMessage

WINDOW_SECONDS = 120  # typed in two goes, not a later thought
COMMENT_WORDS = 20  # a comment is a line; a longer message says more than what a link is

# A comment that goes on from the link before it, the link as its subject ("is a form to ...").
_COPULA_RE = re.compile(r"(?:is|are|was|were) (?=\w)")
# A message that is only a link (its preview's title may follow on the lines after it).
_LINK_ONLY_RE = re.compile(r"\s*<?https?://[^\s>]+>?\s*(?:\n|$)")


def joined_link_comments(messages: Sequence[SourceMessage]) -> list[SourceMessage]:
    """`messages` (in time order) with each link sent on its own joined to its author's
    comment sent just before or after it (the nearer), in the same channel and thread: one
    message with the earlier one's id and time, the comment first."""
    in_place: dict[tuple[str, str, str | None], list[int]] = {}
    for i, message in enumerate(messages):
        if not message.is_bot:
            place = (message.author_id, message.channel, message.thread_id)
            in_place.setdefault(place, []).append(i)
    later_of: dict[int, int] = {}  # the earlier message of a pair -> the later one
    paired: set[int] = set()
    for indices in in_place.values():
        for k, i in enumerate(indices):
            if not _is_link_only(messages[i]):
                continue
            around = [j for j in indices[max(0, k - 1) : k + 2] if j != i and j not in paired]
            comments = [j for j in around if _comments_on(messages[j], messages[i])]
            if comments:
                j = min(comments, key=lambda j: abs(_seconds(messages[i], messages[j])))
                later_of[min(i, j)] = max(i, j)
                paired.update((i, j))
    dropped = set(later_of.values())
    return [
        _one_share(message, messages[later_of[i]]) if i in later_of else message
        for i, message in enumerate(messages)
        if i not in dropped
    ]


def _comments_on(comment: SourceMessage, link: SourceMessage) -> bool:
    """Whether `comment`, sent close to `link` by its author, says what the link is."""
    text = comment.text.strip()
    if "://" in text or "\n" in text or len(text.split()) > COMMENT_WORDS:
        return False
    if abs(_seconds(comment, link)) > WINDOW_SECONDS:
        return False
    later = comment if comment.created_at > link.created_at else link
    earlier = link if later is comment else comment
    return later.reply_to_id in (None, earlier.id)  # not an answer to someone else


def _seconds(a: SourceMessage, b: SourceMessage) -> float:
    return (a.created_at - b.created_at).total_seconds()


def _is_link_only(message: SourceMessage) -> bool:
    return bool(_LINK_ONLY_RE.match(message.text))


def _one_share(earlier: SourceMessage, later: SourceMessage) -> SourceMessage:
    """The two as one message: the comment, then the link with its preview."""
    link, comment = (earlier, later) if _is_link_only(earlier) else (later, earlier)
    said = comment.text.rstrip()
    if link is earlier and (copula := _COPULA_RE.match(said)):
        # "<link>" then "is a form for the signup": the link is its subject.
        said = f"{said[copula.end() :].rstrip('.')}:"
        said = said[0].upper() + said[1:]
    return replace(
        earlier,
        text=f"{said} {link.text.strip()}",
        preview=link.preview,  # (the text still ends with it)
        prs=earlier.prs + tuple(p for p in later.prs if p not in earlier.prs),
        reactions=earlier.reactions + later.reactions,
        replies=earlier.replies + later.replies,
        pinned=earlier.pinned or later.pinned,
    )
