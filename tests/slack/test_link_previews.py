"""A member's link previews on Slack (the attachments Slack unfurls from their links) are kept
in `preview`, apart from the words they wrote; integration posts keep their attachments in
`text`, where their PR numbers are read. From an export, and live through the real Bolt app
against the fake Slack."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from tests.fakes.fakeslack import FakeSlack
from tests.slack.test_export import msg, read_one_day
from tests.slack.test_week import HERO, Slack, slack_world, ts  # noqa: F401
from tests.support.waiting import eventually, stored_previews

POST_URL = "https://blog.example.com/scaling-laws"
PR_URL = "https://github.com/o/r/pull/12"


def unfurl(url: str = POST_URL, title: str = "Title", text: str = "Description") -> dict:
    """A link unfurl as Slack attaches it under a message (the shape of the real exports)."""
    return {
        "title": title,
        "title_link": url,
        "text": text,
        "fallback": title,
        "from_url": url,
        "original_url": url,
        "service_name": "Example Blog",
        "id": 1,
    }


@pytest.mark.parametrize("link_key", ["from_url", "original_url"])
def test_a_members_link_unfurl_is_its_preview(tmp_path: Path, link_key: str) -> None:
    attachment = unfurl()
    del attachment["original_url" if link_key == "from_url" else "from_url"]
    [message] = read_one_day(
        tmp_path,
        [
            msg(
                "1453000000.000100",
                f"thought you'd enjoy this <{POST_URL}>",
                attachments=[attachment],
            )
        ],
    ).messages
    assert message.text == f"thought you'd enjoy this {POST_URL}"
    assert message.preview == "Title\nDescription"


def test_a_members_unfurl_alone_is_kept(tmp_path: Path) -> None:
    """A member's message whose only text is a link's unfurl is kept, not dropped as empty."""
    [message] = read_one_day(
        tmp_path, [msg("1453000000.000100", "", attachments=[unfurl()])]
    ).messages
    assert (message.text, message.preview) == ("", "Title\nDescription")


def test_a_members_other_attachments_stay_in_the_text(tmp_path: Path) -> None:
    quoted = {
        "is_msg_unfurl": True,
        "from_url": "https://lab.slack.com/archives/C1/p1452837318000002",
        "author_name": "Grace",
        "text": "Release 2.1 is out",
        "fallback": "[January 15th, 2016 5:55 AM] grace: Release 2.1 is out",
    }
    shared = {"pretext": "Shared from the wiki", "text": "The on-call rota for March"}
    [message] = read_one_day(
        tmp_path,
        [msg("1453000000.000100", f"see <{POST_URL}>", attachments=[quoted, unfurl(), shared])],
    ).messages
    # A quoted Slack message and an attachment made by hand are part of what was posted.
    assert message.text == (
        f"see {POST_URL}\nRelease 2.1 is out\nShared from the wiki\nThe on-call rota for March"
    )
    assert message.preview == "Title\nDescription"


def test_integration_posts_keep_their_attachments_in_the_text(tmp_path: Path) -> None:
    pr_card = unfurl(PR_URL, f"Merge <{PR_URL}|#12>: Fix the cache race", "by <@U1>")
    batch = read_one_day(
        tmp_path,
        [
            # A classic integration post: no user, its news in the attachment.
            msg(
                "1453000000.000100",
                "",
                user=None,
                subtype="bot_message",
                bot_id="B1",
                username="GitHub",
                attachments=[pr_card],
            ),
            # An incoming webhook in an older export: no user and no bot_id either.
            msg(
                "1453000000.000150",
                "",
                user=None,
                subtype="bot_message",
                username="jenkins",
                attachments=[pr_card],
            ),
            # An app's post: a bot_id, and a bot user users.json does not list.
            msg("1453000000.000200", "Deployed", user="UAPP", bot_id="B3", attachments=[pr_card]),
            # A member sharing the same link: the card is the link's preview.
            msg("1453000000.000300", f"<{PR_URL}>", attachments=[pr_card]),
        ],
    )
    github, webhook, app, member = batch.messages
    pr_line = f"Merge [#12]({PR_URL}): Fix the cache race\nby @Ada Lovelace"
    assert (github.text, github.preview) == (pr_line, "")
    assert (webhook.text, webhook.preview) == (pr_line, "")
    assert (app.text, app.preview) == (f"Deployed\n{pr_line}", "")
    assert (member.text, member.preview) == (PR_URL, pr_line)


def test_a_live_unfurl_is_stored_as_the_messages_preview(sessions, slack_world) -> None:  # noqa: F811
    """Slack posts the message first and adds the unfurl in a `message_changed` event."""
    said = ts(20, 9)
    posted: dict[str, Any] = {
        "type": "message",
        "channel": HERO,
        "user": "UANA",
        "ts": said,
        "text": f"thought you'd enjoy this <{POST_URL}>",
    }
    unfurled = {
        "type": "message",
        "subtype": "message_changed",
        "hidden": True,
        "channel": HERO,
        "ts": ts(20, 9, 1),
        "message": {**posted, "attachments": [unfurl()]},
        "previous_message": posted,
    }
    stored_id = f"{HERO}:{said}"

    async def scenario() -> None:
        async with FakeSlack() as fake:
            slack_world(fake)
            s = Slack(fake, sessions)
            await s.enable_hero()
            assert await s.event(posted) == 200
            assert await s.event(unfurled) == 200
            await eventually(lambda: stored_previews(sessions).get(stored_id, ("", ""))[1] != "")
            assert stored_previews(sessions)[stored_id] == (
                f"thought you'd enjoy this {POST_URL}",
                "Title\nDescription",
            )

    asyncio.run(asyncio.wait_for(scenario(), 30))
