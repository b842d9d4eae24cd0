"""Channel and people rows a bot process knows are stored as it would store them.

Every live batch used to upsert its channel and its authors before its messages: two
statements (two round trips on PostgreSQL) that, in a busy channel, write what is already
there. `KnownRows` remembers, per workspace and platform id, the record last stored and its
row id, and `store_batch` upserts only what differs (a new channel or person, a rename).

Ids are learned inside a transaction but only trusted once it has committed (a rolled-back
insert's id names no row), through the sessionmaker's `after_commit` event; a rollback drops
them. Channel and people rows are never deleted, so a known id stays valid. A rename made by
another process is not undone: this process upserts a record again only when its own copy
changes.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from sqlalchemy import event
from sqlalchemy.orm import Session, sessionmaker

from storage.records import ChannelRecord, PersonRecord

Key = tuple[int, str]  # (workspace id, platform id)
Known = dict[Key, tuple[Hashable, int]]  # the record stored, and its row id


class KnownRows:
    """Committed channel and people ids of `sessions`' database, by the record stored."""

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self._channels: Known = {}
        self._people: Known = {}
        self._learned = f"known-rows-{id(self)}"  # this instance's entry in session.info
        event.listen(sessions, "after_commit", self._commit)
        event.listen(sessions, "after_rollback", self._forget_staged)

    def channel(self, workspace_id: int, record: ChannelRecord) -> int | None:
        """The channel's id if it is stored as `record` says."""
        return _lookup(self._channels, (workspace_id, record.platform_id), record)

    def people(
        self, workspace_id: int, records: list[PersonRecord]
    ) -> tuple[dict[str, int], list[PersonRecord]]:
        """Ids of the people stored as their records say, and the records that are not."""
        ids: dict[str, int] = {}
        unknown: list[PersonRecord] = []
        for record in records:
            known = _lookup(self._people, (workspace_id, record.platform_id), record)
            if known is None:
                unknown.append(record)
            else:
                ids[record.platform_id] = known
        return ids, unknown

    def learn_channel(
        self, session: Session, workspace_id: int, record: ChannelRecord, row_id: int
    ) -> None:
        """`record` was stored as row `row_id` in `session`'s transaction."""
        self._staged(session)[0][(workspace_id, record.platform_id)] = (record, row_id)

    def learn_people(
        self,
        session: Session,
        workspace_id: int,
        records: list[PersonRecord],
        ids: dict[str, int],
    ) -> None:
        """`records` were stored as the rows `ids` names, in `session`'s transaction."""
        people = self._staged(session)[1]
        for record in records:
            people[(workspace_id, record.platform_id)] = (record, ids[record.platform_id])

    def _staged(self, session: Session) -> tuple[Known, Known]:
        staged: tuple[Known, Known] = session.info.setdefault(self._learned, ({}, {}))
        return staged

    def _commit(self, session: Session) -> None:
        staged: Any = session.info.pop(self._learned, None)
        if staged is not None:
            self._channels.update(staged[0])
            self._people.update(staged[1])

    def _forget_staged(self, session: Session) -> None:
        session.info.pop(self._learned, None)


def _lookup(known: Known, key: Key, record: Hashable) -> int | None:
    found = known.get(key)
    return found[1] if found is not None and found[0] == record else None
