"""Repository functions for workspaces, channels, people, messages and their PR refs.

Every function takes the session first and never commits. Writes are upserts keyed by the
platform's ids, so storing the same data twice stores nothing twice, and a message edited
since it was stored has its text replaced (an older copy never overwrites a newer one).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol, TypeVar

from sqlalchemy import (
    Connection,
    Insert,
    and_,
    bindparam,
    case,
    delete,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.orm import Session, aliased
from sqlalchemy.sql.dml import ReturningInsert

from storage.db import affected_rows, dialect_insert
from storage.models import Channel, DeletedMessage, Message, Person, PRRefRow, Workspace
from storage.records import ChannelRecord, MessageRecord, PersonRecord, WorkspaceRecord

# Rows per INSERT statement: large enough to amortise round trips, small enough for
# SQLite's limit on bound parameters.
BATCH_SIZE = 500


class RefLike(Protocol):
    """A PR reference as the parser found it (repo as written, None for a bare #N)."""

    @property
    def repo(self) -> str | None: ...
    @property
    def number(self) -> int: ...
    @property
    def raw(self) -> str: ...


@dataclass(slots=True)
class StoreCounts:
    """What a write did: new rows, rows replaced by a newer version, rows already there."""

    new: int = 0
    updated: int = 0
    unchanged: int = 0

    def add(self, other: StoreCounts) -> None:
        self.new += other.new
        self.updated += other.updated
        self.unchanged += other.unchanged


@dataclass(slots=True)
class MessageToStore:
    """A message record with the PR refs found in it."""

    record: MessageRecord
    refs: Sequence[RefLike] = field(default_factory=tuple)


S = TypeVar("S")


def _cached(build: Callable[[Session], S]) -> Callable[[Session], S]:
    """Build a statement once per SQL dialect: live messages are stored one at a time, and
    rebuilding (and recompiling) the same upsert for each one was most of the cost."""
    built: dict[str, S] = {}

    def statement(session: Session) -> S:
        dialect = session.get_bind().dialect.name
        if dialect not in built:
            built[dialect] = build(session)
        return built[dialect]

    return statement


@_cached
def _workspace_upsert(session: Session) -> ReturningInsert[int]:
    stmt = dialect_insert(session, Workspace.__table__)
    return stmt.on_conflict_do_update(
        index_elements=["platform", "platform_id"], set_={"name": stmt.excluded.name}
    ).returning(Workspace.__table__.c.id)


@_cached
def _channel_upsert(session: Session) -> ReturningInsert[int]:
    c = Channel.__table__.c
    stmt = dialect_insert(session, Channel.__table__)
    return stmt.on_conflict_do_update(
        index_elements=["workspace_id", "platform_id"],
        set_={
            "name": stmt.excluded.name,
            "parent_id": func.coalesce(stmt.excluded.parent_id, c.parent_id),
        },
    ).returning(c.id)


def upsert_workspace(session: Session, record: WorkspaceRecord) -> int:
    """The id of the workspace, stored or renamed as needed."""
    params = {"platform": record.platform, "platform_id": record.platform_id, "name": record.name}
    return session.connection().execute(_workspace_upsert(session), params).scalar_one()


def upsert_channel(session: Session, workspace_id: int, record: ChannelRecord) -> int:
    """The id of the channel (and of its parent, for a thread), stored or renamed as needed."""
    parent_id = None
    if record.parent_platform_id is not None:
        parent_id = _ensure_channel(
            session, workspace_id, record.parent_platform_id, record.parent_name
        )
    params = {
        "workspace_id": workspace_id,
        "platform_id": record.platform_id,
        "name": record.name,
        "parent_id": parent_id,
    }
    return session.connection().execute(_channel_upsert(session), params).scalar_one()


_CHANNEL_ID = select(Channel.id).where(
    Channel.workspace_id == bindparam("workspace_id"),
    Channel.platform_id == bindparam("platform_id"),
)


def _ensure_channel(session: Session, workspace_id: int, platform_id: str, name: str | None) -> int:
    """The id of a channel known only by reference; its own record renames it later."""
    conn = session.connection()
    key = {"workspace_id": workspace_id, "platform_id": platform_id}
    existing = conn.execute(_CHANNEL_ID, key).scalar_one_or_none()
    if existing is not None:
        return existing
    return conn.execute(
        insert(Channel).returning(Channel.id), key | {"name": name or platform_id}
    ).scalar_one()


@_cached
def _people_upsert(session: Session) -> Insert:
    c = Person.__table__.c
    stmt = dialect_insert(session, Person.__table__)
    return stmt.on_conflict_do_update(
        index_elements=["workspace_id", "platform_id"],
        set_={"display_name": stmt.excluded.display_name, "is_bot": stmt.excluded.is_bot},
    ).returning(c.platform_id, c.id)


def upsert_people(
    session: Session, workspace_id: int, people: Iterable[PersonRecord]
) -> dict[str, int]:
    """Store each person (renaming those whose display name changed); ids by platform id."""
    rows = [
        {
            "workspace_id": workspace_id,
            "platform_id": p.platform_id,
            "display_name": p.display_name,
            "is_bot": p.is_bot,
        }
        for p in {p.platform_id: p for p in people}.values()
    ]
    if not rows:
        return {}
    stmt = _people_upsert(session)
    return dict(session.connection().execute(stmt, rows).all())


def upsert_messages(
    session: Session,
    workspace_id: int,
    channel_id: int,
    messages: Sequence[MessageToStore],
    author_ids: dict[str, int],
    written: dict[str, bool] | None = None,
) -> StoreCounts:
    """Store messages and their PR refs; a message already stored is replaced only by a
    newer or equally new version that differs from it. `written`, when given, receives the
    platform id of each message stored, and whether it replaced a stored row.

    New messages are inserted in one batched statement per `BATCH_SIZE`; only those already
    stored go through the conditional replace, so a first import pays for no comparison."""
    counts = StoreCounts()
    if not messages:
        return counts
    conn = session.connection()
    statements = (_message_insert(session), _message_upsert(session))
    tombstones = _has_tombstones(conn, workspace_id)
    for start in range(0, len(messages), BATCH_SIZE):
        batch = messages[start : start + BATCH_SIZE]
        counts.add(
            _upsert_message_batch(
                conn, statements, (workspace_id, channel_id), batch, author_ids, written, tombstones
            )
        )
    return counts


@_cached
def _message_insert(session: Session) -> ReturningInsert[str, int]:
    """INSERT ... ON CONFLICT DO NOTHING for messages, returning the rows it inserted."""
    c = Message.__table__.c
    stmt = dialect_insert(session, Message.__table__)
    return stmt.on_conflict_do_nothing(index_elements=["workspace_id", "platform_id"]).returning(
        c.platform_id, c.id
    )


@_cached
def _message_upsert(session: Session) -> ReturningInsert[str, int]:
    """INSERT ... ON CONFLICT for messages, returning the rows it inserted or replaced."""
    c = Message.__table__.c
    stmt = dialect_insert(session, Message.__table__)
    new = stmt.excluded
    changed = or_(
        c.text.is_distinct_from(new.text),
        c.preview.is_distinct_from(new.preview),
        c.edited_at.is_distinct_from(new.edited_at),
        c.reaction_count.is_distinct_from(new.reaction_count),
        c.reply_count.is_distinct_from(new.reply_count),
        c.pinned.is_distinct_from(new.pinned),
        and_(c.permalink.is_(None), new.permalink.is_not(None)),
        and_(c.thread_id.is_(None), new.thread_id.is_not(None)),
        and_(c.reply_to_id.is_(None), new.reply_to_id.is_not(None)),
    )
    not_older = func.coalesce(new.edited_at, new.created_at) >= func.coalesce(
        c.edited_at, c.created_at
    )
    return stmt.on_conflict_do_update(
        index_elements=["workspace_id", "platform_id"],
        set_={
            "text": new.text,
            "preview": new.preview,
            "edited_at": new.edited_at,
            "reaction_count": new.reaction_count,
            "reply_count": new.reply_count,
            "pinned": new.pinned,
            # A Discord thread's first message is exported twice, once per channel: the
            # first link stored stays, or re-importing would flip it back and forth.
            "permalink": func.coalesce(c.permalink, new.permalink),
            "thread_id": func.coalesce(new.thread_id, c.thread_id),
            "reply_to_id": func.coalesce(new.reply_to_id, c.reply_to_id),
        },
        where=and_(changed, not_older),
    ).returning(c.platform_id, c.id)


_DELETED = DeletedMessage.__table__.c
_ANY_TOMBSTONE = select(_DELETED.id).where(_DELETED.workspace_id == bindparam("ws")).limit(1)
_TOMBSTONES_AMONG = select(_DELETED.platform_id).where(
    _DELETED.workspace_id == bindparam("ws"),
    _DELETED.platform_id.in_(bindparam("ids", expanding=True)),
)
_INSERT_REFS = insert(PRRefRow)
_REFS_OF = delete(PRRefRow).where(PRRefRow.message_id.in_(bindparam("ids", expanding=True)))


def _has_tombstones(conn: Connection, workspace_id: int) -> bool:
    """Whether any message of the workspace was deleted on the platform (most have none,
    and then no batch needs to be checked against them)."""
    return conn.execute(_ANY_TOMBSTONE, {"ws": workspace_id}).first() is not None


def _upsert_message_batch(
    conn: Connection,
    statements: tuple[ReturningInsert[str, int], ReturningInsert[str, int]],
    ids: tuple[int, int],
    batch: Sequence[MessageToStore],
    author_ids: dict[str, int],
    written_ids: dict[str, bool] | None,
    tombstones: bool,
) -> StoreCounts:
    """Insert the batch's new messages, replace the changed ones; their refs follow them."""
    workspace_id, channel_id = ids
    insert, upsert = statements
    by_platform_id = {m.record.platform_id: m for m in batch}  # last copy in a file wins
    if tombstones:  # deleted on the platform: a late copy is not stored again
        params = {"ws": workspace_id, "ids": list(by_platform_id)}
        for platform_id in conn.execute(_TOMBSTONES_AMONG, params).scalars():
            del by_platform_id[platform_id]
    if not by_platform_id:
        return StoreCounts(unchanged=len(batch))
    rows = [
        _message_row(workspace_id, channel_id, m.record, author_ids)
        for m in by_platform_id.values()
    ]
    inserted: dict[str, int] = dict(conn.execute(insert, rows).all())
    updated: dict[str, int] = {}
    if len(inserted) < len(rows):
        stored = [row for row in rows if row["platform_id"] not in inserted]
        updated = dict(conn.execute(upsert, stored).all())
        if updated:
            conn.execute(_REFS_OF, {"ids": list(updated.values())})
    written = inserted | updated
    refs = [
        {"message_id": written[pid], "repo": r.repo, "number": r.number, "raw": r.raw}
        for pid, m in by_platform_id.items()
        if m.refs and pid in written
        for r in m.refs
    ]
    if refs:
        conn.execute(_INSERT_REFS, refs)
    if written_ids is not None:
        written_ids.update((pid, False) for pid in inserted)
        written_ids.update((pid, True) for pid in updated)
    return StoreCounts(
        new=len(inserted), updated=len(updated), unchanged=len(by_platform_id) - len(written)
    )


def _message_row(
    workspace_id: int, channel_id: int, record: MessageRecord, author_ids: dict[str, int]
) -> dict[str, Any]:
    return {
        "workspace_id": workspace_id,
        "channel_id": channel_id,
        "author_id": author_ids[record.author.platform_id],
        "platform_id": record.platform_id,
        "thread_id": record.thread_id,
        "reply_to_id": record.reply_to_id,
        "created_at": record.created_at,
        "edited_at": record.edited_at,
        "text": record.text,
        "preview": record.preview,
        "reaction_count": record.reaction_count,
        "reply_count": record.reply_count,
        "permalink": record.permalink,
        "pinned": record.pinned,
    }


def add_reactions(session: Session, workspace_id: int, platform_id: str, delta: int) -> bool:
    """Count reactions added (or removed, `delta` < 0) on a stored message; whether it is
    stored. The count never goes below zero."""
    result = session.execute(
        update(Message)
        .where(Message.workspace_id == workspace_id, Message.platform_id == platform_id)
        .values(
            reaction_count=case(
                (Message.reaction_count + delta < 0, 0), else_=Message.reaction_count + delta
            )
        )
    )
    return affected_rows(result) > 0


def set_pinned(session: Session, workspace_id: int, platform_id: str, pinned: bool) -> bool:
    """Mark a stored message pinned or no longer pinned; whether it is stored."""
    result = session.execute(
        update(Message)
        .where(Message.workspace_id == workspace_id, Message.platform_id == platform_id)
        .values(pinned=pinned)
    )
    return affected_rows(result) > 0


def find_workspaces(session: Session, platform: str | None = None) -> list[Workspace]:
    """All workspaces (of one platform, if given), by name."""
    stmt = select(Workspace).order_by(Workspace.name, Workspace.id)
    if platform is not None:
        stmt = stmt.where(Workspace.platform == platform)
    return list(session.scalars(stmt))


def latest_message_time(
    session: Session, workspace_id: int, channel_platform_id: str
) -> datetime | None:
    """When the newest stored message of a channel (threads under it included) was sent."""
    parent = aliased(Channel)
    stmt = (
        select(func.max(Message.created_at))
        .join(Channel, Channel.id == Message.channel_id)
        .outerjoin(parent, parent.id == Channel.parent_id)
        .where(
            Message.workspace_id == workspace_id,
            or_(
                Channel.platform_id == channel_platform_id,
                parent.platform_id == channel_platform_id,
            ),
        )
    )
    latest = session.execute(stmt).scalar_one()
    # func.max loses the column type on some backends; SQLite then returns text.
    return latest if latest is None or isinstance(latest, datetime) else _as_utc(latest)


def _as_utc(value: str) -> datetime:
    return datetime.fromisoformat(value).replace(tzinfo=UTC)


def count_messages(
    session: Session,
    workspace_id: int | None = None,
    between: tuple[datetime, datetime] | None = None,
) -> int:
    """How many messages are stored (in one workspace, or in all; sent `between` two
    times, the end excluded, when given)."""
    stmt = select(func.count()).select_from(Message)
    if workspace_id is not None:
        stmt = stmt.where(Message.workspace_id == workspace_id)
    if between is not None:
        stmt = stmt.where(Message.created_at >= between[0], Message.created_at < between[1])
    return session.execute(stmt).scalar_one()


def messages_by_ids(
    session: Session, workspace_id: int, platform_ids: Sequence[str]
) -> list[tuple[Message, Person]]:
    """A workspace's stored messages with these platform ids (deleted ones are absent),
    each with its author, oldest first."""
    rows = session.execute(
        select(Message, Person)
        .join(Person, Person.id == Message.author_id)
        .where(Message.workspace_id == workspace_id, Message.platform_id.in_(list(platform_ids)))
        .order_by(Message.created_at, Message.id)
    )
    return [(message, person) for message, person in rows.all()]


def stored_in_channel_after(
    session: Session,
    workspace_id: int,
    channel_platform_id: str,
    since: datetime,
    until: datetime,
) -> list[tuple[str, str | None]]:
    """(platform id, thread id) of the messages stored in one channel (exactly: not the
    threads under it) sent after `since` and before `until`."""
    stmt = (
        select(Message.platform_id, Message.thread_id)
        .join(Channel, Channel.id == Message.channel_id)
        .where(
            Message.workspace_id == workspace_id,
            Channel.platform_id == channel_platform_id,
            Message.created_at > since,
            Message.created_at < until,
        )
    )
    return [(pid, thread) for pid, thread in session.execute(stmt).all()]
