"""A week on Slack end to end: a real Bolt app, its AsyncWebClient pointed at the fake Slack
on 127.0.0.1, fed correctly signed requests (and, in one test, Socket Mode envelopes)."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime

import aiohttp
import pytest
from aiohttp import web
from slack_bolt.adapter.socket_mode.aiohttp import AsyncSocketModeHandler
from slack_bolt.request.async_request import AsyncBoltRequest

import bot.slack.history as slack_history
from bot.core.router import Core, core_for
from bot.ops.config import load_config
from bot.ops.env import Environment
from bot.slack.app import SlackBot
from bot.slack.port import EDIT_ACTION
from bot.slack.run import EVENTS_PATH, slack_client
from storage.drafts import list_drafts
from tests.fakes.fakeslack import (
    FakeSlack,
    block_actions,
    command_body,
    command_payload,
    event_body,
    event_payload,
    interaction_body,
    signed_headers,
    view_submission,
)
from tests.support.waiting import eventually, stored

SECRET = "signing-secret"
NOW = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)  # Monday: the weekly run drafts Nov 16-22
HERO, REVIEW, ANNOUNCE, RANDOM = "C0HERO", "C0REVIEW", "C0ANNOUNCE", "C0RANDOM"


def ts(day: int, hour: int, n: int = 0) -> str:
    """A Slack ts on a day of November 2026."""
    return f"{datetime(2026, 11, day, hour, tzinfo=UTC).timestamp():.0f}.{n:06d}"


class Slack:
    """The fake Slack, the bot under test, and signed requests to it."""

    def __init__(self, fake: FakeSlack, sessions) -> None:
        self.fake = fake
        env = Environment(slack_bot_token="xoxb-test", slack_api_url=fake.url)
        client = slack_client(env)
        make_core = core_for(sessions, load_config(), clock=lambda: NOW, platform="slack")
        self.bot = SlackBot(make_core, client, signing_secret=SECRET)
        self.core = self.bot.core

    async def send(self, body: str, content_type: str, **signing) -> int:
        headers = signed_headers(SECRET, body, content_type=content_type, **signing)
        request = AsyncBoltRequest(body=body, headers={k: [v] for k, v in headers.items()})
        return (await self.bot.app.async_dispatch(request)).status

    async def event(self, event: dict) -> int:
        return await self.send(event_body(event), "application/json")

    async def command(self, user: str, text: str) -> dict:
        url = self.fake.response_url()
        body = command_body("/summary", text, user_id=user, channel_id=HERO, response_url=url)
        assert await self.send(body, "application/x-www-form-urlencoded") == 200
        await eventually(lambda: url in self.fake.responses_by_url)
        return self.fake.responses_by_url[url][-1]

    async def enable_hero(self) -> None:
        """`channels add` #hero-run, and wait for its backfill to report that it is done."""
        await self.command("UADMIN", f"channels add <#{HERO}|hero-run>")
        await eventually(lambda: any("stored since" in m["text"] for m in self.fake.ephemeral))

    async def interact(self, payload: dict) -> int:
        return await self.send(interaction_body(payload), "application/x-www-form-urlencoded")


@pytest.fixture
def slack_world(monkeypatch):
    monkeypatch.setattr(slack_history, "PAGE_SIZE", 2)  # so a few messages span several pages

    def populate(fake: FakeSlack) -> None:
        fake.add_user("UADMIN", "Ada Admin", admin=True)
        fake.add_user("UEDITOR", "Eve Editor")
        fake.add_user("UANA", "Ana Ruiz")
        fake.add_user("UBEN", "Ben Cho")
        for channel, name in [
            (HERO, "hero-run"),
            (REVIEW, "summary-review"),
            (ANNOUNCE, "announcements"),
            (RANDOM, "random"),
        ]:
            fake.add_channel(channel, name)
        root = {
            "type": "message",
            "user": "UANA",
            "ts": ts(17, 10),
            "reply_count": 1,
            "text": "Hero run crashed at step 2318; fix in #9141",
            "thread_ts": ts(17, 10),
        }
        reply = {
            "type": "message",
            "user": "UBEN",
            "ts": ts(17, 11),
            "thread_ts": ts(17, 10),
            "text": "With #9141 we are back at 22.4% MFU and 243k tokens/s",
        }
        fake.history[HERO] = [  # newest first, as Slack returns it
            {
                "type": "message",
                "user": "UBEN",
                "ts": ts(18, 9),
                "text": "Checkpoint saves are 3.5x faster after #9123 <!everyone>",
            },
            {
                "type": "message",
                "subtype": "channel_join",
                "user": "UBEN",
                "ts": ts(17, 12),
                "text": "<@UBEN> has joined the channel",
            },
            root,
        ]
        fake.replies[(HERO, ts(17, 10))] = [root, reply]

    return populate


def test_a_week_on_slack(sessions, slack_world) -> None:
    async def week() -> None:
        async with FakeSlack() as fake:
            slack_world(fake)
            s = Slack(fake, sessions)

            # Signatures are checked: forged and stale requests are rejected.
            hello = {
                "type": "message",
                "channel": HERO,
                "user": "UANA",
                "ts": ts(19, 9),
                "text": "early",
            }
            body = event_body(hello)
            forged = signed_headers("wrong-secret", body, content_type="application/json")
            request = AsyncBoltRequest(body=body, headers={k: [v] for k, v in forged.items()})
            assert (await s.bot.app.async_dispatch(request)).status == 401
            assert await s.send(body, "application/json", timestamp=int(time.time()) - 600) == 401

            # Nothing is logged until an admin enables the channel.
            assert await s.event(hello) == 200
            await asyncio.sleep(0.1)
            assert stored(sessions) == {}

            # A member cannot change settings; an admin can, and enabling backfills history
            # across pages, waiting out one rate-limited response.
            refused = await s.command("UBEN", f"channels add <#{HERO}|hero-run>")
            assert refused["response_type"] == "ephemeral"
            assert "Only workspace admins" in refused["text"]
            fake.rate_limit_next("conversations.history", retry_after=1)
            for text in (
                f"channels add <#{HERO}|hero-run>",
                f"review-channel <#{REVIEW}|summary-review>",
                f"publish add <#{ANNOUNCE}|announcements>",
                "editors add <@UEDITOR>",
            ):
                assert "Only" not in (await s.command("UADMIN", text))["text"]
            # `channels add` answered at once; its backfill reports to the admin only, where
            # they typed the command.
            await eventually(lambda: any("stored since" in m["text"] for m in fake.ephemeral))
            report = fake.ephemeral[-1]
            assert report["text"] == "#hero-run: 3 messages stored since 2026-11-16."
            assert (report["channel"], report["user"]) == (HERO, "UADMIN")
            assert fake.messages_in(HERO) == []
            assert len(fake.called("conversations.history")) == 3  # a 429, then two pages
            assert len(fake.called("conversations.replies")) == 1
            assert sorted(stored(sessions)) == [
                f"{HERO}:{ts(17, 10)}",
                f"{HERO}:{ts(17, 11)}",
                f"{HERO}:{ts(18, 9)}",
            ]  # the join is skipped

            # Live: a new message, an edit, a delete, a channel that is not logged, our own post.
            await s.event(
                {
                    "type": "message",
                    "channel": HERO,
                    "user": "UANA",
                    "ts": ts(19, 10),
                    "text": "Sweep arm 13: 23.0% MFU, PR #9156",
                }
            )
            await s.event(
                {
                    "type": "message",
                    "channel": RANDOM,
                    "user": "UBEN",
                    "ts": ts(19, 11),
                    "text": "lunch?",
                }
            )
            await s.event(
                {
                    "type": "message",
                    "channel": HERO,
                    "user": FakeSlack.BOT_USER,
                    "bot_id": FakeSlack.BOT_ID,
                    "ts": ts(19, 12),
                    "text": "my own post",
                }
            )
            await s.event(
                {
                    "type": "message",
                    "subtype": "message_changed",
                    "channel": HERO,
                    "hidden": True,
                    "ts": ts(19, 13),
                    "message": {
                        "type": "message",
                        "user": "UANA",
                        "ts": ts(19, 10),
                        "text": "Sweep arm 13: 23.1% MFU, PR #9156",
                        "edited": {"user": "UANA", "ts": ts(19, 13)},
                    },
                }
            )
            await s.event(
                {
                    "type": "message",
                    "subtype": "message_deleted",
                    "channel": HERO,
                    "hidden": True,
                    "ts": ts(19, 14),
                    "deleted_ts": ts(18, 9),
                }
            )
            await eventually(
                lambda: (
                    stored(sessions)
                    .get(f"{HERO}:{ts(19, 10)}", "")
                    .startswith("Sweep arm 13: 23.1%")
                    and f"{HERO}:{ts(18, 9)}" not in stored(sessions)
                )
            )
            assert f"{RANDOM}:{ts(19, 11)}" not in stored(sessions)
            assert f"{HERO}:{ts(19, 12)}" not in stored(sessions)

            # Monday 09:00: the scheduler drafts last week and posts it in the review thread.
            await s.core.scheduler.start()
            await s.core.scheduler.shutdown()
            (header,) = fake.messages_in(REVIEW)
            approve, regenerate, discard = header["blocks"][1]["elements"]
            assert [e["action_id"] for e in (approve, regenerate, discard)] == [
                "approve:1",
                "regenerate:1",
                "discard:1",
            ]
            # What cannot be undone carries Slack's confirm dialog: Slack sends the press
            # only once the editor confirms it.
            assert approve["confirm"] == {
                "title": {"type": "plain_text", "text": "Approve?"},
                "text": {
                    "type": "plain_text",
                    "text": "Approve the draft of the week of 2026-11-16 and publish it now? "
                    "Published posts cannot be taken back.",
                },
                "confirm": {"type": "plain_text", "text": "Approve"},
                "deny": {"type": "plain_text", "text": "Cancel"},
                "style": "primary",
            }
            assert discard["style"] == discard["confirm"]["style"] == "danger"
            assert "cannot be approved or published" in discard["confirm"]["text"]["text"]
            assert "confirm" not in regenerate
            (section_message,) = fake.messages_in(REVIEW, thread_ts=header["ts"])
            assert "22.4% MFU" in section_message["text"]
            assert f"/archives/{HERO}/p" in section_message["text"]  # links to the sources

            # An editor edits the section through the modal.
            edit_id = section_message["blocks"][1]["elements"][0]["action_id"]
            assert (
                await s.interact(
                    block_actions(
                        edit_id,
                        user_id="UEDITOR",
                        channel_id=REVIEW,
                        message_ts=section_message["ts"],
                        response_url=fake.response_url(),
                        trigger_id="trig-edit",
                    )
                )
                == 200
            )
            await eventually(lambda: fake.views_opened)
            view = fake.views_opened[0]["view"]
            initial = view["blocks"][0]["element"]["initial_value"]
            assert initial.startswith("- ") and "Ana Ruiz" in initial
            new_text = "Ana and Ben fixed the crash (#9141); the hero run is back at 22.4% MFU."
            values = {
                view["blocks"][0]["block_id"]: {
                    EDIT_ACTION: {"type": "plain_text_input", "value": new_text}
                }
            }
            assert (
                await s.interact(
                    view_submission(
                        "edit_section", view["private_metadata"], values, user_id="UEDITOR"
                    )
                )
                == 200
            )
            await eventually(lambda: new_text in fake.messages_in(REVIEW, header["ts"])[0]["text"])

            # A member's approval is refused; the editor's publishes, pinging nobody.
            url = fake.response_url()
            await s.interact(
                block_actions(
                    "approve:1",
                    user_id="UBEN",
                    channel_id=REVIEW,
                    message_ts=header["ts"],
                    response_url=url,
                )
            )
            await eventually(lambda: url in fake.responses_by_url)
            assert "Only editors" in fake.responses_by_url[url][0]["text"]
            assert fake.messages_in(ANNOUNCE) == []
            await s.interact(
                block_actions(
                    "approve:1",
                    user_id="UEDITOR",
                    channel_id=REVIEW,
                    message_ts=header["ts"],
                    response_url=fake.response_url(),
                )
            )
            await eventually(lambda: fake.messages_in(ANNOUNCE))
            published = "\n".join(m["text"] for m in fake.messages_in(ANNOUNCE))
            assert new_text in published
            assert "<!" not in published and "<@" not in published
            # Publishing records each delivery, then the status, on the database thread.
            await eventually(lambda: draft_status(sessions) == "published")

    asyncio.run(asyncio.wait_for(week(), 30))


def draft_status(sessions) -> str:
    with sessions() as session:
        return list_drafts(session, 1)[0].status


def test_events_over_http_and_socket_mode(sessions, slack_world) -> None:
    async def transports() -> None:
        async with FakeSlack() as fake:
            slack_world(fake)
            s = Slack(fake, sessions)
            await s.enable_hero()

            # The HTTP Events API, as `summarybot run` serves it.
            runner = web.AppRunner(s.bot.web_app(EVENTS_PATH))
            await runner.setup()
            site = web.TCPSite(runner, "127.0.0.1", 0)
            await site.start()
            port = site._server.sockets[0].getsockname()[1]
            try:
                body = event_body(
                    {
                        "type": "message",
                        "channel": HERO,
                        "user": "UANA",
                        "ts": ts(20, 9),
                        "text": "Over HTTP: 1,850 tokens/s/GPU",
                    }
                )
                headers = signed_headers(SECRET, body, content_type="application/json")
                async with (
                    aiohttp.ClientSession() as http,
                    http.post(
                        f"http://127.0.0.1:{port}{EVENTS_PATH}", data=body, headers=headers
                    ) as response,
                ):
                    assert response.status == 200
                await eventually(lambda: f"{HERO}:{ts(20, 9)}" in stored(sessions))
            finally:
                await runner.cleanup()

            # Socket Mode: no signing secret, events and commands come over a websocket.
            handler = AsyncSocketModeHandler(s.bot.app, app_token="xapp-test")
            await handler.connect_async()
            try:
                await fake.wait_connected()
                await fake.send_envelope(
                    "events_api",
                    event_payload(
                        {
                            "type": "message",
                            "channel": HERO,
                            "user": "UBEN",
                            "ts": ts(20, 10),
                            "text": "Over Socket Mode: 3x faster restores",
                        }
                    ),
                )
                await eventually(lambda: f"{HERO}:{ts(20, 10)}" in stored(sessions))
                url = fake.response_url()
                ack = await fake.send_envelope(
                    "slash_commands",
                    command_payload(
                        "/summary", "status", user_id="UBEN", channel_id=HERO, response_url=url
                    ),
                    accepts_response_payload=True,
                )
                assert ack["envelope_id"]
                await eventually(lambda: url in fake.responses_by_url)
                assert "Logging 1 channel;" in fake.responses_by_url[url][0]["text"]
            finally:
                await handler.close_async()

    asyncio.run(asyncio.wait_for(transports(), 30))


def test_retries_integration_posts_and_catching_up_after_downtime(sessions, slack_world) -> None:
    async def scenario() -> None:
        async with FakeSlack() as fake:
            slack_world(fake)
            s = Slack(fake, sessions)
            await s.enable_hero()
            before = len(stored(sessions))

            # Slack redelivers an event it thinks was lost: it is stored once.
            event = {
                "type": "message",
                "channel": HERO,
                "user": "UANA",
                "ts": ts(20, 9),
                "text": "Shard size tuning: 2 GiB files, 3x faster shuffle (#9197)",
            }
            for _ in range(2):
                assert await s.event(event) == 200
            # A classic integration post: no user, the PR only in its attachment.
            await s.event(
                {
                    "type": "message",
                    "subtype": "bot_message",
                    "channel": HERO,
                    "bot_id": "BGITHUB",
                    "username": "GitHub",
                    "ts": ts(20, 10),
                    "text": "",
                    "attachments": [
                        {
                            "fallback": "merged",
                            "text": "Merge pull request #9200 from lab/per-source-thresholds",
                        }
                    ],
                }
            )
            await eventually(lambda: len(stored(sessions)) == before + 2)
            assert "Merge pull request #9200" in stored(sessions)[f"{HERO}:{ts(20, 10)}"]

            # The bot was down while this was said; on start it fetches what it missed.
            fake.history[HERO].insert(
                0,
                {
                    "type": "message",
                    "user": "UBEN",
                    "ts": ts(21, 9),
                    "text": "While you were away: 61.2% on GSM8K",
                },
            )
            calls = len(fake.called("conversations.history"))
            await s.core.catch_up()
            call = fake.called("conversations.history")[calls]
            # From the newest stored (older than the open week's start), with a month before
            # it for thread roots whose replies may be new.
            assert call.params["oldest"] == f"{float(ts(20, 10)) - 30 * 86400:.6f}"
            assert stored(sessions)[f"{HERO}:{ts(21, 9)}"] == "While you were away: 61.2% on GSM8K"

    asyncio.run(asyncio.wait_for(scenario(), 30))


def test_an_event_is_acknowledged_only_once_it_is_stored(
    sessions, slack_world, monkeypatch
) -> None:
    """If storing fails, Slack gets an error and delivers the event again: nothing is lost."""
    from sqlalchemy.exc import OperationalError

    import bot.core.router

    async def scenario() -> None:
        async with FakeSlack() as fake:
            slack_world(fake)
            s = Slack(fake, sessions)
            await s.enable_hero()
            real = Core._store_once

            def down(self, *args):
                raise OperationalError("INSERT", {}, Exception("database restarting"))

            monkeypatch.setattr(bot.core.router, "STORE_BACKOFF_S", 0.001)
            monkeypatch.setattr(Core, "_store_once", down)
            event = {
                "type": "message",
                "channel": HERO,
                "user": "UANA",
                "ts": ts(20, 9),
                "text": "Stored even though the database was down at first (#9300)",
            }
            assert await s.event(event) != 200  # not acknowledged: Slack will retry
            assert f"{HERO}:{ts(20, 9)}" not in stored(sessions)
            monkeypatch.setattr(Core, "_store_once", real)
            assert await s.event(event) == 200  # the retry
            assert f"{HERO}:{ts(20, 9)}" in stored(sessions)

    asyncio.run(asyncio.wait_for(scenario(), 30))
