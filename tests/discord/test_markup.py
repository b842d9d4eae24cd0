"""Discord's markup reads the same logged live as imported from an export: discord.py's
`clean_content` names mentions but leaves timestamps, custom emoji and slash commands raw
and escapes "@everyone", so a live announcement lost its date and its announcement signal.
The real discord.py client against the fake Discord on 127.0.0.1."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.discord.test_export import _export, _message, _read
from tests.discord.test_week import ANA, HERO, bot_on_fake, on
from tests.support.waiting import eventually, stored

SAID = "@everyone community call moves to <t:1765900800:F> <:party:123>, run </deploy:42> first"
READ = "@everyone community call moves to 2025-12-16 16:00 UTC :party:, run /deploy first"


def test_an_export_s_markup_is_words(tmp_path: Path) -> None:
    [message] = _read(tmp_path, _export([_message("1", SAID)])).messages
    assert message.text == READ


def test_a_live_message_s_markup_is_the_same_words(sessions) -> None:
    async def scenario() -> None:
        async with bot_on_fake(sessions) as (fake, bot):
            said = fake.message(HERO, ANA, SAID, timestamp=on(19, 10))
            await fake.dispatch("MESSAGE_CREATE", said)
            await eventually(lambda: said["id"] in stored(sessions))
            assert stored(sessions)[said["id"]] == READ

    asyncio.run(asyncio.wait_for(scenario(), 60))
