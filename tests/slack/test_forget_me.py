"""Forget-me through the real Slack adapter (Bolt app against the fake Slack): the member's
text leaves the review thread's messages on Slack, not only the database."""

from __future__ import annotations

import asyncio
import json

from bot.core.port import Caller
from tests.core.test_access import draft_week
from tests.fakes.fakeslack import FakeSlack
from tests.slack.test_access import SLACK, SlackSide


def test_forget_me_on_slack_rewrites_the_review_thread(sessions) -> None:
    async def scenario() -> None:
        async with FakeSlack() as fake:
            fake.add_user("UADMIN", "Ada Admin", admin=True)
            fake.add_user("ana", "Ana Ruiz")
            for channel_id, name in (("210", "hero-run"), ("C0REVIEW", "review"), ("C0PUB", "pub")):
                fake.add_channel(channel_id, name)
            slack = SlackSide(fake, sessions)
            admin = Caller("UADMIN", "Ada", is_admin=True)
            try:
                await asyncio.to_thread(draft_week, slack.core, SLACK, admin)

                def review_thread() -> str:
                    return json.dumps([m for m in fake.posted if m["channel"] == "C0REVIEW"])

                assert "22.4% MFU" in review_thread() and "Ana Ruiz" in review_thread()
                answer = await slack.command("ana", "forget-me")
                assert answer.startswith("Done: 1 of your messages was deleted"), answer
                assert "22.4% MFU" not in review_thread()
                assert "Ana Ruiz" not in review_thread()
                assert "a source message was deleted" in review_thread()
            finally:
                slack.core.close()

    asyncio.run(asyncio.wait_for(scenario(), 30))
