"""Links in published and reviewed text that cannot disguise where they go.

Section text comes from chat and from editors, so a Markdown link's label may say one thing
and its target go elsewhere (`[PR #4246 the fix](https://evil.example/phish)`). `disclose`
keeps a link whose label is its URL, its host, or the GitHub reference of the same pull
request or issue; any other link gets its real host written after it, and a link to anything
but http(s) (`javascript:`, `data:`, `file:`) is reduced to its label.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

# [label](target) or [label](<target>), with an optional "title" after the target; the
# target may hold balanced parentheses, one level deep (`javascript:alert(1)`).
_LINK_RE = re.compile(
    r"\[([^\[\]\n]+)\]\(\s*<?((?:[^()\s<>]|\([^()\s<>]*\))+)>?(?:\s+\"[^\"\n]*\")?\s*\)"
)
_GITHUB_PATH_RE = re.compile(r"/([\w.-]+)/([\w.-]+)/(?:pull|issues)/(\d+)(?:[/?#].*)?")
_REF_LABEL_RE = re.compile(
    r"(?:PR\s*)?(?:(?:(?P<owner>[\w.-]+)/)?(?P<repo>[\w.-]+))?#(?P<number>\d+)", re.IGNORECASE
)
SAFE_SCHEMES = ("http", "https")


def disclose(markdown: str) -> str:
    """`markdown` with every link honest about its destination (see the module's doc)."""
    return _LINK_RE.sub(_honest, markdown)


def _honest(match: re.Match[str]) -> str:
    label, url, link = match[1], match[2], match[0]
    try:
        parts = urlsplit(url)
    except ValueError:  # e.g. a broken IPv6 host: not a link anyone can follow
        return label
    if parts.scheme.lower() not in SAFE_SCHEMES or not parts.hostname:
        return label
    host = _shown_host(parts.hostname)
    if _label_matches(label.strip(), url, host, parts.path):
        return link
    return f"{link} ({host})"


def _shown_host(hostname: str) -> str:
    """The host as ASCII (punycode), so a look-alike Unicode host cannot pass for another."""
    try:
        return hostname.encode("idna").decode("ascii")
    except UnicodeError:
        return hostname


def _label_matches(label: str, url: str, host: str, path: str) -> bool:
    """Whether the label already says where the link goes."""
    lowered = label.lower().rstrip("/")
    if lowered in (url.lower().rstrip("/"), url.lower().split("://", 1)[1].rstrip("/")):
        return True
    if lowered.removeprefix("www.") == host.removeprefix("www."):
        return True
    github = _GITHUB_PATH_RE.fullmatch(path) if host in ("github.com", "www.github.com") else None
    ref = _REF_LABEL_RE.fullmatch(label)
    if github is None or ref is None:
        return False
    owner, repo, number = github.groups()
    return (
        ref["number"] == number
        and (ref["repo"] is None or ref["repo"].lower() == repo.lower())
        and (ref["owner"] is None or ref["owner"].lower() == owner.lower())
    )
