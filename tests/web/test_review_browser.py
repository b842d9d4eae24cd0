"""The review page in a real browser: Debian's chromium driven by Playwright, against the
real Slack adapter on the fake Slack. An editor presses Open review page in the thread, opens
the link they are told, edits a section (the preview follows), saves, and approves; the
thread message and the publish channel show it. Skipped when no chromium is installed
(`apt-get install chromium`; `.ci/run` does). Set REVIEW_PAGE_SCREENSHOT=PATH to keep a
screenshot (the README's is docs/review-page.png)."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import socket

import pytest
from aiohttp import web

from bot.core.port import Caller
from bot.core.review_links import PageLinks, PageSigner
from bot.core.router import Core
from bot.ops.config import load_config
from bot.ops.env import Environment
from bot.slack.app import SlackBot
from bot.slack.port import SlackPort
from bot.slack.run import slack_client
from bot.web.site import Desk, ReviewSite
from tests.core.test_access import NOW, draft_week
from tests.fakes.fakeslack import FakeSlack
from tests.slack.test_access import SECRET, SLACK, SlackSide
from tests.support.waiting import eventually

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
        self.core = Core(
            sessions,
            load_config(),
            SlackPort(client),
            clock=lambda: NOW,
            platform="slack",
            page=links,
        )
        self.bot = SlackBot(self.core, client, signing_secret=SECRET)
        desk = Desk(self.core.review, self.core.page_caller)
        self.site = ReviewSite(signer, public_url, {"slack": desk}, clock=lambda: NOW)


def test_an_editor_finishes_the_summary_on_the_page(sessions, tmp_path) -> None:
    async def scenario() -> None:
        async with FakeSlack() as fake:
            fake.add_user("UADMIN", "Ada Admin", admin=True)
            # Set up by name, as an admin types it: the names resolve through the workspace.
            for channel_id, name in (("210", "hero-run"), ("C0REVIEW", "review"), ("C0PUB", "pub")):
                fake.add_channel(channel_id, name)
            runner = None
            slack = None
            try:
                # The page's address first: the core hands out links under it.
                port = _free_port()
                public = f"http://127.0.0.1:{port}"
                slack = PageSide(fake, sessions, public)
                runner = web.AppRunner(slack.site.app())
                await runner.setup()
                await web.TCPSite(runner, "127.0.0.1", port).start()
                draft_id, section_id = await asyncio.to_thread(
                    draft_week, slack.core, SLACK, Caller("UADMIN", "Ada", is_admin=True)
                )
                told = await slack.button("UADMIN", f"page:{draft_id}")
                url = re.search(r"https?://[^\s>|]+", told).group(0)
                assert url.startswith(f"{public}/review/open?t=")
                async with playwright.async_playwright() as driver:
                    browser = await driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                    try:
                        page = await browser.new_page(viewport={"width": 1280, "height": 900})
                        await drive(page, url, section_id)
                        await _screenshot(page, tmp_path)
                        await page.get_by_role("button", name="Approve and publish").click()
                        await page.wait_for_selector("#notice")
                        assert "Published to 1 channel(s)" in await page.inner_text("#notice")
                    finally:
                        await browser.close()
                await eventually(lambda: fake.messages_in("C0PUB"))
                (published,) = fake.messages_in("C0PUB")
                assert "23.1% MFU" in published["text"]
                updates = [c.params["text"] for c in fake.called("chat.update")]
                assert any("23.1% MFU" in text for text in updates)  # the thread message
            finally:
                if runner is not None:
                    await runner.cleanup()
                if slack is not None:
                    slack.core.close()

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
    target = os.environ.get("REVIEW_PAGE_SCREENSHOT") or str(tmp_path / "review-page.png")
    await page.screenshot(path=target, full_page=True)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
