"""A workspace's events stay its own: signed requests for another team or another app (as
Slack sends when the app is installed in several workspaces, or request URLs are shared)
store nothing and are counted, over HTTP and through Bolt as Socket Mode dispatches; and a
redelivered event is counted once. Real HTTP to the bot's aiohttp app on 127.0.0.1, its Web
API client pointed at the fake Slack."""

from __future__ import annotations

import asyncio
import json
import uuid

import aiohttp
from slack_bolt.request.async_request import AsyncBoltRequest

from bot.core import metrics
from tests.fakes.fakeslack import FakeSlack, command_body, event_body, event_payload, signed_headers
from tests.slack.test_events_path import message, served
from tests.slack.test_week import HERO, SECRET, Slack, slack_world, ts  # noqa: F401
from tests.support.waiting import stored

FOREIGN = "T0OTHER"


def foreign() -> float:
    return (
        metrics.REGISTRY.get_sample_value("summarybot_foreign_events_total", {"platform": "slack"})
        or 0.0
    )


def received(kind: str) -> float:
    labels = {"platform": "slack", "kind": kind}
    return metrics.REGISTRY.get_sample_value("summarybot_events_received_total", labels) or 0.0


async def post(url: str, body: str, **headers: str) -> int:
    signed = signed_headers(SECRET, body, content_type="application/json") | headers
    async with aiohttp.ClientSession() as http, http.post(url, data=body, headers=signed) as got:
        return got.status


def edit(hour: int, of: str, text: str) -> dict:
    return {
        "type": "message",
        "subtype": "message_changed",
        "channel": HERO,
        "hidden": True,
        "ts": ts(20, hour),
        "message": {"type": "message", "user": "UANA", "ts": of, "text": text},
    }


def delete(hour: int, of: str) -> dict:
    return {
        "type": "message",
        "subtype": "message_deleted",
        "channel": HERO,
        "hidden": True,
        "ts": ts(20, hour),
        "deleted_ts": of,
    }


def test_another_team_s_message_edit_and_delete_store_nothing(sessions, slack_world) -> None:  # noqa: F811
    async def scenario() -> None:
        async with FakeSlack() as fake:
            slack_world(fake)
            s = Slack(fake, sessions)
            await s.enable_hero()
            async with served(s) as url:
                own = message(9, "Eval at 71.2% after #9300")
                assert await post(url, event_body(own)) == 200
                key = f"{HERO}:{own['ts']}"
                before, refused = stored(sessions), foreign()
                assert before[key] == "Eval at 71.2% after #9300"

                for event in (
                    message(10, "Another team's message"),
                    edit(11, own["ts"], "Rewritten by another team"),
                    delete(12, own["ts"]),
                ):
                    assert await post(url, event_body(event, team=FOREIGN)) == 200
                # Another app signed with the same secret (or sharing the request URL).
                other_app = event_payload(message(13, "Another app's message"))
                other_app["api_app_id"] = "A0OTHER"
                assert await post(url, json.dumps(other_app)) == 200
                assert stored(sessions) == before
                assert foreign() == refused + 4

                # This team's edit and delete still apply, on Bolt's path.
                assert await post(url, event_body(edit(14, own["ts"], "Eval at 71.4%"))) == 200
                assert stored(sessions)[key] == "Eval at 71.4%"
                assert await post(url, event_body(delete(15, own["ts"]))) == 200
                assert key not in stored(sessions)
                assert foreign() == refused + 4

    asyncio.run(asyncio.wait_for(scenario(), 30))


def test_another_team_s_events_and_commands_are_refused_in_socket_mode_too(
    sessions,
    slack_world,  # noqa: F811
) -> None:
    """Socket Mode hands each envelope to Bolt's dispatch, where the check lives."""

    async def scenario() -> None:
        async with FakeSlack() as fake:
            slack_world(fake)
            s = Slack(fake, sessions)
            await s.enable_hero()
            refused = foreign()
            event = event_payload(message(10, "Another team's message"), team=FOREIGN)
            response = await s.bot.app.async_dispatch(
                AsyncBoltRequest(body=event, mode="socket_mode")
            )
            assert response.status == 200
            url = fake.response_url()
            command = command_body(
                "/summary",
                "status",
                user_id="UADMIN",
                channel_id=HERO,
                response_url=url,
                team_id=FOREIGN,
            )
            assert await s.send(command, "application/x-www-form-urlencoded") == 200
            await asyncio.sleep(0.1)  # a lazy listener would have answered by now
            assert url not in fake.responses_by_url
            assert f"{HERO}:{ts(20, 10)}" not in stored(sessions)
            assert foreign() == refused + 2

    asyncio.run(asyncio.wait_for(scenario(), 30))


def test_a_redelivered_event_is_stored_and_counted_once(sessions, slack_world) -> None:  # noqa: F811
    async def scenario() -> None:
        async with FakeSlack() as fake:
            slack_world(fake)
            s = Slack(fake, sessions)
            await s.enable_hero()
            async with served(s) as url:
                first = message(9, "Delivered twice (#9301)")
                body = event_body(first, event_id=f"Ev{uuid.uuid4().hex}")
                changed = event_body(edit(10, first["ts"], "Edited, delivered twice"))
                counted = received("message"), received("edit")
                assert await post(url, body) == 200
                assert await post(url, body, **{"X-Slack-Retry-Num": "1"}) == 200
                assert await post(url, changed) == 200
                assert await post(url, changed, **{"X-Slack-Retry-Num": "2"}) == 200
                assert stored(sessions)[f"{HERO}:{first['ts']}"] == "Edited, delivered twice"
                assert (received("message"), received("edit")) == (
                    counted[0] + 1,
                    counted[1] + 1,
                )
                # Another event is counted, of course.
                assert await post(url, event_body(message(11, "A new one"))) == 200
                assert received("message") == counted[0] + 2

    asyncio.run(asyncio.wait_for(scenario(), 30))
