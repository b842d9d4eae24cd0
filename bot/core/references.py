"""Channels and roles named in a settings command, resolved within the caller's workspace.

`channels add`, `review-channel`, `publish add` and `editors|admins add role:Name` name
channels and roles as the admin typed them. Before anything is stored, each is looked up on
the platform in the caller's own workspace (Discord server, Slack workspace) and stored by id:
a name or an id of another workspace never resolves, and the command is refused with a clear
sentence. Removals resolve what they can and otherwise keep the entry as typed, so an entry
stored before (a name) can still be removed.
"""

from __future__ import annotations

from dataclasses import replace

from bot.core.commands import (
    AdminsAdd,
    AdminsRemove,
    ChannelsAdd,
    ChannelsRemove,
    Command,
    CommandError,
    EditorsAdd,
    EditorsRemove,
    PublishChannels,
    ReviewChannelSet,
)
from bot.core.names import channel_ref
from bot.core.port import ChatPort
from storage.records import WorkspaceRecord

ROLE = "role:"


async def resolve_references(
    port: ChatPort, workspace: WorkspaceRecord, command: Command
) -> Command:
    """`command` with its channels and roles as ids of `workspace`; `CommandError` naming
    the first one `workspace` does not have."""
    match command:
        case ChannelsAdd(channels=channels):
            return ChannelsAdd(await _channels(port, workspace, channels, strict=True))
        case ChannelsRemove(channels=channels):
            return ChannelsRemove(await _channels(port, workspace, channels, strict=False))
        case ReviewChannelSet(channel=channel):
            (found,) = await _channels(port, workspace, (channel,), strict=True)
            return ReviewChannelSet(found)
        case PublishChannels(action="add" | "remove" as action, channels=channels):
            ids = await _channels(port, workspace, channels, strict=action == "add")
            return replace(command, channels=ids)
        case EditorsAdd(entries=entries) | AdminsAdd(entries=entries):
            return replace(command, entries=await _entries(port, workspace, entries, strict=True))
        case EditorsRemove(entries=entries) | AdminsRemove(entries=entries):
            return replace(command, entries=await _entries(port, workspace, entries, strict=False))
    return command


async def _channels(
    port: ChatPort, workspace: WorkspaceRecord, refs: tuple[str, ...], *, strict: bool
) -> tuple[str, ...]:
    found = []
    for ref in refs:
        channel_id = await port.find_channel(workspace, ref)
        if channel_id is None and strict:
            raise CommandError(f"{channel_ref(ref)} was not found in this {port.workspace_noun}.")
        found.append(channel_id or ref)
    return tuple(dict.fromkeys(found))


async def _entries(
    port: ChatPort, workspace: WorkspaceRecord, entries: tuple[str, ...], *, strict: bool
) -> tuple[str, ...]:
    found = []
    for entry in entries:
        if not entry.startswith(ROLE):
            found.append(entry)
            continue
        role = entry.removeprefix(ROLE)
        role_id = await port.find_role(workspace, role)
        if role_id is None and strict:
            raise CommandError(f"There is no role {role!r} in this {port.workspace_noun}.")
        found.append(f"{ROLE}{role_id or role}")
    return tuple(dict.fromkeys(found))
