"""Members' news on Slack, through the real Bolt app with its client on the fake Slack: the
📰 reaction (`reaction_added`) and `/summary news TEXT`, and the admin's `member-news`."""

from __future__ import annotations

import asyncio

from tests.fakes.fakeslack import FakeSlack
from tests.slack.test_week import HERO, Slack, slack_world, ts  # noqa: F401
from tests.support.waiting import eventually, submissions

ROOT_TEXT = "Hero run crashed at step 2318; fix in #9141"


def reaction(name: str, message_ts: str, user: str = "UBEN", kind: str = "reaction_added") -> dict:
    """A `reaction_added` / `reaction_removed` event as Slack sends it."""
    return {
        "type": kind,
        "user": user,
        "reaction": name,
        "item_user": "UANA",
        "item": {"type": "message", "channel": HERO, "ts": message_ts},
        "event_ts": ts(20, 9),
    }


def test_the_news_reaction_and_the_news_command_send_news_in(sessions, slack_world) -> None:  # noqa: F811
    async def scenario() -> None:
        async with FakeSlack() as fake:
            slack_world(fake)
            s = Slack(fake, sessions)
            await s.enable_hero()

            assert await s.event(reaction("eyes", ts(17, 10))) == 200
            assert await s.event(reaction("newspaper", ts(19, 23))) == 200  # never stored
            assert submissions(sessions) == []
            assert await s.event(reaction("newspaper", ts(17, 10))) == 200
            await eventually(lambda: submissions(sessions))
            assert submissions(sessions) == [("Ben Cho", ROOT_TEXT, f"{HERO}:{ts(17, 10)}")]
            assert await s.event(reaction("newspaper", ts(17, 10))) == 200  # again: once
            assert len(submissions(sessions)) == 1

            reply = await s.command("UANA", "news Iris now preempts by priority, see #9200")
            assert reply["text"] == (
                "Thanks: your news goes to the editors with the draft of the week of 2026-11-23."
            )
            assert submissions(sessions)[-1] == (
                "Ana Ruiz",
                "Iris now preempts by priority, see #9200",
                None,
            )
            assert "news needs the news itself" in (await s.command("UANA", "news  "))["text"]

    asyncio.run(asyncio.wait_for(scenario(), 30))


def test_an_admin_turns_news_off_and_changes_the_reaction(sessions, slack_world) -> None:  # noqa: F811
    async def scenario() -> None:
        async with FakeSlack() as fake:
            slack_world(fake)
            s = Slack(fake, sessions)
            await s.enable_hero()

            refused = await s.command("UANA", "member-news off")
            assert refused["text"].startswith("Only workspace admins can change settings")
            off = await s.command("UADMIN", "member-news off")
            assert off["text"].startswith("Members' news is off")
            assert "turned off" in (await s.command("UANA", "news Stickers!"))["text"]
            assert await s.event(reaction("newspaper", ts(17, 10))) == 200
            assert submissions(sessions) == []

            on = await s.command("UADMIN", "member-news on reaction :tada:")
            assert on["text"].startswith("Members' news is on") and ":tada:" in on["text"]
            assert await s.event(reaction("newspaper", ts(17, 10))) == 200
            assert submissions(sessions) == []
            assert await s.event(reaction("tada", ts(18, 9), user="UANA")) == 200
            await eventually(lambda: submissions(sessions))
            assert submissions(sessions)[0][0] == "Ana Ruiz"

    asyncio.run(asyncio.wait_for(scenario(), 30))
