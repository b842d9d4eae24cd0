"""The review page over HTTP (aiohttp's test client) against the core and the fake port:
the link exchange, sessions, CSRF, concurrent edits, and every refusal with nothing changed."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from datetime import timedelta

import pytest
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import func, select

from bot.core.port import ButtonPress, Caller, CommandEvent, DeleteEvent, MessageEvent
from bot.core.review_links import PageLinks, PageSigner
from bot.core.router import Core
from bot.web.site import COOKIE, Desk, ReviewSite
from storage.drafts import get_draft_by_id
from storage.models import UsedPageLink
from storage.records import MessageRecord, PersonRecord
from tests.core.test_access import (
    ADMIN_A,
    ADMIN_B,
    CONFIG,
    GUILD_A,
    GUILD_B,
    HERO,
    MONDAY,
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
        # Side by side in the section, where the notice is too; the form brings the browser
        # back to the section, not the top of the page.
        clash = re.search(r'<div class="clash">(.*?)</section>\s*</div>', text, re.S).group(1)
        assert "Your text, not saved" in clash and ">Second saver&#39;s text.</textarea>" in clash
        assert "Saved now (revision 1, by Eve of A)" in clash
        assert f'<pre id="saved-{bot.section}">First saver&#39;s text.</pre>' in clash
        section = text[text.index(f'id="section-{bot.section}"') :]
        assert "was edited by Eve of A" in section
        assert f'action="/review/{bot.draft}/sections/{bot.section}#section-{bot.section}"' in text

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


def test_the_history_shows_the_change_from_the_first_draft_word_by_word(bot: Bot) -> None:
    async def body(client: TestClient) -> None:
        for text in ("First edit: 23% MFU.", "Second edit: 23.1% MFU."):
            edit = CommandEvent(GUILD_A, ADMIN_A, f"edit 1 {text}", "c")
            assert (await bot.core.on_command(edit)).ok
        _, html = await open_page(client, bot.link(EDITOR.user_id))
        since = re.search(r"Since the first draft</h4>\s*<pre[^>]*>(.*?)</pre>", html, re.S)
        assert since is not None
        assert "@@" not in html  # no whole-line hunks
        removed = re.findall(r"<del>.*?\[removed: </span>(.*?)<span", since.group(1), re.S)
        added = re.findall(r"<ins>.*?\[added: </span>(.*?)<span", since.group(1), re.S)
        assert "22.4% MFU " in "".join(removed) and "23.1% MFU." in "".join(added)
        assert "First edit" not in since.group(1)  # not edit by edit
        # The second edit's own diff: only the words that changed from the first edit.
        second = re.findall(r'<li>Ann of A.*?<pre class="diff">(.*?)</pre>', html, re.S)[1]
        assert re.findall(r"\[removed: </span>(.*?)<span", second) == ["First ", "23% "]
        assert re.findall(r"\[added: </span>(.*?)<span", second) == ["Second ", "23.1% "]
        assert "edit: " in second and "MFU." in second  # unchanged words shown plainly

    scenario(bot, body)


def test_times_are_in_the_workspaces_timezone_and_bare_refs_link_to_its_repo(bot: Bot) -> None:
    assert command(bot.core, GUILD_A, ADMIN_A, "schedule 0 9 * * 1 Europe/Amsterdam").ok
    assert command(bot.core, GUILD_A, ADMIN_A, "repo marin-community/marin").ok
    assert command(bot.core, GUILD_A, ADMIN_A, "edit 1 Now 23% MFU.").ok

    async def body(client: TestClient) -> None:
        _, html = await open_page(client, bot.link(EDITOR.user_id))
        assert "Times are in Europe/Amsterdam." in html
        # Logged at 10:00 UTC on Monday the 16th, edited at 09:00 UTC on the 23rd.
        assert ">Mon 16 Nov 11:00 CET</time>" in html
        assert ">2026-11-23 10:00 CET</time>" in html
        assert "UTC" not in html
        issue = "https://github.com/marin-community/marin/issues/812"
        assert f'after <a href="{issue}" rel="noreferrer noopener" target="_blank">#812</a>' in html
        assert f'<a href="{issue}" rel="noreferrer noopener" target="_blank">#812</a></li>' in html

    scenario(bot, body)


def test_refs_are_linked_only_where_a_repository_is_known() -> None:
    from bot.web.ref_links import link_refs

    text = "Fixed in #12 and o-x/r.y#7, see page#3, it's <b>#5</b>"
    assert link_refs(text, "") == (
        'Fixed in #12 and <a href="https://github.com/o-x/r.y/issues/7" '
        'rel="noreferrer noopener" target="_blank">o-x/r.y#7</a>, see page#3, it&#39;s '
        "&lt;b&gt;#5&lt;/b&gt;"
    )
    linked = link_refs(text, "marin-community/marin")
    assert linked.count("<a ") == 3 and "issues/12" in linked and "issues/5" in linked


def post_preview(html: str, platform: str) -> str:
    """The whole-post preview of one platform on the page."""
    return re.search(f'id="post-{platform}">(.*?)</div>', html, re.S).group(1)


def test_the_whole_post_is_previewed_as_each_platform_shows_it(bot: Bot) -> None:
    assert command(bot.core, GUILD_A, ADMIN_A, "edit 1 Now **23%** MFU.").ok

    async def body(client: TestClient) -> None:
        _, html = await open_page(client, bot.link(EDITOR.user_id))
        assert "Preview the whole post" in html
        discord = post_preview(html, "discord")
        assert re.match(r"<h1>.+: Week of November 16th summary</h1>\n<h2>Hero run</h2>", discord)
        assert "<p>Now <strong>23%</strong> MFU.</p>" in discord
        slack = post_preview(html, "slack")  # mrkdwn has no headings: bold lines
        assert re.match(r"<strong>.+: Week of November 16th summary</strong>\n\n", slack)
        assert "<strong>Hero run</strong>\n\nNow <strong>23%</strong> MFU." in slack

    scenario(bot, body)


def titles_in_order(html: str) -> list[str]:
    return re.findall(r'<h2 id="title-\d+">\d+\. (.*?)</h2>', html)


def test_sections_are_added_moved_and_deleted_and_publishing_follows(bot: Bot, sessions) -> None:
    async def body(client: TestClient) -> None:
        _, html = await open_page(client, bot.link(EDITOR.user_id))
        csrf = csrf_of(html)
        base = f"/review/{bot.draft}"
        for title in ("Events", "Thanks"):
            added = await client.post(
                f"{base}/sections", data={"csrf": csrf, "title": title, "text": f"{title} text."}
            )
            assert added.status == 200 and f"{title} added as the last section." in (
                await added.text()
            )
        html = await (await client.get(base)).text()
        assert titles_in_order(html) == ["Hero run", "Events", "Thanks"]
        assert "added by an editor" in html
        assert any("Thanks text." in t for t in bot.thread_texts())  # posted in the thread
        thanks = int(re.search(r'id="title-(\d+)">3\. Thanks', html).group(1))
        moved = await client.post(
            f"{base}/sections/{thanks}/move", data={"csrf": csrf, "offset": "-1"}
        )
        assert "Thanks moved up: now section 2 of 3." in await moved.text()
        assert titles_in_order(await moved.text()) == ["Hero run", "Thanks", "Events"]
        first = await client.post(
            f"{base}/sections/{bot.section}/move", data={"csrf": csrf, "offset": "-1"}
        )
        assert first.status == 409 and "Hero run is already first." in await first.text()
        before = snapshot(sessions)
        unconfirmed = await client.post(
            f"{base}/sections/{bot.section}/delete", data={"csrf": csrf}
        )
        assert unconfirmed.status == 409 and "Tick the box" in await unconfirmed.text()
        assert snapshot(sessions) == before
        deleted = await client.post(
            f"{base}/sections/{bot.section}/delete", data={"csrf": csrf, "confirm": "yes"}
        )
        html = await deleted.text()
        assert "Hero run was deleted" in html
        assert titles_in_order(html) == ["Thanks", "Events"]
        gone = re.search(r'id="deleted".*?</section>', html, re.S).group(0)
        assert "<strong>Hero run</strong>, deleted by Eve of A" in gone
        assert "22.4% MFU" in gone  # its text stays, in the page's history
        assert "This section is gone" in "\n".join(bot.thread_texts())
        # A deleted section is edited nowhere (chat's numbers skip it; its old form is
        # refused), and drafting again does not bring it back.
        edit = await client.post(
            f"{base}/sections/{bot.section}",
            data={"csrf": csrf, "revision": "0", "text": "Back again."},
        )
        assert edit.status == 404 and "There is no section" in await edit.text()
        renumbered = await bot.core.on_command(
            CommandEvent(GUILD_A, ADMIN_A, "edit 1 Thanks, all.", "c")
        )
        assert renumbered.ok and "Thanks (section 1 of draft" in renumbered.text
        assert (
            await bot.core.on_command(
                CommandEvent(GUILD_A, ADMIN_A, f"regenerate {bot.draft}", "c")
            )
        ).ok
        html = await (await client.get(base)).text()
        assert titles_in_order(html) == ["Thanks", "Events"]
        approved = await client.post(f"{base}/approve", data={"csrf": csrf})
        assert "Published to 1 channel" in await approved.text()
        (published,) = bot.port.in_channel("pub")
        assert "Hero run" not in published.text and "22.4%" not in published.text
        assert published.text.index("## Thanks") < published.text.index("## Events")

    scenario(bot, body)


@pytest.mark.parametrize("who", ["removed editor", "another workspace's section"])
def test_arranging_is_refused_and_changes_nothing(bot: Bot, sessions, who: str) -> None:
    """Through the one check: an editor removed since the page opened, and a section id of
    another workspace's draft (answered as one that does not exist)."""
    with sessions() as session:
        (other,) = get_draft_by_id(session, bot.draft_b).sections
        other_id = other.id

    async def body(client: TestClient) -> None:
        _, html = await open_page(client, bot.link(EDITOR.user_id))
        csrf = csrf_of(html)
        base = f"/review/{bot.draft}"
        if who == "removed editor":
            assert (
                await bot.core.on_command(
                    CommandEvent(GUILD_A, ADMIN_A, f"editors remove <@{EDITOR.user_id}>", "c")
                )
            ).ok
            posts = [
                (f"{base}/sections", {"title": "X", "text": "Y."}),
                (f"{base}/sections/{bot.section}/move", {"offset": "1"}),
                (f"{base}/sections/{bot.section}/delete", {"confirm": "yes"}),
            ]
            said = "Only editors"
        else:
            posts = [
                (f"{base}/sections/{other_id}/move", {"offset": "1"}),
                (f"{base}/sections/{other_id}/delete", {"confirm": "yes"}),
            ]
            said = f"There is no section {other_id}."
        before = snapshot(sessions)
        for path, data in posts:
            response = await client.post(path, data={"csrf": csrf, **data})
            assert response.status in (403, 409) and said in await response.text()
        assert snapshot(sessions) == before

    scenario(bot, body)


def log_late(bot: Bot, key: str, who: PersonRecord, text: str, hours: int = 30) -> None:
    """A message logged in the hero-run channel after the week was drafted."""
    record = MessageRecord(key, who, MONDAY + timedelta(hours=hours), text)
    assert asyncio.run(bot.core.on_message(MessageEvent(GUILD_A, HERO, record)))


def test_a_left_out_message_is_pulled_in_with_the_editors_unsaved_text(bot: Bot) -> None:
    bo, cy = PersonRecord("bo", "Bo Chen"), PersonRecord("cy", "Cy Diaz")
    log_late(bot, "m2", bo, "I fixed the loader stall in #815, throughput up 12%.")
    log_late(bot, "m3", PersonRecord("ci", "CI", is_bot=True), "Build green for #815: 3.1x faster")
    log_late(bot, "m4", bo, "thanks!")
    log_late(bot, "m5", cy, "I tuned the LR schedule, loss is 2.31 now.")
    forgot = asyncio.run(
        bot.core.on_command(CommandEvent(GUILD_A, Caller("cy", "Cy"), "forget-me", "c"))
    )
    assert forgot.ok

    async def body(client: TestClient) -> None:
        _, html = await open_page(client, bot.link(EDITOR.user_id))
        shown = re.search(r'<ol class="left-out".*?</ol>', html, re.S).group(0)
        assert "Left out (1)" in html
        assert "loader stall" in shown  # not the bot's post, the thanks, or Cy's message
        assert "Build green" not in shown and "thanks!" not in shown and "LR schedule" not in html
        form = {"csrf": csrf_of(html), "revision": "0", "text": "Edited, not saved: 23% MFU."}
        path = f"/review/{bot.draft}/sections/{bot.section}/pull"
        pulled = await client.post(path, data={**form, "message": "m2"})
        html = await pulled.text()
        assert (
            pulled.status == 200 and "Bo Chen&#39;s message added to Hero run (revision 1)" in html
        )
        expected = (
            "Edited, not saved: 23% MFU.\n\n"
            "- Bo Chen fixed the loader stall in #815, throughput up 12%."
        )
        assert f">{expected}</textarea>" in html
        assert "Left out (0)" in html
        assert any(expected in t for t in bot.thread_texts())
        sources = re.search(r'class="sources".*?</ol>', html, re.S).group(0)
        assert "Bo Chen" in sources and "loader stall" in sources
        again = await client.post(path, data={**form, "revision": "1", "message": "m2"})
        assert again.status == 409 and "no longer left out of Hero run" in await again.text()
        stale = await client.post(path, data={**form, "message": "m2"})
        assert stale.status == 409 and "nothing was added" in await stale.text()
        assert "Edited, not saved: 23% MFU.</textarea>" in await stale.text()  # kept

    scenario(bot, body)
