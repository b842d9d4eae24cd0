"""Members' news on Discord, with the real discord.py client against the fake Discord on
127.0.0.1: the 📰 reaction (MESSAGE_REACTION_ADD), `/summary news text:`, and the admin's
`/summary-admin member-news`."""

from __future__ import annotations

import asyncio

from tests.discord.test_week import ADMIN, ANA, BEN, HERO, Bot, populate
from tests.fakes.fakediscord import FakeDiscord
from tests.support.waiting import eventually, stored, submissions


def reaction(fake: FakeDiscord, message_id: str, emoji: str, user: str) -> dict:
    """A MESSAGE_REACTION_ADD as the gateway sends it in a guild (with the member)."""
    return {
        "type": 0,
        "burst": False,
        "emoji": {"id": None, "name": emoji},
        "user_id": user,
        "member": fake.members[user],
        "channel_id": HERO,
        "message_id": message_id,
        "guild_id": fake.GUILD_ID,
    }


def test_the_news_reaction_and_the_news_command_on_discord(sessions) -> None:
    async def scenario() -> None:
        async with FakeDiscord() as fake:
            populate(fake)
            crash, _fixed = fake.history[HERO]
            undo = fake.patch()
            try:
                bot = Bot(fake, sessions)
                async with bot.running():
                    await bot.slash(ADMIN, "summary-admin", "channels", "add", channel=HERO)
                    await eventually(lambda: crash["id"] in stored(sessions))  # backfilled
                    await fake.dispatch(
                        "MESSAGE_REACTION_ADD", reaction(fake, crash["id"], "👀", BEN)
                    )
                    await fake.dispatch(
                        "MESSAGE_REACTION_ADD", reaction(fake, crash["id"], "📰", BEN)
                    )
                    await eventually(lambda: submissions(sessions))
                    assert submissions(sessions) == [
                        ("Ben Cho", "Hero run crashed at step 2318; fix in #9141", crash["id"])
                    ]

                    reply = await bot.slash(ANA, "summary", "news", text="Iris ships on Friday")
                    assert reply["content"].startswith("Thanks: your news goes to the editors")
                    assert submissions(sessions)[-1] == ("Ana Ruiz", "Iris ships on Friday", None)

                    off = await bot.slash(ADMIN, "summary-admin", "member-news", turn="off")
                    assert off["content"].startswith("Members' news is off")
                    refused = await bot.slash(ANA, "summary", "news", text="Stickers!")
                    assert "turned off" in refused["content"]
                    assert len(submissions(sessions)) == 2
            finally:
                undo()

    asyncio.run(asyncio.wait_for(scenario(), 60))
