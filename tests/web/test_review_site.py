"""The review page over HTTP (aiohttp's test client) against the core and the fake port:
the link exchange, sessions, CSRF, concurrent edits, and every refusal with nothing changed."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable

import pytest
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import func, select

from bot.core.port import ButtonPress, Caller, CommandEvent, DeleteEvent
from bot.core.review_links import PageLinks, PageSigner
from bot.core.router import Core
from bot.web.site import COOKIE, Desk, ReviewSite
from storage.models import UsedPageLink
from tests.core.test_access import (
    ADMIN_A,
    ADMIN_B,
    CONFIG,
    GUILD_A,
    GUILD_B,
    NOW,
    command,
    draft_week,
    snapshot,
)
from tests.fakes.fakeport import FakePort

SECRET = "a-test-secret-of-32-characters!!"
PUBLIC = "http://127.0.0.1:9"
EDITOR = Caller("1002", "Eve of A")
OUTSIDER = Caller("1003", "Max of A")


class Bot:
    """Two workspaces' drafts, the page's site, and who the platform says each user is."""

    def __init__(self, sessions) -> None:  # noqa: ANN001
        self.port = FakePort(workspace_noun="server")
        self.signer = PageSigner(SECRET)
        links = PageLinks(self.signer, PUBLIC, "test")
        self.core = Core(sessions, CONFIG, self.port, clock=lambda: NOW, page=links)
        self.draft_b, _ = draft_week(self.core, GUILD_B, ADMIN_B)
        self.draft, self.section = draft_week(self.core, GUILD_A, ADMIN_A)
        assert command(self.core, GUILD_A, ADMIN_A, "editors add <@1002>").ok
        self.ws_a = asyncio.run(self.core.workspace_id(GUILD_A))
        self.people = {c.user_id: c for c in (ADMIN_A, EDITOR, OUTSIDER, ADMIN_B)}

        async def caller(workspace_id: int, user_id: str) -> Caller | None:
            return self.people.get(user_id)

        self.site = ReviewSite(self.signer, PUBLIC, {"test": Desk(self.core.review, caller)})
        self.site.clock = lambda: NOW

    def link(self, user: str, workspace_id: int | None = None, draft: int | None = None) -> str:
        ws = self.ws_a if workspace_id is None else workspace_id
        return self.signer.link("test", user, ws, draft or self.draft, NOW)

    def thread_texts(self) -> list[str]:
        return [m.text for m in self.port.messages.values()]


def scenario(bot: Bot, body: Callable[[TestClient], Awaitable[None]]) -> None:
    async def go() -> None:
        async with TestClient(TestServer(bot.site.app())) as client:
            await body(client)

    try:
        asyncio.run(asyncio.wait_for(go(), 30))
    finally:
        bot.core.close()


async def open_page(client: TestClient, token: str) -> tuple[int, str]:
    """Follow a link as a browser would: the Continue page, then the exchange."""
    shown = await client.get("/review/open", params={"t": token})
    if shown.status != 200:
        return shown.status, await shown.text()
    exchanged = await client.post("/review/open", data={"t": token})
    return exchanged.status, await exchanged.text()


def csrf_of(html: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', html).group(1)


@pytest.fixture
def bot(sessions) -> Bot:
    return Bot(sessions)


def test_an_editor_opens_edits_previews_and_approves(bot: Bot, sessions) -> None:
    async def body(client: TestClient) -> None:
        status, html = await open_page(client, bot.link(EDITOR.user_id))
        assert status == 200
        cookie = client.session.cookie_jar.filter_cookies(client.make_url("/review/1"))
        assert COOKIE in cookie
        assert "Hero run" in html and "Ana Ruiz" in html and "22.4% MFU" in html
        for platform in ("Slack", "Discord"):  # both previews, without any script
            assert f"As published on {platform}" in html
            shown = re.search(
                f'id="preview-{platform.lower()}-{bot.section}"[^>]*>(.*?)</div>', html, re.S
            )
            assert "22.4% MFU" in shown.group(1)
        page = await client.get(f"/review/{bot.draft}")
        set_cookie = (await client.post("/review/open", data={"t": "x"})).headers
        assert "Set-Cookie" not in set_cookie
        csrf = csrf_of(await page.text())
        preview = await client.post(
            f"/review/{bot.draft}/preview",
            data={"csrf": csrf, "text": "**Bold** [x](https://evil.example/p) <script>"},
        )
        assert await preview.json() == {
            "slack": '<strong>Bold</strong> <a href="https://evil.example/p" '
            'rel="noreferrer noopener">x</a> (evil.example) &lt;script&gt;',
            "discord": '<p><strong>Bold</strong> <a href="https://evil.example/p">x</a> '
            "(evil.example) &lt;script&gt;</p>\n",
        }
        saved = await client.post(
            f"/review/{bot.draft}/sections/{bot.section}",
            data={"csrf": csrf, "revision": "0", "text": "Edited on the page: 23% MFU."},
        )
        assert saved.status == 200
        assert "updated (revision 1)" in await saved.text()
        assert "History (1 revision)<" in await saved.text()
        assert any("Edited on the page: 23% MFU." in t for t in bot.thread_texts())
        approved = await client.post(f"/review/{bot.draft}/approve", data={"csrf": csrf})
        assert "Published to 1 channel in" in await approved.text()
        (published,) = bot.port.in_channel("pub")
        assert "Edited on the page: 23% MFU." in published.text

    scenario(bot, body)


def test_the_exchange_sets_a_strict_httponly_cookie(bot: Bot) -> None:
    async def body(client: TestClient) -> None:
        response = await client.post(
            "/review/open", data={"t": bot.link(EDITOR.user_id)}, allow_redirects=False
        )
        assert response.status == 303
        header = response.headers["Set-Cookie"]
        assert "HttpOnly" in header and "SameSite=Strict" in header and "Path=/review" in header
        assert "Secure" not in header  # the public URL is http here; https sets it

    scenario(bot, body)


def test_a_second_saver_is_told_and_their_text_is_kept(bot: Bot, sessions) -> None:
    async def body(client: TestClient) -> None:
        _, html = await open_page(client, bot.link(EDITOR.user_id))
        csrf = csrf_of(html)
        first = {"csrf": csrf, "revision": "0", "text": "First saver's text."}
        second = {"csrf": csrf, "revision": "0", "text": "Second saver's text."}
        assert (await client.post(f"/review/{bot.draft}/sections/{bot.section}", data=first)).ok
        before = snapshot(sessions)
        late = await client.post(f"/review/{bot.draft}/sections/{bot.section}", data=second)
        assert late.status == 409
        text = await late.text()
        assert "was edited by Eve of A while you were editing it" in text
        assert "Second saver&#39;s text." in text  # kept in the textarea
        assert snapshot(sessions) == before

    scenario(bot, body)


@pytest.mark.parametrize(
    "case", ["expired", "tampered", "other workspace", "non-editor", "replayed", "no csrf"]
)
def test_refusals_change_nothing(bot: Bot, sessions, case: str) -> None:
    async def body(client: TestClient) -> None:
        if case == "replayed":
            token = bot.link(EDITOR.user_id)
            assert (await open_page(client, token))[0] == 200
            client.session.cookie_jar.clear()
        before = snapshot(sessions), _used(sessions)
        match case:
            case "expired":
                bot.site.clock = lambda: NOW.replace(day=25)
                status, text = await open_page(client, bot.link(EDITOR.user_id))
                assert "expired" in text
            case "tampered":
                token = bot.link(EDITOR.user_id)
                status, text = await open_page(client, token[:-3] + "AAA")
            case "other workspace":
                # A link naming workspace A for workspace B's draft: as if it did not exist.
                status, text = await open_page(client, bot.link(ADMIN_A.user_id, draft=bot.draft_b))
                assert f"There is no draft {bot.draft_b}." in text
            case "non-editor":
                status, text = await open_page(client, bot.link(OUTSIDER.user_id))
                assert "Only editors can open the review page." in text
            case "replayed":
                status, text = await open_page(client, token)
                assert "already used" in text
            case "no csrf":
                assert (await open_page(client, bot.link(EDITOR.user_id)))[0] == 200
                before = snapshot(sessions), _used(sessions)
                response = await client.post(
                    f"/review/{bot.draft}/sections/{bot.section}",
                    data={"revision": "0", "text": "Sneaky."},
                )
                status, text = response.status, await response.text()
                assert "security token" in text
                response = await client.post(f"/review/{bot.draft}/approve", data={"csrf": "x"})
                assert response.status == 400
        assert status in (400, 403)
        assert not client.session.cookie_jar.filter_cookies(client.make_url("/review/1")) or (
            case == "no csrf"
        )
        assert (snapshot(sessions), _used(sessions)) == before
        assert bot.port.in_channel("pub") == []

    scenario(bot, body)


def test_an_editor_removed_loses_the_page_at_once(bot: Bot, sessions) -> None:
    async def body(client: TestClient) -> None:
        _, html = await open_page(client, bot.link(EDITOR.user_id))
        csrf = csrf_of(html)
        removal = CommandEvent(GUILD_A, ADMIN_A, "editors remove <@1002>", "c-any")
        assert (await bot.core.on_command(removal)).ok
        before = snapshot(sessions)
        page = await client.get(f"/review/{bot.draft}")
        assert page.status == 403
        assert "Only editors can open the review page." in await page.text()
        saved = await client.post(
            f"/review/{bot.draft}/sections/{bot.section}",
            data={"csrf": csrf, "revision": "0", "text": "Too late."},
        )
        assert saved.status == 403
        assert snapshot(sessions) == before

    scenario(bot, body)


def test_a_session_reaches_its_own_draft_only_and_nothing_without_one(bot: Bot) -> None:
    async def body(client: TestClient) -> None:
        assert (await client.get(f"/review/{bot.draft}")).status == 401
        await open_page(client, bot.link(EDITOR.user_id))
        assert (await client.get(f"/review/{bot.draft_b}")).status == 403
        assert (await client.get("/review/static/../site.py")).status == 404

    scenario(bot, body)


def test_the_header_button_tells_the_presser_a_fresh_link(bot: Bot) -> None:
    header = next(
        m
        for m in bot.port.messages.values()
        if m.posted.thread_id is None and any(b.action_id == f"page:{bot.draft}" for b in m.buttons)
    )
    assert header.buttons[-1].label == "Open review page"
    reply = asyncio.run(bot.core.on_button(ButtonPress(GUILD_A, EDITOR, f"page:{bot.draft}")))
    assert reply.private and reply.ok
    url = re.search(r"(http://\S+)", reply.text).group(1)
    assert url.startswith(f"{PUBLIC}/review/open?t=")
    refused = asyncio.run(bot.core.on_button(ButtonPress(GUILD_A, OUTSIDER, f"page:{bot.draft}")))
    assert refused.text == "Only editors can open the review page."
    bot.core.close()


def _used(sessions) -> int:  # noqa: ANN001
    with sessions() as session:
        return session.scalar(select(func.count()).select_from(UsedPageLink))


def test_the_open_page_sees_an_edit_made_in_the_thread(bot: Bot) -> None:
    async def body(client: TestClient) -> None:
        assert (await client.get(f"/review/{bot.draft}/state")).status == 401
        await open_page(client, bot.link(EDITOR.user_id))
        before = await (await client.get(f"/review/{bot.draft}/state")).json()
        assert before["status"] == "in review" and before["editable"]
        (section,) = [s for s in before["sections"] if s["id"] == bot.section]
        assert section["revision"] == 0 and section["editor"] is None
        edit = CommandEvent(GUILD_A, ADMIN_A, "edit 1 Edited in the thread.", "c")
        assert (await bot.core.on_command(edit)).ok
        after = await (await client.get(f"/review/{bot.draft}/state")).json()
        (section,) = [s for s in after["sections"] if s["id"] == bot.section]
        assert section == {
            "id": bot.section,
            "revision": 1,
            "markdown": "Edited in the thread.",
            "editor": "Ann of A",
            "removed": False,
        }
        removal = CommandEvent(GUILD_A, ADMIN_A, "editors remove <@1002>", "c-any")
        assert (await bot.core.on_command(removal)).ok
        assert (await client.get(f"/review/{bot.draft}/state")).status == 403

    scenario(bot, body)


def test_the_open_page_learns_that_text_was_removed_and_shows_it_no_more(bot: Bot) -> None:
    """A platform delete of the section's only source: the state the open page polls says
    so (its script then clears the section), and the page shown again has none of it."""

    async def body(client: TestClient) -> None:
        status, html = await open_page(client, bot.link(EDITOR.user_id))
        assert status == 200 and "22.4% MFU" in html
        await bot.core.on_delete(DeleteEvent(GUILD_A, "m1"))
        state = await (await client.get(f"/review/{bot.draft}/state")).json()
        (section,) = [s for s in state["sections"] if s["id"] == bot.section]
        assert section["removed"] and "22.4%" not in section["markdown"]
        page = await (await client.get(f"/review/{bot.draft}")).text()
        assert "22.4% MFU" not in page and 'data-removed="1"' in page

    scenario(bot, body)


def test_the_history_shows_the_change_from_the_first_draft(bot: Bot) -> None:
    async def body(client: TestClient) -> None:
        for text in ("First edit: 23% MFU.", "Second edit: 23.1% MFU."):
            edit = CommandEvent(GUILD_A, ADMIN_A, f"edit 1 {text}", "c")
            assert (await bot.core.on_command(edit)).ok
        _, html = await open_page(client, bot.link(EDITOR.user_id))
        since = re.search(r"Since the first draft</h4>\s*<pre[^>]*>(.*?)</pre>", html, re.S)
        assert since is not None
        lines = since.group(1).splitlines()
        assert any(line.startswith("-") and "22.4% MFU" in line for line in lines)
        assert "+Second edit: 23.1% MFU." in lines
        assert not any("First edit" in line for line in lines)  # not edit by edit
        # The first edit's own diff is from the drafted text too, not its whole text.
        first = re.search(r"<li>Ann of A.*?<pre class=\"diff\">(.*?)</pre>", html, re.S)
        assert first is not None and "+First edit: 23% MFU." in first.group(1)
        assert any(line.startswith("-") for line in first.group(1).splitlines())

    scenario(bot, body)
