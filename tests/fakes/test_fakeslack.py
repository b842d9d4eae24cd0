"""The fake Slack works with the real slack_bolt / slack_sdk: signed HTTP requests, Socket Mode,
pagination, rate limits, and the message state the bot leaves behind."""

from __future__ import annotations

import asyncio
import json
import time

import aiohttp
import pytest
from aiohttp import web
from slack_bolt.adapter.socket_mode.aiohttp import AsyncSocketModeHandler
from slack_bolt.async_app import AsyncApp
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.builtin_async_handlers import AsyncRateLimitErrorRetryHandler
from slack_sdk.web.async_client import AsyncWebClient
from slack_sdk.webhook.async_client import AsyncWebhookClient

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

SECRET = "test-signing-secret"
JSON = "application/json"
FORM = "application/x-www-form-urlencoded"


def run(coro, timeout: float = 20):
    """Run one test coroutine with an overall bound."""
    return asyncio.run(asyncio.wait_for(coro, timeout))


def message_event(text: str = "hello", *, user: str = "U1", channel: str = "C1", ts: str) -> dict:
    return {
        "client_msg_id": "0f1d2c3b-0000-4000-8000-000000000001",
        "type": "message",
        "text": text,
        "user": user,
        "ts": ts,
        "team": FakeSlack.TEAM,
        "channel": channel,
        "event_ts": ts,
        "channel_type": "channel",
    }


def make_app(fake: FakeSlack) -> AsyncApp:
    app = AsyncApp(
        client=AsyncWebClient(token="xoxb-test", base_url=fake.url),
        signing_secret=SECRET,
        process_before_response=True,
    )

    @app.event("message")
    async def on_message(event, client):
        await client.chat_postMessage(channel=event["channel"], thread_ts=event["ts"], text="seen")

    @app.command("/summary")
    async def on_summary(ack, command):
        await ack(text=f"ok {command['text']}")

    return app


def signed(body: str, content_type: str = JSON, **kwargs) -> AsyncBoltRequest:
    return AsyncBoltRequest(
        body=body, headers=signed_headers(SECRET, body, content_type=content_type, **kwargs)
    )


# ---- 1. in-process dispatch with real signatures ---------------------------------------------


def test_signed_event_reaches_listener_and_bad_signatures_are_refused():
    async def scenario():
        async with FakeSlack() as fake:
            app = make_app(fake)
            body = event_body(message_event(ts="1763360000.000100"))

            response = await app.async_dispatch(signed(body))
            assert response.status == 200
            [post] = fake.called("chat.postMessage")
            assert post.params["channel"] == "C1"
            assert post.params["thread_ts"] == "1763360000.000100"
            assert post.params["text"] == "seen"
            assert post.token == "xoxb-test"
            assert [c.method for c in fake.calls] == ["auth.test", "chat.postMessage"]

            forged = AsyncBoltRequest(
                body=body, headers=signed_headers("not-the-secret", body, content_type=JSON)
            )
            assert (await app.async_dispatch(forged)).status == 401
            stale = signed(body, timestamp=int(time.time()) - 600)
            assert (await app.async_dispatch(stale)).status == 401
            assert len(fake.called("chat.postMessage")) == 1

            # auth.test's ids drive Bolt's IgnoringSelfEvents: the bot's own message is dropped.
            own = message_event(user=FakeSlack.BOT_USER, ts="1763360000.000200")
            own["bot_id"] = FakeSlack.BOT_ID
            assert (await app.async_dispatch(signed(event_body(own)))).status == 200
            assert len(fake.called("chat.postMessage")) == 1

    run(scenario())


def test_interaction_and_command_payloads_route_in_bolt():
    async def scenario():
        async with FakeSlack() as fake:
            app = make_app(fake)
            opened = []

            @app.action("edit")
            async def on_edit(ack, body, client, action):
                await ack()
                assert action["value"] == "draft-7"
                assert body["container"]["message_ts"] == "1763370000.000100"
                result = await client.views_open(
                    trigger_id=body["trigger_id"],
                    view={
                        "type": "modal",
                        "callback_id": "edit_draft",
                        "private_metadata": action["value"],
                        "title": {"type": "plain_text", "text": "Edit"},
                        "blocks": [],
                    },
                )
                opened.append(result["view"]["id"])

            @app.view("edit_draft")
            async def on_submit(ack, view, body):
                text = view["state"]["values"]["body"]["text"]["value"]
                if not text.strip():
                    await ack(response_action="errors", errors={"body": "empty"})
                    return
                await ack()
                assert view["private_metadata"] == "draft-7"
                assert body["user"]["id"] == "U1"

            @app.command("/review")
            async def on_review(ack, respond, command):
                await ack()
                await respond(text=f"reviewing {command['text']}")

            click = block_actions(
                "edit",
                user_id="U1",
                channel_id="C1",
                message_ts="1763370000.000100",
                response_url=fake.response_url(),
                value="draft-7",
            )
            assert (await app.async_dispatch(signed(interaction_body(click), FORM))).status == 200
            assert opened == ["V1"]
            assert fake.views_opened[0]["trigger_id"] == "trig-1"
            assert fake.views_opened[0]["view"]["callback_id"] == "edit_draft"

            def submit(text: str) -> AsyncBoltRequest:
                values = {"body": {"text": {"type": "plain_text_input", "value": text}}}
                payload = view_submission("edit_draft", "draft-7", values, user_id="U1")
                return signed(interaction_body(payload), FORM)

            rejected = await app.async_dispatch(submit("  "))
            assert rejected.status == 200
            assert json.loads(rejected.body) == {
                "response_action": "errors",
                "errors": {"body": "empty"},
            }
            accepted = await app.async_dispatch(submit("new text"))
            assert (accepted.status, accepted.body) == (200, "")

            url = fake.response_url()
            body = command_body(
                "/review", "this week", user_id="U1", channel_id="C1", response_url=url
            )
            assert (await app.async_dispatch(signed(body, FORM))).status == 200
            assert fake.responses_by_url[url] == [{"text": "reviewing this week"}]

            # A slash command's ack(text=...) comes back as plain text, not JSON.
            body = command_body("/summary", "now", user_id="U1", channel_id="C1", response_url=url)
            response = await app.async_dispatch(signed(body, FORM))
            assert (response.status, response.body) == (200, "ok now")
            assert response.headers["content-type"] == ["text/plain;charset=utf-8"]

    run(scenario())


# ---- 2. over real HTTP --------------------------------------------------------------------------


def test_events_over_http_with_aiohttp_web_app():
    async def scenario():
        async with FakeSlack() as fake:
            app = make_app(fake)
            runner = web.AppRunner(app.web_app(path="/slack/events"), shutdown_timeout=2.0)
            await runner.setup()
            try:
                site = web.TCPSite(runner, "127.0.0.1", 0)
                await site.start()
                port = runner.addresses[0][1]
                endpoint = f"http://127.0.0.1:{port}/slack/events"
                timeout = aiohttp.ClientTimeout(total=5)
                async with aiohttp.ClientSession(timeout=timeout) as http:
                    body = event_body(message_event(ts="1763360000.000300", channel="C9"))
                    headers = signed_headers(SECRET, body, content_type=JSON)
                    async with http.post(endpoint, data=body, headers=headers) as response:
                        assert response.status == 200
                    [post] = fake.called("chat.postMessage")
                    assert post.params["channel"] == "C9"
                    assert post.params["thread_ts"] == "1763360000.000300"

                    challenge = json.dumps(
                        {
                            "token": "verification-token",
                            "challenge": "abc123",
                            "type": "url_verification",
                        }
                    )
                    headers = signed_headers(SECRET, challenge, content_type=JSON)
                    async with http.post(endpoint, data=challenge, headers=headers) as response:
                        assert response.status == 200
                        assert json.loads(await response.text()) == {"challenge": "abc123"}

                    forged = signed_headers("wrong", body, content_type=JSON)
                    async with http.post(endpoint, data=body, headers=forged) as response:
                        assert response.status == 401
            finally:
                await runner.cleanup()

    run(scenario())


# ---- 3. Socket Mode -----------------------------------------------------------------------------


def test_socket_mode_events_and_slash_command_acks():
    async def scenario():
        async with FakeSlack() as fake:
            app = make_app(fake)
            handler = AsyncSocketModeHandler(app, app_token="xapp-test")
            try:
                await asyncio.wait_for(handler.connect_async(), 5)
                await fake.wait_connected()
                [open_call] = fake.called("apps.connections.open")
                assert open_call.token == "xapp-test"

                payload = event_payload(message_event(ts="1763360000.000400", channel="C2"))
                ack = await fake.send_envelope("events_api", payload)
                assert set(ack) == {"envelope_id"}
                # process_before_response=True: the listener ran before the ack was sent.
                [post] = fake.called("chat.postMessage")
                assert (post.params["channel"], post.params["thread_ts"]) == (
                    "C2",
                    "1763360000.000400",
                )

                command = command_payload(
                    "/summary",
                    "#pub",
                    user_id="U1",
                    channel_id="C2",
                    response_url=fake.response_url(),
                )
                ack = await fake.send_envelope(
                    "slash_commands", command, accepts_response_payload=True
                )
                assert ack["payload"] == {"text": "ok #pub"}
                assert "envelope_id" in ack
            finally:
                await asyncio.wait_for(handler.close_async(), 5)
            assert [c.method for c in fake.calls] == [
                "apps.connections.open",
                "auth.test",
                "chat.postMessage",
            ]

    run(scenario())


def test_send_envelope_without_a_client_fails_fast():
    async def scenario():
        async with FakeSlack() as fake:
            with pytest.raises(asyncio.TimeoutError):
                await fake.wait_connected(timeout=0.05)
            with pytest.raises(RuntimeError):
                await fake.send_envelope("events_api", {})

    run(scenario())


# ---- 4. pagination, bounds, rate limits, injected errors ---------------------------------------


def history_of(n: int) -> list[dict]:
    return [
        {"type": "message", "user": "U1", "text": f"m{i}", "ts": f"1763300000.{i:06d}"}
        for i in range(n)
    ]


def test_history_pages_through_a_rate_limit():
    async def scenario():
        async with FakeSlack() as fake:
            fake.history["C1"] = history_of(250)
            fake.rate_limit_next("conversations.history", retry_after=1)
            client = AsyncWebClient(
                token="xoxb-test",
                base_url=fake.url,
                retry_handlers=[AsyncRateLimitErrorRetryHandler(max_retry_count=2)],
            )
            started = time.monotonic()
            messages, pages, cursor = [], 0, None
            for _ in range(10):
                page = await client.conversations_history(channel="C1", limit=100, cursor=cursor)
                pages += 1
                messages += page["messages"]
                cursor = page["response_metadata"]["next_cursor"]
                if not cursor:
                    break
            elapsed = time.monotonic() - started

            assert pages == 3
            assert len(fake.called("conversations.history")) == 4  # 3 pages + one 429
            assert 1 <= elapsed < 5
            assert [m["text"] for m in messages] == [f"m{i}" for i in reversed(range(250))]
            assert page["has_more"] is False

    run(scenario())


def test_history_bounds_are_exclusive_and_replies_start_at_the_root():
    async def scenario():
        async with FakeSlack() as fake:
            fake.history["C1"] = history_of(30)
            client = AsyncWebClient(token="xoxb-test", base_url=fake.url)
            page = await client.conversations_history(
                channel="C1", oldest="1763300000.000009", latest="1763300000.000020"
            )
            assert [m["text"] for m in page["messages"]] == [f"m{i}" for i in range(19, 9, -1)]
            page = await client.conversations_history(
                channel="C1", oldest="1763300000.000009", latest="1763300000.000020", inclusive=True
            )
            assert len(page["messages"]) == 12

            root = "1763300000.000001"
            fake.replies[("C1", root)] = [
                {"type": "message", "user": "U2", "text": f"r{i}", "ts": f"1763300001.{i:06d}"}
                for i in range(4, 0, -1)
            ] + [{"type": "message", "user": "U1", "text": "root", "ts": root, "thread_ts": root}]
            texts, cursor = [], None
            for _ in range(5):
                page = await client.conversations_replies(
                    channel="C1", ts=root, limit=2, cursor=cursor
                )
                texts += [m["text"] for m in page["messages"]]
                cursor = page["response_metadata"]["next_cursor"]
                if not cursor:
                    break
            assert texts == ["root", "r1", "r2", "r3", "r4"]
            # `ts` may also name a reply, as in Slack; the whole thread comes back.
            page = await client.conversations_replies(channel="C1", ts="1763300001.000002")
            assert len(page["messages"]) == 5

            # slack_sdk's own pager (`async for page in await ...`) follows next_cursor.
            texts = []
            async for page in await client.conversations_history(channel="C1", limit=7):
                texts += [m["text"] for m in page["messages"]]
            assert texts == [f"m{i}" for i in reversed(range(30))]
            assert len(fake.called("conversations.history")) == 2 + 5

            with pytest.raises(SlackApiError) as bad_cursor:
                await client.conversations_history(channel="C1", cursor="garbage")
            assert bad_cursor.value.response["error"] == "invalid_cursor"

            with pytest.raises(SlackApiError) as missing:
                await client.conversations_history(channel="C404")
            assert missing.value.response["error"] == "channel_not_found"

    run(scenario())


def test_injected_failures_and_token_checks():
    async def scenario():
        async with FakeSlack() as fake:
            client = AsyncWebClient(token="xoxb-test", base_url=fake.url)  # no retry handler
            fake.rate_limit_next("chat.postMessage", retry_after=7)
            with pytest.raises(SlackApiError) as limited:
                await client.chat_postMessage(channel="C1", text="x")
            assert limited.value.response.status_code == 429
            assert limited.value.response["error"] == "ratelimited"
            assert limited.value.response.headers["Retry-After"] == "7"

            fake.fail_next("chat.postMessage", "is_archived")
            with pytest.raises(SlackApiError) as archived:
                await client.chat_postMessage(channel="C1", text="x")
            assert archived.value.response["error"] == "is_archived"

            assert (await client.chat_postMessage(channel="C1", text="x"))["ok"] is True
            assert len(fake.called("chat.postMessage")) == 3
            assert len(fake.posted) == 1

            with pytest.raises(SlackApiError) as wrong:
                await client.apps_connections_open(app_token="xoxb-test")
            assert wrong.value.response["error"] == "not_allowed_token_type"
            with pytest.raises(SlackApiError) as anonymous:
                await AsyncWebClient(base_url=fake.url).auth_test()
            assert anonymous.value.response["error"] == "not_authed"

    run(scenario())


# ---- 5. what the bot posted -------------------------------------------------------------------


def test_posted_messages_updates_views_ephemeral_and_response_urls():
    async def scenario():
        async with FakeSlack() as fake:
            fake.add_user("U1", "Ada Lovelace", admin=True)
            fake.add_channel("C1", "general")
            client = AsyncWebClient(token="xoxb-test", base_url=fake.url)

            blocks = [{"type": "section", "text": {"type": "mrkdwn", "text": "draft v1"}}]
            first = await client.chat_postMessage(channel="C1", text="draft v1", blocks=blocks)
            assert first["ts"] == "1763370000.000100"
            assert first["message"]["user"] == FakeSlack.BOT_USER
            reply = await client.chat_postMessage(channel="C1", thread_ts=first["ts"], text="r")
            assert float(reply["ts"]) > float(first["ts"])

            updated = await client.chat_update(channel="C1", ts=first["ts"], text="draft v2")
            assert updated["ok"] is True
            [top] = fake.messages_in("C1")
            assert (top["text"], top["blocks"]) == ("draft v2", blocks)
            assert [m["text"] for m in fake.messages_in("C1", first["ts"])] == ["r"]
            with pytest.raises(SlackApiError) as missing:
                await client.chat_update(channel="C1", ts="1.000000", text="nope")
            assert missing.value.response["error"] == "message_not_found"

            link = await client.chat_getPermalink(channel="C1", message_ts=first["ts"])
            assert link["permalink"] == "https://lab.slack.com/archives/C1/p1763370000000100"

            view = {"type": "modal", "title": {"type": "plain_text", "text": "Edit"}, "blocks": []}
            opened = await client.views_open(trigger_id="trig-9", view=view)
            assert opened["view"]["id"] == "V1"
            assert fake.views_opened == [{"trigger_id": "trig-9", "view": view}]

            await client.chat_postEphemeral(channel="C1", user="U1", text="only you")
            assert fake.ephemeral == [
                {"channel": "C1", "user": "U1", "text": "only you", "blocks": None}
            ]

            # Form-encoded calls with JSON-string fields are decoded too.
            await client.api_call(
                "chat.postMessage", data={"channel": "C1", "blocks": json.dumps(blocks)}
            )
            assert fake.posted[-1]["blocks"] == blocks

            url = fake.response_url()
            sent = await AsyncWebhookClient(url).send(text="done", replace_original=True)
            assert (sent.status_code, sent.body) == (200, "ok")
            assert fake.responses == [{"text": "done", "replace_original": True}]

            user = (await client.users_info(user="U1"))["user"]
            assert user["is_admin"] is True
            assert user["profile"]["real_name"] == "Ada Lovelace"
            channel = (await client.conversations_info(channel="C1"))["channel"]
            assert channel["name"] == "general"
            assert (await client.bots_info(bot="B0GH"))["bot"]["name"] == "github"
            assert (await client.conversations_join(channel="C1"))["ok"] is True
            assert (await client.reactions_add(channel="C1", timestamp="1.0", name="x"))["ok"]

    run(scenario())


def test_user_groups_and_their_members():
    async def scenario():
        async with FakeSlack() as fake:
            fake.add_usergroup("S1", "editors", "Editors", ["U1", "U2"])
            client = AsyncWebClient(token="xoxb-test", base_url=fake.url)

            listed = await client.usergroups_list()
            assert [(g["id"], g["handle"]) for g in listed["usergroups"]] == [("S1", "editors")]
            assert "users" not in listed["usergroups"][0]
            with_users = await client.usergroups_list(include_users=True)
            assert with_users["usergroups"][0]["users"] == ["U1", "U2"]
            assert (await client.usergroups_users_list(usergroup="S1"))["users"] == ["U1", "U2"]
            with pytest.raises(SlackApiError) as missing:
                await client.usergroups_users_list(usergroup="S404")
            assert missing.value.response["error"] == "no_such_subteam"

    run(scenario())


def test_conversations_list_pages_by_type_and_skips_archived_channels():
    async def main():
        async with FakeSlack() as fake:
            for n in range(5):
                fake.add_channel(f"C{n}", f"public-{n}")
            fake.add_channel("G1", "secret", private=True)
            fake.add_channel("C9", "old", archived=True)
            client = AsyncWebClient(token="xoxb-test", base_url=fake.url)

            async def names(**params) -> list[str]:
                found = []
                async for page in await client.conversations_list(limit=2, **params):
                    found += [c["name"] for c in page["channels"]]
                return found

            assert await names() == [f"public-{n}" for n in range(5)] + ["old"]
            both = await names(types="public_channel,private_channel", exclude_archived=True)
            assert both == [f"public-{n}" for n in range(5)] + ["secret"]
            assert len(fake.called("conversations.list")) == 3 + 3  # pages of two
            assert fake.called("conversations.list")[-1].params["cursor"]

    run(main())
