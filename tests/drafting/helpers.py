"""Drafting a stored test week through the drafting service, as the bot does."""

from __future__ import annotations

import asyncio
from datetime import UTC, date, datetime

from sqlalchemy.orm import Session, sessionmaker

from bot.config import Config
from bot.core.settings import week_of, workspace_settings
from bot.drafting.service import DraftingService, MakeGitHub, MakeLLM
from bot.drafting.week import Week
from storage.drafts import get_draft_by_id
from storage.models import DraftRow, Workspace

NOW = datetime(2026, 11, 24, 9, tzinfo=UTC)


def week_for(
    sessions: sessionmaker[Session],
    config: Config,
    day: date,
    drafter: str | None = None,
    workspace_id: int = 1,
) -> Week:
    """The stored workspace's week holding `day`, with its settings."""
    with sessions() as session:
        settings = workspace_settings(session, config, workspace_id)
        name = session.get(Workspace, workspace_id).name
    return week_of(settings, workspace_id, name, day, drafter)


async def draft_stored(
    sessions: sessionmaker[Session],
    config: Config,
    week: Week,
    *,
    github: MakeGitHub | None = None,
    llm: MakeLLM | None = None,
) -> DraftRow:
    """Draft `week` with the drafting service; the stored draft, with its sections."""
    service = DraftingService(sessions, config, lambda: NOW, github=github, llm=llm)
    drafted = await service.draft(week)
    with sessions() as session:
        draft = get_draft_by_id(session, drafted.draft_id)
        _ = [s.revisions for s in draft.sections]  # loaded before the session closes
        return draft


def draft_now(sessions: sessionmaker[Session], config: Config, week: Week) -> DraftRow:
    """`draft_stored` from synchronous code."""
    return asyncio.run(draft_stored(sessions, config, week))
