"""The review page on Discord: the real discord.py client against the fake Discord. The
header's Open review page button tells only the presser a link; the page asks the guild who
the user is on every request (roles taken away count at once); an edit and an approval made
on the page update the review thread and publish to the publish channel."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable

from aiohttp.test_utils import TestClient, TestServer

from tests.core.test_access import snapshot
from tests.fakes.fakediscord import EPHEMERAL, FakeDiscord
from tests.web.discord_side import (
    ADMIN,
    EDITOR,
    EDITORS_ROLE,
    OUTSIDER,
    PUB,
    DiscordSide,
    populate,
)
from tests.web.test_review_site import csrf_of, open_page

PUBLIC = "http://127.0.0.1:9"


def scenario(sessions, body: Callable[[DiscordSide, FakeDiscord], Awaitable[None]]) -> None:  # noqa: ANN001
    async def go() -> None:
        async with FakeDiscord() as fake:
            populate(fake)
            undo = fake.patch()
            try:
                side = DiscordSide(fake, sessions, PUBLIC)
                async with side.running():
                    await side.draft_week()
                    await body(side, fake)
            finally:
                undo()

    asyncio.run(asyncio.wait_for(go(), 60))


def test_the_guild_says_who_a_member_is_outside_an_interaction(sessions) -> None:
    async def body(side: DiscordSide, fake: FakeDiscord) -> None:
        workspace_id = await side.core.workspace_id(side.workspace)
        admin = await side.core.page_caller(workspace_id, ADMIN)
        assert admin is not None and admin.is_admin  # Manage Server through the Mods role
        assert admin.display_name == "Ada Admin"
        editor = await side.core.page_caller(workspace_id, EDITOR)
        assert editor is not None and EDITORS_ROLE in editor.roles and not editor.is_admin
        fake.members[EDITOR]["roles"] = []
        editor = await side.core.page_caller(workspace_id, EDITOR)
        assert editor is not None and EDITORS_ROLE not in editor.roles
        fake.members[ADMIN]["roles"] = [EDITORS_ROLE]
        assert not (await side.core.page_caller(workspace_id, ADMIN)).is_admin
        del fake.members[OUTSIDER]  # left the server
        assert await side.core.page_caller(workspace_id, OUTSIDER) is None
        assert await side.core.page_caller(workspace_id + 1, ADMIN) is None  # no such workspace

    scenario(sessions, body)


def test_the_button_tells_the_presser_alone_and_the_page_acts_on_discord(sessions) -> None:
    async def body(side: DiscordSide, fake: FakeDiscord) -> None:
        labels = [c["label"] for c in side.header()["components"][0]["components"]]
        assert "Open review page" in labels
        told = await side.press_page_button(EDITOR)
        assert told["body"]["flags"] & EPHEMERAL
        token = re.search(r"\?t=(\S+)", told["body"]["content"]).group(1)
        async with TestClient(TestServer(side.site.app())) as client:
            status, html = await open_page(client, token)
            assert status == 200 and "22.4% MFU" in html
            csrf = csrf_of(html)
            saved = await client.post(
                f"/review/{side.draft_id}/sections/{side.section_id}",
                data={"csrf": csrf, "revision": "0", "text": "Edited on the page: 23% MFU."},
            )
            assert "updated (revision 1)" in await saved.text()
            assert "Edited on the page: 23% MFU." in side.thread_text()
            approved = await client.post(f"/review/{side.draft_id}/approve", data={"csrf": csrf})
            assert "Published to 1 channel in" in await approved.text()
        published = "\n".join(m["content"] for m in fake.sent(PUB))
        assert "Edited on the page: 23% MFU." in published
        assert "Approved" in side.header()["content"]

    scenario(sessions, body)


def test_an_editor_whose_role_is_taken_away_loses_the_page_at_once(sessions) -> None:
    async def body(side: DiscordSide, fake: FakeDiscord) -> None:
        told = await side.press_page_button(EDITOR)
        token = re.search(r"\?t=(\S+)", told["body"]["content"]).group(1)
        async with TestClient(TestServer(side.site.app())) as client:
            status, html = await open_page(client, token)
            assert status == 200
            csrf = csrf_of(html)
            fake.members[EDITOR]["roles"] = []
            before = snapshot(sessions)
            page = await client.get(f"/review/{side.draft_id}")
            assert page.status == 403
            assert "Only editors can open the review page." in await page.text()
            saved = await client.post(f"/review/{side.draft_id}/approve", data={"csrf": csrf})
            assert saved.status == 403
            assert snapshot(sessions) == before
        assert fake.sent(PUB) == []

    scenario(sessions, body)


def test_a_member_who_is_not_an_editor_is_told_so_privately(sessions) -> None:
    async def body(side: DiscordSide, fake: FakeDiscord) -> None:
        told = await side.press_page_button(OUTSIDER)
        assert told["body"]["flags"] & EPHEMERAL
        assert told["body"]["content"] == "Only editors can open the review page."

    scenario(sessions, body)
