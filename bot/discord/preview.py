"""What a section will look like on Discord, as HTML for the review page.

It starts from the text as it is published (`published_section`: links disclose their host,
nobody is pinged): Discord receives that Markdown as it is and renders a subset of it, here
by markdown-it with raw HTML off, so an editor's text cannot inject markup.
"""

from __future__ import annotations

from markdown_it import MarkdownIt

from bot.core.review_text import published_section

# What Discord does not render: images, rules, underlined headings, indented code, reference
# links. Raw HTML is shown as text there too.
_DISCORD = (
    MarkdownIt("commonmark", {"html": False})
    .enable("strikethrough")
    .disable(["image", "hr", "lheading", "code", "reference"])
)


def discord_html(markdown: str) -> str:
    """The section as Discord shows it."""
    return _DISCORD.render(published_section(markdown))
