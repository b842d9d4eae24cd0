"""The Slack adapter's error boundary: a command, button or edit modal whose handling fails
is answered privately with the id the failure is logged under (Bolt's lazy listeners would
otherwise fail silently), and a message event that cannot be stored is still answered 500,
so Slack delivers it again. Through the real Bolt app against the fake Slack."""

from __future__ import annotations

import asyncio
import json
import logging
import re

import pytest
from slack_bolt.request.async_request import AsyncBoltRequest

from bot.ops.env import Environment
from bot.slack.app import SlackBot
from bot.slack.port import EDIT_ACTION, EDIT_BLOCK, EDIT_CALLBACK
from bot.slack.run import slack_client
from tests.fakes.fakeslack import (
    FakeSlack,
    block_actions,
    interaction_body,
    signed_headers,
    view_submission,
)
from tests.slack.test_week import HERO, SECRET, Slack, ts
from tests.support.waiting import eventually


async def broken(*args: object) -> None:
    raise RuntimeError("the database is on fire")


def incident_of(text: str, caplog: pytest.LogCaptureFixture) -> str:
    """The id the answer gives, which the log names beside the error."""
    match = re.search(r"That failed; it is logged as ([0-9a-f]{8})\.", text)
    assert match, text
    (record,) = [r for r in caplog.records if match[1] in r.getMessage()]
    assert record.levelno == logging.ERROR and "on fire" in str(record.exc_info[1])
    caplog.clear()
    return match[1]


def test_a_failing_command_button_or_modal_is_answered_with_its_id(
    sessions, monkeypatch, caplog
) -> None:
    async def scenario() -> None:
        async with FakeSlack() as fake:
            fake.add_user("UADMIN", "Ada Admin", admin=True)
            fake.add_channel(HERO, "hero-run")
            s = Slack(fake, sessions)
            monkeypatch.setattr(s.core, "on_command", broken)
            monkeypatch.setattr(s.core, "on_button", broken)
            monkeypatch.setattr(s.core, "on_editor_submit", broken)
            monkeypatch.setattr(s.core, "on_message", broken)

            reply = await s.command("UADMIN", "status")
            assert reply["response_type"] == "ephemeral"
            first = incident_of(reply["text"], caplog)

            url = fake.response_url()
            pressed = block_actions(
                "approve:1",
                user_id="UADMIN",
                channel_id=HERO,
                message_ts=ts(18, 9),
                response_url=url,
            )
            assert await s.interact(pressed) == 200
            await eventually(lambda: url in fake.responses_by_url)
            (answer,) = fake.responses_by_url[url]
            assert answer["response_type"] == "ephemeral"
            assert incident_of(answer["text"], caplog) != first

            values = {
                f"{EDIT_BLOCK}_0": {EDIT_ACTION: {"type": "plain_text_input", "value": "New"}}
            }
            submit = view_submission(EDIT_CALLBACK, "1", values, user_id="UADMIN")
            body = interaction_body(submit)
            headers = signed_headers(SECRET, body, content_type="application/x-www-form-urlencoded")
            request = AsyncBoltRequest(body=body, headers={k: [v] for k, v in headers.items()})
            response = await s.bot.app.async_dispatch(request)
            assert response.status == 200  # the modal stays open, saying why
            incident_of(json.loads(response.body)["errors"][f"{EDIT_BLOCK}_0"], caplog)

            message = {"type": "message", "channel": HERO, "user": "UADMIN", "ts": ts(18, 10)}
            assert await s.event(dict(message, text="Stored?")) == 500  # delivered again
            assert "logged as" in caplog.text and "on fire" in caplog.text

    asyncio.run(asyncio.wait_for(scenario(), 30))


def test_starting_does_not_warn_about_the_token(monkeypatch, caplog) -> None:
    """Bolt warns "`token` will be unused" when SLACK_BOT_TOKEN is set and a client is
    given, as `summarybot run` does on every start (issue 23); its other warnings stay."""
    monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-test")
    client = slack_client(Environment(slack_bot_token="xoxb-test"))
    with caplog.at_level(logging.WARNING):
        bot = SlackBot(lambda outbound: None, client, signing_secret=SECRET)  # type: ignore[arg-type, return-value]
        bot.app.logger.warning("another warning")
    assert "will be unused" not in caplog.text
    assert "another warning" in caplog.text
