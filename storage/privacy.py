"""Repository functions for privacy: members opting out, deleted messages, retention.

Every function takes the session first and never commits. Messages are removed with bulk
DELETEs, their PR refs first, so nothing depends on the database cascading the delete.
Drafts still under way (any status but published or discarded) are never rewritten behind an
editor's back: their sections get a `flags` entry saying what to check instead, once.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import ColumnElement, Select, and_, delete, or_, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from storage.db import dialect_insert
from storage.models import (
    FINISHED,
    DeletedMessage,
    DraftRow,
    DraftSection,
    DraftStatus,
    Message,
    Person,
    PRRefRow,
)

OPTED_OUT_FLAG = "a member opted out; check this section does not name them"
DELETED_SOURCE_FLAG = "a source message was deleted: {id}"
# Published weeks per DELETE statement (two bound parameters each).
PURGE_WEEKS_PER_STATEMENT = 100


def deleted_source_flag(message_platform_id: str) -> str:
    """The flag a section citing a deleted message gets."""
    return DELETED_SOURCE_FLAG.format(id=message_platform_id)


def forgotten_ids(session: Session, workspace_id: int) -> set[str]:
    """Platform ids of the workspace's members who opted out (their messages are not stored)."""
    return set(
        session.scalars(
            select(Person.platform_id).where(
                Person.workspace_id == workspace_id, Person.forgotten_at.is_not(None)
            )
        )
    )


def forgotten_names(session: Session, workspace_id: int) -> set[str]:
    """Display names of forgotten people, so drafts can leave them out of others' words."""
    rows = session.execute(
        select(Person.display_name).where(
            Person.workspace_id == workspace_id,
            Person.forgotten_at.is_not(None),
            Person.display_name != "",
        )
    )
    return set(rows.scalars())


def is_forgotten(session: Session, workspace_id: int, person_platform_id: str) -> bool:
    """Whether this member opted out."""
    forgotten_at = session.execute(
        select(Person.forgotten_at).where(
            Person.workspace_id == workspace_id, Person.platform_id == person_platform_id
        )
    ).scalar_one_or_none()
    return forgotten_at is not None


def forget_person(
    session: Session,
    workspace_id: int,
    person_platform_id: str,
    at: datetime,
    *,
    also_names: Iterable[str] = (),
) -> int:
    """Mark a member as opted out and delete all their stored messages (with PR refs).

    The person is created if they never posted (display name ""), so the opt-out holds for
    what they post later. The first opt-out's time is kept on later calls. In drafts under
    way, the member's name leaves the sections' `people`; a section whose text names them,
    or that cites a message of theirs, gets a flag for the editor. `also_names` are more
    names to look for (e.g. their current display name, if not stored yet). Returns how
    many messages were deleted (0 on a repeated call, unless more got stored meanwhile).
    """
    person_id = _ensure_person(session, workspace_id, person_platform_id)
    person = session.get(Person, person_id)
    assert person is not None
    if person.forgotten_at is None:
        person.forgotten_at = at
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

    names = {n.strip() for n in (person.display_name, *also_names) if n and n.strip()}
    _scrub_drafts(session, workspace_id, names, deleted_ids)
    return count


def delete_message(
    session: Session, workspace_id: int, message_platform_id: str, at: datetime
) -> bool:
    """Delete a stored message (with its PR refs), flagging the sections of drafts under way
    that cite it. Returns whether a message was stored (an unknown id changes nothing)."""
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
        return False
    _scrub_drafts(session, workspace_id, set(), {message_platform_id})
    return True


def purge_expired(
    session: Session, workspace_id: int, older_than: datetime, *, timezone: str = "UTC"
) -> int:
    """Delete messages sent before `older_than` whose week has a published draft.

    A week runs from its Monday 00:00 to the next in `timezone` (the workspace's setting, as
    drafting uses it). Messages of weeks never published (no draft, or one still under
    review or discarded) are kept. Returns how many messages were deleted.
    """
    if older_than.tzinfo is None:
        raise ValueError(f"naive datetime {older_than!r}: timestamps must be timezone-aware")
    zone = ZoneInfo(timezone)
    published = session.scalars(
        select(DraftRow.week_start)
        .where(DraftRow.workspace_id == workspace_id, DraftRow.status == DraftStatus.PUBLISHED)
        .order_by(DraftRow.week_start)
    ).all()
    ranges = [_week_range(week, zone) for week in published]
    ranges = [(start, end) for start, end in ranges if start < older_than]
    count = 0
    for first in range(0, len(ranges), PURGE_WEEKS_PER_STATEMENT):
        chunk = ranges[first : first + PURGE_WEEKS_PER_STATEMENT]
        in_published_week = or_(
            *(and_(Message.created_at >= start, Message.created_at < end) for start, end in chunk)
        )
        expired = select(Message.id).where(
            Message.workspace_id == workspace_id,
            Message.created_at < older_than,
            in_published_week,
        )
        count += _delete_messages(session, expired)
    return count


def _week_range(monday: date, zone: ZoneInfo) -> tuple[datetime, datetime]:
    start = datetime.combine(monday, time.min, tzinfo=zone)
    end = datetime.combine(monday + timedelta(days=7), time.min, tzinfo=zone)
    return start, end


def _ensure_person(session: Session, workspace_id: int, platform_id: str) -> int:
    """The id of the person, stored with an empty name if unknown (safe against a race)."""
    dialect = session.get_bind().dialect.name
    if dialect == "postgresql":
        insert = postgresql.insert(Person.__table__)
    elif dialect == "sqlite":
        insert = sqlite.insert(Person.__table__)
    else:
        raise NotImplementedError(f"written for SQLite and PostgreSQL, not {dialect}")
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


def _delete_messages(session: Session, message_ids: Select[tuple[int]]) -> int:
    """Delete the messages `message_ids` selects, their PR refs first; how many went."""
    # "fetch": rows already loaded in this session are marked deleted there too.
    fetch = {"synchronize_session": "fetch"}
    session.execute(
        delete(PRRefRow).where(PRRefRow.message_id.in_(message_ids)), execution_options=fetch
    )
    result = session.execute(
        delete(Message).where(Message.id.in_(message_ids)), execution_options=fetch
    )
    return result.rowcount


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
) -> None:
    """Take `names` out of open sections' people and flag sections naming them or citing a
    `deleted` message. JSON columns are reassigned, never changed in place."""
    folded = {n.casefold() for n in names}
    mention = (
        re.compile(
            r"(?<!\w)(?:" + "|".join(re.escape(n) for n in sorted(names)) + r")(?!\w)",
            re.IGNORECASE,
        )
        if names
        else None
    )
    for section in _open_sections(session, workspace_id):
        people = [p for p in section.people if p.casefold() not in folded]
        if people != section.people:
            section.people = people
        new_flags: list[str] = []
        if mention is not None and mention.search(section.markdown):
            new_flags.append(OPTED_OUT_FLAG)
        new_flags += [deleted_source_flag(m) for m in section.sources if m in deleted]
        flags = list(section.flags or [])
        for flag in new_flags:
            if flag not in flags:
                flags.append(flag)
        if flags != (section.flags or []):
            section.flags = flags
    session.flush()
