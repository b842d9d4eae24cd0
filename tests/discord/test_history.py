"""Discord backfill progress and catching up after downtime, through the real discord.py
client against the fake Discord on 127.0.0.1: edits, deletes and reactions made while the
bot was away are found by re-reading the open week and comparing."""

from __future__ import annotations

import asyncio

from sqlalchemy import select

import bot.core.history
from storage.models import Message
from tests.discord.test_week import ADMIN, ANA, BEN, HERO, Bot, on, populate
from tests.fakes.fakediscord import FakeDiscord
from tests.support.waiting import eventually, stored

THREAD = "1300000000000000009"


def reactions(session, message_id: str) -> int:
    return session.scalar(select(Message.reaction_count).where(Message.platform_id == message_id))


def test_the_open_week_is_reconciled_after_downtime(sessions, monkeypatch) -> None:
    monkeypatch.setattr(bot.core.history, "UPDATE_EVERY_S", 0.0)  # report every batch
    monkeypatch.setattr("bot.discord.history.STORE_BATCH", 2)

    async def scenario() -> None:
        async with FakeDiscord() as fake:
            populate(fake)
            fake.add_channel(THREAD, "crash at step 2318", type_=11, parent_id=HERO)
            edited = fake.message(HERO, ANA, "MFU at 22.4% (#9141)", timestamp=on(22, 9))
            doomed = fake.message(HERO, BEN, "Wrong number, ignore", timestamp=on(22, 10))
            liked = fake.message(HERO, BEN, "Checkpoints 3.5x faster", timestamp=on(22, 11))
            in_thread = fake.message(THREAD, ANA, "Racks 3 and 7 drained", timestamp=on(22, 12))
            fake.history[HERO] += [edited, doomed, liked]
            fake.history[THREAD] = [in_thread]
            undo = fake.patch()
            try:
                first = Bot(fake, sessions)
                async with first.running():
                    await first.slash(ADMIN, "summary-admin", "channels", "add", channel=HERO)
                    await eventually(
                        lambda: any("stored since" in m["content"] for m in fake.dms(ADMIN))
                    )
                # The progress goes to the admin who asked, in a direct message, and the
                # logged channel sees none of it.
                progress = [m["content"] for m in fake.dms(ADMIN)]
                assert progress[0] == "Fetching #hero-run history since 2026-11-16…"
                assert "Fetching #hero-run history… 2 messages so far" in progress
                assert progress[-1] == "#hero-run: 6 messages stored since 2026-11-16."
                assert fake.sent(HERO) == []

                # While the bot is down: an edit, a delete, a reaction, a delete in a thread.
                edited.update(
                    content="MFU at 22.5% (#9141)", edited_timestamp=on(22, 13).isoformat()
                )
                fake.history[HERO].remove(doomed)
                liked["reactions"] = [
                    {"count": 2, "me": False, "emoji": {"id": None, "name": "🎉"}}
                ]
                fake.history[THREAD].remove(in_thread)

                second = Bot(fake, sessions)
                async with second.running():
                    await eventually(lambda: doomed["id"] not in stored(sessions))
                    await eventually(lambda: in_thread["id"] not in stored(sessions))
                now = stored(sessions)
                assert now[edited["id"]] == "MFU at 22.5% (#9141)"
                with sessions() as session:
                    assert reactions(session, liked["id"]) == 2
                # Last week's messages, before the open week, are left as they were.
                assert len(now) == 4
            finally:
                undo()

    asyncio.run(asyncio.wait_for(scenario(), 60))
