"""The discord.py client: logging, the `/summary` command, persistent review buttons and the
edit modal. Every handler translates and hands over to the core."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.utils import MISSING

from bot.core import metrics
from bot.core.chunking import chunk
from bot.core.commands import Command, CommandError
from bot.core.failures import failed
from bot.core.port import (
    ButtonPress,
    Caller,
    CommandEvent,
    DeleteEvent,
    EditEvent,
    EditorSubmit,
    Inbound,
    MakeCore,
    MessageEvent,
    Outbound,
    Reply,
)
from bot.discord.commands import admin_group, definition_hash, summary_group
from bot.discord.history import DiscordHistory
from bot.discord.members import DiscordMembers
from bot.discord.port import MESSAGE_LIMIT, NO_MENTIONS, DiscordPort, view_of
from bot.discord.translate import channel_of, own_id, reactor_of, record_of, workspace_of

log = logging.getLogger(__name__)

FIELD_LIMIT = 4000  # a modal text input holds at most 4,000 characters
MAX_FIELDS = 5  # and a modal at most five inputs
RECONNECT_DELAY_S = 1.0


def intents() -> discord.Intents:
    """What the bot needs: guilds, their messages with content, and reactions."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    wanted.guild_messages = True
    wanted.message_content = True
    wanted.guild_reactions = True
    return wanted


def caller_of(interaction: discord.Interaction) -> Caller:
    """Who acts: Manage Server (as Discord resolved it for this interaction) makes an admin;
    the ids of the member's roles in this guild match editors given as roles (names never
    do: a role called "Editors" exists in many guilds)."""
    user = interaction.user
    roles = getattr(user, "roles", [])
    return Caller(
        str(user.id),
        user.display_name,
        interaction.permissions.manage_guild,
        tuple(str(r.id) for r in roles),
    )


class ReviewButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=(
        r"(?P<action>approve|regenerate|discard|page|edit|history|cancel"
        r"|ask:approve|ask:discard):(?P<id>\d+)"
    ),
):
    """Any review button, matched by its custom_id: works for messages sent before a restart."""

    def __init__(self, action: str, target: int) -> None:
        super().__init__(discord.ui.Button(label=action.title(), custom_id=f"{action}:{target}"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ReviewButton:
        return cls(match["action"], int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        client = interaction.client
        assert isinstance(client, SummaryClient)  # the only client these buttons are added to
        await client.on_review_button(interaction, self.custom_id)


class EditModal(discord.ui.Modal):
    """A section's text in up to five fields (a field holds 4,000 characters)."""

    def __init__(self, core: Inbound, section_id: int, title: str, text: str) -> None:
        super().__init__(title=f"Edit: {title}"[:45], custom_id=f"edit-modal:{section_id}")
        self.core, self.section_id = core, section_id
        parts = chunk(text, FIELD_LIMIT)[:MAX_FIELDS] or [""]
        self.fields: list[discord.ui.TextInput[EditModal]] = [
            discord.ui.TextInput(
                label=title[:45] if len(parts) == 1 else f"{title[:38]} ({n + 1}/{len(parts)})",
                style=discord.TextStyle.paragraph,
                default=part,
                max_length=FIELD_LIMIT,
                required=n == 0,
            )
            for n, part in enumerate(parts)
        ]
        for field in self.fields:
            self.add_item(field)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        if interaction.guild is None:  # the edit button is only posted in a server
            return
        text = "\n\n".join(f.value.strip() for f in self.fields if f.value.strip())
        submit = EditorSubmit(
            workspace_of(interaction.guild), caller_of(interaction), self.section_id, text
        )
        await answer(interaction, await self.core.on_editor_submit(submit))

    # discord.py's Modal calls on_error(interaction, error): its own on_error drops the `item`
    # argument of View's, which mypy holds every subclass of both to.
    async def on_error(  # type: ignore[override]
        self, interaction: discord.Interaction, error: Exception
    ) -> None:
        await answer_failure(interaction, error, "Discord: saving the edit modal")


async def answer(interaction: discord.Interaction, reply: Reply) -> None:
    """Send a reply to an interaction, split at Discord's limit, mentioning nobody; its
    buttons (Confirm / Cancel under a question) go under the last piece."""
    pieces = chunk(reply.text, MESSAGE_LIMIT) or ["Done."]
    for index, piece in enumerate(pieces):
        # (discord.py takes no `view=None`: MISSING is its "no view")
        view = (view_of(reply.buttons) if index == len(pieces) - 1 else None) or MISSING
        if interaction.response.is_done():
            await interaction.followup.send(
                piece, ephemeral=reply.private, allowed_mentions=NO_MENTIONS, view=view
            )
        else:
            await interaction.response.send_message(
                piece, ephemeral=reply.private, allowed_mentions=NO_MENTIONS, view=view
            )


async def answer_failure(interaction: discord.Interaction, error: Exception, what: str) -> None:
    """The error boundary: log `error` with an id and tell the person, privately (as the
    follow-up of a deferred answer, so "thinking…" does not hang)."""
    reply = failed(error, what)
    try:
        await answer(interaction, reply)
    except discord.HTTPException:
        log.warning("Discord: could not say that %s failed", what)


class SummaryTree(app_commands.CommandTree):
    """The slash commands; a command that fails is answered (`answer_failure`)."""

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", None) or error
        name = interaction.command.qualified_name if interaction.command else "a command"
        await answer_failure(interaction, original, f"Discord: /{name}")


class SummaryClient(discord.Client):
    """The bot. `make_core` makes the core from this client's port, history and members;
    `setup_hook` registers the persistent buttons; commands are synced when it is ready."""

    def __init__(self, make_core: MakeCore, **options: Any) -> None:
        super().__init__(intents=intents(), allowed_mentions=NO_MENTIONS, **options)
        self.port = DiscordPort(self, self._edit_modal)
        self.core = make_core(Outbound(self.port, DiscordHistory(self), DiscordMembers(self)))
        self.tree = SummaryTree(self)
        self.tree.add_command(summary_group())
        self.tree.add_command(admin_group())
        self._guard_parsers()

    def _edit_modal(self, section_id: int, title: str, text: str) -> EditModal:
        return EditModal(self.core, section_id, title, text)

    def _guard_parsers(self) -> None:
        """discord.py runs its gateway event parsers without a try: one malformed payload
        (a MESSAGE_UPDATE without `type`, say) would end the connection for good. Log and
        drop such an event instead. `_connection.parsers` is private API (discord.py 2.7)."""
        parsers = self._connection.parsers
        for name, parse in list(parsers.items()):
            parsers[name] = _guarded(name, parse)

    async def run_connected(self) -> None:
        """Stay connected until closed. A frame that breaks discord.py before any parser runs
        (not JSON, say) ends `connect()`: connect again, and backfill on ready."""
        while not self.is_closed():
            try:
                await self.connect()
            except (ValueError, TypeError, KeyError, AttributeError):
                log.exception("Discord: a malformed gateway frame dropped the connection")
                if self.ws is not None:  # its heartbeat thread would outlive it otherwise
                    await self.ws.close(code=4000)
                await asyncio.sleep(RECONNECT_DELAY_S)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(ReviewButton)

    async def on_ready(self) -> None:
        """Also after a reconnect with a new session: sync the commands if their definition
        changed, then fetch what was said while the bot was away."""
        await self.sync_commands()
        await self.core.catch_up()

    async def sync_commands(self) -> None:
        """Sync the global commands only when their definition differs from the last one
        synced (its hash is kept in the database): Discord rate-limits syncs. The first sync
        also removes the copies earlier versions made in each guild."""
        key = f"discord:commands:{self.application_id}"
        definition = definition_hash(self.tree)
        synced = await self.core.kept(key)
        if synced == definition:
            return
        try:
            await self.tree.sync()
            if synced is None:
                for guild in self.guilds:
                    await self.tree.sync(guild=guild)
        except discord.HTTPException as error:
            log.warning("Discord: cannot sync the slash commands (%s)", error)
            return
        await self.core.keep(key, definition)
        log.info("Discord: slash commands synced")

    # --- logging ------------------------------------------------------------------------------

    async def on_message(self, message: discord.Message) -> None:
        guild = self._guild_of(message)
        if guild is None or message.author.id == own_id(self):
            return
        record = record_of(message)
        if record is not None:
            event = MessageEvent(workspace_of(guild), channel_of(message.channel), record)
            await self.core.on_message(event)

    async def on_raw_message_edit(self, payload: discord.RawMessageUpdateEvent) -> None:
        message = payload.message
        guild = self._guild_of(message)
        if guild is None or message.author.id == own_id(self):
            return
        record = record_of(message)
        if record is not None:
            event = EditEvent(workspace_of(guild), channel_of(message.channel), record)
            await self.core.on_message(event)

    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        guild = self._guild(payload.guild_id)
        if guild is not None:
            await self.core.on_delete(DeleteEvent(workspace_of(guild), str(payload.message_id)))

    async def on_raw_reaction_add(self, payload: discord.RawReactionActionEvent) -> None:
        await self._react(payload, +1)

    async def on_raw_reaction_remove(self, payload: discord.RawReactionActionEvent) -> None:
        await self._react(payload, -1)

    async def _react(self, payload: discord.RawReactionActionEvent, delta: int) -> None:
        guild = self._guild(payload.guild_id)
        if guild is not None:
            await self.core.on_reaction(
                workspace_of(guild),
                str(payload.message_id),
                delta,
                str(payload.emoji.name or ""),
                reactor_of(payload),
            )

    def _guild_of(self, message: discord.Message) -> discord.Guild | None:
        """The guild of a message the gateway sent: discord.py leaves `message.guild` None
        both in a DM and in a guild the bot is not in (its channel then keeps the id)."""
        return message.guild or self._guild(getattr(message.channel, "guild_id", None))

    def _guild(self, guild_id: int | None) -> discord.Guild | None:
        """The bot's guild `guild_id`; None for a DM (no id) or a guild the bot is not in.
        Discord sends no events of other guilds; one that names another anyway (a gateway
        that is not Discord's, a guild left a moment ago) is ignored and counted."""
        if guild_id is None:
            return None
        guild = self.get_guild(guild_id)
        if guild is None:
            metrics.FOREIGN_EVENTS.labels("discord").inc()
            log.info("Discord: ignored an event of guild %s, which the bot is not in", guild_id)
        return guild

    # --- interactions -------------------------------------------------------------------------

    async def run_command(
        self, interaction: discord.Interaction, build: Callable[[], Command]
    ) -> None:
        """A slash subcommand: `build` makes the core's command from its typed options; a
        wrong value is refused privately, as the text grammar refuses it."""
        if interaction.guild is None:
            await answer(interaction, Reply.refuse("Use /summary in a server channel."))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            command = build()
        except CommandError as error:
            await answer(interaction, Reply.refuse(str(error)))
            return
        event = CommandEvent(
            workspace_of(interaction.guild),
            caller_of(interaction),
            command,
            str(interaction.channel_id),
        )
        await answer(interaction, await self.core.on_command(event))

    async def on_review_button(self, interaction: discord.Interaction, custom_id: str) -> None:
        """Edit answers with a modal, so it must not be deferred; the others may take a while.
        A press that fails is answered (`answer_failure`)."""
        try:
            await self._press(interaction, custom_id)
        except Exception as error:  # noqa: BLE001 (the boundary: any failure is answered)
            await answer_failure(interaction, error, f"Discord: the {custom_id} button")

    async def _press(self, interaction: discord.Interaction, custom_id: str) -> None:
        if not custom_id.startswith("edit:"):
            await interaction.response.defer(ephemeral=True, thinking=True)
        if interaction.guild is None:  # review buttons are only posted in a server
            return
        self.port.pending[str(interaction.id)] = interaction
        press = ButtonPress(
            workspace_of(interaction.guild),
            caller_of(interaction),
            custom_id,
            trigger_id=str(interaction.id),
            channel_id=str(interaction.channel_id),
        )
        try:
            reply = await self.core.on_button(press)
        finally:
            self.port.pending.pop(str(interaction.id), None)
        if reply is not None:
            await answer(interaction, reply)


class ShardedSummaryClient(SummaryClient, discord.AutoShardedClient):
    """The bot holding some shards of a sharded bot (`shard_ids`, `shard_count`): Discord
    sends it the events of the guilds on those shards only, so several processes split the
    guilds between them."""


def _guarded(name: str, parse: Callable[[Any], None]) -> Callable[[Any], None]:
    def call(data: Any) -> None:
        try:
            parse(data)
        except Exception:
            log.exception("Discord: dropped a malformed %s event", name)

    return call
