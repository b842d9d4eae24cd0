"""The port between the core and a chat platform, both ways.

Outbound, what the core calls on a platform (`Outbound`): `ChatPort` (post, reply, update, open
an editor, tell), `ChannelHistory` (the pages of a channel's history: the core backfills and
reconciles from them) and `Members` (who a person is now, outside any interaction).

Inbound, what an adapter calls on the core (`Inbound`): the neutral events below, commands,
buttons and editors. An adapter gets it at construction, from the `MakeCore` it is given with
its own `Outbound`; nothing is set on either side afterwards.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

from bot.core.commands import Command
from bot.core.names import RefKind
from storage.records import ChannelRecord, MessageRecord, PersonRecord, WorkspaceRecord

if TYPE_CHECKING:
    from bot.core.suggest import Kind


@dataclass(frozen=True, slots=True)
class Button:
    """A button under a message. `action_id` carries what it acts on, e.g. "approve:12", so
    it keeps working after a restart: the state lives in the database, not in memory."""

    label: str
    action_id: str
    # For what cannot be undone: the question to confirm before the press counts. Slack
    # shows it in a dialog; where a platform has none, the adapter's button asks first
    # (`ASK` + action_id) and the core answers with the question and Confirm / Cancel.
    confirm: str | None = None


ASK = "ask:"  # the action id prefix of a press that asks for confirmation first
CANCEL = "cancel"  # the action of Cancel under such a question


@dataclass(frozen=True, slots=True)
class Posted:
    """Where a message the bot posted lives, to reply under it or update it later."""

    channel_id: str
    message_id: str
    thread_id: str | None = None  # the thread it was posted in, if any


class ChatPort(Protocol):
    """What the core needs from a chat platform."""

    @property
    def max_message_chars(self) -> int:
        """The longest message the platform accepts (Discord 2,000; Slack's blocks 3,000)."""
        ...

    @property
    def workspace_noun(self) -> str:
        """What the platform calls a workspace, for replies ("server" on Discord)."""
        ...

    async def find_channel(self, workspace: WorkspaceRecord, ref: str) -> str | None:
        """The id of the channel `ref` (an id, or a name without "#") in `workspace` only;
        None when `workspace` has no such channel."""
        ...

    async def find_role(self, workspace: WorkspaceRecord, ref: str) -> str | None:
        """The id of the role or user group `ref` (an id, or a name) in `workspace` only;
        None when `workspace` has no such role."""
        ...

    async def name_of(self, workspace: WorkspaceRecord, kind: RefKind, ref_id: str) -> str | None:
        """The name of the channel, person or role `ref_id` in `workspace`, to show in
        replies (`bot.core.names`); None when it is not known."""
        ...

    async def post(self, channel_id: str, text: str, buttons: Sequence[Button] = ()) -> Posted:
        """Post a top-level message; it never notifies anyone."""
        ...

    async def reply(self, parent: Posted, text: str, buttons: Sequence[Button] = ()) -> Posted:
        """Post in the thread under `parent` (starting the thread if needed)."""
        ...

    async def update(self, message: Posted, text: str, buttons: Sequence[Button] = ()) -> None:
        """Replace the text (and buttons) of a message the bot posted."""
        ...

    async def open_editor(self, trigger_id: str, section_id: int, title: str, text: str) -> None:
        """Open an editor (modal) prefilled with a section's text; its submit comes back as an
        `EditorSubmit` for `section_id`."""
        ...

    async def tell(self, user_id: str, text: str, channel_id: str | None = None) -> None:
        """Say something to one person only (ephemeral message or DM)."""
        ...


@dataclass(frozen=True, slots=True)
class Caller:
    """Who sent a command, pressed a button or submitted an editor."""

    user_id: str
    display_name: str
    is_admin: bool = False  # the platform says so (Manage Server, workspace admin/owner)
    # Ids of the caller's roles (Discord) or user groups (Slack) in the workspace they act
    # in; editors and admins given as `role:ID` match these, never a name.
    roles: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class MessageEvent:
    """A new message in a channel the platform saw."""

    workspace: WorkspaceRecord
    channel: ChannelRecord
    message: MessageRecord
    delivery: str | None = None  # the platform's id of the delivery, the same when redelivered


@dataclass(frozen=True, slots=True)
class EditEvent:
    """A message's new text (`message.edited_at` says when)."""

    workspace: WorkspaceRecord
    channel: ChannelRecord
    message: MessageRecord
    delivery: str | None = None  # the platform's id of the delivery, the same when redelivered


@dataclass(frozen=True, slots=True)
class DeleteEvent:
    """A message deleted on the platform."""

    workspace: WorkspaceRecord
    message_id: str
    delivery: str | None = None  # the platform's id of the delivery, the same when redelivered


@dataclass(frozen=True, slots=True)
class CommandEvent:
    """`/summary ...`: the text after the command name (Slack, the CLI) or the command a
    native subcommand's typed options built (Discord), and where it was typed."""

    workspace: WorkspaceRecord
    caller: Caller
    text: str | Command
    channel_id: str


@dataclass(frozen=True, slots=True)
class ButtonPress:
    """A press of one of the bot's buttons."""

    workspace: WorkspaceRecord
    caller: Caller
    action_id: str
    trigger_id: str = ""  # what the platform needs to open an editor in response
    channel_id: str = ""


@dataclass(frozen=True, slots=True)
class EditorSubmit:
    """An editor's new text for a section, from the editor the port opened (or a command)."""

    workspace: WorkspaceRecord
    caller: Caller
    section_id: int
    text: str


@dataclass(frozen=True, slots=True)
class Reply:
    """What a handler answers; the adapter renders and sends it."""

    text: str
    private: bool = True  # only the caller sees it
    ok: bool = True  # False for refusals and errors
    buttons: tuple[Button, ...] = ()  # e.g. Confirm / Cancel under a question

    @classmethod
    def refuse(cls, text: str) -> Reply:
        return cls(text, private=True, ok=False)


# --- history and members: the rest of what the core calls ------------------------------------


@dataclass(frozen=True, slots=True)
class HistoryPage:
    """A batch of a channel's history: the records to store and the ids of every message
    read (stored or not: the bot's own, system messages), so that what was not read is
    known deleted."""

    channel: ChannelRecord
    messages: list[MessageRecord]
    seen: frozenset[str]


class HistorySource(Protocol):
    """One stream of history the core reads and compares as a whole: a channel, or (where a
    thread is a channel of its own, as on Discord) one thread."""

    @property
    def channel_id(self) -> str:
        """The channel id its stored messages carry."""
        ...

    def pages(self, since: datetime) -> AsyncIterator[HistoryPage]:
        """Its messages sent after `since`, oldest batch first."""
        ...

    def threads_read(self) -> set[str] | None:
        """After `pages`: the threads whose replies it read (replies in other threads are
        not judged deleted); None when it read every thread it holds."""
        ...


@dataclass(frozen=True, slots=True)
class HistoryChannel:
    """A logged channel whose history can be read: its id, its name (for progress reports)
    and its sources (the channel, its threads)."""

    channel_id: str
    name: str
    sources: Callable[[], Awaitable[list[HistorySource]]]


class ChannelHistory(Protocol):
    """A platform's history paging: the core owns backfill and reconcile on top of it."""

    async def workspaces(self) -> list[WorkspaceRecord]:
        """The workspaces this connection serves (to catch up after downtime)."""
        ...

    async def channel(self, workspace: WorkspaceRecord, ref: str) -> HistoryChannel | None:
        """The logged channel `ref` (an id, or a name stored by an older version) of
        `workspace`; None (after logging why) when its history cannot be read."""
        ...


class Members(Protocol):
    """Who a person is now on the platform, asked outside any interaction (the review
    page asks on every request, so a change of roles counts at once)."""

    async def member(
        self, workspace_id: str, user_id: str, role_ids: Sequence[str]
    ) -> Caller | None:
        """`user_id` in the workspace whose platform id is `workspace_id` (admin flag; of
        `role_ids`, the workspace's editor and admin roles, those they hold); None when they
        are not a member, or the workspace is not this connection's."""
        ...


@dataclass(frozen=True, slots=True)
class Outbound:
    """Everything the core calls on one platform connection."""

    port: ChatPort
    history: ChannelHistory
    members: Members


# --- inbound: what an adapter calls ------------------------------------------------------------


class Inbound(Protocol):
    """The core's methods an adapter drives (`bot.core.router.Core` implements them)."""

    async def on_message(self, event: MessageEvent | EditEvent) -> bool:
        """Store a new or edited message if its channel is logged; whether it was stored."""
        ...

    async def on_delete(self, event: DeleteEvent) -> None: ...

    async def on_reaction(
        self,
        workspace: WorkspaceRecord,
        message_id: str,
        delta: int,
        emoji: str = "",
        by: PersonRecord | None = None,
    ) -> None:
        """A reaction added (+1) or removed (-1): `emoji` as the platform names it, `by`
        the member who added it (a news reaction sends the message in as news)."""
        ...

    async def on_pin(self, workspace: WorkspaceRecord, message_id: str) -> None: ...

    async def on_unpin(self, workspace: WorkspaceRecord, message_id: str) -> None: ...

    async def on_command(self, event: CommandEvent) -> Reply: ...

    async def on_button(self, event: ButtonPress) -> Reply | None: ...

    async def on_editor_submit(self, event: EditorSubmit) -> Reply: ...

    async def suggest(
        self, workspace: WorkspaceRecord, kind: Kind, typed: str
    ) -> list[tuple[str, str]]:
        """(label, value) choices for a command argument being typed (autocomplete)."""
        ...

    async def role_ids(self, workspace: WorkspaceRecord) -> list[str]:
        """The roles or user groups the workspace's editors and admins name, by id."""
        ...

    async def catch_up(self) -> None:
        """After (re)connecting: re-read every logged channel's open week."""
        ...

    async def kept(self, key: str) -> str | None:
        """A value the adapter keeps between runs."""
        ...

    async def keep(self, key: str, value: str) -> None: ...


MakeCore = Callable[[Outbound], Inbound]
"""Given an adapter's outbound side, the core it drives: an adapter calls it once, in its
constructor."""
