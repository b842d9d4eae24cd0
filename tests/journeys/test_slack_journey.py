"""The operator's journey on Slack: `summarybot run` as a process, over Socket Mode, against
the fake Slack on 127.0.0.1 (the real slack_bolt and slack_sdk inside). First start with
nothing set; set-up with channels typed by name; a week of chat with an edit and a delete;
a restart that catches up; the review thread; approval; the summary published without
pinging anyone; SIGTERM."""

from __future__ import annotations

import asyncio

from storage.drafts import list_drafts
from tests.fakes.fakeslack import FakeSlack, block_actions, command_payload, event_payload
from tests.journeys.helpers import during, environment, this_week
from tests.support.process import BotProcess
from tests.support.waiting import eventually, stored

HERO, REVIEW, ANNOUNCE = "C0HERO", "C0REVIEW", "C0ANNOUNCE"
WAIT_S = 45  # a ceiling, not a timing: a loaded 2-core machine starts the bot slowly


def ts(moment) -> str:
    return f"{moment.timestamp():.6f}"


def message(user: str, at: str, text: str, **extra) -> dict:
    return {"type": "message", "user": user, "ts": at, "text": text, **extra}


def test_the_operator_s_journey_on_slack(tmp_path, database_url, sessions) -> None:
    async def journey() -> None:
        async with FakeSlack() as fake:
            fake.add_user("UADMIN", "Ada Admin", admin=True)
            fake.add_user("UEDITOR", "Eve Editor")
            fake.add_user("UANA", "Ana Ruiz")
            fake.add_user("UBEN", "Ben Cho")
            for channel, name in (
                (HERO, "hero-run"),
                (REVIEW, "summary-review"),
                (ANNOUNCE, "announcements"),
            ):
                fake.add_channel(channel, name)
            root_ts = ts(during(0.1))
            root = message("UANA", root_ts, "Hero run crashed at step 2318; fix in #9141")
            root.update(thread_ts=root_ts, reply_count=1, latest_reply=ts(during(0.2)))
            reply = message(
                "UBEN",
                ts(during(0.2)),
                "With #9141 we are back at 22.4% MFU and 243k tokens/s",
                thread_ts=root_ts,
            )
            fake.history[HERO] = [root]
            fake.replies[(HERO, root_ts)] = [root, reply]
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

            # First start, nothing set: the bot connects and answers.
            await bot.start()
            try:
                await fake.wait_connected(WAIT_S)
                status = await command("status")
                assert "Logging 0 channels" in status
                # What is still to set up, each with the command that does it.
                assert "- channels to log: `/summary channels add #channel`" in status

                # Set-up, channels typed by name (plain text, not picked from the list).
                assert "was not found" in await command("channels add #nowhere")
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

                # A week of chat: a new message, its edit, a mistake deleted, a broadcast.
                sweep = ts(during(0.3))
                await event(message("UANA", sweep, "Sweep arm 13: 23.0% MFU, PR #9156"))
                await event(
                    {
                        "type": "message",
                        "subtype": "message_changed",
                        "hidden": True,
                        "ts": ts(during(0.4)),
                        "message": message(
                            "UANA",
                            sweep,
                            "Sweep arm 13: 23.1% MFU, PR #9156",
                            edited={"user": "UANA", "ts": ts(during(0.4))},
                        ),
                    }
                )
                wrong = ts(during(0.5))
                await event(message("UBEN", wrong, "Hero run at 99% MFU (typo)"))
                await event(
                    {
                        "type": "message",
                        "subtype": "message_deleted",
                        "hidden": True,
                        "ts": ts(during(0.6)),
                        "deleted_ts": wrong,
                    }
                )
                await event(
                    message(
                        "UBEN", ts(during(0.7)), "<!channel> checkpoints 3.5x faster after #9123"
                    )
                )
                await eventually(
                    lambda: (
                        "23.1%" in stored(sessions).get(f"{HERO}:{sweep}", "")
                        and f"{HERO}:{wrong}" not in stored(sessions)
                    ),
                    WAIT_S,
                )
            finally:
                assert await bot.stop() == 0, bot.output()[-3000:]

            # While the bot is down, the chat goes on; the restart catches up.
            fake.history[HERO].insert(
                0, message("UBEN", ts(during(0.9)), "While the bot was down: 61.2% on GSM8K")
            )
            await bot.start()
            try:
                await fake.wait_connected(WAIT_S)
                await eventually(lambda: "61.2%" in str(stored(sessions)), WAIT_S)
                # The editor drafts the week: it is posted in the review thread (after the
                # quiet last week, drafted by the first start's catch-up before anything was
                # logged).
                # The week has not ended: the bot says so, and drafts it once confirmed.
                told = await command(f"draft {this_week()}", "UEDITOR")
                assert "has not ended" in told and "Nothing was drafted." in told
                assert len(fake.messages_in(REVIEW)) == 1
                await command(f"draft {this_week()} --open", "UEDITOR")
                await eventually(lambda: len(fake.messages_in(REVIEW)) == 2, WAIT_S)
                quiet, header = fake.messages_in(REVIEW)
                assert "quiet" in quiet["text"]
                buttons = [e["action_id"] for e in header["blocks"][1]["elements"]]
                approve = next(b for b in buttons if b.startswith("approve:"))
                sections = fake.messages_in(REVIEW, thread_ts=header["ts"])
                review = "\n".join(s["text"] for s in sections)
                assert "22.4% MFU" in review and "99%" not in review, review

                # The editor approves; it is published, pinging nobody.
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
                await eventually(lambda: fake.messages_in(ANNOUNCE), WAIT_S)
                await eventually(lambda: draft_status(sessions) == "published", WAIT_S)
                published = "\n".join(m["text"] for m in fake.messages_in(ANNOUNCE))
                assert "22.4% MFU" in published
                assert "<!" not in published and "<@" not in published
            finally:
                assert await bot.stop() == 0, bot.output()[-3000:]
            assert "stopped cleanly" in bot.output()

    asyncio.run(asyncio.wait_for(journey(), 240))


def draft_status(sessions) -> str:
    with sessions() as session:
        return list_drafts(session)[0].status  # the newest week's
