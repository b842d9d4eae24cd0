"""While a week is drafted, the Discord gateway is still served: a heartbeat the gateway
asks for is sent, and a message said meanwhile is stored, so neither the event loop nor the
core's database thread waits for the draft. The real discord.py client against the fake
Discord on 127.0.0.1."""

from __future__ import annotations

import asyncio
from datetime import date

from sqlalchemy import select

from storage.drafts import list_drafts
from storage.models import Workspace
from tests.discord.test_week import ANA, HERO, bot_on_fake, on
from tests.support.blocking import BlockingDraft
from tests.support.waiting import eventually, stored

WEEK = date(2026, 11, 16)  # the week `populate`'s history is in
OP_HEARTBEAT = 1


def test_the_gateway_is_answered_while_a_week_is_drafted(sessions, monkeypatch) -> None:
    draft = BlockingDraft(monkeypatch)

    async def scenario() -> None:
        async with bot_on_fake(sessions) as (fake, bot):
            await eventually(lambda: len(stored(sessions)) == 2)  # the backfill
            with sessions() as session:
                workspace_id = session.scalars(select(Workspace.id)).one()
            drafting = asyncio.create_task(bot.core.run_week(workspace_id, WEEK))
            await draft.started()

            asked = len(fake.gateway_received)
            await fake.send_raw({"op": OP_HEARTBEAT, "d": None})  # "heartbeat now"
            await eventually(
                lambda: any(
                    frame.get("op") == OP_HEARTBEAT for frame in fake.gateway_received[asked:]
                )
            )
            said = fake.message(HERO, ANA, "Said while drafting: 1.9x", timestamp=on(20, 9))
            await fake.dispatch("MESSAGE_CREATE", said)
            await eventually(lambda: said["id"] in stored(sessions))
            assert not drafting.done()

            draft.release()
            await drafting
        assert not draft.gave_up
        with sessions() as session:
            assert [d.week_start for d in list_drafts(session, workspace_id)] == [WEEK]

    asyncio.run(asyncio.wait_for(scenario(), 60))
