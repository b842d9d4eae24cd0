"""A member's news reaching the published summary: `summarybot run` as a process over Socket
Mode against the fake Slack on 127.0.0.1. Ben marks Ana's message with 📰 and sends news of
his own with `/summary news`; the editor drafts the week, and approving publishes both, each
saying who sent it in."""

from __future__ import annotations

import asyncio

from tests.fakes.fakeslack import FakeSlack, block_actions, command_payload, event_payload
from tests.journeys.helpers import during, environment, this_week
from tests.journeys.test_slack_journey import ANNOUNCE, HERO, REVIEW, WAIT_S, draft_status, ts
from tests.support.process import BotProcess
from tests.support.waiting import eventually, stored, submissions

MARKED = "The data pipeline now dedups 1.2B documents in 40 minutes"
SENT = "Iris preempts jobs by priority from Friday, see #9200"


def test_a_member_s_news_reaches_the_published_summary(tmp_path, database_url, sessions) -> None:
    async def journey() -> None:
        async with FakeSlack() as fake:
            for user, name, admin in (
                ("UADMIN", "Ada Admin", True),
                ("UEDITOR", "Eve Editor", False),
                ("UANA", "Ana Ruiz", False),
                ("UBEN", "Ben Cho", False),
            ):
                fake.add_user(user, name, admin=admin)
            for channel, name in (
                (HERO, "hero-run"),
                (REVIEW, "summary-review"),
                (ANNOUNCE, "announcements"),
            ):
                fake.add_channel(channel, name)
            env = environment(
                database_url,
                SLACK_BOT_TOKEN="xoxb-test",
                SLACK_APP_TOKEN="xapp-test",
                SLACK_API_URL=fake.url,
            )
            bot = BotProcess(tmp_path, env)

            async def command(text: str, user: str = "UADMIN") -> str:
                url = fake.response_url()
                payload = command_payload(
                    "/summary", text, user_id=user, channel_id=HERO, response_url=url
                )
                await fake.send_envelope("slash_commands", payload, accepts_response_payload=True)
                await eventually(lambda: url in fake.responses_by_url, WAIT_S)
                return fake.responses_by_url[url][-1]["text"]

            async def event(event: dict) -> None:
                await fake.send_envelope("events_api", event_payload({"channel": HERO, **event}))

            await bot.start()
            try:
                await fake.wait_connected(WAIT_S)
                for text in (
                    "channels add #hero-run",
                    "review-channel #summary-review",
                    "publish add #announcements",
                    "editors add <@UEDITOR>",
                ):
                    answer = await command(text)
                    assert "Only" not in answer and "not found" not in answer, answer
                await eventually(
                    lambda: any("stored since" in m["text"] for m in fake.ephemeral),
                    WAIT_S,
                )

                # Ana posts; Ben marks her post as news and sends news of his own.
                marked = ts(during(0.3))
                await event({"type": "message", "user": "UANA", "ts": marked, "text": MARKED})
                await eventually(lambda: f"{HERO}:{marked}" in stored(sessions), WAIT_S)
                await event(
                    {
                        "type": "reaction_added",
                        "user": "UBEN",
                        "reaction": "newspaper",
                        "item_user": "UANA",
                        "item": {"type": "message", "channel": HERO, "ts": marked},
                        "event_ts": ts(during(0.4)),
                    }
                )
                assert (await command(f"news {SENT}", "UBEN")).startswith("Thanks")
                await eventually(lambda: len(submissions(sessions)) == 2, WAIT_S)

                # The editor drafts the week: both are in the review thread.
                await command(f"draft {this_week()} --open", "UEDITOR")
                await eventually(lambda: len(fake.messages_in(REVIEW)) == 2, WAIT_S)
                header = fake.messages_in(REVIEW)[-1]
                buttons = [e["action_id"] for e in header["blocks"][1]["elements"]]
                approve = next(b for b in buttons if b.startswith("approve:"))
                await fake.send_envelope(
                    "interactive",
                    block_actions(
                        approve,
                        user_id="UEDITOR",
                        channel_id=REVIEW,
                        message_ts=header["ts"],
                        response_url=fake.response_url(),
                    ),
                )
                await eventually(lambda: draft_status(sessions) == "published", WAIT_S)
                published = "\n".join(m["text"] for m in fake.messages_in(ANNOUNCE))
                assert f"{MARKED} (Ana Ruiz) (sent in by Ben Cho)" in published, published
                assert "preempts jobs by priority from Friday" in published
                assert published.count("(sent in by Ben Cho)") == 2, published
            finally:
                assert await bot.stop() == 0, bot.output()[-3000:]

    asyncio.run(asyncio.wait_for(journey(), 240))
