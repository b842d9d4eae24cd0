"""The review page's previews under hostile text: nothing an editor types becomes markup in
either platform's preview (code and code fences included), a text longer than a section may
hold is refused with 413 before it is rendered, and rendering runs off the event loop, so a
slow preview never holds up the rest of the page (or the bot)."""

from __future__ import annotations

import asyncio
import threading
from html.parser import HTMLParser

import pytest
from aiohttp.test_utils import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.review import MAX_SECTION_CHARS
from bot.discord.preview import discord_html
from bot.slack.preview import slack_html
from tests.web.test_review_site import EDITOR, Bot, csrf_of, open_page, scenario

# The tags each preview may make, and the only attributes they may carry.
SLACK_TAGS = {"pre", "code", "a", "strong", "em", "del", "blockquote"}
DISCORD_TAGS = SLACK_TAGS | {"p", "h1", "h2", "h3", "h4", "h5", "h6", "s", "ul", "ol", "li", "br"}
ATTRIBUTES = {"href", "rel"}

INJECTED_LINK = '[x" autofocus onfocus="alert(1)](https://x)'
_PIECES = [
    *(INJECTED_LINK, "[x](https://a.example/p)", "[a`b](http://x) `c", "[", "]", "(", ")"),
    *("```", "```\n", "`", "~~~", "<", ">", '"', "'", "&", "&quot;", "<https://x|y>", "|"),
    *("<script>", "<img src=x onerror=alert(1)>", " onfocus=", "autofocus", "javascript:"),
    *("*", "_", "~", "> ", "# ", "\n", " ", "x", "@everyone", "<@U1>", "https://b.example"),
]


class _Tags(HTMLParser):
    """Every tag and attribute in a piece of HTML."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))


def _markup_made_by_text(html: str, allowed: set[str]) -> list[str]:
    parser = _Tags()
    parser.feed(html)
    parser.close()
    found = []
    for tag, attrs in parser.tags:
        if tag not in allowed:
            found.append(f"<{tag}>")
        for name, value in attrs:
            if name == "class" and tag == "code" and (value or "").startswith("language-"):
                continue  # markdown-it names a fence's language, escaped
            if name not in ATTRIBUTES:
                found.append(f"{tag} {name}=")
            elif name == "href" and not (value or "").startswith(("https://", "http://")):
                found.append(f"href={value}")
    return found


def test_a_link_in_a_code_fence_is_shown_not_made_a_tag() -> None:
    html = slack_html(f"```\n{INJECTED_LINK}\n```")
    assert html.startswith('<pre>&lt;https://x|x" autofocus')
    assert _markup_made_by_text(html, {"pre"}) == []


def test_a_link_split_by_inline_code_is_shown_not_made_a_tag() -> None:
    for text in (f"`{INJECTED_LINK}`", '[a`b" onfocus="x](http://x) `c'):
        assert _markup_made_by_text(slack_html(text), {"code"}) == []
    # Found by the property below: an empty destination made a link of text on Discord.
    assert _markup_made_by_text(discord_html("[a`b](http://x) `c]()"), DISCORD_TAGS) == []


@settings(max_examples=500)
@given(st.lists(st.sampled_from(_PIECES), max_size=12).map("".join))
def test_no_text_becomes_markup_in_either_preview(text: str) -> None:
    assert _markup_made_by_text(slack_html(text), SLACK_TAGS) == []
    assert _markup_made_by_text(discord_html(text), DISCORD_TAGS) == []


@pytest.fixture
def bot(sessions) -> Bot:  # noqa: ANN001
    return Bot(sessions)


async def _preview(client: TestClient, bot: Bot, text: str | bytes) -> tuple[int, str]:
    status, html = await open_page(client, bot.link(EDITOR.user_id))
    assert status == 200
    response = await client.post(
        f"/review/{bot.draft}/preview", data={"csrf": csrf_of(html), "text": text}
    )
    return response.status, await response.text()


def test_a_text_over_the_section_cap_is_refused_before_rendering(bot: Bot) -> None:
    rendered: list[int] = []
    previews = bot.site.render.previews
    bot.site.render.previews = lambda text: rendered.append(len(text)) or previews(text)

    async def body(client: TestClient) -> None:
        status, text = await _preview(client, bot, "[" * MAX_SECTION_CHARS)
        assert status == 200 and MAX_SECTION_CHARS in rendered
        status, text = await _preview(client, bot, "[" * (MAX_SECTION_CHARS + 1))
        assert status == 413 and "40,001 characters" in text and "not previewed" in text
        status, text = await _preview(client, bot, "x" * 900_000)  # a 0.9 MB body
        assert status == 413 and "900,000 characters" in text
        assert max(rendered) == MAX_SECTION_CHARS  # the page's own sections are rendered too

    scenario(bot, body)


def test_the_page_answers_while_a_preview_renders(bot: Bot) -> None:
    started, release = threading.Event(), threading.Event()
    previews = bot.site.render.previews

    def slow_previews(text: str) -> dict[str, str]:
        if text == "**held**":  # the asked preview, not the page's own (sections, whole post)
            started.set()
            release.wait(timeout=20)  # held until the page has answered something else
        return previews(text)

    bot.site.render.previews = slow_previews

    async def body(client: TestClient) -> None:
        status, html = await open_page(client, bot.link(EDITOR.user_id))
        form = {"csrf": csrf_of(html), "text": "**held**"}

        preview = asyncio.ensure_future(client.post(f"/review/{bot.draft}/preview", data=form))
        await asyncio.to_thread(started.wait, 20)
        state = await client.get(f"/review/{bot.draft}/state")
        answered_while_rendering = state.status == 200 and not release.is_set()
        release.set()
        assert answered_while_rendering
        assert "<strong>held</strong>" in (await (await preview).json())["slack"]

    scenario(bot, body)
