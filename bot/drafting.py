"""Drafting a stored week: read it from the database, draft it, store the draft."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta

from sqlalchemy.orm import Session

from bot.config import Config
from bot.settings import WorkspaceSettings, workspace_settings
from bot.weeks import week_bounds, week_start
from storage.drafts import get_draft, save_draft
from storage.messages import find_workspaces, messages_between, refs_between
from storage.models import Draft as StoredDraft
from storage.models import Workspace
from storage.privacy import forgotten_names
from summarizer.draft import format_title, make_draft
from summarizer.prrefs import PRRef, github_url, normalise
from summarizer.types import Draft, PRMention, Section, SourceMessage

EXTRACTIVE = "extractive"


class DraftingError(Exception):
    """A draft that cannot be made, with the reason in words."""


def resolve_workspace(session: Session, name: str | None) -> Workspace:
    """The workspace called `name` (or its platform id), or the only one there is."""
    workspaces = find_workspaces(session)
    if not workspaces:
        raise DraftingError("the database holds no messages yet; run `summarybot import` first")
    if name is None:
        if len(workspaces) > 1:
            names = ", ".join(w.name for w in workspaces)
            raise DraftingError(
                f"several workspaces are stored ({names}); pick one with --workspace"
            )
        return workspaces[0]
    for workspace in workspaces:
        if name in (workspace.name, workspace.platform_id):
            return workspace
    names = ", ".join(w.name for w in workspaces)
    raise DraftingError(f"no workspace called {name!r}; stored: {names}")


def load_week(
    session: Session, config: Config, settings: WorkspaceSettings, workspace: Workspace, day: date
) -> list[SourceMessage]:
    """The stored messages of the week holding `day`, with their PR refs normalised."""
    start, end = week_bounds(day, settings.timezone)
    mentions: dict[int, list[PRMention]] = defaultdict(list)
    for row in refs_between(session, workspace.id, start, end):
        ref = normalise(PRRef(row.repo, row.number, row.raw), settings.default_repo, config.repos)
        # GitHub redirects /issues/N to the PR when N is one, but not the other way round.
        kind = "pull" if "/pull/" in row.raw else "issues"
        mentions[row.message_id].append(PRMention(row.raw, ref, github_url(ref, kind)))
    unnamed = _unnamer(forgotten_names(session, workspace.id))
    return [
        SourceMessage(
            id=row.platform_id,
            author=row.author,
            author_id=row.author_platform_id,
            channel=row.channel,
            created_at=row.created_at,
            text=unnamed(row.text),
            is_bot=row.is_bot,
            thread_id=row.thread_id,
            reply_to_id=row.reply_to_id,
            prs=tuple(mentions.get(row.id, ())),
            reactions=row.reaction_count,
            replies=row.reply_count,
            permalink=row.permalink,
        )
        for row in messages_between(session, workspace.id, start, end)
    ]


LOCKED = ("approved", "published")


def _unnamer(names: set[str]) -> Callable[[str], str]:
    """A function that replaces the names of members who opted out with "a member"."""
    if not names:
        return lambda text: text
    pattern = re.compile(
        r"@?\b(?:" + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)) + r")\b",
        re.IGNORECASE,
    )
    return lambda text: pattern.sub("a member", text)


def draft_week(session: Session, config: Config, workspace: Workspace, day: date) -> StoredDraft:
    """Draft the week holding `day` and store it. Drafting a week again replaces its sections
    but keeps those an editor has edited; an approved or published week is not redrafted."""
    monday = week_start(day)
    existing = get_draft(session, workspace.id, monday)
    if existing is not None and existing.status in LOCKED:
        raise DraftingError(
            f"the summary of the week of {monday} was already {existing.status}; "
            "it is not drafted again"
        )
    settings = workspace_settings(session, config, workspace.id)
    messages = load_week(session, config, settings, workspace, day)
    draft = make_draft(
        messages,
        settings.topic_list,
        workspace=workspace.name,
        week_start=monday,
        title=format_title(config.title_template, config.name or workspace.name, monday),
        max_chars=config.draft.max_chars,
    )
    edited = {s.topic for s in existing.sections if s.revisions} if existing else set()
    return save_draft(
        session,
        workspace_id=workspace.id,
        week_start=monday,
        title=draft.title,
        summarizer=EXTRACTIVE,
        created_at=datetime.now(UTC),
        sections=draft.sections,
        links={m.id: m.permalink for m in messages if m.permalink},
        keep_topics=edited,
    )


def as_summary(draft: StoredDraft, workspace_name: str) -> Draft:
    """A stored draft (with its editors' changes) in the summarizer's terms, for rendering."""
    return Draft(
        workspace=workspace_name,
        week_start=draft.week_start,
        week_end=draft.week_start + timedelta(days=7),
        title=draft.title,
        sections=[
            Section(s.topic, s.title, s.markdown, list(s.prs), list(s.people), list(s.sources))
            for s in draft.sections
        ],
    )
