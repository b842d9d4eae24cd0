"""Starting the Discord side of `summarybot run`, and the invite link."""

from __future__ import annotations

import asyncio
import base64
import binascii

import discord
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.core.port import MakeCore
from bot.discord.client import ShardedSummaryClient, SummaryClient

# Exactly what the bot does: read the logged channels and their history, post the review
# thread and the summary, start threads on its own messages and write in them.
PERMISSIONS = discord.Permissions(
    view_channel=True,
    read_message_history=True,
    send_messages=True,
    create_public_threads=True,
    send_messages_in_threads=True,
)
SCOPES = ("bot", "applications.commands")


def invite_url(application_id: int) -> str:
    """The OAuth2 link that adds the bot to a server with those permissions."""
    return discord.utils.oauth_url(application_id, permissions=PERMISSIONS, scopes=SCOPES)


def application_id_from_token(token: str) -> int:
    """A bot token starts with its user id in base64; a bot's user id is its application id."""
    head = token.split(".", 1)[0]
    try:
        return int(base64.b64decode(head + "=" * (-len(head) % 4)).decode())
    except (binascii.Error, ValueError, UnicodeDecodeError):
        raise ValueError("this does not look like a Discord bot token") from None


def point_at(api_url: str | None, gateway_url: str | None) -> None:
    """Send REST and the gateway elsewhere (a REST proxy, or a test's fake Discord).
    discord.py keeps both as process-wide settings."""
    if api_url:
        Route.BASE = api_url.rstrip("/")
    if gateway_url:
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


def discord_client(make_core: MakeCore, shards: tuple[list[int], int] | None) -> SummaryClient:
    """The client: of all of the bot's guilds, or of those on `shards` (ids, count)."""
    if shards is None:
        return SummaryClient(make_core)
    shard_ids, shard_count = shards
    return ShardedSummaryClient(make_core, shard_ids=shard_ids, shard_count=shard_count)


async def start_discord(client: SummaryClient, token: str) -> asyncio.Task[None]:
    """Log in and stay connected in the background; the task ends when the client closes."""
    await client.login(token)
    return asyncio.create_task(client.run_connected(), name="discord")
