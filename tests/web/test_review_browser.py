"""The review page in a real browser: Debian's chromium driven by Playwright, against the
real Slack adapter on the fake Slack. An editor presses Open review page in the thread, opens
the link they are told, edits a section (both platforms' previews follow), saves, and
approves; the thread message and the publish channel show it. An edit made in the thread
shows on the open page without a reload, except over the editor's unsaved text, which is
kept with a notice. The editor's desk: the whole post previewed, a section added and moved
from the keyboard, a message the drafter left out pulled in. The same journey on Discord,
against the real discord.py client on the fake Discord. Skipped when no chromium is installed
(`apt-get install chromium`; `.ci/run` does). Set REVIEW_PAGE_SCREENSHOT=PATH to keep a
screenshot (the README's is docs/review-page.png)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import socket
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest
from aiohttp import web

from bot.core.port import Caller, DeleteEvent, MessageEvent
from bot.core.review_links import PageLinks, PageSigner
from bot.core.router import core_for
from bot.ops.config import load_config
from bot.ops.env import Environment
from bot.slack.app import SlackBot
from bot.slack.run import slack_client
from bot.web.site import Desk, ReviewSite
from storage.records import MessageRecord, PersonRecord
from tests.core.test_access import HERO, MONDAY, NOW, draft_week
from tests.fakes.fakediscord import EPHEMERAL, FakeDiscord
from tests.fakes.fakeslack import FakeSlack
from tests.slack.test_access import SECRET, SLACK, SlackSide
from tests.support.waiting import eventually
from tests.web.discord_side import EDITOR, PUB, DiscordSide, populate

playwright = pytest.importorskip("playwright.async_api")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium binary (apt-get install chromium)"
)
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
EDITED = "Hero run reached **23.1% MFU** on v5p after #812, per Ana Ruiz."


class PageSide(SlackSide):
    """The Slack adapter with the review page enabled, served on 127.0.0.1."""

    def __init__(self, fake: FakeSlack, sessions, public_url: str) -> None:  # noqa: ANN001
        self.fake = fake
        client = slack_client(Environment(slack_bot_token="xoxb-test", slack_api_url=fake.url))
        signer = PageSigner("browser-test-secret-0123456789")
        links = PageLinks(signer, public_url, "slack")
        make_core = core_for(
            sessions, load_config(), clock=lambda: NOW, platform="slack", page=links
        )
        self.bot = SlackBot(make_core, client, signing_secret=SECRET)
        self.core = self.bot.core
        desk = Desk(self.core.review, self.core.page_caller)
        self.site = ReviewSite(signer, public_url, {"slack": desk}, clock=lambda: NOW)


@contextlib.asynccontextmanager
async def slack_page(sessions) -> AsyncIterator[tuple[PageSide, int, int, str]]:  # noqa: ANN001
    """The fake Slack, the adapter with the page served on 127.0.0.1, a drafted week, and
    the link UADMIN (an admin) was told on pressing Open review page."""
    async with FakeSlack() as fake:
        fake.add_user("UADMIN", "Ada Admin", admin=True)
        # Set up by name, as an admin types it: the names resolve through the workspace.
        for channel_id, name in (("210", "hero-run"), ("C0REVIEW", "review"), ("C0PUB", "pub")):
            fake.add_channel(channel_id, name)
        # The page's address first: the core hands out links under it.
        port = _free_port()
        public = f"http://127.0.0.1:{port}"
        slack = PageSide(fake, sessions, public)
        runner = web.AppRunner(slack.site.app())
        try:
            await runner.setup()
            await web.TCPSite(runner, "127.0.0.1", port).start()
            draft_id, section_id = await asyncio.to_thread(
                draft_week, slack.core, SLACK, Caller("UADMIN", "Ada", is_admin=True)
            )
            told = await slack.button("UADMIN", f"page:{draft_id}")
            url = re.search(r"https?://[^\s>|]+", told).group(0)
            assert url.startswith(f"{public}/review/open?t=")
            yield slack, draft_id, section_id, url
        finally:
            await runner.cleanup()
            slack.core.close()


@contextlib.asynccontextmanager
async def browser_page() -> AsyncIterator:
    """A page of a fresh headless chromium."""
    async with playwright.async_playwright() as driver:
        browser = await driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield await browser.new_page(viewport={"width": 1280, "height": 900})
        finally:
            await browser.close()


def test_an_editor_finishes_the_summary_on_the_page(sessions, tmp_path) -> None:
    async def scenario() -> None:
        async with slack_page(sessions) as (slack, _draft_id, section_id, url):
            async with browser_page() as page:
                await drive(page, url, section_id)
                await _screenshot(page, tmp_path)
                await page.get_by_role("button", name="Approve and publish").click()
                await page.wait_for_selector("#notice")
                assert "Published to 1 channel in" in await page.inner_text("#notice")
            fake = slack.fake
            await eventually(lambda: fake.messages_in("C0PUB"))
            (published,) = fake.messages_in("C0PUB")
            assert "23.1% MFU" in published["text"]
            updates = [c.params["text"] for c in fake.called("chat.update")]
            assert any("23.1% MFU" in text for text in updates)  # the thread message

    asyncio.run(asyncio.wait_for(scenario(), 90))


def test_an_edit_in_the_thread_shows_on_the_open_page_without_losing_unsaved_text(
    sessions,
) -> None:
    async def scenario() -> None:
        async with (
            slack_page(sessions) as (slack, _draft_id, section_id, url),
            browser_page() as page,
        ):
            await page.goto(url)
            await page.get_by_role("button", name="Continue to the review page").click()
            box = page.get_by_label("Markdown of Hero run")
            await box.wait_for()
            # Edited in the thread (the Slack modal): the open page shows it, no reload.
            await slack.submit("UADMIN", section_id, "Edited in the thread: *22.9% MFU*.")
            await page.wait_for_function(
                "id => document.getElementById('text-' + id).value.includes('22.9%')",
                arg=section_id,
            )
            await page.wait_for_function(
                "id => document.getElementById('preview-slack-' + id).innerText"
                ".includes('22.9% MFU')",
                arg=section_id,
            )
            changed = page.locator(f"#changed-{section_id}")
            assert "changed this section elsewhere" in await changed.inner_text()
            # Unsaved text in the box and another thread edit: the text stays, with a notice.
            await box.fill("My unsaved words.")
            await slack.submit("UADMIN", section_id, "Second edit in the thread.")
            await page.wait_for_function(
                "id => document.getElementById('changed-' + id).innerText"
                ".includes('Your text is kept here')",
                arg=section_id,
            )
            assert await box.input_value() == "My unsaved words."
            # Saving it is the concurrent-edit refusal, the text kept again.
            await page.get_by_role("button", name="Save Hero run").click()
            await page.wait_for_selector("#notice")
            assert "while you were editing" in await page.inner_text("#notice")
            assert await page.get_by_label("Markdown of Hero run").input_value() == (
                "My unsaved words."
            )

    asyncio.run(asyncio.wait_for(scenario(), 90))


def test_text_removed_at_a_members_request_leaves_the_open_page(sessions) -> None:
    """The section's source is deleted on Slack while the page is open: without a reload,
    the section's text, previews and sources leave the page, and a notice says why."""

    async def scenario() -> None:
        async with (
            slack_page(sessions) as (slack, _draft_id, section_id, url),
            browser_page() as page,
        ):
            await page.goto(url)
            await page.get_by_role("button", name="Continue to the review page").click()
            box = f"#section-{section_id}"
            await page.wait_for_selector(box)
            assert "22.4% MFU" in await page.inner_text(box)
            await slack.core.on_delete(DeleteEvent(SLACK, "m1"))
            await page.wait_for_function(
                "sel => !document.querySelector(sel).innerText.includes('22.4%')", arg=box
            )
            assert "Text was taken out of this section" in await page.inner_text(box)
            assert await page.locator(f"{box} textarea").count() == 0

    asyncio.run(asyncio.wait_for(scenario(), 90))


async def drive(page, url: str, section_id: int) -> None:  # noqa: ANN001 (a Playwright Page)
    """Open the link, edit one section from the keyboard and save it."""
    await page.goto(url)
    await page.get_by_role("button", name="Continue to the review page").click()
    await page.wait_for_selector("h1")
    assert "22.4% MFU" in await page.inner_text(f"#section-{section_id} .sources")
    box = page.get_by_label("Markdown of Hero run")
    await box.fill("")
    await box.press_sequentially(EDITED, delay=2)
    for platform in ("slack", "discord"):  # each platform's preview follows the typing
        preview = f"#preview-{platform}-{section_id}"
        await page.wait_for_function(
            "sel => document.querySelector(sel).innerText.includes('23.1% MFU on v5p')",
            arg=preview,
        )
        assert await page.inner_text(f"{preview} strong") == "23.1% MFU"
    await page.get_by_role("button", name="Save Hero run").click()
    await page.wait_for_selector("#notice")
    assert "updated (revision 1)" in await page.inner_text("#notice")


async def _screenshot(page, tmp_path) -> None:  # noqa: ANN001
    await page.get_by_text("History (1 revision)").click()  # opened from the keyboard too
    target = os.environ.get("REVIEW_PAGE_SCREENSHOT") or str(tmp_path / "review-page.png")
    await page.screenshot(path=target, full_page=True)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_an_editor_finishes_the_summary_on_the_page_on_discord(sessions) -> None:
    """The same journey from the fake Discord's review thread: the link comes in the
    ephemeral answer to Open review page, the page asks the guild who the editor is."""

    async def scenario() -> None:
        async with FakeDiscord() as fake:
            populate(fake)
            undo = fake.patch()
            port = _free_port()
            try:
                side = DiscordSide(fake, sessions, f"http://127.0.0.1:{port}")
                async with side.running():
                    await side.draft_week()
                    runner = web.AppRunner(side.site.app())
                    await runner.setup()
                    try:
                        await web.TCPSite(runner, "127.0.0.1", port).start()
                        told = await side.press_page_button(EDITOR)
                        assert told["body"]["flags"] & EPHEMERAL
                        url = re.search(r"https?://\S+", told["body"]["content"]).group(0)
                        async with browser_page() as page:
                            await drive(page, url, side.section_id)
                            assert "23.1% MFU" in side.thread_text()  # the thread message
                            await page.get_by_role("button", name="Approve and publish").click()
                            await page.wait_for_selector("#notice")
                            notice = await page.inner_text("#notice")
                            assert "Published to 1 channel in" in notice
                    finally:
                        await runner.cleanup()
                    published = "\n".join(m["content"] for m in fake.sent(PUB))
                    assert "**23.1% MFU** on v5p" in published
                    assert "Approved" in side.header()["content"]
            finally:
                undo()

    asyncio.run(asyncio.wait_for(scenario(), 90))


def test_the_editors_desk_previews_the_post_pulls_in_a_left_out_message_and_reorders(
    sessions,
) -> None:
    """The whole post previewed, a section added and moved up from the keyboard, a message
    the drafter left out pulled into its section; what is published follows."""

    async def scenario() -> None:
        async with slack_page(sessions) as (slack, _draft_id, section_id, url):
            late = MessageRecord(
                "1700000000.000200",
                PersonRecord("UBO", "Bo Chen"),
                MONDAY + timedelta(hours=30),
                "I fixed the loader stall in #815, throughput up 12%.",
            )
            assert await slack.core.on_message(MessageEvent(SLACK, HERO, late))
            async with browser_page() as page:
                await page.goto(url)
                await page.get_by_role("button", name="Continue to the review page").click()
                await page.wait_for_selector("h1")
                await page.get_by_text("Preview the whole post").click()
                for platform in ("slack", "discord"):
                    post = await page.inner_text(f"#post-{platform}")
                    assert "Week of November 16th summary" in post and "Hero run" in post
                    assert "22.4% MFU" in post
                await page.get_by_label("Title").fill("Thanks")
                await page.get_by_label("Markdown", exact=True).fill("Thanks to every reviewer.")
                await page.get_by_role("button", name="Add the section at the end").click()
                await page.wait_for_selector("#notice")
                assert "Thanks added as the last section." in await page.inner_text("#notice")
                await page.get_by_role("button", name="Move Thanks up").focus()
                await page.keyboard.press("Enter")
                await page.wait_for_selector("#notice")
                assert "now section 1 of 2" in await page.inner_text("#notice")
                titles = await page.locator("h2[id^=title-]").all_inner_texts()
                assert titles == ["1. Thanks", "2. Hero run"]
                box = page.get_by_label("Markdown of Hero run")
                await box.fill("Hero run reached 22.4% MFU after #812 (unsaved).")
                await page.get_by_role("button", name="Add Bo Chen's message to Hero run").click()
                await page.wait_for_selector("#notice")
                assert "Bo Chen's message added to Hero run" in await page.inner_text("#notice")
                text = await box.input_value()
                assert text.endswith(
                    "(unsaved).\n\n- Bo Chen fixed the loader stall in #815, throughput up 12%."
                )
                assert "Nothing: the draft draws on" in await page.inner_text(
                    f"#section-{section_id} .left-out"
                )
                await page.get_by_text("Preview the whole post").click()
                discord = await page.inner_text("#post-discord")
                assert discord.index("Thanks") < discord.index("Hero run")
                assert "loader stall" in discord
                await page.get_by_role("button", name="Approve and publish").click()
                await page.wait_for_selector("#notice")
                assert "Published to 1 channel in" in await page.inner_text("#notice")
            fake = slack.fake
            await eventually(lambda: fake.messages_in("C0PUB"))
            published = "\n".join(m["text"] for m in fake.messages_in("C0PUB"))
            assert published.index("Thanks to every reviewer.") < published.index("loader stall")

    asyncio.run(asyncio.wait_for(scenario(), 90))
