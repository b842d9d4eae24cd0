"""A live store as a unit of group commit, sharing its statements with its channel's others.

`Core.store` queues one `LiveStore` per event (`bot.core.group_commit`). In a batch, the
stores of one channel whose messages appear in no other store of the batch are stored in
one call: one channel upsert, one people upsert, one message upsert and so on for them all,
rather than about seven statements each. Each learns from `written` what became of its own
messages. A message found in several stores of the batch (a message and its edit, a
duplicate delivery) is stored by each of them alone, in the order they were asked for, so
duplicates, edits and deletes behave as they do one event at a time.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from sqlalchemy.orm import Session

from bot.core import metrics
from storage.messages import StoreCounts
from storage.normalise import clean_text
from storage.records import ChannelRecord, MessageRecord, WorkspaceRecord

StoreOnce = Callable[..., StoreCounts | None]
"""`Core._store_once(session, workspace_id, workspace, channel, messages, written=None)`."""


@dataclass(frozen=True, slots=True)
class LiveStore:
    """Store a channel's messages (live or backfilled) in the batch's transaction."""

    store_once: StoreOnce
    workspace_id: int
    workspace: WorkspaceRecord
    channel: ChannelRecord
    messages: list[MessageRecord]

    def __call__(self, session: Session) -> StoreCounts | None:
        return self._store(session, self.messages)

    @classmethod
    def run_together(cls, session: Session, units: list[LiveStore]) -> list[StoreCounts | None]:
        """Each unit's counts (None: its channel is not logged), in order."""
        copies = Counter(_key(m) for unit in units for m in unit.messages)
        groups: dict[Hashable, list[int]] = {}
        for index, unit in enumerate(units):
            alone = any(copies[_key(m)] > 1 for m in unit.messages)
            key = ("alone", index) if alone else (unit.store_once, unit.workspace_id, unit.channel)
            groups.setdefault(key, []).append(index)
        counts: list[StoreCounts | None] = [None] * len(units)
        for indices in groups.values():  # in the order of each group's first store
            shared = [units[index] for index in indices]
            for index, value in zip(indices, _together(session, shared), strict=True):
                counts[index] = value
        return counts

    def _store(
        self,
        session: Session,
        messages: list[MessageRecord],
        written: dict[str, bool] | None = None,
    ) -> StoreCounts | None:
        with metrics.STORAGE_SECONDS.labels(self.workspace.platform).time():
            args = (session, self.workspace_id, self.workspace, self.channel, messages)
            return self.store_once(*args) if written is None else self.store_once(*args, written)


def _together(session: Session, units: list[LiveStore]) -> list[StoreCounts | None]:
    """Stores of one channel, no message in two of them, in one call."""
    if len(units) == 1:
        return [units[0](session)]
    written: dict[str, bool] = {}
    messages = [message for unit in units for message in unit.messages]
    if units[0]._store(session, messages, written) is None:
        return [None] * len(units)
    return [_share(unit.messages, written) for unit in units]


def _share(messages: list[MessageRecord], written: dict[str, bool]) -> StoreCounts:
    """One store's part of a shared call: new, replaced, and the rest (already stored,
    deleted, or left out)."""
    outcomes = [written.get(_key(message)) for message in messages]
    new, updated = outcomes.count(False), outcomes.count(True)
    return StoreCounts(new=new, updated=updated, unchanged=len(messages) - new - updated)


def _key(message: MessageRecord) -> str:
    """A message's platform id as stored (`storage.normalise.clean_id`)."""
    return clean_text(message.platform_id).strip()
