"""Repository functions for drafts, their sections, revisions and deliveries."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Protocol

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from storage.db import affected_rows, dialect_insert
from storage.models import Delivery, DraftRow, DraftSection, DraftStatus, SectionRevision


class SectionLike(Protocol):
    """What a drafted section holds (the summarizer's `Section` fits)."""

    @property
    def topic(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def markdown(self) -> str: ...
    @property
    def prs(self) -> list[str]: ...
    @property
    def people(self) -> list[str]: ...
    @property
    def sources(self) -> list[str]: ...
    @property
    def drafter(self) -> str: ...
    @property
    def warnings(self) -> list[str]: ...


def get_draft(session: Session, workspace_id: int, week_start: date) -> DraftRow | None:
    """The stored draft of a workspace's week, if any."""
    return session.execute(
        select(DraftRow).where(
            DraftRow.workspace_id == workspace_id, DraftRow.week_start == week_start
        )
    ).scalar_one_or_none()


def claim_draft(
    session: Session, workspace_id: int, week_start: date, title: str, at: datetime
) -> int | None:
    """Create the week's (empty) draft and return its id, or None when the week already has
    one. Atomic in the database, so of two processes claiming the same week, one wins."""
    stmt = (
        dialect_insert(session, DraftRow.__table__)
        .values(
            workspace_id=workspace_id,
            week_start=week_start,
            title=title,
            summarizer="",
            created_at=at,
            status=DraftStatus.DRAFTED,
        )
        .on_conflict_do_nothing(index_elements=["workspace_id", "week_start"])
        .returning(DraftRow.__table__.c.id)
    )
    return session.execute(stmt).scalar_one_or_none()


def move_status(
    session: Session,
    draft_id: int,
    came_from: Collection[DraftStatus],
    to: DraftStatus,
    **values: object,
) -> bool:
    """Compare-and-set: set the draft's status to `to` (and `values`) only if it is now one
    of `came_from`; whether it changed. Of two processes moving the same draft at once, the
    database lets exactly one do it (the other's UPDATE finds the new status and changes
    nothing)."""
    result = session.execute(
        update(DraftRow)
        .where(DraftRow.id == draft_id, DraftRow.status.in_(list(came_from)))
        .values(status=to, **values)
    )
    return affected_rows(result) == 1


def get_draft_by_id(session: Session, draft_id: int) -> DraftRow | None:
    return session.get(DraftRow, draft_id)


def get_section(session: Session, section_id: int) -> DraftSection | None:
    return session.get(DraftSection, section_id)


def load_draft(session: Session, draft_id: int) -> DraftRow:
    """The draft `draft_id`, which the caller knows is stored (`NoResultFound` if not)."""
    return session.get_one(DraftRow, draft_id)


def load_section(session: Session, section_id: int) -> DraftSection:
    """The section `section_id`, which the caller knows is stored (`NoResultFound` if not)."""
    return session.get_one(DraftSection, section_id)


def list_drafts(session: Session, workspace_id: int | None = None) -> list[DraftRow]:
    """Drafts, newest week first."""
    stmt = select(DraftRow).order_by(DraftRow.week_start.desc(), DraftRow.id.desc())
    if workspace_id is not None:
        stmt = stmt.where(DraftRow.workspace_id == workspace_id)
    return list(session.scalars(stmt))


@dataclass(slots=True)
class EarlierCitations:
    """Per PR ref and per person, how many sections of each topic id cited them."""

    prs: dict[str, dict[str, int]] = field(default_factory=dict)
    people: dict[str, dict[str, int]] = field(default_factory=dict)


def earlier_citations(
    session: Session, workspace_id: int, since: date, before: date
) -> EarlierCitations:
    """The topics under which the workspace's drafts of the weeks from `since` up to (not
    including) `before` cited each PR and person."""
    rows = session.execute(
        select(DraftSection.topic, DraftSection.prs, DraftSection.people)
        .join(DraftRow, DraftSection.draft_id == DraftRow.id)
        .where(
            DraftRow.workspace_id == workspace_id,
            DraftRow.week_start >= since,
            DraftRow.week_start < before,
        )
    )
    found = EarlierCitations()
    for topic, prs, people in rows:
        for ref in prs:
            row = found.prs.setdefault(ref, {})
            row[topic] = row.get(topic, 0) + 1
        for person in people:
            row = found.people.setdefault(person, {})
            row[topic] = row.get(topic, 0) + 1
    return found


def save_draft(
    session: Session,
    *,
    workspace_id: int,
    week_start: date,
    title: str,
    summarizer: str,
    created_at: datetime,
    sections: Sequence[SectionLike],
    links: dict[str, str] | None = None,
    keep_topics: Collection[str] = (),
    notes: Sequence[str] = (),
) -> DraftRow:
    """Store the week's draft. An existing draft of the week keeps its sections whose topic is
    in `keep_topics` (those an editor touched); its other sections are replaced by
    `sections`. `links` maps source message ids to permalinks."""
    links = links or {}
    draft = get_draft(session, workspace_id, week_start)
    if draft is None:
        draft = DraftRow(
            workspace_id=workspace_id, week_start=week_start, status=DraftStatus.DRAFTED
        )
        session.add(draft)
    draft.title = title
    draft.summarizer = summarizer
    draft.created_at = created_at
    draft.notes = list(notes)
    kept = {s.topic: s for s in draft.sections if s.topic in keep_topics}
    for section in list(draft.sections):
        if section.topic not in kept:
            draft.sections.remove(section)
    for offset, section in enumerate(kept.values()):
        section.position = 10_000 + offset  # out of the way of the new positions
    session.flush()
    # A topic whose section an editor deleted stays deleted.
    deleted = {s.topic for s in draft.deleted_sections}
    new = {s.topic: s for s in sections if s.topic not in deleted}
    order = list(new) + [t for t in kept if t not in new]
    for position, topic in enumerate(order):
        if topic in kept:
            kept[topic].position = position
            continue
        s = new[topic]
        draft.sections.append(
            DraftSection(
                position=position,
                topic=s.topic,
                title=s.title,
                markdown=s.markdown,
                drafted_markdown=s.markdown,
                prs=list(s.prs),
                people=list(s.people),
                sources=list(s.sources),
                links=[links[m] for m in s.sources if links.get(m)],
                review_message_ids=[],
                flags=[],
                drafter=s.drafter,
                warnings=list(s.warnings),
            )
        )
    session.flush()
    draft.sections.sort(key=lambda s: s.position)
    return draft


def add_revision(
    session: Session,
    section: DraftSection,
    *,
    editor_id: str,
    editor_name: str,
    at: datetime,
    markdown: str,
) -> SectionRevision:
    """Replace a section's text, keeping the edit as a revision. The edit settles the
    section's flags: the editor has seen what they asked to check."""
    revision = SectionRevision(
        editor_id=editor_id, editor_name=editor_name, created_at=at, markdown=markdown
    )
    section.revisions.append(revision)
    section.markdown = markdown
    section.flags = []
    session.flush()
    return revision


def delivered(session: Session, draft_id: int, channel_id: str) -> set[int]:
    """Positions of the chunks already delivered to a publish channel."""
    rows = session.execute(
        select(Delivery.position).where(
            Delivery.draft_id == draft_id, Delivery.channel_id == channel_id
        )
    )
    return set(rows.scalars())


def record_delivery(
    session: Session,
    *,
    draft_id: int,
    channel_id: str,
    position: int,
    platform_message_id: str,
    at: datetime,
) -> None:
    """Note that one chunk reached one publish channel."""
    session.add(
        Delivery(
            draft_id=draft_id,
            channel_id=channel_id,
            position=position,
            platform_message_id=platform_message_id,
            delivered_at=at,
        )
    )
    session.flush()
