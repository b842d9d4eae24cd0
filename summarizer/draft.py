"""From a week of messages to a `DraftSummary`: group by topic, draft each section, title it."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta

from summarizer.extractive import add_merged, draft_sections
from summarizer.grouping import TopicPriors, group_by_topic, place_merged
from summarizer.news import add_news, by_message, place_news
from summarizer.types import DraftSummary, NewsItem, PRMention, SourceMessage, Topic


def ordinal(day: int) -> str:
    """1 -> "1st", 12 -> "12th", 22 -> "22nd"."""
    suffix = "th" if 11 <= day % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"{day}{suffix}"


def format_title(template: str, name: str, week_start: date) -> str:
    """The summary's title from the configured template (see the default config)."""
    return template.format(
        name=name,
        month=week_start.strftime("%B"),
        day=ordinal(week_start.day),
        year=week_start.year,
    )


def make_draft(
    messages: Sequence[SourceMessage],
    topics: Sequence[Topic],
    *,
    workspace: str,
    week_start: date,
    title: str,
    max_chars: int,
    merged: Sequence[PRMention] = (),
    notes: Sequence[str] = (),
    priors: TopicPriors | None = None,
    news: Sequence[NewsItem] = (),
) -> DraftSummary:
    """The extractive draft of one week's `messages` (already limited to that week), with
    `merged`: PRs merged that week that chat never cited, `notes` for the editor,
    `priors`: where earlier weeks' drafts placed PRs and people, and `news`: what members
    sent in that week, each as a line of its own whatever the budget (one a message that
    several members marked)."""
    grouped = group_by_topic(messages, topics, priors)
    sections = draft_sections(grouped, topics, max_chars)
    if merged:
        sections = add_merged(sections, place_merged(merged, topics), topics)
    if news:
        sections = add_news(sections, place_news(by_message(news), grouped, topics), topics)
    return DraftSummary(
        workspace=workspace,
        week_start=week_start,
        week_end=week_start + timedelta(days=7),
        title=title,
        sections=sections,
        notes=list(notes),
    )
