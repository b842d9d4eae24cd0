"""Members' news in a draft: each item placed under its topic as the drafter places
messages, and added to that section as a line of its own, marked with who sent it. The
budget never drops one: an editor decides."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

from summarizer.grouping import TopicScorer
from summarizer.newsletter import voiced
from summarizer.text import defuse_pings, listed
from summarizer.types import NewsItem, Section, SourceMessage, Topic

_SENT_IN_RE = re.compile(r" \(sent in by [^()]+\)\.?$")  # (drafts before 2026-12-07: no stop)
NAMED_SENDERS = 3  # a message more members marked credits the first two and counts the rest


def by_message(items: Sequence[NewsItem]) -> list[NewsItem]:
    """The items, those marking one message made one, sent in by everyone who marked it (in
    the order they did): nine members' news reactions on a story are one line, not nine."""
    senders: dict[str, list[str]] = {}  # (by message, in the order they marked it)
    merged: list[NewsItem] = []
    for item in items:
        key = item.message_id
        if key is None or key not in senders:
            merged.append(item)
            if key is not None:
                senders[key] = [item.sender]
        elif item.sender not in senders[key]:
            senders[key].append(item.sender)
    return [
        item
        if item.message_id is None or len(senders[item.message_id]) == 1
        else replace(item, sender=_senders(senders[item.message_id]))
        for item in merged
    ]


def _senders(names: Sequence[str]) -> str:
    if len(names) <= NAMED_SENDERS:
        return listed(names)
    return f"{names[0]}, {names[1]} and {len(names) - 2} others"


def lines_by_item(items: Sequence[NewsItem]) -> dict[str, str]:
    """Each of `items`' ids -> the line it is said in (one for a message several members
    marked: `by_message`)."""
    marked = {m.message_id: news_line(m) for m in by_message(items) if m.message_id}
    return {i.id: marked[i.message_id] if i.message_id else news_line(i) for i in items}


def place_news(
    items: Sequence[NewsItem],
    grouped: Mapping[str, Sequence[SourceMessage]],
    topics: Sequence[Topic],
) -> dict[str, list[NewsItem]]:
    """Each item under a topic id: a marked message where grouping put it; any other item
    where its channel and words point (`TopicScorer`); the rest under the catch-all (the
    last topic)."""
    placed_message = {m.id: topic for topic, found in grouped.items() for m in found}
    scorer = TopicScorer(topics)
    placed: dict[str, list[NewsItem]] = {}
    for item in items:
        topic = placed_message.get(item.message_id or "")
        if topic is None:
            scores = scorer.scores(_as_message(item))
            best = max(range(len(topics)), key=lambda t: (scores[t], -t))
            topic = topics[best].id if scores[best] > 0 else topics[-1].id
        placed.setdefault(topic, []).append(item)
    return placed


def _as_message(item: NewsItem) -> SourceMessage:
    return SourceMessage(
        item.message_id or f"news:{item.id}",
        item.author or item.sender,
        "",
        item.channel or "",
        item.submitted_at,
        item.text,
    )


def news_line(item: NewsItem) -> str:
    """The item as a line of its section, in a newsletter's voice, ending with who sent it:
    "- Ana fixed the loader (sent in by Ben Ode)."."""
    author = item.author or item.sender
    text, subject = voiced(item.text, author)
    text = text or " ".join(item.text.split())
    credit = f" ({author})" if item.author and not subject and item.author != item.sender else ""
    return defuse_pings(f"- {text}{credit} (sent in by {item.sender}).")


def add_news(
    sections: Sequence[Section], placed: Mapping[str, Sequence[NewsItem]], topics: Sequence[Topic]
) -> list[Section]:
    """Sections with each placed item's line at the end of its topic's section (a topic
    without a section gets one); a marked message becomes one of the section's sources."""
    by_topic = {s.topic: s for s in sections}
    result = []
    for topic in topics:
        section = by_topic.get(topic.id)
        items = placed.get(topic.id, ())
        if items:
            base = section or Section(topic=topic.id, title=topic.title, markdown="")
            lines = [news_line(item) for item in items]
            sources = [i.message_id for i in items if i.message_id not in (None, *base.sources)]
            section = Section(
                topic=base.topic,
                title=base.title,
                markdown="\n".join(filter(None, [base.markdown, *lines])),
                prs=list(base.prs),
                people=list(base.people),
                sources=[*base.sources, *(s for s in sources if s is not None)],
                drafter=base.drafter,
                warnings=list(base.warnings),
            )
        if section is not None:
            result.append(section)
    return result


def is_news_line(line: str) -> bool:
    """Whether a line of a section is a member's news item (`news_line`)."""
    return line.startswith("- ") and _SENT_IN_RE.search(line) is not None


def keep_news(rewritten: Sequence[Section], drafted: Sequence[Section]) -> list[Section]:
    """`rewritten` (sections another drafter wrote from `drafted`) with every news line of
    `drafted` that it lost put back at the end of its section."""
    lines = {s.topic: [ln for ln in s.markdown.splitlines() if is_news_line(ln)] for s in drafted}
    kept = []
    for section in rewritten:
        lost = [ln for ln in lines.get(section.topic, []) if ln not in section.markdown]
        markdown = "\n".join([section.markdown.rstrip(), *lost]) if lost else section.markdown
        kept.append(replace(section, markdown=markdown))
    return kept
