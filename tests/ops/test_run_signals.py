"""`summarybot run` stops cleanly on SIGTERM and SIGINT: the real command in a subprocess,
connected to the fake Slack (Socket Mode) and the fake Discord on 127.0.0.1, exits 0 within
a bounded time after the signal, its connections closed."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest

from tests.fakes.fakediscord import FakeDiscord
from tests.fakes.fakeslack import FakeSlack
from tests.ops.test_health import free_port
from tests.support.waiting import eventually

STOP_WITHIN_S = 15


def summarybot() -> list[str]:
    """The installed console script next to this interpreter."""
    script = Path(sys.executable).parent / "summarybot"
    return [str(script)] if script.exists() else [sys.executable, "-m", "bot.ops.cli"]


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_run_stops_cleanly_on_a_signal(tmp_path: Path, signum: signal.Signals) -> None:
    async def scenario() -> None:
        async with FakeSlack() as slack, FakeDiscord() as discord:
            env = {
                **os.environ,
                "SUMMARYBOT_DATABASE_URL": f"sqlite:///{tmp_path / 'bot.db'}",
                "SUMMARYBOT_HEALTH_PORT": str(free_port()),
                "SLACK_BOT_TOKEN": "xoxb-test",
                "SLACK_APP_TOKEN": "xapp-test",
                "SLACK_API_URL": slack.url,
                "DISCORD_TOKEN": "fake.token",
                "DISCORD_API_URL": discord.api_base,
                "DISCORD_GATEWAY_URL": discord.gateway_url,
            }
            log = tmp_path / "run.log"  # a file, so a chatty start-up never fills a pipe
            with log.open("wb") as output:
                process = await asyncio.create_subprocess_exec(
                    *summarybot(), "run", cwd=tmp_path, env=env, stdout=output, stderr=output
                )
            try:
                await slack.wait_connected(timeout=20)
                await discord.wait_ready(timeout=20)
                await eventually(lambda: discord.commands_synced, timeout=10)
                process.send_signal(signum)
                await asyncio.wait_for(process.wait(), STOP_WITHIN_S)
            finally:
                if process.returncode is None:
                    process.kill()
                    await process.wait()
            printed = log.read_text()
            assert process.returncode == 0, printed[-2000:]
            assert "stopped cleanly" in printed
            # Both connections were closed by the bot, not dropped by the process dying.
            await eventually(lambda: slack._ws is None and discord._ws is None)

    asyncio.run(asyncio.wait_for(scenario(), 60))
