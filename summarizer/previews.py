"""What a member wrote, apart from the link previews under it.

A message's `text` ends with its `preview`: the title and description the platform unfurled
for a link (Slack's attachments, Discord's embeds). Those are the linked page's words, not
the member's: a draft says what the member wrote, and names the page they linked by its
title ('the launch of "Visualized 2015" (<url>)'), instead of voicing the page's blurb as
theirs.
"""

from __future__ import annotations

import re

from summarizer.text import with_entities_decoded
from summarizer.types import SourceMessage

MAX_TITLE_WORDS = 12  # a page's title is a name; a longer first line is its blurb
MAX_BLURB_WORDS = 25  # what a page says of itself, quoted: its first sentence, if short

# A link as chat writes it, bare or in angle brackets.
LINK_RE = re.compile(r"<?(https?://[^\s>]*[^\s>.,;:!?])>?")  # (a stop after it is the sentence's)
_NAMED_LINK_RE = re.compile(r"\[[^\[\]\n]+\]\(<?https?://")
# What a quoted name cannot hold: a sentence's end ("Where would they fit? | Al Jazeera"),
# a quote of its own, or a page template left unfilled ("{{metaTag.description}}").
_NOT_A_NAME_RE = re.compile(r"[.!?]\s|[\"“”]|\{\{")
_SENTENCE_END_RE = re.compile(r"(?<=[.!?])\s")
_SITE_RE = re.compile(r" [·|] ")
_PR_PAGE_RE = re.compile(r"https://github\.com/[^/\s]+/[^/\s]+/(?:pull|issues)/\d")


def written(message: SourceMessage) -> str:
    """What the author wrote: the message's text without its link previews."""
    if not message.preview:
        return message.text
    return message.text[: len(message.text) - len(message.preview)].rstrip()


def page_title(message: SourceMessage) -> str | None:
    """The title of the page the message links to, as its preview gives it (its first
    line, when that reads as a name); None without one."""
    first = " ".join(message.preview.partition("\n")[0].split()).rstrip(".,:;")
    if (
        len(first.split()) > MAX_TITLE_WORDS
        or "://" in first
        or _NOT_A_NAME_RE.search(first)
        or not any(c.isalpha() for c in first)
    ):
        return None
    # (without the site it is on: "Release v2.0 · acme/tools", "Cities Database | MaxMind")
    return _SITE_RE.split(first, 1)[0] if " · " in first or " | " in first else first


def page_blurb(message: SourceMessage) -> str | None:
    """The first sentence the page says of itself under its title, when it is short, whole
    and holds no quote of its own; None without one."""
    # (a page's HTML entities, "&nbsp;" and such, are spaces and letters here)
    rest = " ".join(with_entities_decoded(" ".join(message.preview.splitlines()[1:])).split())
    first = _SENTENCE_END_RE.split(rest, maxsplit=1)[0]
    if (
        not first
        or len(first.split()) > MAX_BLURB_WORDS
        or first.endswith(("…", "..."))
        or "://" in first
        or _NOT_A_NAME_RE.search(first.rstrip(".!?"))
    ):
        return None
    return first.rstrip(".")


def with_titles(message: SourceMessage, *, announced: bool = False) -> str:
    """What the author wrote, its one link named by the page's title where the words around
    it do not already name it ('enjoy this "Cyrille Rossant's blog" (<url>)'); the text as
    written where the message has no preview, several links or an untitled page. What a
    member `announced` by a link (an event's page) is also said by the page's first
    sentence, quoted: there the page says what the announcement is."""
    said = written(message)
    title = page_title(message)
    links = list(LINK_RE.finditer(said))
    if title is None or len(links) != 1 or title.casefold() in said.casefold():
        return said
    if _PR_PAGE_RE.match(links[0][1]):
        return said  # a PR or issue is cited, by its own title
    if "](" in said and _NAMED_LINK_RE.search(said):
        return said  # the author named their link ("[the recording](url)")
    [link] = links
    if link[0] == said.strip():
        return said  # a link alone is a share (`summarizer.facts`), not a sentence
    said = f'{said[: link.start()]}"{title}" (<{link[1]}>){said[link.end() :]}'
    blurb = page_blurb(message) if announced else None
    return f'{said.rstrip(".")}: "{blurb}".' if blurb else said
