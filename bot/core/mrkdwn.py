"""From the drafts' Markdown to Slack's mrkdwn, escaped so that nothing in it can ping. Pure: the
Slack port sends it, and the review page previews it."""

from __future__ import annotations

import re

# Markdown links, with or without a title: [#12](https://... "Title, by login"). Neither the
# label nor the URL holds a bracket (as in `bot.core.links`), and every run is possessive, so
# each character is looked at a bounded number of times: a link pattern whose label or URL
# could run over the next "[" tried it again from every "[" (9 s on 40,000 of them).
_LINK_RE = re.compile(r"\[([^\[\]\n]++)\]\((https?://[^)\s\[\]]++)(?: \"[^\"\n]*+\")?\)")
_BOLD_RE = re.compile(r"\*\*(.+?)\*\*")
_HEADING_RE = re.compile(r"^#{1,6}\s+(.+)$", re.MULTILINE)


def escape(text: str) -> str:
    """Slack's three control characters escaped: `<!everyone>`, `<@U1>` become plain text."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def to_mrkdwn(markdown: str) -> str:
    """Markdown links, bold and headings in Slack's syntax; everything else escaped."""
    text = escape(markdown)
    text = _LINK_RE.sub(lambda m: f"<{m[2]}|{m[1]}>", text)
    text = _BOLD_RE.sub(r"*\1*", text)
    return _HEADING_RE.sub(r"*\1*", text)
