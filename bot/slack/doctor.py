"""The Slack adapter's deployment checks for `summarybot doctor`: the bot token and its
scopes (against manifest.yml) and how events reach the bot. One bounded try each."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from bot.core import checks as checking
from bot.core.checks import FAIL, OK, WARN, Check, unreachable
from bot.slack import EVENTS_PATH

if TYPE_CHECKING:
    from slack_sdk.web.async_client import AsyncWebClient

    from bot.slack.run import SlackEnv

MANIFEST = "bot/slack/manifest.yml"
# The bot scopes bot/slack/manifest.yml asks for (a test keeps the two equal).
SLACK_SCOPES = (
    "channels:history",
    "groups:history",
    "channels:read",
    "groups:read",
    "channels:join",
    "chat:write",
    "chat:write.public",
    "commands",
    "users:read",
    "usergroups:read",
    "pins:read",
    "reactions:read",
)
_SLACK_REJECTED = {
    "invalid_auth",
    "not_authed",
    "account_inactive",
    "token_revoked",
    "token_expired",
    "not_allowed_token_type",
}


async def check_slack(env: SlackEnv) -> list[Check]:
    """The bot token (auth.test), its scopes, and how events reach the bot."""
    from bot.slack.run import slack_client

    client = slack_client(env)
    # One bounded try: no waiting out rate limits, no retries. slack_sdk annotates `timeout`
    # as int, yet hands it to aiohttp, which takes (and tests use) fractions of a second.
    client.timeout = checking.TIMEOUT  # type: ignore[assignment]
    client.retry_handlers = []
    (auth, scopes), connection = await asyncio.gather(
        _slack_auth(client, env), _slack_connection(client, env)
    )
    return [auth, *([scopes] if scopes else []), connection]


async def _slack_auth(client: AsyncWebClient, env: SlackEnv) -> tuple[Check, Check | None]:
    from slack_sdk.errors import SlackApiError

    name = "Slack"
    try:
        response = await client.auth_test()
    except SlackApiError as error:
        code = _slack_code(error)
        if code in _SLACK_REJECTED:
            return Check(
                name,
                FAIL,
                f"SLACK_BOT_TOKEN was rejected by Slack ({code}); copy the Bot User OAuth Token "
                "(xoxb-...) from the app's Install App page",
            ), None
        if code == "ratelimited":
            return Check(
                name, WARN, "Slack is rate limiting auth.test; try again in a minute"
            ), None
        return Check(name, FAIL, f"Slack refused auth.test ({code})"), None
    except Exception as error:  # noqa: BLE001 (any network trouble is the finding)
        return Check(
            name, FAIL, unreachable("Slack", env.slack_api_url, error, "SLACK_API_URL")
        ), None
    who = f"bot {response.get('user') or '?'} in workspace {response.get('team') or '?'}"
    token = env.slack_bot_token or ""
    if not token.startswith("xoxb-"):
        auth = Check(
            name,
            WARN,
            f"SLACK_BOT_TOKEN is accepted ({who}) but is not a bot token (xoxb-...); use the "
            "Bot User OAuth Token from the app's Install App page",
        )
    else:
        auth = Check(name, OK, f"SLACK_BOT_TOKEN accepted: {who}")
    return auth, slack_scopes_check(response.headers.get("x-oauth-scopes"))


def slack_scopes_check(header: str | None) -> Check:
    """Compare the scopes Slack says the token has (`x-oauth-scopes`) with the manifest's."""
    name = "Slack scopes"
    if header is None:
        return Check(
            name,
            WARN,
            "Slack did not say which scopes the bot token has; compare OAuth & Permissions "
            f"with {MANIFEST}",
        )
    granted = {scope.strip() for scope in header.split(",") if scope.strip()}
    missing = [scope for scope in SLACK_SCOPES if scope not in granted]
    if missing:
        return Check(
            name,
            FAIL,
            f"the bot token lacks the scope(s) {', '.join(missing)}; add them on the app's "
            f"OAuth & Permissions page (or update the app from {MANIFEST}), reinstall the "
            "app and copy the new Bot User OAuth Token",
        )
    return Check(
        name, OK, f"the bot token has all {len(SLACK_SCOPES)} scopes the manifest asks for"
    )


async def _slack_connection(client: AsyncWebClient, env: SlackEnv) -> Check:
    from slack_sdk.errors import SlackApiError

    name = "Slack connection"
    token_page = (
        "generate an app-level token with the connections:write scope on the app's Basic "
        "Information page"
    )
    if env.slack_app_token:
        if not env.slack_app_token.startswith("xapp-"):
            return Check(
                name,
                FAIL,
                f"SLACK_APP_TOKEN does not start with xapp-, so it is not an app-level token; "
                f"{token_page}",
            )
        try:
            await client.apps_connections_open(app_token=env.slack_app_token)
        except SlackApiError as error:
            return Check(
                name,
                FAIL,
                f"SLACK_APP_TOKEN was refused by Slack ({_slack_code(error)}); turn on Socket "
                f"Mode in the app's settings and {token_page}",
            )
        except Exception as error:  # noqa: BLE001
            return Check(
                name, FAIL, unreachable("Slack", env.slack_api_url, error, "SLACK_API_URL")
            )
        return Check(name, OK, "Socket Mode: SLACK_APP_TOKEN can open a connection")
    if env.slack_signing_secret:
        return Check(
            name,
            WARN,
            "HTTP Events API (no SLACK_APP_TOKEN): make sure the request URLs of Event "
            f"Subscriptions, Interactivity and /summary point at https://YOUR-HOST{EVENTS_PATH} "
            f"and that port {env.port} is reachable from Slack",
        )
    return Check(
        name,
        FAIL,
        "neither SLACK_APP_TOKEN (Socket Mode) nor SLACK_SIGNING_SECRET (HTTP Events API) is "
        f"set, so no events reach the bot; {token_page} and set SLACK_APP_TOKEN",
    )


def _slack_code(error: Exception) -> str:
    response = getattr(error, "response", None)
    try:
        return str(response.get("error") or "unknown_error")  # type: ignore[union-attr]
    except (AttributeError, TypeError):
        return "unknown_error"
