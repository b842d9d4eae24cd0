"""The core's `ChatPort` on Discord: messages with persistent buttons, review threads, the
edit modal, and direct messages. Nothing it sends can mention anyone."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import discord

from bot.core.port import Button, Posted

MESSAGE_LIMIT = 2000
THREAD_NAME = "Summary review"
NO_MENTIONS = discord.AllowedMentions.none()

ModalFactory = Callable[[int, str, str], discord.ui.Modal]


def view_of(buttons: Sequence[Button]) -> discord.ui.View | None:
    """Buttons whose custom_id carries what they act on; the client's dynamic items answer
    them, so they keep working after a restart."""
    if not buttons:
        return None
    view = discord.ui.View(timeout=None)
    for button in buttons:
        style = discord.ButtonStyle.success if button.label == "Approve" else None
        view.add_item(
            discord.ui.Button(
                label=button.label,
                custom_id=button.action_id,
                style=style or discord.ButtonStyle.secondary,
            )
        )
    return view


class DiscordPort:
    """Posts, replies in a message's thread, edits, opens the edit modal, sends DMs.

    `client` is set by the client that owns this port; `make_modal` builds the edit modal
    (the client's, which hands the submit to the core). An editor is opened in answer to
    the button press whose interaction waits in `pending` under its id."""

    max_message_chars = MESSAGE_LIMIT

    def __init__(self) -> None:
        self.client: discord.Client | None = None
        self.make_modal: ModalFactory | None = None
        self.pending: dict[str, discord.Interaction] = {}

    async def channel(self, channel_id: str) -> discord.abc.Messageable:
        """A channel or thread by id, or a text channel by name (as typed in a command)."""
        client = self.client
        if channel_id.isdigit():
            found = client.get_channel(int(channel_id))
            return found or await client.fetch_channel(int(channel_id))
        name = channel_id.lstrip("#")
        found = discord.utils.get(client.get_all_channels(), name=name)
        if not isinstance(found, discord.abc.Messageable):
            raise LookupError(f"no text channel called #{name}")
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
        user = self.client.get_user(int(user_id)) or await self.client.fetch_user(int(user_id))
        await user.send(text[:MESSAGE_LIMIT], allowed_mentions=NO_MENTIONS)


def _content(text: str, buttons: Sequence[Button]) -> dict:
    kwargs: dict = {"content": text, "allowed_mentions": NO_MENTIONS, "suppress_embeds": True}
    view = view_of(buttons)
    if view is not None:
        kwargs["view"] = view
    return kwargs
