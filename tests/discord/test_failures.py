"""The Discord adapter's error boundary: a slash command or button whose handling fails
after the bot deferred its answer ends in a private "That failed; it is logged as <id>"
follow-up, not a "thinking…" that never ends. Through the real client against the fake
Discord."""

from __future__ import annotations

import asyncio
import re

from tests.discord.test_week import ADMIN, HERO, bot_on_fake

EPHEMERAL = 64


async def broken(*args: object) -> None:
    raise RuntimeError("the database is on fire")


def incident_of(body: dict, caplog) -> str:  # noqa: ANN001
    """The id the private answer gives; the log names it beside the error."""
    assert body["flags"] & EPHEMERAL
    match = re.search(r"That failed; it is logged as ([0-9a-f]{8})\.", body["content"])
    assert match, body
    (record,) = [r for r in caplog.records if match[1] in r.getMessage()]
    assert "on fire" in str(record.exc_info[1])
    return match[1]


def test_a_failing_command_or_button_is_answered_after_the_defer(
    sessions, monkeypatch, caplog
) -> None:
    async def scenario() -> None:
        async with bot_on_fake(sessions, log_hero=False) as (fake, bot):
            monkeypatch.setattr(bot.core, "on_command", broken)
            monkeypatch.setattr(bot.core, "on_button", broken)
            first = incident_of(await bot.slash(ADMIN, "summary", "status"), caplog)

            pressed = fake.button("approve:1")
            callback = await fake.interact(pressed, type_=3, user_id=ADMIN, channel_id=HERO)
            assert callback["type"] == 5  # deferred ("thinking…")
            (followup,) = await fake.followups()
            assert incident_of(followup["body"], caplog) != first

    asyncio.run(asyncio.wait_for(scenario(), 30))
