"""Reading a week's messages for drafting, in bulk.

A draft reads every message of the week, 100k and more in a busy community, so these reads
are Core selects of the columns drafting uses, returned as plain rows with no ORM object per
row. Authors and channels are read once each by id rather than joined onto every message:
one name string per person instead of one per message.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Dialect, Row, and_, select, type_coerce
from sqlalchemy.orm import Session, aliased

from storage.models import Channel, Message, Person, PRRefRow, UTCDateTime

CHUNK = 500  # ids per IN list, well within every backend's bound-parameter limit

_messages = Message.__table__.c
_refs = PRRefRow.__table__.c


class _WeekTime(UTCDateTime):
    """`UTCDateTime` read faster on SQLite, where it is stored as UTC text: parsing the text
    with its offset appended costs a fifth of parsing it and then setting the zone."""

    cache_ok = True

    def result_processor(self, dialect: Dialect, coltype: object) -> Callable[[Any], Any] | None:
        if dialect.name == "sqlite":
            return _utc_from_text
        return super().result_processor(dialect, coltype)


def _utc_from_text(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value + "+00:00")


def _sent_between(workspace_id: int, start: datetime, end: datetime) -> Any:
    return and_(
        _messages.workspace_id == workspace_id,
        _messages.created_at >= start,
        _messages.created_at < end,
    )


@dataclass(slots=True)
class WeekMessages:
    """A week's messages with their authors and channels, each read once."""

    rows: list[Row[*tuple[Any, ...]]]  # see `week_messages`
    authors: dict[int, tuple[str, str, bool]]  # by id: display name, platform id, is a bot
    channels: dict[int, tuple[str, str | None]]  # by id: top-level channel name, thread name


def week_messages(
    session: Session, workspace_id: int, start: datetime, end: datetime
) -> WeekMessages:
    """The workspace's messages with `start <= created_at < end`, oldest first, as rows of
    `id, platform_id, thread_id, reply_to_id, created_at, text, reaction_count, reply_count,
    permalink, author_id, channel_id, pinned, preview` (`created_at` aware, in UTC), with the
    authors and channels they name."""
    stmt = (
        select(
            _messages.id,
            _messages.platform_id,
            _messages.thread_id,
            _messages.reply_to_id,
            type_coerce(_messages.created_at, _WeekTime()).label("created_at"),
            _messages.text,
            _messages.reaction_count,
            _messages.reply_count,
            _messages.permalink,
            _messages.author_id,
            _messages.channel_id,
            _messages.pinned,
            _messages.preview,
        )
        .where(_sent_between(workspace_id, start, end))
        .order_by(_messages.created_at, _messages.id)
    )
    rows = list(session.connection().execute(stmt).all())
    # By position: reading a column by name costs ten times as much on 100k rows.
    authors = _authors_by_id(session, {row[9] for row in rows})
    channels = _channels_by_id(session, {row[10] for row in rows})
    return WeekMessages(rows, authors, channels)


def week_refs(
    session: Session, workspace_id: int, start: datetime, end: datetime
) -> list[Row[int, str | None, int, str]]:
    """PR refs of the messages `week_messages` returns, as rows of `message_id, repo,
    number, raw`, by message and then in the order they were found."""
    stmt = (
        select(_refs.message_id, _refs.repo, _refs.number, _refs.raw)
        .join(Message.__table__, _messages.id == _refs.message_id)
        .where(_sent_between(workspace_id, start, end))
        .order_by(_refs.message_id, _refs.id)
    )
    return list(session.connection().execute(stmt).all())


def _authors_by_id(session: Session, ids: Collection[int]) -> dict[int, tuple[str, str, bool]]:
    """People by id: `(display name, platform id, is a bot)`."""
    found: dict[int, tuple[str, str, bool]] = {}
    for chunk in _chunks(ids):
        rows = session.execute(
            select(Person.id, Person.display_name, Person.platform_id, Person.is_bot).where(
                Person.id.in_(chunk)
            )
        )
        found.update((key, (name, platform_id, bot)) for key, name, platform_id, bot in rows)
    return found


def _channels_by_id(session: Session, ids: Collection[int]) -> dict[int, tuple[str, str | None]]:
    """Channels by id: `(the top-level channel's name, the thread's name or None)`; a
    thread's top-level channel is its parent."""
    parent = aliased(Channel)
    found: dict[int, tuple[str, str | None]] = {}
    for chunk in _chunks(ids):
        stmt = (
            select(Channel.id, Channel.name, Channel.parent_id, parent.name)
            .outerjoin(parent, parent.id == Channel.parent_id)
            .where(Channel.id.in_(chunk))
        )
        for channel_id, name, parent_id, parent_name in session.execute(stmt):
            is_thread = parent_id is not None
            top = parent_name if parent_name is not None else name
            found[channel_id] = (top, name if is_thread else None)
    return found


def _chunks(ids: Collection[int]) -> list[list[int]]:
    ordered = sorted(ids)
    return [ordered[i : i + CHUNK] for i in range(0, len(ordered), CHUNK)]
