"""Pinned messages: stored as the platform says, flipped by pin events, handed to the drafter."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from bot.core.ingest import store_batch
from bot.drafting.compose import load_week
from bot.ops.config import load_config
from storage.messages import set_pinned
from storage.models import Message
from storage.records import (
    ChannelRecord,
    ImportBatch,
    MessageRecord,
    PersonRecord,
    WorkspaceRecord,
)
from tests.drafting.helpers import week_for

WORKSPACE = WorkspaceRecord("slack", "T1", "Lab")
GENERAL = ChannelRecord("C1", "general")
ANA = PersonRecord("U1", "Ana Ruiz")
TUESDAY = datetime(2026, 11, 17, 9, 0, tzinfo=UTC)


def message(pid: str, *, pinned: bool = False, minutes: int = 0) -> MessageRecord:
    return MessageRecord(
        pid, ANA, TUESDAY + timedelta(minutes=minutes), f"news {pid}", pinned=pinned
    )


def store(sessions: sessionmaker[Session], *messages: MessageRecord):
    with sessions.begin() as session:
        return store_batch(session, ImportBatch("test.json", WORKSPACE, GENERAL, list(messages)))


def pinned(sessions: sessionmaker[Session]) -> dict[str, bool]:
    with sessions() as session:
        return dict(session.execute(select(Message.platform_id, Message.pinned)).all())


def test_a_record_s_pin_is_stored_and_a_later_copy_replaces_it(sessions) -> None:
    store(sessions, message("m1", pinned=True), message("m2"))
    assert pinned(sessions) == {"m1": True, "m2": False}
    # A re-import (or a re-read after downtime) says what is pinned now: m1 was unpinned,
    # m2 pinned, and nothing else about them changed.
    counts = store(sessions, message("m1"), message("m2", pinned=True))
    assert (counts.new, counts.updated, counts.unchanged) == (0, 2, 0)
    assert pinned(sessions) == {"m1": False, "m2": True}
    # The same again changes nothing.
    assert store(sessions, message("m1"), message("m2", pinned=True)).unchanged == 2


def test_a_repaired_record_keeps_its_pin(sessions) -> None:
    """Normalising rebuilds a record that needed repair (here a NUL byte): the pin goes too."""
    repaired = MessageRecord("m1", ANA, TUESDAY, "news\x00 m1", pinned=True)
    store(sessions, repaired)
    assert pinned(sessions) == {"m1": True}


def test_set_pinned_flips_one_stored_message(sessions) -> None:
    store(sessions, message("m1"), message("m2"))
    with sessions.begin() as session:
        assert set_pinned(session, 1, "m1", True)
        assert not set_pinned(session, 1, "not-stored", True)
    assert pinned(sessions) == {"m1": True, "m2": False}
    with sessions.begin() as session:
        assert set_pinned(session, 1, "m1", False)
    assert pinned(sessions) == {"m1": False, "m2": False}


def test_set_pinned_leaves_committing_to_its_caller(sessions) -> None:
    store(sessions, message("m1"))
    with sessions() as session:
        set_pinned(session, 1, "m1", True)
        session.rollback()
    assert pinned(sessions) == {"m1": False}


def test_the_drafter_s_messages_carry_pinned(sessions) -> None:
    store(sessions, message("m1", pinned=True), message("m2", minutes=1))
    config = load_config()
    week = week_for(sessions, config, date(2026, 11, 17))
    with sessions() as session:
        loaded = {m.id: m.pinned for m in load_week(session, config, week)}
    assert loaded == {"m1": True, "m2": False}
