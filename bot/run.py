"""`summarybot run`: the composition root of the running bot. One event loop runs the
platform connection, the scheduler and the core."""

from __future__ import annotations

import asyncio
import logging

from sqlalchemy.orm import Session, sessionmaker

from bot.config import Config
from bot.core import Core
from bot.env import Environment

log = logging.getLogger(__name__)


class NoPlatform(Exception):
    """No platform has the tokens it needs in the environment."""


async def serve(sessions: sessionmaker[Session], config: Config, env: Environment) -> None:
    """Run until cancelled: connect Slack, start the scheduler, finish what a crash left
    (review posts, publishing), and backfill what was said while the bot was away."""
    if not env.slack_bot_token:
        raise NoPlatform(
            "no platform token is set: set SLACK_BOT_TOKEN and SLACK_APP_TOKEN (Socket Mode) "
            "or SLACK_SIGNING_SECRET (HTTP); see the README"
        )
    from bot.slack.app import SlackBot
    from bot.slack.port import SlackPort
    from bot.slack.run import slack_client, start_slack

    client = slack_client(env)
    core = Core(sessions, config, SlackPort(client), platform="slack")
    bot = SlackBot(core, client, env.slack_signing_secret)
    stop = await start_slack(bot, env)
    try:
        await core.scheduler.start()
        await core.resume()
        await bot.catch_up()
        log.info("running; next weekly runs: %s", core.scheduler.jobs())
        await asyncio.Event().wait()
    finally:
        await core.scheduler.shutdown()
        await stop()
