"""A section as each platform will show it: Slack's mrkdwn (from the converter its port sends
with) and Discord's Markdown, both as published (honest links, nobody pinged), and neither
able to inject markup into the review page."""

from __future__ import annotations

import pytest

from bot.discord.preview import discord_html
from bot.slack.preview import slack_html

HOSTILE = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "[x](javascript:alert(1))",
    '[x](https://a.example/"onmouseover="alert(1))',
    "`<b>`",
    "```\n</pre><script>\n```",
]


def test_slack_shows_its_own_bold_links_and_quotes() -> None:
    html = slack_html(
        "## Hero run\n**23.1% MFU** after [#812](https://github.com/marin/marin/pull/812), "
        "_nice_ ~gone~ `code *kept*`\n> quoted"
    )
    assert html == (
        "<strong>Hero run</strong>\n<strong>23.1% MFU</strong> after "
        '<a href="https://github.com/marin/marin/pull/812" rel="noreferrer noopener">#812</a>, '
        "<em>nice</em> <del>gone</del> <code>code *kept*</code>\n<blockquote>quoted</blockquote>"
    )


def test_a_single_star_is_bold_on_slack_and_italic_on_discord() -> None:
    assert slack_html("*one*") == "<strong>one</strong>"
    assert discord_html("*one*") == "<p><em>one</em></p>\n"


def test_both_show_the_link_s_host_and_ping_nobody() -> None:
    text = "[the fix](https://evil.example/p) for @everyone"
    assert "(evil.example)" in slack_html(text) and "(evil.example)" in discord_html(text)
    assert "@everyone" not in slack_html(text) + discord_html(text)


def test_discord_renders_only_what_discord_does() -> None:
    html = discord_html("# Title\n\n---\n\n![img](https://a.example/i.png)\n\n~~old~~")
    assert "<h1>Title</h1>" in html and "<s>old</s>" in html
    assert "<hr" not in html and "<img" not in html


@pytest.mark.parametrize("text", HOSTILE)
def test_no_text_becomes_markup(text: str) -> None:
    for html in (slack_html(text), discord_html(text)):
        assert "<script" not in html and "<img" not in html and "<b>" not in html
        assert 'href="javascript' not in html
        assert 'onmouseover="' not in html
