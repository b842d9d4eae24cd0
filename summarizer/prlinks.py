"""PR references as links: GitHub's URL, a short label, the PR's title on hover."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from summarizer.types import PRMention

_SHORT_REF_RE = re.compile(r"[\w.-]{0,40}#\d+")
# A link its author labelled: "[#3310 Refactor xDS cache](https://github.com/...)".
_LABELLED_RE = re.compile(r"\[(?P<label>[^\[\]\n]+)\]\(")
_LINK_TARGET_RE = re.compile(r'\]\([^()\s]*(?:\s"[^"\n]*")?\)')


def link(mention: PRMention) -> str:
    """`[#12](url "Title, by login")`: the PR's meaning on the link when GitHub gave it."""
    shown = label(mention)
    return f"[{shown}]({mention.url}{_title(mention)})" if mention.url else shown


def label(mention: PRMention) -> str:
    """How a PR is shown: as written when that is short ("#12", "Repo#12"), else in full."""
    if mention.shown:
        return mention.shown
    return mention.raw if _SHORT_REF_RE.fullmatch(mention.raw) else mention.ref


def _title(mention: PRMention) -> str:
    if not mention.title:
        return ""
    text = mention.title + (f", by {mention.author}" if mention.author else "")
    return ' "' + text.replace('"', "'") + '"'


def link_prs(text: str, mentions: Sequence[PRMention]) -> str:
    """Turn each PR reference in `text` into a GitHub link where the repository is known."""
    for mention in mentions:
        if mention.url is None:
            continue
        label = mention.shown or (
            mention.raw if mention.raw.startswith(("#", "PR", "pr")) else mention.ref
        )
        link = f"[{label}]({mention.url}{_title(mention)})"
        if mention.raw.startswith("["):
            link = _after_its_label(mention, link)
        text = _first_outside_links(_ref_pattern(mention.raw), link, text)
    return text


def _first_outside_links(pattern: re.Pattern[str], link: str, text: str) -> str:
    """`text` with the first match of `pattern` outside a link's target and title replaced
    by `link` (a PR's title may cite another: "#448 "Codebook training (split from #436)"")."""
    targets = [t.span() for t in _LINK_TARGET_RE.finditer(text)] if "](" in text else []
    for match in pattern.finditer(text):
        if not any(start <= match.start() < end for start, end in targets):
            return text[: match.start()] + link + text[match.end() :]
    return text


def _after_its_label(mention: PRMention, link: str) -> str:
    """The link after the words its author labelled it with, where they say more than the
    PR's number: "[#3310 Refactor xDS cache](url)" -> "Refactor xDS cache ([#3310](url))"."""
    labelled = _LABELLED_RE.match(mention.raw)
    if labelled is None:
        return link
    number = mention.ref.rpartition("#")[2]
    ref = re.search(
        rf"(?:\b(?:PR|pull request|issue)\s*)?[\w./-]{{0,80}}#?{number}\b", labelled[1], re.I
    )
    said = labelled[1] if ref is None else labelled[1][: ref.start()] + labelled[1][ref.end() :]
    said = said.strip(" :-–—,")
    if not re.search(r"[^\W\d_]{2}", said):
        return link  # ("[#3310](url)", "[PR 3310](url)": the number is all it says)
    # (shown as written where that is "#3310"; else as the full reference)
    shown = mention.shown or (ref[0] if ref is not None and ref[0].startswith("#") else mention.ref)
    return f"{said} ([{shown}]({mention.url}{_title(mention)}))"


@functools.lru_cache(maxsize=4096)
def _ref_pattern(raw: str) -> re.Pattern[str]:
    """`raw` as written, not inside a word, a link label or a path (with the angle brackets
    of an autolink around it, which the link replaces)."""
    return re.compile(r"<?(?<![\w\[/])" + re.escape(raw) + r"(?![\w\]])>?")


def with_refs(text: str, links: Sequence[str]) -> str:
    """`text` with `links` in parentheses before its full stop (an exclamation's mark
    becomes one: "It's out! (Ana)" reads as a slip)."""
    if not links:
        return text
    refs = f"({', '.join(links)})"
    return f"{text.rstrip('.!')} {refs}." if text.endswith((".", "!")) else f"{text} {refs}"
