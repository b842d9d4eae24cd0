"""Channels and roles in settings commands, resolved within the server through the real
discord.py client against the fake Discord: a name is looked up in this guild only, another
guild's channel id is refused with a clear sentence, and roles are stored and matched by id."""

from __future__ import annotations

import asyncio

import pytest

from bot.core.settings import workspace_settings
from bot.ops.config import load_config
from tests.discord.test_week import ADMIN, ANA, ANNOUNCE, BEN, REVIEW, Bot, populate
from tests.fakes.fakediscord import FakeDiscord
from tests.support.waiting import eventually

EDITORS_ROLE = "1500000000000000001"
OTHER_GUILD_CHANNEL = "1399999999999999999"  # a channel id this guild does not have


def test_channels_and_roles_resolve_within_the_guild(sessions) -> None:
    async def scenario() -> None:
        async with FakeDiscord() as fake:
            populate(fake)
            fake.add_role(EDITORS_ROLE, "Editors")
            fake.members[BEN]["roles"] = [EDITORS_ROLE]
            undo = fake.patch()
            try:
                bot = Bot(fake, sessions)
                async with bot.running():
                    await eventually(lambda: fake.commands_synced)
                    await check(bot)
            finally:
                undo()

    async def check(bot: Bot) -> None:
        async def say(user: str, text: str) -> str:
            return await bot.say(user, text)

        # By name, within this guild: stored as the id.
        assert "Approved summaries will be posted in" in await say(
            ADMIN, "publish add announcements"
        )
        assert await say(ADMIN, "publish add #elsewhere") == (
            "#elsewhere was not found in this server."
        )
        assert await say(ADMIN, f"review-channel <#{OTHER_GUILD_CHANNEL}>") == (
            f"#{OTHER_GUILD_CHANNEL} was not found in this server."
        )
        assert "Drafts will be posted for review in #summary-review." in await say(
            ADMIN, "review-channel #summary-review"
        )
        assert "review channel: #summary-review;" in await say(ANA, "status")
        assert await say(ADMIN, "editors add role:Nobody") == (
            "There is no role 'Nobody' in this server."
        )
        assert "can now edit" in await say(ADMIN, "editors add role:editors")
        with sessions() as session:
            settings = workspace_settings(session, load_config(), 1)
        assert settings.publish_channels == [ANNOUNCE]
        assert settings.review_channel == REVIEW
        assert settings.editors == [f"role:{EDITORS_ROLE}"]
        # The role's member is an editor (matched by the role's id); others are not.
        assert await say(ANA, "draft 2026-11-16") == "Only editors can start a draft."
        assert "Only editors" not in await say(BEN, "draft 2026-11-16")
        # The port never looks a name up across the guilds the bot is in.
        with pytest.raises(LookupError, match="stored by name"):
            await bot.port.post("announcements", "Hello")

    asyncio.run(asyncio.wait_for(scenario(), 60))
