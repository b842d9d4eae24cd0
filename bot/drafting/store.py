"""Storing a composed week as the week's draft, and reading a stored draft back in the
summarizer's terms."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from bot.drafting.compose import Composed
from bot.drafting.week import Week
from storage.drafts import claim_draft, get_draft, save_draft
from storage.models import DraftRow
from summarizer.types import DraftSummary, Section


def drafter_of(composed: Composed) -> str:
    """Which drafter wrote the draft: "extractive", "llm", or "mixed"."""
    drafters = {s.drafter for s in composed.draft.sections}
    return drafters.pop() if len(drafters) == 1 else "mixed"


def store(
    session: Session, week: Week, composed: Composed, at: datetime, *, new_only: bool = False
) -> DraftRow | None:
    """Store a composed week. Drafting a week again replaces its sections but keeps those an
    editor has edited (unless flagged since: their text was removed, see storage.privacy).
    With `new_only`, a week that already has a draft is left alone (None):
    of two processes storing the same week at once, one wins."""
    draft = composed.draft
    if new_only and claim_draft(session, week.workspace_id, week.monday, "", at) is None:
        return None
    existing = get_draft(session, week.workspace_id, week.monday)
    sections = existing.sections if existing else []
    edited = {s.topic for s in sections if s.revisions and not s.flags}
    return save_draft(
        session,
        workspace_id=week.workspace_id,
        week_start=week.monday,
        title=draft.title,
        summarizer=drafter_of(composed),
        created_at=at,
        sections=draft.sections,
        links={m.id: m.permalink for m in composed.messages if m.permalink},
        keep_topics=edited,
        notes=draft.notes,
    )


def as_summary(draft: DraftRow, workspace_name: str) -> DraftSummary:
    """A stored draft (with its editors' changes) in the summarizer's terms, for rendering."""
    return DraftSummary(
        workspace=workspace_name,
        week_start=draft.week_start,
        week_end=draft.week_start + timedelta(days=7),
        title=draft.title,
        sections=[
            Section(
                s.topic,
                s.title,
                s.markdown,
                list(s.prs),
                list(s.people),
                list(s.sources),
                drafter=s.drafter,
                warnings=list(s.warnings),
            )
            for s in draft.sections
        ],
        notes=list(draft.notes),
    )
