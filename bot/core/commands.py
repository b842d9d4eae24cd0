"""The `/summary` commands, shared by the Slack and Discord adapters: one frozen dataclass per
command, and `CommandError`. `bot.core.command_registry` declares how each is written (the
text grammar, Discord's typed options) and who may run it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Literal

# --- the commands -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Help:
    """`/summary` or `/summary help`."""


@dataclass(frozen=True, slots=True)
class Status:
    """`status`: the current draft and the settings in brief."""


@dataclass(frozen=True, slots=True)
class ChannelsList:
    """`channels`: the logged channels."""


@dataclass(frozen=True, slots=True)
class ChannelsAdd:
    """`channels add #a #b`: start logging channels."""

    channels: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ChannelsRemove:
    """`channels remove #a`: stop logging channels."""

    channels: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TopicsList:
    """`topics`: the topics, in section order."""


@dataclass(frozen=True, slots=True)
class TopicsAdd:
    """`topics add ID "Title" keywords=a,b channels=#c patterns="re1,re2"` (add or replace)."""

    id: str
    title: str
    keywords: tuple[str, ...] = ()
    channels: tuple[str, ...] = ()
    patterns: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TopicsRemove:
    """`topics remove ID`."""

    id: str


@dataclass(frozen=True, slots=True)
class ScheduleShow:
    """`schedule`: when drafts are made."""


@dataclass(frozen=True, slots=True)
class ScheduleSet:
    """`schedule "mon 09:00" [Europe/Amsterdam]` or `schedule "0 9 * * mon"`."""

    schedule: str
    timezone: str | None = None


@dataclass(frozen=True, slots=True)
class ReviewChannelSet:
    """`review-channel #summaries`: where drafts are posted for review."""

    channel: str


@dataclass(frozen=True, slots=True)
class PublishChannels:
    """`publish add|remove #a ...` or `publish list`: where approved summaries are posted."""

    action: Literal["add", "remove", "list"]
    channels: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class EditorsList:
    """`editors`: who may edit and approve drafts."""


@dataclass(frozen=True, slots=True)
class EditorsAdd:
    """`editors add @person role:Name ...` (entries are user ids or "role:NAME")."""

    entries: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class EditorsRemove:
    """`editors remove @person ...`."""

    entries: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class AdminsList:
    """`admins`: who may change settings (besides the platform's own admins)."""


@dataclass(frozen=True, slots=True)
class AdminsAdd:
    """`admins add @person role:Name ...`."""

    entries: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class AdminsRemove:
    """`admins remove @person ...`."""

    entries: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RepoSet:
    """`repo owner/name`: the repository a bare `#123` refers to ("" clears it)."""

    repo: str


@dataclass(frozen=True, slots=True)
class RetentionSet:
    """`retention DAYS`: how long logged messages are kept."""

    days: int


@dataclass(frozen=True, slots=True)
class SummarizerSet:
    """`summarizer extractive|llm`: which drafter writes the weekly draft."""

    name: str


@dataclass(frozen=True, slots=True)
class MemberNewsSet:
    """`member-news [on|off] [reaction EMOJI]`: whether members may send news, and the
    reaction that sends a message in (None: unchanged)."""

    on: bool | None = None
    reaction: str | None = None


@dataclass(frozen=True, slots=True)
class NewsSubmit:
    """`news TEXT`: a member sends news in for this week's draft (the text as written)."""

    text: str


@dataclass(frozen=True, slots=True)
class StartDraft:
    """`draft [YYYY-MM-DD] [--open]`: draft the week now (the week containing `day`, or the
    last one); `--open` confirms drafting a week that has not ended."""

    day: date | None = None
    open_week: bool = False


@dataclass(frozen=True, slots=True)
class Approve:
    """`approve [DRAFT]`."""

    draft_id: int | None = None


@dataclass(frozen=True, slots=True)
class Publish:
    """`publish [DRAFT]`."""

    draft_id: int | None = None


@dataclass(frozen=True, slots=True)
class Regenerate:
    """`regenerate [DRAFT]`."""

    draft_id: int | None = None


@dataclass(frozen=True, slots=True)
class Edit:
    """`edit SECTION [--draft DRAFT] new text...`: replace a section's text (newlines kept).
    SECTION is the section's number in the draft (1..n), or its topic id or title; the draft
    is the current one unless `--draft` names another."""

    section: int | str
    text: str
    draft_id: int | None = None


@dataclass(frozen=True, slots=True)
class History:
    """`history SECTION [--draft DRAFT]`: a section's earlier versions (as for `Edit`)."""

    section: int | str
    draft_id: int | None = None


@dataclass(frozen=True, slots=True)
class Discard:
    """`discard [DRAFT]`."""

    draft_id: int | None = None


@dataclass(frozen=True, slots=True)
class ForgetMe:
    """`forget-me`: delete the caller's logged messages."""


@dataclass(frozen=True, slots=True)
class Audit:
    """`audit`: recent settings changes (admins only)."""


Command = (
    Help
    | Status
    | ChannelsList
    | ChannelsAdd
    | ChannelsRemove
    | TopicsList
    | TopicsAdd
    | TopicsRemove
    | ScheduleShow
    | ScheduleSet
    | ReviewChannelSet
    | PublishChannels
    | EditorsList
    | EditorsAdd
    | EditorsRemove
    | AdminsList
    | AdminsAdd
    | AdminsRemove
    | RepoSet
    | RetentionSet
    | SummarizerSet
    | MemberNewsSet
    | NewsSubmit
    | StartDraft
    | Approve
    | Publish
    | Regenerate
    | Edit
    | History
    | Discard
    | ForgetMe
    | Audit
)


class CommandError(ValueError):
    """Text that is not a command: one sentence on what is wrong, then the usage line."""
