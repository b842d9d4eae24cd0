"""Repository functions for stored drafts and their sections."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import Protocol

from sqlalchemy import select
from sqlalchemy.orm import Session

from storage.models import Draft, DraftSection


class SectionLike(Protocol):
    """What a drafted section holds (the summarizer's `Section` fits)."""

    topic: str
    title: str
    markdown: str
    prs: list[str]
    people: list[str]
    sources: list[str]


def get_draft(session: Session, workspace_id: int, week_start: date) -> Draft | None:
    """The stored draft of a workspace's week, if any."""
    return session.execute(
        select(Draft).where(Draft.workspace_id == workspace_id, Draft.week_start == week_start)
    ).scalar_one_or_none()


def save_draft(
    session: Session,
    *,
    workspace_id: int,
    week_start: date,
    title: str,
    summarizer: str,
    created_at: datetime,
    sections: Sequence[SectionLike],
) -> Draft:
    """Store the week's draft, replacing the sections of an earlier draft of the same week."""
    draft = get_draft(session, workspace_id, week_start)
    if draft is None:
        draft = Draft(workspace_id=workspace_id, week_start=week_start)
        session.add(draft)
    draft.title = title
    draft.summarizer = summarizer
    draft.created_at = created_at
    draft.sections.clear()
    session.flush()  # the old sections' positions must be free before the new ones go in
    draft.sections.extend(
        DraftSection(
            position=position,
            topic=s.topic,
            title=s.title,
            markdown=s.markdown,
            prs=list(s.prs),
            people=list(s.people),
            sources=list(s.sources),
        )
        for position, s in enumerate(sections)
    )
    session.flush()
    return draft
