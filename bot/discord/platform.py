"""Discord, as the rest of the bot sees it (`bot.core.platform.Platform`): its environment,
how it starts, its doctor checks, its export reader, its preview and its set-up helpers."""

from __future__ import annotations

import asyncio
import logging
import sys
from typing import Annotated, NoReturn

import typer
from pydantic_settings import BaseSettings

from bot.core.platform import Connection, Platform
from bot.core.port import MakeCore
from bot.discord.doctor import check_discord
from bot.discord.export import FORMAT
from bot.discord.preview import discord_html

log = logging.getLogger(__name__)


class DiscordSettings(BaseSettings):
    """Discord's environment variables."""

    discord_token: str | None = None  # the bot token: enables Discord
    discord_api_url: str | None = None  # REST base, e.g. a REST proxy (default: discord.com)
    discord_gateway_url: str | None = None  # gateway websocket (default: Discord's)
    # Several processes on Discord: the shard count, and this process's shard ids ("0,1"; all
    # of them when unset). A guild's events reach only the process with its shard.
    discord_shard_count: int | None = None
    discord_shard_ids: str | None = None

    def discord_shards(self) -> tuple[list[int], int] | None:
        """(this process's shard ids, the shard count), or None when not sharded; raises
        ValueError for ids that are not numbers below the count."""
        if self.discord_shard_count is None:
            if self.discord_shard_ids:
                raise ValueError("DISCORD_SHARD_IDS needs DISCORD_SHARD_COUNT")
            return None
        count = self.discord_shard_count
        if count < 1:
            raise ValueError("DISCORD_SHARD_COUNT must be 1 or more")
        if not self.discord_shard_ids:
            return list(range(count)), count
        try:
            ids = sorted({int(part) for part in self.discord_shard_ids.split(",")})
        except ValueError:
            raise ValueError("DISCORD_SHARD_IDS is a comma-separated list of numbers") from None
        if not ids or ids[0] < 0 or ids[-1] >= count:
            raise ValueError(f"DISCORD_SHARD_IDS must be numbers from 0 to {count - 1}")
        return ids, count


async def start(env: DiscordSettings, make_core: MakeCore) -> Connection:
    """Log in and stay connected in the background; it catches up on ready."""
    from bot.discord.run import discord_client, point_at, start_discord

    point_at(env.discord_api_url, env.discord_gateway_url)
    client = discord_client(make_core, env.discord_shards())
    task = await start_discord(client, env.discord_token or "")

    async def stop() -> None:
        await client.close()
        await asyncio.wait_for(task, 10)

    async def connected() -> bool:
        return client.is_ready() and not client.is_closed()

    log.info("Discord: connecting")
    return Connection(stop, connected)


def helpers() -> typer.Typer:
    """`summarybot discord ...`."""
    app = typer.Typer(help="Discord set-up helpers.", no_args_is_help=True)
    app.command("invite-url")(invite_url_command)
    return app


def invite_url_command(
    application_id: Annotated[
        int | None,
        typer.Option(help="The application id (default: read from DISCORD_TOKEN)."),
    ] = None,
) -> None:
    """Print the link that adds the bot to a server, with exactly the permissions it uses."""
    from bot.discord.run import application_id_from_token, invite_url

    if application_id is None:
        token = DiscordSettings().discord_token
        if not token:
            _fail(
                "set DISCORD_TOKEN or pass --application-id (Developer Portal, General Information)"
            )
        try:
            application_id = application_id_from_token(token)
        except ValueError as error:
            _fail(str(error))
    sys.stdout.write(invite_url(application_id) + "\n")


def _fail(message: str) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


DISCORD = Platform(
    name="discord",
    title="Discord",
    settings=DiscordSettings,
    token="DISCORD_TOKEN",
    needs="DISCORD_TOKEN",
    start=start,
    doctor=check_discord,
    preview=discord_html,
    exports=(FORMAT,),
    secrets=lambda env: (env.discord_token,),
    check=DiscordSettings.discord_shards,
    loggers=("discord",),
    cli=helpers,
)
