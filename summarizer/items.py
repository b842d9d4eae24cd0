"""A week's work items as plain data: what each topic's conversations changed, for any drafter.

A work item is what the extractive drafter writes one bullet for: a PR, or a conversation that
settled something (see `summarizer.facts`), or one newcomer's introduction. Here it is
shown with its facts (the item's own sentences, cleaned but not reworded, each with the message
it came from), its PRs with their GitHub links and titles, its figures and its people, so that
a drafter such as the LLM's can write from the facts instead of the whole chat log.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from summarizer.bullets import bullets, settled
from summarizer.grouping import introductions_topic
from summarizer.introductions import introduction, is_welcome, self_description, welcome
from summarizer.logins import members_by_login
from summarizer.text import defuse_pings
from summarizer.types import PRMention, SourceMessage, Topic

if TYPE_CHECKING:
    from summarizer.bullets import Bullet  # the extractive drafter's own form of an item


@dataclass(frozen=True, slots=True)
class ItemFact:
    """One sentence of a work item, as its author wrote it, and where it came from."""

    text: str
    author: str
    message_id: str
    prs: tuple[str, ...] = ()  # normalised refs the sentence cites
    figures: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class WorkItem:
    """One thing the week changed, with everything a section may say about it."""

    topic: str
    people: tuple[str, ...]  # who said its facts, the lead's author first
    prs: tuple[PRMention, ...]  # every PR it cites, with GitHub's url and title when known
    figures: tuple[str, ...]
    facts: tuple[ItemFact, ...]  # most telling first; empty for a PR only a bot mentioned
    bullet: str  # the extractive drafter's bullet for it (Markdown)
    sources: tuple[str, ...]  # ids of the messages it was drawn from
    value: float  # how much it covers (PRs, figures, reactions): higher first


def work_items(
    grouped: Mapping[str, Sequence[SourceMessage]], topics: Sequence[Topic]
) -> dict[str, list[WorkItem]]:
    """Each topic's work items (topic id -> items, most valuable first), for the topics
    that have messages. `grouped` is `summarizer.grouping.group_by_topic`'s answer."""
    intro = introductions_topic(topics)
    members = members_by_login(m for messages in grouped.values() for m in messages)
    written = settled(
        [
            b
            for t in topics
            if t is not intro
            for b in bullets(t.id, grouped.get(t.id) or [], members)
        ]
    )
    items: dict[str, list[WorkItem]] = {}
    for topic in topics:
        if topic is intro:
            found = _introductions(topic.id, grouped.get(topic.id) or [])
        else:
            found = [_item(topic.id, bullet) for bullet in written if bullet.topic == topic.id]
        if found:
            items[topic.id] = sorted(found, key=lambda item: -item.value)
    return items


def _item(topic: str, bullet: Bullet) -> WorkItem:
    facts = tuple(
        ItemFact(
            text=fact.text,
            author=fact.message.author,
            message_id=fact.message.id,
            prs=tuple(p.ref for p in fact.prs),
            figures=tuple(sorted(fact.figures)),
        )
        for fact in bullet.facts
    )
    figures = dict.fromkeys(f for fact in facts for f in fact.figures)
    return WorkItem(
        topic=topic,
        people=tuple(dict.fromkeys([*bullet.people, *(f.author for f in facts)])),
        prs=tuple(bullet.prs.values()),
        figures=tuple(figures),
        facts=facts,
        bullet=bullet.markdown,
        sources=tuple(dict.fromkeys([*bullet.sources, *(f.message_id for f in facts)])),
        value=bullet.value,
    )


def _introductions(topic: str, messages: Sequence[SourceMessage]) -> list[WorkItem]:
    """One item per newcomer: their first introduction that says something; and one per
    member's welcome of newcomers (`is_welcome`)."""
    items: dict[str, WorkItem] = {}
    for message in messages:
        welcomed = is_welcome(message)
        line = (
            ""
            if message.author in items
            else welcome(message)
            if welcomed
            else introduction(message)
        )
        if not line:
            continue
        said = [line] if welcomed else self_description(message)
        items[message.author] = WorkItem(
            topic=topic,
            people=(message.author,),
            prs=message.prs,
            figures=(),
            facts=tuple(ItemFact(text, message.author, message.id) for text in said),
            bullet="- " + defuse_pings(line),
            sources=(message.id,),
            value=1.0,
        )
    return list(items.values())
