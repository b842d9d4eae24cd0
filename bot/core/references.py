"""Channels and roles named in a settings command, resolved within the caller's workspace.

`channels add`, `review-channel`, `publish add` and `editors|admins add role:Name` name
channels and roles as the admin typed them. Before anything is stored, each is looked up on
the platform in the caller's own workspace (Discord server, Slack workspace) and stored by id:
a name or an id of another workspace never resolves, and the command is refused with a clear
sentence; of several channels added, those found are added and the answer names the others.
Removals resolve what they can and otherwise keep the entry as typed, so an entry
stored before (a name) can still be removed.
"""

from __future__ import annotations

from collections.abc import Sequence
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
) -> tuple[Command, tuple[str, ...]]:
    """`command` with its channels and roles as ids of `workspace`, and the channels it adds
    that `workspace` does not have (left out: the others are still added). `CommandError`
    when none of its channels is found, or naming the first role or the review channel
    `workspace` does not have."""
    match command:
        case ChannelsAdd(channels=channels):
            found, missing = await _found_channels(port, workspace, channels)
            return ChannelsAdd(found), missing
        case ChannelsRemove(channels=channels):
            return ChannelsRemove(await _channels(port, workspace, channels)), ()
        case ReviewChannelSet(channel=channel):
            found, _ = await _found_channels(port, workspace, (channel,))
            return ReviewChannelSet(found[0]), ()
        case PublishChannels(action="add", channels=channels):
            found, missing = await _found_channels(port, workspace, channels)
            return replace(command, channels=found), missing
        case PublishChannels(action="remove", channels=channels):
            return replace(command, channels=await _channels(port, workspace, channels)), ()
        case EditorsAdd(entries=entries) | AdminsAdd(entries=entries):
            found = await _entries(port, workspace, entries, strict=True)
            return replace(command, entries=found), ()
        case EditorsRemove(entries=entries) | AdminsRemove(entries=entries):
            found = await _entries(port, workspace, entries, strict=False)
            return replace(command, entries=found), ()
    return command, ()


def not_found(refs: Sequence[str], noun: str) -> str:
    """ "#a was not found in this workspace", "#a and #b were not found in this server"."""
    shown = [channel_ref(ref) for ref in refs]
    listed = shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} and {shown[-1]}"
    return f"{listed} {'was' if len(shown) == 1 else 'were'} not found in this {noun}"


async def _found_channels(
    port: ChatPort, workspace: WorkspaceRecord, refs: tuple[str, ...]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The ids of the channels found, and the refs not found; `CommandError` when none is."""
    found, missing = [], []
    for ref in refs:
        channel_id = await port.find_channel(workspace, ref)
        if channel_id is None:
            missing.append(ref)
        else:
            found.append(channel_id)
    if not found:
        raise CommandError(not_found(missing, port.workspace_noun) + ".")
    return tuple(dict.fromkeys(found)), tuple(dict.fromkeys(missing))


async def _channels(
    port: ChatPort, workspace: WorkspaceRecord, refs: tuple[str, ...]
) -> tuple[str, ...]:
    """Ids of the channels found; the others as typed (an entry stored by name)."""
    found = [await port.find_channel(workspace, ref) or ref for ref in refs]
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
