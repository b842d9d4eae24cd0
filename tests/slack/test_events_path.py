"""Plain messages over the HTTP Events API take a shorter path than Bolt (`bot.slack.events`):
what Slack sees must not change. Real HTTP to the bot's aiohttp app on 127.0.0.1, its Web API
client pointed at the fake Slack."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import aiohttp
from aiohttp import web
from sqlalchemy.exc import OperationalError

import bot.core.router
from bot.core.router import Core
from bot.slack.run import EVENTS_PATH
from tests.fakes.fakeslack import FakeSlack, event_body, signed_headers
from tests.slack.test_week import HERO, SECRET, Slack, slack_world, ts  # noqa: F401
from tests.support.waiting import stored


@asynccontextmanager
async def served(s: Slack) -> AsyncIterator[str]:
    """The bot's Events API app on a free port of 127.0.0.1; yields its URL."""
    runner = web.AppRunner(s.bot.web_app(EVENTS_PATH))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        yield f"http://127.0.0.1:{runner.addresses[0][1]}{EVENTS_PATH}"
    finally:
        await runner.cleanup()


async def post(url: str, event: dict, secret: str = SECRET) -> int:
    body = event_body(event)
    headers = signed_headers(secret, body, content_type="application/json")
    async with aiohttp.ClientSession() as http, http.post(url, data=body, headers=headers) as got:
        return got.status


def message(hour: int, text: str, user: str = "UANA") -> dict:
    return {"type": "message", "channel": HERO, "user": user, "ts": ts(20, hour), "text": text}


def test_plain_messages_edits_and_forgeries_over_http(sessions, slack_world) -> None:  # noqa: F811
    async def scenario() -> None:
        async with FakeSlack() as fake:
            slack_world(fake)
            s = Slack(fake, sessions)
            await s.enable_hero()
            async with served(s) as url:
                # Answered only once stored.
                assert await post(url, message(9, "Eval at 71.2% after #9300")) == 200
                assert stored(sessions)[f"{HERO}:{ts(20, 9)}"] == "Eval at 71.2% after #9300"

                # An edit takes Bolt's path and still replaces the text.
                edit = {
                    "type": "message",
                    "subtype": "message_changed",
                    "channel": HERO,
                    "hidden": True,
                    "ts": ts(20, 10),
                    "event_ts": ts(20, 10),
                    "message": {
                        "type": "message",
                        "user": "UANA",
                        "ts": ts(20, 9),
                        "text": "Eval at 71.4% after #9300",
                        "edited": {"user": "UANA", "ts": ts(20, 10)},
                    },
                }
                assert await post(url, edit) == 200
                assert stored(sessions)[f"{HERO}:{ts(20, 9)}"] == "Eval at 71.4% after #9300"

                # The bot's own messages are not logged, as Bolt drops them.
                own = message(11, "Weekly summary draft ready", user=FakeSlack.BOT_USER)
                assert await post(url, own) == 200
                assert f"{HERO}:{ts(20, 11)}" not in stored(sessions)

                # A request signed with another secret is refused and stores nothing.
                assert await post(url, message(12, "forged"), secret="not-the-secret") == 401
                assert f"{HERO}:{ts(20, 12)}" not in stored(sessions)

    asyncio.run(asyncio.wait_for(scenario(), 30))


def test_a_message_that_cannot_be_stored_is_not_acknowledged(
    sessions,
    slack_world,  # noqa: F811
    monkeypatch,
) -> None:
    """On the short path too, a store that fails answers 500, so Slack delivers it again."""

    def down(self, *args):
        raise OperationalError("INSERT", {}, Exception("database restarting"))

    async def scenario() -> None:
        async with FakeSlack() as fake:
            slack_world(fake)
            s = Slack(fake, sessions)
            await s.enable_hero()
            real = Core._store_once
            monkeypatch.setattr(bot.core.router, "STORE_BACKOFF_S", 0.001)
            async with served(s) as url:
                event = message(9, "Stored once the database is back (#9301)")
                monkeypatch.setattr(Core, "_store_once", down)
                assert await post(url, event) == 500
                assert f"{HERO}:{ts(20, 9)}" not in stored(sessions)
                monkeypatch.setattr(Core, "_store_once", real)
                assert await post(url, event) == 200  # Slack's retry
                assert f"{HERO}:{ts(20, 9)}" in stored(sessions)

    asyncio.run(asyncio.wait_for(scenario(), 30))
