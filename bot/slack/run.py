"""Starting the Slack side of `summarybot run`: Socket Mode when an app token is set,
otherwise the HTTP Events API on `PORT` at /slack/events."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

from aiohttp import web
from slack_bolt.adapter.socket_mode.aiohttp import AsyncSocketModeHandler
from slack_sdk.http_retry.builtin_async_handlers import (
    AsyncConnectionErrorRetryHandler,
    AsyncRateLimitErrorRetryHandler,
)
from slack_sdk.web.async_client import AsyncWebClient

from bot.slack import EVENTS_PATH
from bot.slack.app import SlackBot

log = logging.getLogger(__name__)


class SlackEnv(Protocol):
    """What the Slack adapter reads from the environment (`bot.ops.env.Environment`)."""

    slack_bot_token: str | None
    slack_app_token: str | None
    slack_signing_secret: str | None
    slack_api_url: str
    port: int


def slack_client(env: SlackEnv) -> AsyncWebClient:
    """A Web API client that waits out rate limits (Retry-After) and retries dropped
    connections."""
    return AsyncWebClient(
        token=env.slack_bot_token,
        base_url=env.slack_api_url,
        retry_handlers=[
            AsyncConnectionErrorRetryHandler(max_retry_count=2),
            AsyncRateLimitErrorRetryHandler(max_retry_count=5),
        ],
    )


async def start_slack(
    bot: SlackBot, env: SlackEnv
) -> tuple[Callable[[], Awaitable[None]], Callable[[], Awaitable[bool]]]:
    """Connect `bot` (Socket Mode or HTTP); returns the function that stops it and the probe
    that tells whether it is connected."""
    if env.slack_app_token:
        handler = AsyncSocketModeHandler(bot.app, app_token=env.slack_app_token)
        await handler.connect_async()
        log.info("Slack: connected over Socket Mode")
        return handler.close_async, handler.client.is_connected
    if not env.slack_signing_secret:
        raise ValueError("Slack needs SLACK_APP_TOKEN (Socket Mode) or SLACK_SIGNING_SECRET")
    runner = web.AppRunner(bot.web_app(EVENTS_PATH))
    await runner.setup()
    await web.TCPSite(runner, "0.0.0.0", env.port).start()  # noqa: S104 (Slack must reach it)
    log.info("Slack: Events API listening on port %s at %s", env.port, EVENTS_PATH)

    async def listening() -> bool:
        return runner.server is not None

    return runner.cleanup, listening
