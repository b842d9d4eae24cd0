"""Slack, as the rest of the bot sees it (`bot.core.platform.Platform`): its environment,
how it starts, its doctor checks, its export reader and its preview."""

from __future__ import annotations

from pydantic_settings import BaseSettings

from bot.core.platform import Connection, Platform
from bot.core.port import MakeCore
from bot.slack.doctor import check_slack
from bot.slack.export import FORMAT
from bot.slack.preview import slack_html


class SlackSettings(BaseSettings):
    """Slack's environment variables."""

    slack_bot_token: str | None = None  # xoxb-...: enables Slack
    slack_app_token: str | None = None  # xapp-...: Socket Mode (no public URL needed)
    slack_signing_secret: str | None = None  # the HTTP Events API instead of Socket Mode
    slack_api_url: str = "https://slack.com/api/"  # GovSlack, proxies, end-to-end tests
    port: int = 3000  # where the HTTP Events API listens (POST /slack/events)


async def start(env: SlackSettings, make_core: MakeCore) -> Connection:
    """Connect (Socket Mode or HTTP), then catch up on what was said while away."""
    from bot.slack.app import SlackBot
    from bot.slack.run import slack_client, start_slack

    bot = SlackBot(make_core, slack_client(env), env.slack_signing_secret)
    stop, connected = await start_slack(bot, env)
    await bot.core.catch_up()
    return Connection(stop, connected)


SLACK = Platform(
    name="slack",
    title="Slack",
    settings=SlackSettings,
    token="SLACK_BOT_TOKEN",
    needs="SLACK_BOT_TOKEN with SLACK_APP_TOKEN (Socket Mode) or SLACK_SIGNING_SECRET (HTTP)",
    start=start,
    doctor=check_slack,
    preview=slack_html,
    exports=(FORMAT,),
    secrets=lambda env: (env.slack_bot_token, env.slack_app_token, env.slack_signing_secret),
    loggers=("slack_bolt", "slack_sdk"),
)
