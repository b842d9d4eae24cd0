"""Discord's history paging for the core's backfill and reconcile: a channel and each of its
threads (archived ones included) is a source of its own, read oldest first."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from datetime import datetime

import discord

from bot.core.port import HistoryChannel, HistoryPage, HistorySource
from bot.discord.port import Postable, find_guild_channel
from bot.discord.translate import channel_of, own_id, record_of, workspace_of
from storage.records import MessageRecord, WorkspaceRecord

log = logging.getLogger(__name__)

STORE_BATCH = 100


class DiscordHistory:
    """The core's `ChannelHistory` on discord.py: the guilds the client is in."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def workspaces(self) -> list[WorkspaceRecord]:
        return [workspace_of(guild) for guild in self.client.guilds]

    async def channel(self, workspace: WorkspaceRecord, ref: str) -> HistoryChannel | None:
        guild = self.client.get_guild(int(workspace.platform_id))
        channel = find_guild_channel(guild, ref) if guild else None
        if channel is None:
            log.warning("cannot read the history of %r: no such channel", ref)
            return None

        async def sources() -> list[HistorySource]:
            return [_Source(self.client, source) for source in await _sources(channel)]

        return HistoryChannel(str(channel.id), channel.name, sources)


async def _sources(channel: discord.abc.GuildChannel | discord.Thread) -> list[Postable]:
    """The channel (when it holds messages) and its threads, archived ones included."""
    sources: list[Postable] = [channel] if isinstance(channel, Postable) else []
    if isinstance(channel, discord.TextChannel | discord.ForumChannel):
        sources += channel.threads
        try:
            sources += [t async for t in channel.archived_threads(limit=None)]
        except discord.HTTPException:
            log.warning("cannot list the archived threads of #%s", channel.name)
    return sources


class _Source:
    """One channel or thread: its messages are stored under its own id."""

    def __init__(self, client: discord.Client, channel: Postable) -> None:
        self._client = client
        self._channel = channel
        self.channel_id = str(channel.id)

    async def pages(self, since: datetime) -> AsyncIterator[HistoryPage]:
        seen: set[str] = set()
        records: list[MessageRecord] = []
        bot_id = own_id(self._client)
        async for message in self._channel.history(limit=None, after=since, oldest_first=True):
            seen.add(str(message.id))
            if message.author.id == bot_id:
                continue
            record = record_of(message)
            if record is not None:
                records.append(record)
            if len(records) == STORE_BATCH:
                yield HistoryPage(channel_of(self._channel), records, frozenset(seen))
                seen, records = set(), []
        if records or seen:
            yield HistoryPage(channel_of(self._channel), records, frozenset(seen))

    def threads_read(self) -> set[str] | None:
        return None  # a thread is a source of its own: every one is read
