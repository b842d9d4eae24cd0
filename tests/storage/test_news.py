"""News submissions in storage: stored once, read by week, dropped, and gone with forget-me,
a deleted message and retention."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from bot.core.ingest import store_batch
from storage.messages import upsert_people
from storage.models import Person, Workspace
from storage.news import (
    add_submission,
    drop_submission,
    get_submission,
    message_row_ids,
    week_submissions,
)
from storage.privacy import delete_message, forget_person, purge_expired
from storage.records import ChannelRecord, ImportBatch, MessageRecord, PersonRecord, WorkspaceRecord

WORKSPACE = WorkspaceRecord("slack", "T1", "Lab")
ANA = PersonRecord("U1", "Ana Ruiz")
BEN = PersonRecord("U2", "Ben Ode")
MONDAY = datetime(2026, 11, 9, tzinfo=UTC)


def setup(sessions: sessionmaker[Session]) -> tuple[int, int, int, int]:
    """A workspace with Ben's message in #rl; (workspace, Ana's id, Ben's id, message id)."""
    with sessions.begin() as session:
        message = MessageRecord("C1:1", BEN, MONDAY + timedelta(hours=9), "RL run hit 40% MFU")
        store_batch(session, ImportBatch("t", WORKSPACE, ChannelRecord("C1", "rl"), [message]))
        ws = session.scalars(select(Workspace.id)).one()
        people = upsert_people(session, ws, [ANA, BEN])
        row_id = message_row_ids(session, ws, ["C1:1"])["C1:1"][0]
        return ws, people["U1"], people["U2"], row_id


def submit(sessions: sessionmaker[Session], ws: int, sender: int, **kw: object) -> bool:
    with sessions.begin() as session:
        return add_submission(session, ws, sender, **kw)  # type: ignore[arg-type]


def week(sessions: sessionmaker[Session], ws: int) -> list:
    with sessions() as session:
        return week_submissions(session, ws, MONDAY, MONDAY + timedelta(days=7))


def test_a_reaction_is_submitted_once_and_read_with_its_message(sessions) -> None:
    ws, ana, _ben, message = setup(sessions)
    at = MONDAY + timedelta(hours=10)
    assert submit(sessions, ws, ana, text="RL run hit 40% MFU", submitted_at=at, message_id=message)
    assert not submit(
        sessions, ws, ana, text="RL run hit 40% MFU", submitted_at=at, message_id=message
    )
    assert submit(sessions, ws, ana, text="Iris ships Friday", submitted_at=at)
    found = week(sessions, ws)
    assert [(n.sender, n.text, n.message_platform_id, n.author, n.channel) for n in found] == [
        ("Ana Ruiz", "RL run hit 40% MFU", "C1:1", "Ben Ode", "rl"),
        ("Ana Ruiz", "Iris ships Friday", None, None, None),
    ]


def test_a_submission_belongs_to_the_week_it_was_sent_in(sessions) -> None:
    ws, ana, _ben, _message = setup(sessions)
    submit(sessions, ws, ana, text="last week", submitted_at=MONDAY - timedelta(seconds=1))
    submit(sessions, ws, ana, text="this week", submitted_at=MONDAY)
    assert [n.text for n in week(sessions, ws)] == ["this week"]


def test_a_dropped_submission_says_who_dropped_it(sessions) -> None:
    ws, ana, _ben, _message = setup(sessions)
    submit(sessions, ws, ana, text="Iris ships Friday", submitted_at=MONDAY)
    (news,) = week(sessions, ws)
    with sessions.begin() as session:
        row = get_submission(session, ws, news.id)
        assert row is not None
        drop_submission(session, row, by="Eve Editor", at=MONDAY + timedelta(days=1))
        assert get_submission(session, ws + 1, news.id) is None  # another workspace's
    (dropped,) = week(sessions, ws)
    assert dropped.dropped_by == "Eve Editor"


def test_forget_me_deletes_what_the_member_sent_and_what_was_sent_of_theirs(sessions) -> None:
    ws, ana, ben, message = setup(sessions)
    submit(sessions, ws, ana, text="RL", submitted_at=MONDAY, message_id=message)
    submit(sessions, ws, ben, text="Ben's own news", submitted_at=MONDAY)
    submit(sessions, ws, ana, text="Ana's own news", submitted_at=MONDAY)
    with sessions.begin() as session:
        forget_person(session, ws, "U2", MONDAY)  # Ben: the message's author and a sender
    assert [n.text for n in week(sessions, ws)] == ["Ana's own news"]


def test_a_message_deleted_on_the_platform_takes_its_submissions(sessions) -> None:
    ws, ana, _ben, message = setup(sessions)
    submit(sessions, ws, ana, text="RL", submitted_at=MONDAY, message_id=message)
    with sessions.begin() as session:
        delete_message(session, ws, "C1:1", MONDAY)
    assert week(sessions, ws) == []


def test_retention_deletes_old_submissions(sessions) -> None:
    ws, ana, _ben, _message = setup(sessions)
    submit(sessions, ws, ana, text="old", submitted_at=MONDAY)
    submit(sessions, ws, ana, text="new", submitted_at=MONDAY + timedelta(days=3))
    with sessions.begin() as session:
        purge_expired(session, ws, MONDAY + timedelta(days=1))
        assert session.scalars(select(Person.display_name).where(Person.id == ana)).one()
    assert [n.text for n in week(sessions, ws)] == ["new"]
