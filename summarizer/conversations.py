"""Tying messages into conversations: a thread or a reply chain, optionally a shared PR."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from summarizer.figures import FIGURE_RE, find_figures
from summarizer.phrasing import answers_before
from summarizer.types import SourceMessage

MAX_LINKING_PRS = 2
MAX_PR_MERGED = 12
# Where replies are not marked (Slack outside threads, or a reply sent without Discord's
# reply), a message that opens as an answer ("That one cost us a day", "Nice catch. ...")
# answers the channel's message before it, when that one came this recently.
INLINE_REPLY_WINDOW = timedelta(hours=1)
ECHO_CHARS = 160  # a message repeating the figures before it is a line, not a report


def conversations(messages: Sequence[SourceMessage], *, by_pr: bool = False) -> list[list[int]]:
    """Indices of `messages` grouped into conversations, each in input order.

    Messages of one thread, and a message with the one it replies to, are one conversation;
    so are a message outside any thread that opens as an answer (`answers_before`) and the
    one before it in its channel, sent at most `INLINE_REPLY_WINDOW` earlier, and, where
    the one it answers was asked by someone else of the author's post just before, that post.
    With `by_pr`, conversations that cite the same PR are merged as well, through messages
    that cite at most `MAX_LINKING_PRS` PRs (a status list citing many would glue the week's
    unrelated conversations into one), and only while the merged whole stays within
    `MAX_PR_MERGED` messages (a PR everyone mentions would do the same).
    """
    parent = list(range(len(messages)))
    size = [1] * len(messages)

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def union(a: int, b: int, limit: int | None = None) -> None:
        ra, rb = find(a), find(b)
        if ra == rb or (limit is not None and size[ra] + size[rb] > limit):
            return
        low, high = min(ra, rb), max(ra, rb)
        parent[high] = low
        size[low] += size[high]

    index = {m.id: i for i, m in enumerate(messages)}
    first_with: dict[str, int] = {}
    last_in_channel: dict[str, tuple[int | None, int]] = {}  # outside threads: last two
    for i, message in enumerate(messages):
        if message.thread_id is None and message.reply_to_id is None:
            earlier, before = last_in_channel.get(message.channel, (None, None))
            last_in_channel[message.channel] = (before, i)
            if before is not None and _answers(message, messages[before]):
                union(i, before)
                if earlier is not None and _asked_of(messages[earlier], messages[before], message):
                    union(before, earlier)
        if message.thread_id is not None:
            union(i, first_with.setdefault("thread:" + message.thread_id, i))
            if message.thread_id in index:
                union(i, index[message.thread_id])
        if message.reply_to_id is not None and message.reply_to_id in index:
            union(i, index[message.reply_to_id])
        if by_pr and len(message.prs) <= MAX_LINKING_PRS:
            for mention in message.prs:
                union(i, first_with.setdefault("pr:" + mention.ref, i), MAX_PR_MERGED)

    groups: dict[int, list[int]] = {}
    for i in range(len(messages)):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())


def _answers(message: SourceMessage, before: SourceMessage) -> bool:
    """Whether `message` reads as an unmarked reply to `before`, its channel's message just
    before it: it opens as an answer, or it repeats that message's figures ("41 MB against
    2.1 GB, lovely" under "... peaks at 41 MB RSS; before it was 2.1 GB")."""
    if message.created_at - before.created_at > INLINE_REPLY_WINDOW:
        return False
    return answers_before(message.text) or _echoes(message.text, before.text)


def _echoes(text: str, before: str) -> bool:
    """Whether every figure of `text`, a short line that has some, is one `before` says."""
    if len(text) > ECHO_CHARS:
        return False  # (most chat: a longer message says more than the figures it repeats)
    first = FIGURE_RE.search(text)
    if first is None or first.group() not in before:
        return False  # (the cheap look: the first figure is not said before)
    return set(find_figures(text)) <= set(find_figures(before))


def _asked_of(post: SourceMessage, asked: SourceMessage, answer: SourceMessage) -> bool:
    """Whether `asked`, sent just after `post`, was said to its author: the one who answers
    it is the author of `post` ("A posts, B asks, A answers", where replies are unmarked)."""
    return (
        post.author_id == answer.author_id != asked.author_id
        and asked.created_at - post.created_at <= INLINE_REPLY_WINDOW
    )
