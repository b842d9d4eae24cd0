"""PR and issue references in a chat message's text, linked for the review page: a bare
`#8538` to the workspace's configured repository, `owner/repo#12` to its own."""

from __future__ import annotations

import re

from markupsafe import Markup, escape

# As `summarizer.prrefs` writes them; not inside a word, a path, a URL's fragment or an
# HTML entity (`&#39;` of the escaped text).
_REF_RE = re.compile(
    r"(?<![\w./&#-])(?P<repo>[A-Za-z0-9][A-Za-z0-9_-]{0,38}/[A-Za-z0-9_.-]{1,100})?"
    r"#(?P<number>[1-9][0-9]{0,6})(?![\w-])"
)


def link_refs(text: str, repo: str) -> Markup:
    """`text`, escaped, with its references as links; a bare one only when `repo` (the
    default repository, owner/name) is given."""

    def link(match: re.Match[str]) -> str:
        target = match["repo"] or repo
        if not target:
            return match[0]
        # GitHub sends /issues/N to the PR when N is one.
        href = f"https://github.com/{target}/issues/{match['number']}"
        return f'<a href="{escape(href)}" rel="noreferrer noopener" target="_blank">{match[0]}</a>'

    return Markup(_REF_RE.sub(link, str(escape(text))))
