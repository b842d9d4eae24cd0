"""What a section will look like on each platform, as HTML for the review page.

Both start from the text as it is published (`published_section`: links disclose their host,
nobody is pinged). Discord receives that Markdown as it is and renders a subset of it;
Slack receives it converted by `to_mrkdwn`, the converter its port sends with, and renders
mrkdwn. Neither can inject markup: Discord's is rendered by markdown-it with raw HTML off.
mrkdwn comes escaped (`&`, `<`, `>`) from `to_mrkdwn` except for the `<url|label>` links it
makes, and those may land inside code, where they are shown as text; so every piece of text
written here, code and code fences included, has its `<`, `>` escaped again, and only the
tags made here exist.

Every pattern here looks at each character a bounded number of times (a preview is linear in
the text's length); the review page caps the text and renders it off the event loop.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt

from bot.core.mrkdwn import to_mrkdwn
from bot.core.review_text import published_section

# What Discord does not render: images, rules, underlined headings, indented code, reference
# links. Raw HTML is shown as text there too.
_DISCORD = (
    MarkdownIt("commonmark", {"html": False})
    .enable("strikethrough")
    .disable(["image", "hr", "lheading", "code", "reference"])
)

_FENCE_RE = re.compile(r"```(.*?)```", re.DOTALL)
_CODE_RE = re.compile(r"`([^`\n]+)`")
_LINK_RE = re.compile(r"<(https?://[^|<>\s]++)\|([^<>]*+)>")
_STYLES = [
    (re.compile(rf"(?<![\w{mark}])\{mark}(?=\S)([^{mark}\n]+?)(?<=\S)\{mark}(?![\w{mark}])"), tag)
    for mark, tag in (("*", "strong"), ("_", "em"), ("~", "del"))
]


def discord_html(markdown: str) -> str:
    """The section as Discord shows it."""
    return _DISCORD.render(published_section(markdown))


def slack_html(markdown: str) -> str:
    """The section as Slack shows it: the mrkdwn it is sent as, rendered (bold, italics,
    strike-through, code, links, quotes; line breaks kept by the page's stylesheet)."""
    parts = _FENCE_RE.split(to_mrkdwn(published_section(markdown)))
    return "".join(
        f"<pre>{_text(part.strip(chr(10)))}</pre>" if n % 2 else _slack_lines(part)
        for n, part in enumerate(parts)
    )


def _slack_lines(text: str) -> str:
    lines = []
    for line in text.split("\n"):
        if line.startswith("&gt; "):
            lines.append(f"<blockquote>{_slack_inline(line[5:])}</blockquote>")
        else:
            lines.append(_slack_inline(line))
    return "\n".join(lines)


def _slack_inline(text: str) -> str:
    parts = _CODE_RE.split(text)
    return "".join(
        f"<code>{_text(part)}</code>" if n % 2 else _slack_links(part)
        for n, part in enumerate(parts)
    )


def _slack_links(text: str) -> str:
    out = []
    position = 0
    for match in _LINK_RE.finditer(text):
        out.append(_styled(text[position : match.start()]))
        href = _text(match[1]).replace('"', "&quot;").replace("'", "&#39;")
        out.append(f'<a href="{href}" rel="noreferrer noopener">{_styled(match[2])}</a>')
        position = match.end()
    out.append(_styled(text[position:]))
    return "".join(out)


def _text(mrkdwn: str) -> str:
    """mrkdwn as HTML text: its entities (`&amp;`, `&lt;`, `&gt;`) mean the same in HTML, and
    the raw `<`, `>` of a link that was not made an `<a>` are shown, not parsed."""
    return mrkdwn.replace("<", "&lt;").replace(">", "&gt;")


def _styled(text: str) -> str:
    text = _text(text)
    for pattern, tag in _STYLES:
        text = pattern.sub(rf"<{tag}>\1</{tag}>", text)
    return text
