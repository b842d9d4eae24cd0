"""The operator's journey on Discord: `summarybot run` as a process against the fake Discord
on 127.0.0.1 (gateway and REST; the real discord.py inside). First start with nothing set;
set-up with the native pickers of `/summary-admin`; a week of chat with an edit and a
delete; a restart that reconciles what changed while it was down; the review thread;
approval; the summary published without pinging anyone; SIGTERM."""

from __future__ import annotations

import asyncio

from tests.discord.test_week import ADMIN, ANA, BEN, EDITOR, HERO, OPTION_TYPES, populate
from tests.fakes.fakediscord import FakeDiscord
from tests.journeys.helpers import during, environment, this_week
from tests.journeys.test_slack_journey import WAIT_S, draft_status
from tests.support.process import BotProcess
from tests.support.waiting import eventually, stored

REVIEW, ANNOUNCE = "1300000000000000002", "1300000000000000003"


async def slash(fake: FakeDiscord, user: str, command: str, *path: str, **values: str) -> str:
    """/`command` `path...` option:value...; the text of the deferred answer."""
    leaf = [{"name": k, "type": OPTION_TYPES.get(k, 3), "value": v} for k, v in values.items()]
    options = [{"name": path[-1], "type": 1, "options": leaf}]
    for group in reversed(path[:-1]):
        options = [{"name": group, "type": 2, "options": options}]
    await fake.interact(
        fake.slash(command, options), type_=2, user_id=user, channel_id=HERO, timeout=WAIT_S
    )
    (followup,) = await fake.followups(timeout=WAIT_S)
    return followup["body"]["content"]


def test_the_operator_s_journey_on_discord(tmp_path, database_url, sessions) -> None:
    async def journey() -> None:
        async with FakeDiscord() as fake:
            populate(fake)
            fake.history[HERO] = [
                fake.message(
                    HERO, ANA, "Hero run crashed at step 2318; fix in #9141", timestamp=during(0.1)
                ),
                fake.message(
                    HERO,
                    BEN,
                    "With #9141 we are back at 22.4% MFU and 243k tokens/s",
                    timestamp=during(0.2),
                ),
            ]
            env = environment(
                database_url,
                DISCORD_TOKEN="fake.token",
                DISCORD_API_URL=fake.api_base,
                DISCORD_GATEWAY_URL=fake.gateway_url,
            )
            bot = BotProcess(tmp_path, env)

            # First start, nothing set: the commands are synced once, the bot answers.
            await bot.start()
            try:
                await fake.wait_ready(WAIT_S)
                await eventually(lambda: fake.commands_synced, WAIT_S)
                status = await slash(fake, ADMIN, "summary", "status")
                assert "Logging 0 channels" in status
                # What is still to set up, each with the command that does it.
                assert "- a review channel: `/summary review-channel #channel`" in status

                # Set-up with the pickers.
                for path, values in (
                    (("channels", "add"), {"channel": HERO}),
                    (("review-channel",), {"channel": REVIEW}),
                    (("publish", "add"), {"channel": ANNOUNCE}),
                    (("editors", "add"), {"member": EDITOR}),
                ):
                    answer = await slash(fake, ADMIN, "summary-admin", *path, **values)
                    assert "Only" not in answer, answer
                await eventually(
                    lambda: any("stored since" in m["content"] for m in fake.dms(ADMIN)), WAIT_S
                )

                # A week of chat: a message, its edit, a mistake deleted, an @everyone.
                sweep = fake.message(
                    HERO, ANA, "Sweep arm 13: 23.0% MFU, PR #9156", timestamp=during(0.3)
                )
                wrong = fake.message(HERO, BEN, "Hero run at 99% MFU (typo)", timestamp=during(0.4))
                loud = fake.message(
                    HERO,
                    BEN,
                    "@everyone checkpoints 3.5x faster after #9123",
                    timestamp=during(0.5),
                )
                for message in (sweep, wrong, loud):
                    fake.history[HERO].append(message)
                    await fake.dispatch("MESSAGE_CREATE", message)
                sweep.update(
                    content="Sweep arm 13: 23.1% MFU, PR #9156",
                    edited_timestamp=during(0.6).isoformat(),
                )
                await fake.dispatch("MESSAGE_UPDATE", sweep)
                fake.history[HERO].remove(wrong)
                await fake.dispatch(
                    "MESSAGE_DELETE",
                    {"id": wrong["id"], "channel_id": HERO, "guild_id": fake.GUILD_ID},
                )
                await eventually(
                    lambda: (
                        "23.1%" in stored(sessions).get(sweep["id"], "")
                        and wrong["id"] not in stored(sessions)
                    ),
                    WAIT_S,
                )
            finally:
                assert await bot.stop() == 0, bot.output()[-3000:]

            # While the bot is down: a new message, and the @everyone one deleted.
            late = fake.message(
                HERO, BEN, "While the bot was down: 61.2% on GSM8K", timestamp=during(0.8)
            )
            fake.history[HERO].append(late)
            fake.history[HERO].remove(loud)
            await bot.start()
            try:
                await eventually(
                    lambda: late["id"] in stored(sessions) and loud["id"] not in stored(sessions),
                    WAIT_S,
                )
                # The editor drafts the week; it is posted in the review thread (after the
                # quiet last week the first start's catch-up drafted).
                # The week has not ended: the bot says so, and drafts it once confirmed.
                told = await slash(fake, EDITOR, "summary", "draft", week=str(this_week()))
                assert "has not ended" in told and "Nothing was drafted." in told
                assert len(fake.sent(REVIEW)) == 1
                await slash(fake, EDITOR, "summary", "draft", week=str(this_week()), open=True)
                await eventually(lambda: len(fake.sent(REVIEW)) == 2, WAIT_S)
                quiet, header = fake.sent(REVIEW)
                assert "quiet" in quiet["content"]
                approve = next(
                    c["custom_id"]
                    for c in header["components"][0]["components"]
                    if c["custom_id"].startswith("ask:approve:")
                )
                review = "\n".join(m["content"] for m in fake.sent(header["id"]))
                assert "22.4% MFU" in review and "99%" not in review, review

                # The editor approves and confirms; it is published, pinging nobody.
                await fake.interact(
                    fake.button(approve), type_=3, user_id=EDITOR, channel_id=REVIEW, message=header
                )
                (asked,) = await fake.followups()
                assert not fake.sent(ANNOUNCE)
                (confirm, _) = asked["body"]["components"][0]["components"]
                await fake.interact(
                    fake.button(confirm["custom_id"]), type_=3, user_id=EDITOR, channel_id=REVIEW
                )
                await eventually(lambda: fake.sent(ANNOUNCE), WAIT_S)
                await eventually(lambda: draft_status(sessions) == "published", WAIT_S)
                published = fake.sent(ANNOUNCE)
                assert all(m["allowed_mentions"] == {"parse": []} for m in published)
                assert all(not m["mention_everyone"] and not m["mentions"] for m in published)
                assert "22.4% MFU" in "\n".join(m["content"] for m in published)
            finally:
                assert await bot.stop() == 0, bot.output()[-3000:]
            assert "stopped cleanly" in bot.output()

    asyncio.run(asyncio.wait_for(journey(), 240))
