"""Commits an integration bot reports pushed outside any PR or issue, one line per repository:
"New commits to loader: "Retry on 503" and "Add a timeout test" (Ana Ruiz)."

In a small project the week's work may be said nowhere else than in its push posts. A PR's or
an issue's own commits are not repeated here: they are said with it (`summarizer.integrations`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from summarizer.integrations import Commit, commits, integration_items, post_repo
from summarizer.logins import member_named
from summarizer.text import defuse_pings, listed
from summarizer.types import SourceMessage

SHOWN = 3  # a repository's newest this many commit messages are quoted; the rest counted
# A commit that names its PR ("wal: release the lock before fsync (#2307)"): a squashed PR,
# said with the PR.
_SQUASHED_RE = re.compile(r"\(#\d+\)\s*$")


@dataclass(frozen=True, slots=True)
class Digest:
    """One repository's pushed commits as a bullet's text, with who made them and where."""

    text: str
    people: list[str]
    sources: list[str]  # the push posts' message ids
    time: float  # the newest post's


def commit_digests(messages: Sequence[SourceMessage], members: Mapping[str, str]) -> list[Digest]:
    """A line per repository for the commits the bot posts among `messages` report pushed
    and no PR or issue post of them lists; merge commits and squashed PRs are left out.
    Who made them is said by the name `members` (`summarizer.logins`) knows them by."""
    in_items: set[str] = set()
    pushed: dict[str, dict[str, tuple[Commit, SourceMessage]]] = {}  # repo -> message -> ...
    for message in messages:
        if not message.is_bot:
            continue
        listed = commits(message.text)
        repo = post_repo(message.text)
        if integration_items(message.text):
            in_items.update(c.sha for c in listed)
        elif repo is not None:
            for commit in listed:
                if not (commit.message.startswith("Merge ") or _SQUASHED_RE.search(commit.message)):
                    pushed.setdefault(repo, {}).setdefault(commit.message, (commit, message))
    digests = []
    for repo, by_message in pushed.items():
        kept = [(c, m) for c, m in by_message.values() if c.sha not in in_items]
        if kept:
            digests.append(_digest(repo, kept, members))
    return digests


def _digest(
    repo: str, kept: Sequence[tuple[Commit, SourceMessage]], members: Mapping[str, str]
) -> Digest:
    """`kept` (in the order they were pushed) as one line: the newest `SHOWN` quoted."""
    shown = [f'"{c.message.rstrip(".")}"' for c, _ in kept[-SHOWN:]]
    if len(kept) > len(shown):
        said = f"{len(kept)} new commits to {repo}, the latest {listed(shown)}"
    elif len(kept) > 1:
        said = f"New commits to {repo}: {listed(shown)}"
    else:
        said = f"New commit to {repo}: {listed(shown)}"
    people = list(dict.fromkeys(member_named(c.person, members) for c, _ in kept if c.person))
    credit = f" ({', '.join(people)})" if people else ""
    return Digest(
        text=f"- {defuse_pings(said)}{credit}.",
        people=people,
        sources=list(dict.fromkeys(m.id for _, m in kept)),
        time=max(m.created_at.timestamp() for _, m in kept),
    )
