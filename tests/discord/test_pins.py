"""Pinned Discord messages: from DiscordChatExporter files (`isPinned`), from history, and
live: Discord sends a pin or unpin as a MESSAGE_UPDATE carrying `pinned` (the real discord.py
client against the fake Discord on 127.0.0.1)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from sqlalchemy import select

from bot.core.ingest import import_paths
from bot.ops.formats import EXPORT_FORMATS
from storage.models import Message
from tests.discord.test_export import _export, _message, _write
from tests.discord.test_week import ADMIN, HERO, Bot, on, populate
from tests.fakes.fakediscord import FakeDiscord
from tests.support.waiting import eventually, stored


def pins(sessions) -> dict[str, bool]:  # noqa: ANN001 (a sessionmaker)
    """Every stored message's pinned flag, by platform id."""
    with sessions() as session:
        return dict(session.execute(select(Message.platform_id, Message.pinned)).all())


def test_an_export_s_pinned_messages_are_stored_pinned(sessions, tmp_path: Path) -> None:
    messages = [
        _message("700", "Release 2.1 is out", isPinned=True),
        _message("701", "lunch?"),
        _message("702", "", kind="ChannelPinnedMessage", reference={"messageId": "700"}),
    ]
    path = _write(tmp_path / "dev.json", _export(messages))
    report = import_paths(sessions, [path], EXPORT_FORMATS)
    assert report.errors == []
    assert pins(sessions) == {"700": True, "701": False}  # the pin notice is not content


def test_pins_from_history_and_live_pin_updates(sessions) -> None:
    async def scenario() -> None:
        async with FakeDiscord() as fake:
            populate(fake)
            crash, fixed = fake.history[HERO]
            crash["pinned"] = True
            undo = fake.patch()
            try:
                bot = Bot(fake, sessions)
                async with bot.running():
                    await bot.slash(ADMIN, "summary-admin", "channels", "add", channel=HERO)
                    await eventually(lambda: len(pins(sessions)) == 2)
                    assert pins(sessions) == {crash["id"]: True, fixed["id"]: False}

                    # Pinning and unpinning reach the bot as updates of the whole message.
                    await fake.dispatch("MESSAGE_UPDATE", dict(fixed, pinned=True))
                    await eventually(lambda: pins(sessions)[fixed["id"]])
                    await fake.dispatch("MESSAGE_UPDATE", dict(crash, pinned=False))
                    await eventually(lambda: not pins(sessions)[crash["id"]])

                    # An edit of a pinned message keeps it pinned.
                    edited = dict(
                        fixed,
                        pinned=True,
                        content="With #9141 we are back at 22.5% MFU",
                        edited_timestamp=on(19, 10).isoformat(),
                    )
                    await fake.dispatch("MESSAGE_UPDATE", edited)
                    await eventually(lambda: "22.5%" in stored(sessions)[fixed["id"]])
                    assert pins(sessions)[fixed["id"]] is True
            finally:
                undo()

    asyncio.run(asyncio.wait_for(scenario(), 60))
