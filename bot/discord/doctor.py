"""The Discord adapter's deployment checks for `summarybot doctor`: the bot token (GET
/users/@me) and the Message Content Intent (the application's flags). One bounded try each."""

from __future__ import annotations

from typing import Protocol

import httpx

from bot.core import checks as checking
from bot.core.checks import FAIL, OK, WARN, Check, json_of, reason, unreachable

DISCORD_API_URL = "https://discord.com/api/v10"
# Application flags: GATEWAY_MESSAGE_CONTENT (1 << 18) and GATEWAY_MESSAGE_CONTENT_LIMITED
# (1 << 19, bots in fewer than 100 servers); either means the intent is on.
MESSAGE_CONTENT_FLAGS = (1 << 18) | (1 << 19)


class DiscordEnv(Protocol):
    """What the Discord adapter reads from the environment."""

    discord_token: str | None
    discord_api_url: str | None


async def check_discord(env: DiscordEnv) -> list[Check]:
    """The bot token (GET /users/@me) and the Message Content Intent (application flags)."""
    base = (env.discord_api_url or DISCORD_API_URL).rstrip("/")
    headers = {
        "Authorization": f"Bot {env.discord_token}",
        "User-Agent": "DiscordBot (https://github.com/summarybot, 0.1)",
    }
    async with httpx.AsyncClient(base_url=base, headers=headers, timeout=checking.TIMEOUT) as http:
        try:
            me = await http.get("/users/@me")
        except httpx.HTTPError as error:
            return [Check("Discord", FAIL, unreachable("Discord", base, error, "DISCORD_API_URL"))]
        if me.status_code == 401:
            return [
                Check(
                    "Discord",
                    FAIL,
                    "DISCORD_TOKEN was rejected by Discord (401 Unauthorized); copy the bot "
                    "token from the Developer Portal, Bot page (Reset Token)",
                )
            ]
        user = json_of(me)
        if me.status_code != 200 or not isinstance(user, dict):
            return [Check("Discord", FAIL, f"Discord answered {me.status_code} to GET /users/@me")]
        checks = [Check("Discord", OK, f"DISCORD_TOKEN accepted: bot {user.get('username', '?')}")]
        try:
            application = await http.get("/oauth2/applications/@me")
        except httpx.HTTPError as error:
            problem = reason(error)
            checks.append(Check("Discord intents", WARN, f"could not read the app ({problem})"))
            return checks
    data = json_of(application)
    if application.status_code != 200 or not isinstance(data, dict):
        checks.append(
            Check(
                "Discord intents",
                WARN,
                f"Discord answered {application.status_code} to GET /oauth2/applications/@me; "
                "check that Message Content Intent is on in the Developer Portal, Bot page",
            )
        )
    elif int(data.get("flags") or 0) & MESSAGE_CONTENT_FLAGS:
        checks.append(Check("Discord intents", OK, "Message Content Intent is on"))
    else:
        checks.append(
            Check(
                "Discord intents",
                FAIL,
                "Message Content Intent is off, so the bot cannot connect (it asks for message "
                "text); turn on Message Content Intent in the Developer Portal, Bot page",
            )
        )
    return checks
