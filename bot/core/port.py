"""The port between the core and a chat platform: what the core asks of a platform, and the
neutral events a platform adapter hands to the core.

Each adapter (Slack, Discord) implements `ChatPort` and translates its platform's events into
the types below; the review workflow, commands and scheduler are written once, against these.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.core.names import RefKind
from storage.records import ChannelRecord, MessageRecord, WorkspaceRecord


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
    """`/summary ...`: the text after the command name, and where it was typed."""

    workspace: WorkspaceRecord
    caller: Caller
    text: str
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
