"""Tenancy and user groups through the real Slack adapter (Bolt app against the fake Slack):
a Slack admin sharing the database with a Discord server cannot read or edit that server's
drafts, and a user group given as editors lets its members, and only them, approve."""

from __future__ import annotations

import asyncio
import json

from slack_bolt.request.async_request import AsyncBoltRequest

from bot.core.port import Caller
from bot.core.router import Core, core_for
from bot.ops.config import load_config
from bot.ops.env import Environment
from bot.slack.app import SlackBot
from bot.slack.port import EDIT_ACTION, EDIT_BLOCK
from bot.slack.run import slack_client
from storage.records import WorkspaceRecord
from tests.core.test_access import HERO, NOW, draft_week, snapshot
from tests.fakes.fakeport import FakePort
from tests.fakes.fakeslack import (
    FakeSlack,
    block_actions,
    command_body,
    interaction_body,
    signed_headers,
    view_submission,
)
from tests.support.waiting import eventually

SECRET = "signing-secret"
REVIEW, ANNOUNCE = "C0REVIEW", "C0ANNOUNCE"
SLACK = WorkspaceRecord("slack", FakeSlack.TEAM, "Lab")
DISCORD = WorkspaceRecord("discord", "300", "A Discord server")


class SlackSide:
    """The Slack adapter on the fake Slack, and signed requests to it."""

    def __init__(self, fake: FakeSlack, sessions) -> None:  # noqa: ANN001
        self.fake = fake
        client = slack_client(Environment(slack_bot_token="xoxb-test", slack_api_url=fake.url))
        make_core = core_for(sessions, load_config(), clock=lambda: NOW)
        self.bot = SlackBot(make_core, client, signing_secret=SECRET)
        self.core = self.bot.core

    async def send(self, body: str, content_type: str) -> dict | None:
        headers = signed_headers(SECRET, body, content_type=content_type)
        request = AsyncBoltRequest(body=body, headers={k: [v] for k, v in headers.items()})
        response = await self.bot.app.async_dispatch(request)
        assert response.status == 200
        return json.loads(response.body) if response.body else None

    async def command(self, user: str, text: str) -> str:
        url = self.fake.response_url()
        body = command_body("/summary", text, user_id=user, channel_id=HERO, response_url=url)
        await self.send(body, "application/x-www-form-urlencoded")
        await eventually(lambda: url in self.fake.responses_by_url)
        return self.fake.responses_by_url[url][-1]["text"]

    async def button(self, user: str, action_id: str) -> str:
        url = self.fake.response_url()
        payload = block_actions(
            action_id, user_id=user, channel_id=REVIEW, message_ts="1.1", response_url=url
        )
        await self.send(interaction_body(payload), "application/x-www-form-urlencoded")
        await eventually(lambda: url in self.fake.responses_by_url)
        return self.fake.responses_by_url[url][-1]["text"]

    async def submit(self, user: str, section_id: int, text: str) -> dict | None:
        values = {f"{EDIT_BLOCK}_0": {EDIT_ACTION: {"type": "plain_text_input", "value": text}}}
        payload = view_submission("edit_section", str(section_id), values, user_id=user)
        return await self.send(interaction_body(payload), "application/x-www-form-urlencoded")


def test_a_slack_admin_cannot_reach_a_discord_server_s_draft(sessions) -> None:
    other = Core(sessions, load_config(), FakePort(), clock=lambda: NOW)
    draft_id, section_id = draft_week(other, DISCORD, Caller("3001", "Admin", is_admin=True))
    other.close()
    before = snapshot(sessions)

    async def scenario() -> None:
        async with FakeSlack() as fake:
            fake.add_user("UADMIN", "Ada Admin", admin=True)
            slack = SlackSide(fake, sessions)
            try:
                saved = await slack.submit("UADMIN", section_id, "Hijacked by Slack.")
                assert saved == {
                    "response_action": "errors",
                    "errors": {f"{EDIT_BLOCK}_0": f"There is no section {section_id}."},
                }
                assert await slack.button("UADMIN", f"history:{section_id}") == (
                    f"There is no section {section_id}."
                )
                assert await slack.button("UADMIN", f"approve:{draft_id}") == (
                    f"There is no draft {draft_id}."
                )
                assert await slack.command("UADMIN", f"history 1 --draft {draft_id}") == (
                    f"There is no draft {draft_id}."
                )
                assert not fake.views_opened and not fake.posted
            finally:
                slack.core.close()

    asyncio.run(asyncio.wait_for(scenario(), 30))
    assert snapshot(sessions) == before


def test_a_user_group_given_as_editors_may_approve_and_others_may_not(sessions) -> None:
    async def scenario() -> None:
        async with FakeSlack() as fake:
            fake.add_user("UADMIN", "Ada Admin", admin=True)
            fake.add_user("UEVE", "Eve Editor")
            fake.add_user("UBEN", "Ben Cho")
            fake.add_usergroup("S0EDITORS", "editors", "Editors", ["UEVE"])
            for channel_id, name in ((HERO.platform_id, "hero-run"), ("C0R", "review")):
                fake.add_channel(channel_id, name)
            fake.add_channel("C0PUB", "pub")
            slack = SlackSide(fake, sessions)
            try:
                for text in (
                    f"review-channel <#{REVIEW}|review>",
                    f"publish add <#{ANNOUNCE}|announcements>",
                    "editors add <!subteam^S0EDITORS|@editors>",
                ):
                    assert "Only" not in await slack.command("UADMIN", text)
                added = await slack.command("UADMIN", "admins add role:@editors")
                assert added.startswith("@editors can now change settings.")
                refused = await slack.command("UADMIN", "editors add role:nobody")
                assert refused == "There is no role 'nobody' in this workspace."
                # A week drafted in this workspace, through the core as the schedule would.
                draft_id, _ = await asyncio.to_thread(
                    draft_week, slack.core, SLACK, Caller("UADMIN", "Ada", is_admin=True)
                )
                refusal = await slack.button("UBEN", f"approve:{draft_id}")
                assert refusal == "Only editors can approve the summary."
                assert fake.messages_in(ANNOUNCE) == []
                await slack.button("UEVE", f"approve:{draft_id}")
                await eventually(lambda: fake.messages_in(ANNOUNCE))
                members_asked = fake.called("usergroups.users.list")
                assert {c.params["usergroup"] for c in members_asked} == {"S0EDITORS"}
                assert len(members_asked) == 1  # cached between presses and commands
            finally:
                slack.core.close()

    asyncio.run(asyncio.wait_for(scenario(), 30))


def test_the_review_page_asks_slack_who_a_user_is_in_its_own_team_only(sessions) -> None:
    async def scenario() -> None:
        async with FakeSlack() as fake:
            fake.add_user("UADMIN", "Ada Admin", admin=True)
            client = slack_client(Environment(slack_bot_token="xoxb-test", slack_api_url=fake.url))
            make_core = core_for(sessions, load_config(), clock=lambda: NOW, platform="slack")
            core = SlackBot(make_core, client, signing_secret=SECRET).core
            try:
                slack_id = await core.workspace_id(SLACK)
                discord_id = await core.workspace_id(DISCORD)
                admin = await core.page_caller(slack_id, "UADMIN")
                assert admin is not None and admin.is_admin and admin.display_name == "Ada Admin"
                # A link naming another platform's workspace, or another Slack team (sharing
                # the database), finds nobody there.
                assert await core.page_caller(discord_id, "UADMIN") is None
                other = await core.workspace_id(WorkspaceRecord("slack", "T0OTHER", "Other"))
                assert await core.page_caller(other, "UADMIN") is None
            finally:
                core.close()

    asyncio.run(asyncio.wait_for(scenario(), 30))
