"""Repository functions for privacy: members opting out, deleted messages, retention.

Every function takes the session first and never commits. Messages are removed with bulk
DELETEs, their PR refs and news submissions first, so nothing depends on the database
cascading the delete.

Drafts not yet published (drafted, in review or approved) lose what is gone, at once:
- the names of a member who opted out are replaced with "a member" in their sections,
  every revision and the draft's notes, and leave the sections' `people`;
- a section citing a message that is gone (deleted on the platform, or its author opted
  out) has its text and every revision's text replaced by `REMOVED_TEXT`, since which of
  its words came from that message cannot be told.
Either way the section gets a flag, and its warnings (which may quote what was removed) go
the same way as its text. A flagged section blocks approval (and publishing) until an editor
edits it or Regenerate drafts it again; an approved draft that gets a flag goes back to
review. Published summaries are not rewritten: they were posted already. Each function says
which drafts changed, so the caller can rewrite their review threads.

Deleted rows leave bytes behind until the database reclaims them: after the transaction
commits, the caller runs `storage.db.reclaim_deleted` on `PURGED_TABLES`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import ColumnElement, Select, bindparam, delete, select
from sqlalchemy.orm import Session

from storage.db import affected_rows, dialect_insert
from storage.models import (
    FINISHED,
    DeletedMessage,
    Delivery,
    DraftRow,
    DraftSection,
    DraftStatus,
    ForgottenName,
    Message,
    NewsSubmission,
    Person,
    PRRefRow,
    SectionRevision,
)
from storage.news import delete_sent_by
from storage.normalise import clean_name

OPTED_OUT_FLAG = 'a member opted out; their name was replaced with "a member": check the wording'
DELETED_SOURCE_FLAG = "a source message was deleted: {id}"
REMOVED_TEXT = (
    "_(This section's text was removed: a message it drew on was deleted or its author "
    "opted out. Edit the section, or Regenerate the draft, before approving.)_"
)
UNNAMED = "a member"
# Every table a purge deletes rows from or rewrites rows of.
PURGED_TABLES = tuple(
    model.__tablename__
    for model in (
        Message,
        PRRefRow,
        NewsSubmission,
        DraftSection,
        SectionRevision,
        DraftRow,
        Delivery,
    )
)


def deleted_source_flag(message_platform_id: str) -> str:
    """The flag a section citing a deleted message gets."""
    return DELETED_SOURCE_FLAG.format(id=message_platform_id)


_PEOPLE = Person.__table__.c
# Built once and run on the connection: every live batch asks, so the ORM's per-query work
# (building the select, its compile state, loading) was a large part of a small batch's cost.
_FORGOTTEN_IDS = select(_PEOPLE.platform_id).where(
    _PEOPLE.workspace_id == bindparam("workspace_id"), _PEOPLE.forgotten_at.is_not(None)
)


def forgotten_ids(session: Session, workspace_id: int) -> set[str]:
    """Platform ids of the workspace's members who opted out (their messages are not stored)."""
    rows = session.connection().execute(_FORGOTTEN_IDS, {"workspace_id": workspace_id})
    return set(rows.scalars())


def forgotten_names(session: Session, workspace_id: int) -> set[str]:
    """Every name and platform id of the members who opted out, so drafts can replace them
    in others' words: their stored display names and the names remembered for them."""
    people = select(Person.display_name, Person.platform_id).where(
        Person.workspace_id == workspace_id, Person.forgotten_at.is_not(None)
    )
    remembered = select(ForgottenName.name).where(ForgottenName.workspace_id == workspace_id)
    names = {name for row in session.execute(people) for name in row}
    names.update(session.scalars(remembered))
    return {name for name in names if name.strip()}


def remember_names(session: Session, workspace_id: int, names: Iterable[str]) -> None:
    """Remember names a member who opted out goes by (empty ones are skipped)."""
    cleaned = {clean_name(n.strip()) for n in names}
    rows = [{"workspace_id": workspace_id, "name": n} for n in cleaned if n]
    if rows:
        insert = dialect_insert(session, ForgottenName.__table__)
        session.execute(
            insert.on_conflict_do_nothing(index_elements=["workspace_id", "name"]), rows
        )


def unnamer(names: Collection[str]) -> Callable[[str], str]:
    """A function replacing each of `names` (as a whole word, any case, with or without a
    leading "@") with "a member"."""
    if not names:
        return lambda text: text
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    pattern = re.compile(rf"@?(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)
    return lambda text: pattern.sub(UNNAMED, text)


def is_forgotten(session: Session, workspace_id: int, person_platform_id: str) -> bool:
    """Whether this member opted out."""
    forgotten_at = session.execute(
        select(Person.forgotten_at).where(
            Person.workspace_id == workspace_id, Person.platform_id == person_platform_id
        )
    ).scalar_one_or_none()
    return forgotten_at is not None


@dataclass(frozen=True, slots=True)
class Removed:
    """What taking a member's or a message's text out did."""

    messages: int  # messages deleted
    drafts: frozenset[int]  # ids of the drafts not yet published whose sections changed


def forget_person(
    session: Session,
    workspace_id: int,
    person_platform_id: str,
    at: datetime,
    *,
    also_names: Iterable[str] = (),
) -> Removed:
    """Mark a member as opted out and delete all their stored messages (with PR refs) and
    the news they sent.

    The person is created if they never posted (display name ""), so the opt-out holds for
    what they post later; `also_names` (e.g. the name they asked under) are remembered, so
    drafts replace them even before they post. The first opt-out's time is kept on later
    calls. Drafts not yet published lose their names and the text drawn from their
    messages (see the module's notes).
    """
    person_id = _ensure_person(session, workspace_id, person_platform_id)
    person = session.get(Person, person_id)
    assert person is not None
    if person.forgotten_at is None:
        person.forgotten_at = at
    remember_names(session, workspace_id, [person.display_name, *also_names])
    session.flush()

    theirs = select(Message.id).where(
        Message.workspace_id == workspace_id, Message.author_id == person_id
    )
    deleted_ids = set(
        session.scalars(
            select(Message.platform_id).where(
                Message.workspace_id == workspace_id, Message.author_id == person_id
            )
        )
    )
    count = _delete_messages(session, theirs)
    delete_sent_by(session, person_id)
    names = forgotten_names(session, workspace_id)
    return Removed(count, _scrub_drafts(session, workspace_id, names, deleted_ids))


def delete_message(
    session: Session, workspace_id: int, message_platform_id: str, at: datetime
) -> Removed:
    """Delete a stored message (with its PR refs), and its text from drafts not yet
    published. An unknown id changes nothing (but is remembered as deleted)."""
    tombstone = dialect_insert(session, DeletedMessage.__table__).values(
        workspace_id=workspace_id, platform_id=message_platform_id, deleted_at=at
    )
    session.execute(
        tombstone.on_conflict_do_nothing(index_elements=["workspace_id", "platform_id"])
    )
    message_ids = select(Message.id).where(
        Message.workspace_id == workspace_id, Message.platform_id == message_platform_id
    )
    if not _delete_messages(session, message_ids):
        return Removed(0, frozenset())
    return Removed(1, _scrub_drafts(session, workspace_id, set(), {message_platform_id}))


@dataclass(frozen=True, slots=True)
class Purged:
    """What a retention purge deleted."""

    messages: int
    drafts: int


def purge_expired(
    session: Session, workspace_id: int, older_than: datetime, *, timezone: str = "UTC"
) -> Purged:
    """Delete what is older than `older_than`: messages sent before it (with their PR refs
    and the news submissions on them), news sent before it, and drafts of weeks that ended
    before it, whatever became of them (published, discarded, never finished), with their
    sections, revisions and deliveries.

    A week runs from its Monday 00:00 to the next in `timezone` (the workspace's setting,
    as drafting uses it).
    """
    if older_than.tzinfo is None:
        raise ValueError(f"naive datetime {older_than!r}: timestamps must be timezone-aware")
    old_messages = select(Message.id).where(
        Message.workspace_id == workspace_id, Message.created_at < older_than
    )
    messages = _delete_messages(session, old_messages)
    session.execute(
        delete(NewsSubmission).where(
            NewsSubmission.workspace_id == workspace_id, NewsSubmission.submitted_at < older_than
        )
    )
    # A week starting on Monday M ended by `older_than` when M + 7 days is no later than
    # the day `older_than` falls on, in the workspace's time zone.
    last_start = older_than.astimezone(ZoneInfo(timezone)).date() - timedelta(days=7)
    old_drafts = select(DraftRow.id).where(
        DraftRow.workspace_id == workspace_id, DraftRow.week_start <= last_start
    )
    return Purged(messages, _delete_drafts(session, old_drafts))


def blocking_flags(draft: DraftRow) -> list[str]:
    """Why `draft` may not be approved or published yet: "SECTION TITLE: flag" for each
    flag of its sections (empty when nothing blocks it)."""
    return [f"{s.title}: {flag}" for s in draft.sections for flag in (s.flags or [])]


def _ensure_person(session: Session, workspace_id: int, platform_id: str) -> int:
    """The id of the person, stored with an empty name if unknown (safe against a race)."""
    insert = dialect_insert(session, Person.__table__)
    session.execute(
        insert.values(
            workspace_id=workspace_id, platform_id=platform_id, display_name="", is_bot=False
        ).on_conflict_do_nothing(index_elements=["workspace_id", "platform_id"])
    )
    return session.execute(
        select(Person.id).where(
            Person.workspace_id == workspace_id, Person.platform_id == platform_id
        )
    ).scalar_one()


def _delete_messages(session: Session, message_ids: Select[int]) -> int:
    """Delete the messages `message_ids` selects, their PR refs first; how many went."""
    # "fetch": rows already loaded in this session are marked deleted there too.
    fetch = {"synchronize_session": "fetch"}
    session.execute(
        delete(NewsSubmission).where(NewsSubmission.message_id.in_(message_ids)),
        execution_options=fetch,
    )
    session.execute(
        delete(PRRefRow).where(PRRefRow.message_id.in_(message_ids)), execution_options=fetch
    )
    result = session.execute(
        delete(Message).where(Message.id.in_(message_ids)), execution_options=fetch
    )
    return affected_rows(result)


def _delete_drafts(session: Session, draft_ids: Select[int]) -> int:
    """Delete the drafts `draft_ids` selects with everything hanging off them; how many."""
    fetch = {"synchronize_session": "fetch"}
    section_ids = select(DraftSection.id).where(DraftSection.draft_id.in_(draft_ids))
    for statement in (
        delete(SectionRevision).where(SectionRevision.section_id.in_(section_ids)),
        delete(DraftSection).where(DraftSection.draft_id.in_(draft_ids)),
        delete(Delivery).where(Delivery.draft_id.in_(draft_ids)),
    ):
        session.execute(statement, execution_options=fetch)
    result = session.execute(
        delete(DraftRow).where(DraftRow.id.in_(draft_ids)), execution_options=fetch
    )
    return affected_rows(result)


def _open_sections(session: Session, workspace_id: int) -> Sequence[DraftSection]:
    unfinished: ColumnElement[bool] = DraftRow.status.not_in(FINISHED)
    return session.scalars(
        select(DraftSection)
        .join(DraftRow, DraftRow.id == DraftSection.draft_id)
        .where(DraftRow.workspace_id == workspace_id, unfinished)
        .order_by(DraftSection.draft_id, DraftSection.position)
    ).all()


def _scrub_drafts(
    session: Session, workspace_id: int, names: Collection[str], deleted: Collection[str]
) -> frozenset[int]:
    """Take `names` and the text of `deleted` messages out of drafts not yet published
    (see the module's notes); the ids of the drafts that changed. JSON columns are
    reassigned, never changed in place."""
    folded = {n.casefold() for n in names}
    unname = unnamer(names)
    changed: set[int] = set()
    sections = _open_sections(session, workspace_id)
    for section in sections:
        before = (section.markdown, section.people, section.flags, section.warnings)
        section.people = [p for p in section.people if p.casefold() not in folded]
        new_flags = [deleted_source_flag(m) for m in section.sources if m in deleted]
        if new_flags:
            _replace_text(section, lambda _text: REMOVED_TEXT)
        elif _replace_text(section, unname):
            new_flags.append(OPTED_OUT_FLAG)
        # Warnings quote the text ("removed sentence '...'"): they go the same way.
        section.warnings = [] if new_flags else [unname(w) for w in section.warnings]
        flags = list(section.flags or [])
        section.flags = flags + [flag for flag in new_flags if flag not in flags]
        if (section.markdown, section.people, section.flags, section.warnings) == before:
            continue
        changed.add(section.draft_id)
        if new_flags and section.draft.status == DraftStatus.APPROVED:  # not published: stop it
            section.draft.status = DraftStatus.IN_REVIEW
    for draft in {section.draft for section in sections}:
        notes = [unname(note) for note in draft.notes]  # "Kept from the LLM: ... by NAME"
        if notes != draft.notes:
            draft.notes = notes
            changed.add(draft.id)
    session.flush()
    return frozenset(changed)


def _replace_text(section: DraftSection, rewrite: Callable[[str], str]) -> bool:
    """Rewrite the section's text, its drafted text and every revision's; whether anything
    changed."""
    changed = False
    items: list[DraftSection | SectionRevision] = [section, *section.revisions]
    for item in items:
        text = rewrite(item.markdown)
        if text != item.markdown:
            item.markdown = text
            changed = True
    if section.drafted_markdown is not None:
        drafted = rewrite(section.drafted_markdown)
        changed = changed or drafted != section.drafted_markdown
        section.drafted_markdown = drafted
    return changed
