"""Two `summarybot run` processes on one database split a Discord bot's guilds by shard
(DISCORD_SHARD_COUNT=2, DISCORD_SHARD_IDS 0 and 1): each process identifies with its shard,
the fake gateway sends each guild's events only to that guild's shard, and every message of
both guilds is stored exactly once."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest
from sqlalchemy import select

from bot.core.port import Caller
from bot.core.settings import change_setting
from bot.ops.config import load_config
from storage.messages import upsert_workspace
from storage.models import Message
from storage.records import WorkspaceRecord
from tests.discord.test_week import ANA, BEN, HERO, populate
from tests.fakes.fakediscord import FakeDiscord
from tests.journeys.helpers import during, environment
from tests.journeys.test_slack_journey import WAIT_S
from tests.support.process import BotProcess
from tests.support.waiting import eventually, stored

SECOND_GUILD = "1100000000004194305"  # on shard 0 of 2 (FakeDiscord.GUILD_ID is on shard 1)
SECOND_HERO = "1300000000000000099"
START_S = 60  # two processes start at once on a busy machine


def log_channels(sessions, fake: FakeDiscord) -> None:  # noqa: ANN001 (a sessionmaker)
    """What `/summary channels add` stores, in both guilds."""
    admin = Caller("admin", "Ada Admin", is_admin=True)
    with sessions.begin() as session:
        for guild, name, channel in (
            (fake.GUILD_ID, fake.guild_name, HERO),
            (SECOND_GUILD, "Second Lab", SECOND_HERO),
        ):
            workspace_id = upsert_workspace(session, WorkspaceRecord("discord", guild, name))
            change_setting(
                session,
                load_config(),
                workspace_id,
                "channels",
                [channel],
                admin,
                datetime.now(UTC),
            )


def test_two_processes_split_the_guilds_by_shard_and_store_each_message_once(
    tmp_path, database_url, sessions
) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("several processes share PostgreSQL (SQLite serves one process)")

    async def journey() -> None:
        async with FakeDiscord() as fake:
            populate(fake)
            fake.history[HERO] = []
            fake.add_guild(SECOND_GUILD, "Second Lab")
            fake.add_channel(SECOND_HERO, "hero-run", guild_id=SECOND_GUILD)
            log_channels(sessions, fake)
            for shard in (0, 1):
                (tmp_path / f"shard-{shard}").mkdir()
            bots = [
                BotProcess(
                    tmp_path / f"shard-{shard}",
                    environment(
                        database_url,
                        DISCORD_TOKEN="fake.token",
                        DISCORD_API_URL=fake.api_base,
                        DISCORD_GATEWAY_URL=fake.gateway_url,
                        DISCORD_SHARD_COUNT="2",
                        DISCORD_SHARD_IDS=str(shard),
                    ),
                )
                for shard in (0, 1)
            ]
            await asyncio.gather(*(bot.start() for bot in bots))
            try:
                await eventually(lambda: len(fake.shard_sockets) == 2, START_S)
                assert sorted(tuple(i["shard"]) for i in fake.identifies) == [(0, 2), (1, 2)]
                messages = [
                    fake.message(channel, author, f"Run {n}: {20 + n}.5% MFU (#{900 + n})",
                                 timestamp=during(0.5 + n / 100 + k / 1000))
                    for n in range(20)
                    for k, (channel, author) in enumerate(((HERO, ANA), (SECOND_HERO, BEN)))
                ]  # fmt: skip
                for message in messages:
                    fake.history.setdefault(message["channel_id"], []).append(message)
                    await fake.dispatch("MESSAGE_CREATE", message)
                ids = {m["id"] for m in messages}
                assert len(ids) == len(messages)
                await eventually(lambda: ids <= stored(sessions).keys(), WAIT_S)
            finally:
                codes = [await bot.stop() for bot in bots]
            assert codes == [0, 0], [bot.output()[-2000:] for bot in bots]
        with sessions() as session:
            rows = [p for p in session.scalars(select(Message.platform_id)) if p in ids]
        assert len(rows) == len(set(rows)) == 40

    asyncio.run(asyncio.wait_for(journey(), 180))
