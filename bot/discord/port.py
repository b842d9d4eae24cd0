"""The core's `ChatPort` on Discord: messages with persistent buttons, review threads, the
edit modal, and direct messages. Nothing it sends can mention anyone."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import discord

from bot.core.names import RefKind
from bot.core.port import ASK, Button, Posted
from storage.records import WorkspaceRecord

MESSAGE_LIMIT = 2000
THREAD_NAME = "Summary review"
NO_MENTIONS = discord.AllowedMentions.none()

ModalFactory = Callable[[int, str, str], discord.ui.Modal]
_STYLES = {
    "Approve": discord.ButtonStyle.success,
    "Discard": discord.ButtonStyle.danger,
    "Confirm": discord.ButtonStyle.primary,
}
# The channels the bot posts in, reads and edits messages of.
Postable = discord.TextChannel | discord.Thread | discord.VoiceChannel | discord.StageChannel


def view_of(buttons: Sequence[Button]) -> discord.ui.View | None:
    """Buttons whose custom_id carries what they act on; the client's dynamic items answer
    them, so they keep working after a restart."""
    if not buttons:
        return None
    view = discord.ui.View(timeout=None)
    for button in buttons:
        view.add_item(
            discord.ui.Button(
                label=button.label,
                # Discord has no confirm dialog: a button that needs one asks first.
                custom_id=f"{ASK}{button.action_id}" if button.confirm else button.action_id,
                style=_STYLES.get(button.label, discord.ButtonStyle.secondary),
            )
        )
    return view


class DiscordPort:
    """Posts, replies in a message's thread, edits, opens the edit modal, sends DMs.

    `client` is the client that owns this port; `make_modal` builds the edit modal (the
    client's, which hands the submit to the core). An editor is opened in answer to the
    button press whose interaction waits in `pending` under its id."""

    max_message_chars = MESSAGE_LIMIT
    workspace_noun = "server"

    def __init__(self, client: discord.Client, make_modal: ModalFactory) -> None:
        self.client = client
        self.make_modal = make_modal
        self.pending: dict[str, discord.Interaction] = {}

    def _guild(self, workspace: WorkspaceRecord) -> discord.Guild | None:
        return self.client.get_guild(int(workspace.platform_id))

    async def find_channel(self, workspace: WorkspaceRecord, ref: str) -> str | None:
        """A channel (or thread) of this guild by id, or a channel of this guild by name."""
        guild = self._guild(workspace)
        found = find_guild_channel(guild, ref) if guild is not None else None
        return None if found is None else str(found.id)

    async def find_role(self, workspace: WorkspaceRecord, ref: str) -> str | None:
        """A role of this guild by id, or by name (ignoring case)."""
        guild = self._guild(workspace)
        if guild is None:
            return None
        if ref.isdigit():
            role = guild.get_role(int(ref))
        else:
            role = next((r for r in guild.roles if r.name.lower() == ref.lower()), None)
        return None if role is None else str(role.id)

    async def name_of(self, workspace: WorkspaceRecord, kind: RefKind, ref_id: str) -> str | None:
        """A channel's, member's or role's name in this guild, for replies."""
        guild = self._guild(workspace)
        if guild is None or not ref_id.isdigit():
            return None
        getter = {
            "channel": guild.get_channel_or_thread,
            "person": guild.get_member,
            "role": guild.get_role,
        }[kind]
        found = getter(int(ref_id))
        if found is None:
            return None
        return found.display_name if isinstance(found, discord.Member) else found.name

    async def channel(self, channel_id: str) -> Postable:
        """A channel or thread by id. Channels are stored by id, resolved within their
        guild when an admin sets them; a name is never looked up across guilds."""
        if not channel_id.isdigit():
            raise LookupError(
                f"#{channel_id.lstrip('#')} is stored by name; an admin should set it again "
                "so it is stored by id (e.g. /summary publish add #channel)"
            )
        client = self.client
        found = client.get_channel(int(channel_id)) or await client.fetch_channel(int(channel_id))
        if not isinstance(found, Postable):
            raise LookupError(f"channel {channel_id} is not one the bot can post in")
        return found

    async def post(self, channel_id: str, text: str, buttons: Sequence[Button] = ()) -> Posted:
        channel = await self.channel(channel_id)
        message = await channel.send(**_content(text, buttons))
        return Posted(str(message.channel.id), str(message.id))

    async def reply(self, parent: Posted, text: str, buttons: Sequence[Button] = ()) -> Posted:
        thread = await self._thread(parent)
        message = await thread.send(**_content(text, buttons))
        return Posted(parent.channel_id, str(message.id), str(thread.id))

    async def _thread(self, parent: Posted) -> discord.Thread:
        # A thread started from a message has that message's id.
        thread_id = int(parent.thread_id or parent.message_id)
        thread = self.client.get_channel(thread_id)
        if isinstance(thread, discord.Thread):
            return thread
        try:
            found = await self.client.fetch_channel(thread_id)
            if isinstance(found, discord.Thread):
                return found
        except discord.NotFound:
            pass
        channel = await self.channel(parent.channel_id)
        return await channel.get_partial_message(int(parent.message_id)).create_thread(
            name=THREAD_NAME
        )

    async def update(self, message: Posted, text: str, buttons: Sequence[Button] = ()) -> None:
        channel = await self.channel(message.thread_id or message.channel_id)
        # view=None removes buttons a message no longer offers (e.g. after approval).
        await channel.get_partial_message(int(message.message_id)).edit(
            content=text, allowed_mentions=NO_MENTIONS, view=view_of(buttons)
        )

    async def open_editor(self, trigger_id: str, section_id: int, title: str, text: str) -> None:
        interaction = self.pending.pop(trigger_id)
        await interaction.response.send_modal(self.make_modal(section_id, title, text))

    async def tell(self, user_id: str, text: str, channel_id: str | None = None) -> None:
        client = self.client
        user = client.get_user(int(user_id)) or await client.fetch_user(int(user_id))
        await user.send(text[:MESSAGE_LIMIT], allowed_mentions=NO_MENTIONS)


def _content(text: str, buttons: Sequence[Button]) -> dict:
    kwargs: dict = {"content": text, "allowed_mentions": NO_MENTIONS, "suppress_embeds": True}
    view = view_of(buttons)
    if view is not None:
        kwargs["view"] = view
    return kwargs


def find_guild_channel(
    guild: discord.Guild, ref: str
) -> discord.abc.GuildChannel | discord.Thread | None:
    """A channel or thread of `guild` by id, or a channel of `guild` by name (with or
    without "#"); never one of another guild."""
    if ref.isdigit():
        return guild.get_channel_or_thread(int(ref))
    return discord.utils.get(guild.channels, name=ref.lstrip("#"))
