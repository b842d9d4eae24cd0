"""Repository functions for members' news submissions (`NewsSubmission`): a member's
reaction on a stored message, or text sent with `/summary news`.

Every function takes the session first and never commits.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.orm import Session, aliased

from storage.db import affected_rows, dialect_insert
from storage.models import Channel, Message, NewsSubmission, Person
from storage.records import PersonRecord


@dataclass(frozen=True, slots=True)
class StoredNews:
    """A submission with who sent it and, for a reaction, the message's id, author and
    channel (the channel a thread lives under)."""

    id: int
    sender: str
    sender_platform_id: str
    sender_forgotten: bool
    text: str
    permalink: str | None
    submitted_at: datetime
    dropped_at: datetime | None
    dropped_by: str | None
    message_platform_id: str | None = None
    author: str | None = None
    channel: str | None = None


def add_submission(
    session: Session,
    workspace_id: int,
    sender_id: int,
    *,
    text: str,
    submitted_at: datetime,
    message_id: int | None = None,
    permalink: str | None = None,
) -> bool:
    """Store a submission; whether it is new (a member reacting to the same message twice,
    or an export imported again, submits it once)."""
    insert = dialect_insert(session, NewsSubmission.__table__).values(
        workspace_id=workspace_id,
        sender_id=sender_id,
        message_id=message_id,
        text=text,
        permalink=permalink,
        submitted_at=submitted_at,
    )
    if message_id is not None:
        insert = insert.on_conflict_do_nothing(index_elements=["sender_id", "message_id"])
    added = session.execute(insert.returning(NewsSubmission.__table__.c.id))
    return added.scalar_one_or_none() is not None


def message_row_ids(
    session: Session, workspace_id: int, platform_ids: Iterable[str]
) -> dict[str, tuple[int, str, str | None, datetime]]:
    """Per platform id of a stored message: its row id, text, permalink and time."""
    rows = session.execute(
        select(
            Message.platform_id, Message.id, Message.text, Message.permalink, Message.created_at
        ).where(Message.workspace_id == workspace_id, Message.platform_id.in_(list(platform_ids)))
    )
    return {platform_id: (row_id, text, link, at) for platform_id, row_id, text, link, at in rows}


def week_submissions(
    session: Session, workspace_id: int, start: datetime, end: datetime
) -> list[StoredNews]:
    """The workspace's submissions made in [start, end), dropped ones included, oldest
    first."""
    author = aliased(Person)
    parent = aliased(Channel)
    rows = session.execute(
        select(
            NewsSubmission,
            Person,
            Message.platform_id,
            author.display_name,
            Channel.name,
            parent.name,
        )
        .join(Person, Person.id == NewsSubmission.sender_id)
        .outerjoin(Message, Message.id == NewsSubmission.message_id)
        .outerjoin(author, author.id == Message.author_id)
        .outerjoin(Channel, Channel.id == Message.channel_id)
        .outerjoin(parent, parent.id == Channel.parent_id)
        .where(
            NewsSubmission.workspace_id == workspace_id,
            NewsSubmission.submitted_at >= start,
            NewsSubmission.submitted_at < end,
        )
        .order_by(NewsSubmission.submitted_at, NewsSubmission.id)
    )
    return [
        StoredNews(
            news.id,
            sender.display_name,
            sender.platform_id,
            sender.forgotten_at is not None,
            news.text,
            news.permalink,
            news.submitted_at,
            news.dropped_at,
            news.dropped_by,
            message_platform_id,
            author_name,
            parent_name or channel_name,
        )
        for news, sender, message_platform_id, author_name, channel_name, parent_name in rows
    ]


def get_submission(
    session: Session, workspace_id: int, submission_id: int
) -> NewsSubmission | None:
    """The workspace's submission `submission_id` (None when it is another's or gone)."""
    news = session.get(NewsSubmission, submission_id)
    return news if news is not None and news.workspace_id == workspace_id else None


def drop_submission(session: Session, news: NewsSubmission, *, by: str, at: datetime) -> None:
    """An editor dropped the submission: drafts leave it out from now on."""
    news.dropped_at = at
    news.dropped_by = by


def delete_sent_by(session: Session, person_id: int) -> int:
    """Delete every submission the person sent; how many went."""
    result = session.execute(
        delete(NewsSubmission).where(NewsSubmission.sender_id == person_id),
        execution_options={"synchronize_session": "fetch"},
    )
    return affected_rows(result)


def person_ids(
    session: Session, workspace_id: int, people: Iterable[PersonRecord]
) -> dict[str, int]:
    """Ids of the people by platform id, storing those not stored yet (a stored person
    keeps the name they have: a reactor may be named by id only)."""
    by_id = {p.platform_id: p for p in people}
    if not by_id:
        return {}
    insert = dialect_insert(session, Person.__table__).on_conflict_do_nothing(
        index_elements=["workspace_id", "platform_id"]
    )
    session.execute(
        insert,
        [
            {
                "workspace_id": workspace_id,
                "platform_id": p.platform_id,
                "display_name": p.display_name,
                "is_bot": p.is_bot,
            }
            for p in by_id.values()
        ],
    )
    rows = session.execute(
        select(Person.platform_id, Person.id).where(
            Person.workspace_id == workspace_id, Person.platform_id.in_(list(by_id))
        )
    )
    return {platform_id: person_id for platform_id, person_id in rows}
