"""Repository functions that change which sections a draft has and their order: an editor
adds one, deletes one (it stays stored, with its revisions), or moves one up or down.
Publishing, the review thread and the page follow `DraftRow.sections`, so the new order."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from storage.drafts import add_revision
from storage.models import DraftRow, DraftSection

ADDED_BY_EDITOR = "editor"  # the `drafter` of a section an editor added
_OUT_OF_THE_WAY = 1_000_000  # positions no draft reaches, while renumbering


def add_section(
    session: Session,
    draft: DraftRow,
    *,
    title: str,
    markdown: str,
    editor_id: str,
    editor_name: str,
    at: datetime,
) -> DraftSection:
    """A new last section of `draft`, written by an editor: its text is its first revision.
    Its topic id is its own (`added-N`), so drafting the week again keeps it."""
    taken = {s.topic for s in (*draft.sections, *draft.deleted_sections)}
    number = 1
    while f"added-{number}" in taken:
        number += 1
    section = DraftSection(
        position=max((s.position for s in draft.sections), default=-1) + 1,
        topic=f"added-{number}",
        title=title,
        markdown=markdown,
        drafted_markdown=None,
        prs=[],
        people=[],
        sources=[],
        links=[],
        review_message_ids=[],
        flags=[],
        drafter=ADDED_BY_EDITOR,
        warnings=[],
    )
    draft.sections.append(section)
    session.flush()
    add_revision(
        session, section, editor_id=editor_id, editor_name=editor_name, at=at, markdown=markdown
    )
    return section


def delete_section(session: Session, section: DraftSection, *, by: str, at: datetime) -> None:
    """Take `section` out of its draft; it stays stored, with its revisions, as deleted by
    `by` at `at`."""
    section.deleted_at = at
    section.deleted_by = by
    section.position = -section.id
    session.flush()
    session.expire(section.draft, ["sections", "deleted_sections"])


def move_section(session: Session, section: DraftSection, offset: int) -> bool:
    """Move `section` `offset` places (negative: up) among its draft's sections, at most to
    either end; whether it moved."""
    draft = section.draft
    order = list(draft.sections)
    at = order.index(section)
    to = min(max(at + offset, 0), len(order) - 1)
    if to == at:
        return False
    order.insert(to, order.pop(at))
    for position, moved in enumerate(order):  # first out of the way: positions are unique
        moved.position = _OUT_OF_THE_WAY + position
    session.flush()
    for position, moved in enumerate(order):
        moved.position = position
    session.flush()
    session.expire(draft, ["sections"])
    return True
