"""Building source messages and topics for summarizer tests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from itertools import count

from summarizer.prrefs import github_url, normalise, parse_pr_refs
from summarizer.types import PRMention, SourceMessage, Topic

T0 = datetime(2026, 11, 17, 9, 0, tzinfo=UTC)
_ids = count(1)

TOPICS = [
    Topic("hero-run", "Hero run", ("hero-run",), ("MFU", "hero run", "checkpoint")),
    Topic("iris", "Iris", ("iris",), ("scheduler", "preemption")),
    Topic("data", "Data", ("data",), ("dedup", "tokenizer")),
    Topic("introductions", "Introductions", ("introductions",)),
    Topic("other", "Other updates"),
]


def msg(
    text: str,
    *,
    channel: str = "general",
    author: str = "Ana Ruiz",
    minutes: int | None = None,
    default_repo: str | None = "lab/main",
    **kw,
) -> SourceMessage:
    """A message with its PR refs parsed the way the bot does it."""
    n = next(_ids)
    prs = tuple(
        PRMention(r.raw, ref, github_url(ref))
        for r in parse_pr_refs(text)
        for ref in [normalise(r, default_repo)]
    )
    return SourceMessage(
        id=kw.pop("id", f"m{n}"),
        author=author,
        author_id=author.lower().replace(" ", "."),
        channel=channel,
        created_at=T0 + timedelta(minutes=n if minutes is None else minutes),
        text=text,
        prs=prs,
        **kw,
    )
