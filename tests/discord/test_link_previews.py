"""A member's link previews on Discord (the embeds Discord unfurls from their links) are kept
in `preview`, apart from the words they wrote; bots' and webhooks' embeds stay in `text`,
where GitHub's posts carry their PR numbers. From a DiscordChatExporter file, and live
through the real discord.py client against the fake Discord."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from tests.discord.test_export import GITHUB, _export, _message, _read
from tests.discord.test_week import ANA, HERO, bot_on_fake, on
from tests.fakes.fakediscord import FakeDiscord
from tests.support.waiting import eventually, stored_previews

POST_URL = "https://blog.example.com/scaling-laws"
PR_URL = "https://github.com/marin-community/marin/pull/8077"
PR_TITLE = "[marin-community/marin] Pull request opened: #8077 Fix tokenizer cache race"
PR_BODY = "Closes #8070. Adds a lock around the cache write."
GITHUB_HOOK = "1500000000000000001"


def dce_embed(title: str, description: str, url: str = POST_URL) -> dict[str, Any]:
    """An embed as DiscordChatExporter writes it."""
    return {
        "title": title,
        "url": url,
        "timestamp": None,
        "description": description,
        "color": None,
        "images": [],
        "fields": [],
        "inlineEmojis": [],
    }


def test_a_members_link_embed_is_its_preview(tmp_path: Path) -> None:
    embed = dce_embed("Scaling laws, revisited", "What the <#600> crowd found")
    batch = _read(
        tmp_path, _export([_message("1", f"thought you'd enjoy this {POST_URL}", embeds=[embed])])
    )
    [message] = batch.messages
    assert message.text == f"thought you'd enjoy this {POST_URL}"
    # Raw markup in the preview is turned into words as in the text.
    assert message.preview == "Scaling laws, revisited\nWhat the #dev crowd found"


def test_a_github_posts_embed_stays_in_its_text(tmp_path: Path) -> None:
    card = dce_embed(PR_TITLE, PR_BODY, PR_URL)
    batch = _read(
        tmp_path,
        _export(
            [_message("1", "", author=GITHUB, embeds=[card]), _message("2", PR_URL, embeds=[card])]
        ),
    )
    github, member = batch.messages
    assert (github.text, github.preview) == (f"{PR_TITLE}\n{PR_BODY}", "")
    # A member sharing the same pull request: the card is the link's preview.
    assert (member.text, member.preview) == (PR_URL, f"{PR_TITLE}\n{PR_BODY}")


def test_a_members_embed_without_content_is_kept(tmp_path: Path) -> None:
    embed = dce_embed("Scaling laws, revisited", "A summary of the post")
    batch = _read(tmp_path, _export([_message("1", "", embeds=[embed])]))
    [message] = batch.messages
    assert (message.text, message.preview) == ("", "Scaling laws, revisited\nA summary of the post")


def api_embed(title: str, description: str, url: str = POST_URL, kind: str = "article") -> dict:
    """An embed as the Discord API sends it."""
    return {"type": kind, "url": url, "title": title, "description": description}


def test_live_members_previews_and_a_github_webhooks_embed(sessions) -> None:
    async def scenario() -> None:
        async with bot_on_fake(sessions) as (fake, _):
            await eventually(lambda: len(stored_previews(sessions)) == 2)
            await live(fake, sessions)

    asyncio.run(asyncio.wait_for(scenario(), 60))


async def live(fake: FakeDiscord, sessions) -> None:  # noqa: ANN001 (a sessionmaker)
    # Discord sends the message, then the embed it unfurled from the link as an update.
    shared = fake.message(HERO, ANA, f"thought you'd enjoy this {POST_URL}", timestamp=on(19, 10))
    await fake.dispatch("MESSAGE_CREATE", shared)
    preview = api_embed("Scaling laws, revisited", "A summary of the post")
    await fake.dispatch("MESSAGE_UPDATE", dict(shared, embeds=[preview]))

    # A member's message that is only a link preview (the link hidden in the embed).
    bare = fake.message(HERO, ANA, "", embeds=[preview], timestamp=on(19, 11))
    await fake.dispatch("MESSAGE_CREATE", bare)

    # GitHub's webhook: no member, a bot author, and its news only in the embed.
    post = fake.message(
        HERO,
        GITHUB_HOOK,
        "",
        embeds=[api_embed(PR_TITLE, PR_BODY, PR_URL, "rich")],
        timestamp=on(19, 12),
    )
    post.update(
        webhook_id=GITHUB_HOOK,
        author={
            "id": GITHUB_HOOK,
            "username": "GitHub",
            "discriminator": "0000",
            "avatar": None,
            "bot": True,
        },
    )
    await fake.dispatch("MESSAGE_CREATE", post)

    await eventually(lambda: stored_previews(sessions).get(shared["id"], ("", ""))[1] != "")
    await eventually(lambda: {bare["id"], post["id"]} <= stored_previews(sessions).keys())
    stored = stored_previews(sessions)
    assert stored[shared["id"]] == (
        f"thought you'd enjoy this {POST_URL}",
        "Scaling laws, revisited\nA summary of the post",
    )
    assert stored[bare["id"]] == ("", "Scaling laws, revisited\nA summary of the post")
    assert stored[post["id"]] == (f"{PR_TITLE}\n{PR_BODY}", "")
