"""`summarybot run` stops cleanly on SIGTERM and SIGINT: the real command in a subprocess,
connected to the fake Slack (Socket Mode) and the fake Discord on 127.0.0.1, exits 0 within
a bounded time after the signal, its connections closed."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest

from tests.fakes.fakediscord import FakeDiscord
from tests.fakes.fakeslack import FakeSlack
from tests.ops.test_health import free_port
from tests.support.process import BotProcess
from tests.support.waiting import eventually


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_run_stops_cleanly_on_a_signal(tmp_path: Path, signum: signal.Signals) -> None:
    async def scenario() -> None:
        async with FakeSlack() as slack, FakeDiscord() as discord:
            bot = BotProcess(
                tmp_path,
                {
                    "SUMMARYBOT_DATABASE_URL": f"sqlite:///{tmp_path / 'bot.db'}",
                    "SUMMARYBOT_HEALTH_PORT": str(free_port()),
                    "SLACK_BOT_TOKEN": "xoxb-test",
                    "SLACK_APP_TOKEN": "xapp-test",
                    "SLACK_API_URL": slack.url,
                    "DISCORD_TOKEN": "fake.token",
                    "DISCORD_API_URL": discord.api_base,
                    "DISCORD_GATEWAY_URL": discord.gateway_url,
                },
            )
            await bot.start()
            try:
                await slack.wait_connected(timeout=20)
                await discord.wait_ready(timeout=20)
                await eventually(lambda: discord.commands_synced, timeout=10)
            finally:
                code = await bot.stop(signum)
            assert code == 0, bot.output()[-2000:]
            assert "stopped cleanly" in bot.output()
            # Both connections were closed by the bot, not dropped by the process dying.
            await eventually(lambda: slack._ws is None and discord._ws is None)

    asyncio.run(asyncio.wait_for(scenario(), 60))
