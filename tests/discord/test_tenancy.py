"""A guild's events stay its own: gateway events naming a guild the bot is not in (Discord
sends none; a gateway that is not Discord's, or a guild left a moment ago, might) store
nothing and are counted. The real discord.py client against the fake Discord on 127.0.0.1."""

from __future__ import annotations

import asyncio

from bot.core import metrics
from tests.discord.test_week import ADMIN, ANA, HERO, bot_on_fake, on
from tests.support.waiting import eventually, stored

OTHER_GUILD = "1100000000000000999"


def foreign() -> float:
    labels = {"platform": "discord"}
    return metrics.REGISTRY.get_sample_value("summarybot_foreign_events_total", labels) or 0.0


def test_events_of_a_guild_the_bot_is_not_in_store_nothing(sessions) -> None:
    async def scenario() -> None:
        async with bot_on_fake(sessions) as (fake, bot):
            await eventually(lambda: any("stored since" in m["content"] for m in fake.dms(ADMIN)))
            own = fake.message(HERO, ANA, "Own guild: 23.0% MFU", timestamp=on(19, 10))
            await fake.dispatch("MESSAGE_CREATE", own)
            await eventually(lambda: own["id"] in stored(sessions))
            before, refused = stored(sessions), foreign()

            elsewhere = fake.message(HERO, ANA, "Another guild's", timestamp=on(19, 11))
            await fake.dispatch("MESSAGE_CREATE", dict(elsewhere, guild_id=OTHER_GUILD))
            rewritten = dict(own, content="Rewritten elsewhere", guild_id=OTHER_GUILD)
            rewritten["edited_timestamp"] = on(19, 12).isoformat()
            await fake.dispatch("MESSAGE_UPDATE", rewritten)
            gone = {"id": own["id"], "channel_id": HERO, "guild_id": OTHER_GUILD}
            await fake.dispatch("MESSAGE_DELETE", gone)
            await eventually(lambda: foreign() == refused + 3)
            # A DM is not another guild's: ignored, not counted.
            dm = dict(fake.message(HERO, ANA, "A DM", timestamp=on(19, 13)))
            del dm["guild_id"]
            await fake.dispatch("MESSAGE_CREATE", dm)
            # Events are handled in order: once this one is stored, those are done.
            after = fake.message(HERO, ANA, "Own guild again", timestamp=on(19, 14))
            await fake.dispatch("MESSAGE_CREATE", after)
            await eventually(lambda: after["id"] in stored(sessions))
            assert {k: v for k, v in stored(sessions).items() if k != after["id"]} == (before)
            assert foreign() == refused + 3

    asyncio.run(asyncio.wait_for(scenario(), 60))
