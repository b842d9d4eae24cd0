"""The plain data the summarizer works on: source messages and topics in, a draft out."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime


@dataclass(frozen=True, slots=True)
class PRMention:
    """A PR reference as written in a message (`raw`) and in canonical form (`ref`), with
    what GitHub says about it when that is known."""

    raw: str
    ref: str  # "owner/repo#N" when the repo is known, else "#N"
    url: str | None = None  # GitHub link when the repo is known
    title: str | None = None
    author: str | None = None  # GitHub login
    labels: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()  # top path levels touched, e.g. "lib/iris"
    # how a draft writes it where `raw` would mislead: a bare "#615" of a repository other
    # than the default, "brindle-editor#615"
    shown: str | None = None


@dataclass(slots=True)  # not frozen: a frozen __init__ is slow, and a week has 100k of these
class SourceMessage:
    """A stored chat message, ready for grouping and drafting (treat it as read-only).

    `channel` is the top-level channel name (a thread's parent). `thread_id` and
    `reply_to_id` are platform message ids tying the message to its conversation. `text` is
    all there is to read: what its author wrote, then the text of the link previews under
    it, which is also `preview` (the linked pages' words, not the author's).
    """

    id: str
    author: str
    author_id: str
    channel: str
    created_at: datetime
    text: str
    is_bot: bool = False
    thread_id: str | None = None
    reply_to_id: str | None = None
    prs: tuple[PRMention, ...] = ()
    reactions: int = 0
    replies: int = 0
    permalink: str | None = None
    thread_title: str | None = None  # the thread's name, where the platform names threads
    pinned: bool = False  # pinned in its channel: a news signal
    preview: str = ""


@dataclass(frozen=True, slots=True)
class NewsItem:
    """A member's news for the summary: text they sent, or a message they marked with the
    news reaction (`message_id` its platform id, `author` who wrote it, `channel` where)."""

    id: str
    sender: str
    text: str
    submitted_at: datetime
    message_id: str | None = None
    author: str | None = None
    channel: str | None = None
    permalink: str | None = None


@dataclass(frozen=True, slots=True)
class Topic:
    """A standing topic of the community: where its messages are and what they say."""

    id: str
    title: str
    channels: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    patterns: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()  # GitHub labels of the PRs a message cites
    paths: tuple[str, ...] = ()  # globs over the paths those PRs touch, e.g. "lib/iris/**"


@dataclass(frozen=True, slots=True)
class Section:
    """One topic's part of a draft, with what it was drawn from."""

    topic: str
    title: str
    markdown: str
    prs: list[str] = field(default_factory=list)
    people: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    drafter: str = "extractive"  # which drafter wrote it: "extractive" or "llm"
    warnings: list[str] = field(default_factory=list)  # for the editor, e.g. removed claims


@dataclass(frozen=True, slots=True)
class DraftSummary:
    """A week's draft summary."""

    workspace: str
    week_start: date
    week_end: date  # the Monday the week ends on (exclusive)
    title: str
    sections: list[Section] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # for the editor, e.g. missing PR details
