"""Platform-neutral records that importers and live adapters hand to the ingest path.

They carry what the platform said, already translated: mentions resolved to display names,
link markup resolved to its label, system messages left out.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime


@dataclass(frozen=True, slots=True)
class WorkspaceRecord:
    """A Discord guild or a Slack team."""

    platform: str  # "discord" or "slack"
    platform_id: str
    name: str


@dataclass(frozen=True, slots=True)
class ChannelRecord:
    """A channel, or a thread that the platform models as a channel of its own (Discord).

    `parent_platform_id` is the channel a Discord thread or forum post lives under, and
    `parent_name` that channel's name, so a thread read before its channel is still placed.
    """

    platform_id: str
    name: str
    parent_platform_id: str | None = None
    parent_name: str | None = None


@dataclass(frozen=True, slots=True)
class PersonRecord:
    platform_id: str
    display_name: str
    is_bot: bool = False


@dataclass(frozen=True, slots=True)
class ReactionRecord:
    """One emoji on a message and who added it, as the platform names it: a Slack name
    ("newspaper") or a Discord emoji ("📰", or a custom emoji's name)."""

    emoji: str
    people: tuple[PersonRecord, ...]


@dataclass(frozen=True, slots=True)
class MessageRecord:
    """One chat message as the platform delivered it, in a neutral shape.

    `text` is the readable text: the message content followed by the text of its
    attachments or embeds (integration posts often carry their PR numbers only there).
    `preview` is the text of the link previews the platform unfurled under a member's
    message (Slack's link attachments, Discord's embeds): the linked page's words, kept
    apart from `text` because the member did not write them.
    `thread_id` names the conversation the message belongs to: Slack's `thread_ts`, or the
    Discord thread channel's id; None for a top-level message without replies.
    `reply_to_id` is the platform id of the message this one answers, when it says so.
    `pinned` is whether the message is pinned in its channel, as the platform says now.
    `reactions` are the emoji with who added them, where the platform says who (a news
    reaction makes a news submission, `bot.core.news`).
    """

    platform_id: str
    author: PersonRecord
    created_at: datetime  # timezone-aware
    text: str
    thread_id: str | None = None
    reply_to_id: str | None = None
    edited_at: datetime | None = None  # timezone-aware
    reaction_count: int = 0
    reply_count: int = 0
    permalink: str | None = None
    pinned: bool = False
    reactions: tuple[ReactionRecord, ...] = ()
    preview: str = ""


@dataclass(slots=True)
class ImportBatch:
    """Everything one source file holds: the messages of one channel (or one channel-day).

    `messages` may be a one-pass iterator (a large export read as it is stored), which can
    raise the reader's error partway."""

    source: str  # what the user can find: "export.zip:general/2016-01-16.json"
    workspace: WorkspaceRecord
    channel: ChannelRecord
    messages: Iterable[MessageRecord] = field(default_factory=list)
