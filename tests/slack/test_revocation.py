"""Revoked access ends at once on the review page: Slack's `subteam_members_changed` and
`user_change` events (signed, through the real Bolt app) make the next request ask Slack
again; when such an event is lost, the 30 s re-read bounds it (an injected clock, stepped).

The page is the real `ReviewSite` (aiohttp's test client) over the Slack core, asking the
Slack adapter who the user is on every request, against the fake Slack."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable

import pytest
from aiohttp.test_utils import TestClient, TestServer
from slack_bolt.request.async_request import AsyncBoltRequest

from bot.core.port import Caller, CommandEvent
from bot.core.review_links import PageLinks, PageSigner
from bot.core.router import core_for
from bot.ops.config import load_config
from bot.ops.env import Environment
from bot.slack.app import SlackBot
from bot.slack.directory import ACCESS_TTL_S, Directory
from bot.slack.run import slack_client
from bot.web.site import Desk, ReviewSite
from tests.core.test_access import HERO, NOW, draft_week, snapshot
from tests.fakes.fakeslack import FakeSlack, event_body, signed_headers
from tests.slack.test_access import SECRET, SLACK

PAGE_SECRET = "a-test-secret-of-32-characters!!"
PUBLIC = "http://127.0.0.1:9"
GROUP = "S0EDITORS"


class Clock:
    """The directory's monotonic clock, stepped by the test."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class SlackPage:
    """The Slack core with review-page links, the Bolt app, and the page's site."""

    def __init__(self, fake: FakeSlack, sessions) -> None:  # noqa: ANN001
        self.fake = fake
        self.clock = Clock()
        self.signer = PageSigner(PAGE_SECRET)
        client = slack_client(Environment(slack_bot_token="xoxb-test", slack_api_url=fake.url))
        make_core = core_for(
            sessions,
            load_config(),
            clock=lambda: NOW,
            platform="slack",
            page=PageLinks(self.signer, PUBLIC, "slack"),
        )
        directory = Directory(client, clock=self.clock)
        self.bot = SlackBot(make_core, client, signing_secret=SECRET, directory=directory)
        self.core = self.bot.core
        desk = Desk(self.core.review, self.core.page_caller)
        self.site = ReviewSite(self.signer, PUBLIC, {"slack": desk}, clock=lambda: NOW)

    async def event(self, event: dict) -> None:
        body = event_body(event)
        headers = signed_headers(SECRET, body, content_type="application/json")
        request = AsyncBoltRequest(body=body, headers={k: [v] for k, v in headers.items()})
        assert (await self.bot.app.async_dispatch(request)).status == 200


def slack_world(fake: FakeSlack) -> None:
    fake.add_user("UADMIN", "Ada Admin", admin=True)
    fake.add_user("UADM2", "Abe Admin", admin=True)
    fake.add_user("UEVE", "Eve Editor")
    fake.add_usergroup(GROUP, "editors", "Editors", ["UEVE"])
    for channel_id, name in ((HERO.platform_id, "hero-run"), ("C0R", "review"), ("C0P", "pub")):
        fake.add_channel(channel_id, name)


Scenario = Callable[[SlackPage, TestClient, int, int], Awaitable[None]]


def run(sessions, scenario: Scenario) -> None:  # noqa: ANN001
    """A week drafted in the Slack workspace, editors given as the user group; then
    `scenario(page, client, draft_id, section_id)`."""

    async def go() -> None:
        async with FakeSlack() as fake:
            slack_world(fake)
            page = SlackPage(fake, sessions)
            try:
                admin = Caller("UADMIN", "Ada", is_admin=True)
                draft_id, section_id = await asyncio.to_thread(draft_week, page.core, SLACK, admin)
                editors = f"editors add <!subteam^{GROUP}|@editors>"
                event = CommandEvent(SLACK, admin, editors, HERO.platform_id)
                assert (await page.core.on_command(event)).ok
                async with TestClient(TestServer(page.site.app())) as client:
                    await scenario(page, client, draft_id, section_id)
            finally:
                page.core.close()

    asyncio.run(asyncio.wait_for(go(), 60))


async def open_page(page: SlackPage, client: TestClient, user: str, draft_id: int) -> str:
    """Exchange a fresh link for `user`'s session; the page's CSRF token."""
    workspace_id = await page.core.workspace_id(SLACK)
    token = page.signer.link("slack", user, workspace_id, draft_id, NOW)
    opened = await client.post("/review/open", data={"t": token})
    assert opened.status == 200, await opened.text()
    return re.search(r'name="csrf" value="([^"]+)"', await opened.text()).group(1)


def removed(user: str) -> dict:
    return {
        "type": "subteam_members_changed",
        "subteam_id": GROUP,
        "team_id": FakeSlack.TEAM,
        "removed_users": [user],
        "removed_users_count": 1,
    }


def test_an_editor_removed_from_the_user_group_loses_the_page_at_once(sessions) -> None:
    async def scenario(page: SlackPage, client: TestClient, draft_id: int, _: int) -> None:
        await open_page(page, client, "UEVE", draft_id)
        assert (await client.get(f"/review/{draft_id}")).status == 200  # members cached
        page.fake.usergroups[GROUP]["users"] = []
        await page.event(removed("UEVE"))
        refused = await client.get(f"/review/{draft_id}")  # the clock has not moved
        assert refused.status == 403
        assert "Only editors can open the review page." in await refused.text()

    run(sessions, scenario)


def test_an_admin_demoted_then_deactivated_cannot_save_at_once(sessions) -> None:
    async def scenario(page: SlackPage, client: TestClient, draft_id: int, section: int) -> None:
        csrf = await open_page(page, client, "UADM2", draft_id)
        before = snapshot(page.core.sessions)
        admin = page.fake.users["UADM2"]
        admin["is_admin"] = False
        await page.event({"type": "user_change", "user": dict(admin)})
        save = {"csrf": csrf, "revision": "0", "text": "Saved by a demoted admin."}
        assert (await client.post(f"/review/{draft_id}/sections/{section}", data=save)).status == (
            403
        )
        admin.update(is_admin=True, deleted=True)  # an admin again, but deactivated
        await page.event({"type": "user_change", "user": dict(admin)})
        saved = await client.post(f"/review/{draft_id}/sections/{section}", data=save)
        assert saved.status == 403
        assert "not known on this bot&#39;s workspace" in await saved.text()
        assert snapshot(page.core.sessions) == before

    run(sessions, scenario)


@pytest.mark.parametrize("change", ["removed from the group", "demoted", "deactivated"])
def test_a_lost_event_still_ends_access_within_the_re_read_interval(sessions, change: str) -> None:
    async def scenario(page: SlackPage, client: TestClient, draft_id: int, _: int) -> None:
        user = "UEVE" if change == "removed from the group" else "UADM2"
        await open_page(page, client, user, draft_id)
        match change:
            case "removed from the group":
                page.fake.usergroups[GROUP]["users"] = []
            case "demoted":
                page.fake.users[user]["is_admin"] = False
            case "deactivated":
                page.fake.users[user]["deleted"] = True
        # No event: what was read stays in use until it is `ACCESS_TTL_S` old.
        page.clock.now += ACCESS_TTL_S - 1
        assert (await client.get(f"/review/{draft_id}")).status == 200
        page.clock.now += 1
        assert (await client.get(f"/review/{draft_id}")).status == 403

    run(sessions, scenario)


def test_names_are_still_cached_for_stored_messages(sessions) -> None:
    """The short re-read is for access only: a busy channel's authors are not asked about
    again and again (users.info is rate limited)."""

    async def scenario(page: SlackPage, client: TestClient, draft_id: int, _: int) -> None:
        directory = page.bot.directory
        await directory.user("UEVE")
        page.clock.now += ACCESS_TTL_S * 10
        await directory.user("UEVE")
        asked = [c for c in page.fake.called("users.info") if c.params["user"] == "UEVE"]
        assert len(asked) == 1
        await directory.member("UEVE")  # for an access decision: read again
        asked = [c for c in page.fake.called("users.info") if c.params["user"] == "UEVE"]
        assert len(asked) == 2

    run(sessions, scenario)
