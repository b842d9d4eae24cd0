"""While a week is drafted, Slack is still answered: a message posted meanwhile is
acknowledged, and it is acknowledged only once stored, so neither the event loop nor the
core's database thread waits for the draft. Real HTTP to the bot's aiohttp app on 127.0.0.1."""

from __future__ import annotations

import asyncio
from datetime import date

from sqlalchemy import select

from storage.drafts import list_drafts
from storage.models import Workspace
from tests.fakes.fakeslack import FakeSlack
from tests.slack.test_events_path import message, post, served
from tests.slack.test_week import HERO, Slack, slack_world, ts  # noqa: F401
from tests.support.blocking import BlockingDraft
from tests.support.waiting import stored

WEEK = date(2026, 11, 16)  # the week slack_world's history is in


def test_a_message_is_acknowledged_and_stored_while_a_week_is_drafted(
    sessions,
    slack_world,  # noqa: F811
    monkeypatch,
) -> None:
    draft = BlockingDraft(monkeypatch)

    async def scenario() -> None:
        async with FakeSlack() as fake:
            slack_world(fake)
            s = Slack(fake, sessions)
            await s.enable_hero()
            with sessions() as session:
                workspace_id = session.scalars(select(Workspace.id)).one()
            async with served(s) as url:
                drafting = asyncio.create_task(s.core.run_week(workspace_id, WEEK))
                await draft.started()
                text = "Said while the week was drafted: eval at 72.0% (#9310)"
                assert await post(url, message(9, text)) == 200
                assert stored(sessions)[f"{HERO}:{ts(20, 9)}"] == text
                assert not drafting.done()
                draft.release()
                await drafting
        assert not draft.gave_up
        with sessions() as session:
            assert [d.week_start for d in list_drafts(session, workspace_id)] == [WEEK]

    asyncio.run(asyncio.wait_for(scenario(), 60))
