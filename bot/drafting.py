"""Drafting a stored week: read it from the database, draft it, store the draft."""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, date, datetime

from sqlalchemy.orm import Session

from bot.config import Config
from bot.settings import WorkspaceSettings, workspace_settings
from bot.weeks import week_bounds, week_start
from storage.drafts import save_draft
from storage.messages import find_workspaces, messages_between, refs_between
from storage.models import Workspace
from summarizer.draft import format_title, make_draft
from summarizer.prrefs import PRRef, github_url, normalise
from summarizer.types import Draft, PRMention, SourceMessage

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
    return [
        SourceMessage(
            id=row.platform_id,
            author=row.author,
            author_id=row.author_platform_id,
            channel=row.channel,
            created_at=row.created_at,
            text=row.text,
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


def draft_week(session: Session, config: Config, workspace: Workspace, day: date) -> Draft:
    """Draft the week holding `day` and store the draft (replacing an earlier one)."""
    monday = week_start(day)
    settings = workspace_settings(session, config, workspace.id)
    messages = load_week(session, config, settings, workspace, day)
    name = config.name or workspace.name
    draft = make_draft(
        messages,
        settings.topic_list,
        workspace=workspace.name,
        week_start=monday,
        title=format_title(config.title_template, name, monday),
        max_chars=config.draft.max_chars,
    )
    save_draft(
        session,
        workspace_id=workspace.id,
        week_start=monday,
        title=draft.title,
        summarizer=EXTRACTIVE,
        created_at=datetime.now(UTC),
        sections=draft.sections,
    )
    return draft
