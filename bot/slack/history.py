"""Slack's history paging for the core's backfill and reconcile: a channel's messages since a
time, then the replies in each thread that has any since then (`conversations.history`,
`conversations.replies`), as neutral records."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from slack_sdk.web.async_client import AsyncWebClient

from bot.core.port import HistoryChannel, HistoryPage, HistorySource
from bot.slack.directory import Directory
from bot.slack.messages import SlackConverter, parse_ts
from bot.slack.port import CHANNEL_ID_RE
from storage.records import ChannelRecord, MessageRecord, WorkspaceRecord

log = logging.getLogger(__name__)

PAGE_SIZE = 200
# Threads whose root is at most this much older than what is fetched are looked at: their
# `latest_reply` says whether they have replies to fetch.
ROOT_LOOKBACK = timedelta(days=30)


async def translate(
    directory: Directory, channel_id: str, raws: list[dict[str, Any]]
) -> tuple[ChannelRecord, list[MessageRecord]]:
    """Raw Slack messages of one channel as neutral records (system messages dropped)."""
    channel = ChannelRecord(channel_id, await directory.channel_name(channel_id))
    converter = SlackConverter(await directory.people(raws), {})
    records = []
    for raw in raws:
        ts = str(raw.get("ts", ""))
        created_at = parse_ts(ts)
        if created_at is None:
            continue
        record = converter.convert(raw, ts, created_at, channel)
        if record is not None:
            link = await directory.permalink(channel_id, ts, raw.get("thread_ts"))
            records.append(dataclasses.replace(record, permalink=link))
    return channel, records


class SlackHistory:
    """The core's `ChannelHistory` on the Web API (one workspace: the bot token's)."""

    def __init__(self, client: AsyncWebClient, directory: Directory) -> None:
        self.client = client
        self.directory = directory

    async def workspaces(self) -> list[WorkspaceRecord]:
        return [await self.directory.workspace()]

    async def channel(self, workspace: WorkspaceRecord, ref: str) -> HistoryChannel | None:
        if not CHANNEL_ID_RE.match(ref):
            log.warning("cannot read the history of %r: not a channel id (set it again)", ref)
            return None

        async def sources() -> list[HistorySource]:
            await self.client.conversations_join(channel=ref)
            return [_ChannelSource(self, ref)]

        return HistoryChannel(ref, await self.directory.channel_name(ref), sources)


class _ChannelSource:
    """A channel with its threads: Slack stores replies in their channel."""

    def __init__(self, history: SlackHistory, channel_id: str) -> None:
        self._history = history
        self.channel_id = channel_id
        self._roots: list[str] = []

    async def pages(self, since: datetime) -> AsyncIterator[HistoryPage]:
        """The channel's messages sent after `since`, then the replies since then in every
        thread whose root is younger than `ROOT_LOOKBACK` before it (`latest_reply` says
        which threads have any)."""
        client, directory = self._history.client, self._history.directory
        oldest = f"{since.timestamp():.6f}"
        self._roots = []
        async for page in await client.conversations_history(
            channel=self.channel_id,
            oldest=f"{(since - ROOT_LOOKBACK).timestamp():.6f}",
            limit=PAGE_SIZE,
        ):
            raws = page["messages"]
            self._roots += [m["ts"] for m in raws if _has_replies_since(m, oldest)]
            recent = [m for m in raws if Decimal(str(m.get("ts", "0"))) > Decimal(oldest)]
            yield _page(*await translate(directory, self.channel_id, recent))
        for root in self._roots:
            async for page in await client.conversations_replies(
                channel=self.channel_id, ts=root, oldest=oldest, limit=PAGE_SIZE
            ):
                yield _page(*await translate(directory, self.channel_id, page["messages"]))

    def threads_read(self) -> set[str] | None:
        return {f"{self.channel_id}:{root}" for root in self._roots}


def _page(channel: ChannelRecord, records: list[MessageRecord]) -> HistoryPage:
    return HistoryPage(channel, records, frozenset(r.platform_id for r in records))


def _has_replies_since(raw: dict[str, Any], oldest: str) -> bool:
    """A thread root with replies after `oldest` (a Slack ts); without `latest_reply`, any
    root in the window."""
    if not raw.get("reply_count"):
        return False
    latest = raw.get("latest_reply") or raw.get("ts", "0")
    return Decimal(str(latest)) > Decimal(oldest)
