"""An in-memory `ChatPort` for tests: it records what the core asked and can fail on cue."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import count

from bot.core.names import RefKind
from bot.core.port import Button, Posted
from storage.records import WorkspaceRecord


class InjectedFailure(ConnectionError):
    """The failure a test asked for."""


@dataclass
class Sent:
    """A message as the fake platform holds it."""

    posted: Posted
    text: str
    buttons: list[Button]
    edits: int = 0


@dataclass
class FakePort:
    """Channels: every workspace has every channel it is asked about, except those listed in
    `foreign` (channel ref -> the workspace platform id that has it); a channel named in
    `channel_ids` (name -> id) is found by that id. Roles: `roles` maps a workspace's
    platform id to its roles, name -> id. `names` holds the name of any channel, person or
    role id (the reverse of `channel_ids` is added)."""

    max_message_chars: int = 2000
    workspace_noun: str = "workspace"
    foreign: dict[str, str] = field(default_factory=dict)
    roles: dict[str, dict[str, str]] = field(default_factory=dict)
    channel_ids: dict[str, str] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    messages: dict[str, Sent] = field(default_factory=dict)
    editors_opened: list[tuple[str, int, str, str]] = field(default_factory=list)
    told: list[tuple[str, str]] = field(default_factory=list)
    calls: list[str] = field(default_factory=list)
    _ids: count = field(default_factory=lambda: count(1))
    _fail: dict[str, int] = field(default_factory=dict)

    def fail(self, method: str, after: int = 0) -> None:
        """Make `method` raise after `after` more successful calls (once)."""
        self._fail[method] = after

    def _call(self, method: str) -> None:
        self.calls.append(method)
        if method in self._fail:
            if self._fail[method] == 0:
                del self._fail[method]
                raise InjectedFailure(f"{method} failed (injected)")
            self._fail[method] -= 1

    def _new(self, channel_id: str, text: str, buttons: Sequence[Button], thread: str | None):
        posted = Posted(channel_id, f"m{next(self._ids)}", thread)
        self.messages[posted.message_id] = Sent(posted, text, list(buttons))
        return posted

    async def find_channel(self, workspace: WorkspaceRecord, ref: str) -> str | None:
        owner = self.foreign.get(ref)
        if owner not in (None, workspace.platform_id):
            return None
        return self.channel_ids.get(ref.lstrip("#"), ref)

    async def find_role(self, workspace: WorkspaceRecord, ref: str) -> str | None:
        table = self.roles.get(workspace.platform_id, {})
        return ref if ref in table.values() else table.get(ref)

    async def name_of(self, workspace: WorkspaceRecord, kind: RefKind, ref_id: str) -> str | None:
        by_id = {v: k for k, v in self.channel_ids.items()} if kind == "channel" else {}
        return self.names.get(ref_id) or by_id.get(ref_id)

    async def post(self, channel_id: str, text: str, buttons: Sequence[Button] = ()) -> Posted:
        self._call("post")
        assert len(text) <= self.max_message_chars, "message over the platform limit"
        return self._new(channel_id, text, buttons, None)

    async def reply(self, parent: Posted, text: str, buttons: Sequence[Button] = ()) -> Posted:
        self._call("reply")
        assert len(text) <= self.max_message_chars, "message over the platform limit"
        assert parent.message_id in self.messages, "reply to a message that does not exist"
        return self._new(parent.channel_id, text, buttons, parent.message_id)

    async def update(self, message: Posted, text: str, buttons: Sequence[Button] = ()) -> None:
        self._call("update")
        assert len(text) <= self.max_message_chars, "message over the platform limit"
        sent = self.messages[message.message_id]
        sent.text, sent.buttons, sent.edits = text, list(buttons), sent.edits + 1

    async def open_editor(self, trigger_id: str, section_id: int, title: str, text: str) -> None:
        self._call("open_editor")
        self.editors_opened.append((trigger_id, section_id, title, text))

    async def tell(self, user_id: str, text: str, channel_id: str | None = None) -> None:
        self._call("tell")
        self.told.append((user_id, text))

    # --- what tests look at ---

    def in_channel(self, channel_id: str) -> list[Sent]:
        """Top-level messages of a channel, in order."""
        return [
            m
            for m in self.messages.values()
            if m.posted.channel_id == channel_id and m.posted.thread_id is None
        ]

    def thread(self, parent: Posted | str) -> list[Sent]:
        parent_id = parent if isinstance(parent, str) else parent.message_id
        return [m for m in self.messages.values() if m.posted.thread_id == parent_id]
