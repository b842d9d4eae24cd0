"""What a section will look like on Discord, as HTML for the review page.

It starts from the text as it is published (`published_section`: links disclose their host,
nobody is pinged): Discord receives that Markdown as it is and renders a subset of it, here
by markdown-it with raw HTML off, so an editor's text cannot inject markup.
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore

from bot.core.review_text import published_section

# What Discord does not render: images, rules, underlined headings, indented code, reference
# links. Raw HTML is shown as text there too.
_DISCORD = (
    MarkdownIt("commonmark", {"html": False})
    .enable("strikethrough")
    .disable(["image", "hr", "lheading", "code", "reference"])
)


def _web_links_only(state: StateCore) -> None:
    """Discord makes a masked link only of a web address: `[a]()` and the like stay text."""
    for token in state.tokens:
        if token.type != "inline" or not token.children:
            continue
        kept, dropped = [], []
        for child in token.children:
            if child.type == "link_open":
                dropped.append(not str(child.attrGet("href") or "").startswith(_WEB))
                if dropped[-1]:
                    continue
            elif child.type == "link_close" and dropped.pop():
                continue
            kept.append(child)
        token.children = kept


_WEB = ("https://", "http://")
_DISCORD.core.ruler.push("web_links_only", _web_links_only)


def discord_html(markdown: str) -> str:
    """The section as Discord shows it."""
    return _DISCORD.render(published_section(markdown))
