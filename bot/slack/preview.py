"""What a section will look like on Slack, as HTML for the review page.

It starts from the text as it is published (`published_section`: links disclose their host,
nobody is pinged), converted by `to_mrkdwn`, the converter the port sends with, and renders
that mrkdwn. An editor's text cannot inject markup: mrkdwn comes escaped (`&`, `<`, `>`)
from `to_mrkdwn` except for the `<url|label>` links it makes, and those may land inside
code, where they are shown as text; so every piece of text written here, code and code
fences included, has its `<`, `>` escaped again, and only the tags made here exist.

Every pattern here looks at each character a bounded number of times (a preview is linear in
the text's length); the review page caps the text and renders it off the event loop.
"""

from __future__ import annotations

import re

from bot.core.mrkdwn import to_mrkdwn
from bot.core.review_text import published_section

_FENCE_RE = re.compile(r"```(.*?)```", re.DOTALL)
_CODE_RE = re.compile(r"`([^`\n]+)`")
_LINK_RE = re.compile(r"<(https?://[^|<>\s]++)\|([^<>]*+)>")
_STYLES = [
    (re.compile(rf"(?<![\w{mark}])\{mark}(?=\S)([^{mark}\n]+?)(?<=\S)\{mark}(?![\w{mark}])"), tag)
    for mark, tag in (("*", "strong"), ("_", "em"), ("~", "del"))
]


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
