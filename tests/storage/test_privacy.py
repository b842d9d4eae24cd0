"""Privacy storage: members opting out, messages deleted on the platform, retention purges."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

import storage.privacy
from bot.core.ingest import store_batch
from storage.drafts import save_draft
from storage.models import DraftRow, DraftSection, Message, Person, PRRefRow, Workspace
from storage.privacy import (
    OPTED_OUT_FLAG,
    delete_message,
    deleted_source_flag,
    forget_person,
    forgotten_ids,
    is_forgotten,
    purge_expired,
)
from storage.records import (
    ChannelRecord,
    ImportBatch,
    MessageRecord,
    PersonRecord,
    WorkspaceRecord,
)
from summarizer.types import Section

WORKSPACE = WorkspaceRecord("discord", "g1", "Lab")
OTHER_WORKSPACE = WorkspaceRecord("discord", "g2", "Other lab")
GENERAL = ChannelRecord("c1", "general")
ANA = PersonRecord("u1", "Ana Ruiz")
BEN = PersonRecord("u2", "Ben Ode")
AT = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
WEEK_A = date(2026, 11, 2)  # Mondays
WEEK_B = date(2026, 11, 9)
WEEK_C = date(2026, 11, 16)


def at(day: date, hours: float = 9) -> datetime:
    return datetime(day.year, day.month, day.day, tzinfo=UTC) + timedelta(hours=hours)


def msg(pid: str, text: str, when: datetime, author: PersonRecord = ANA) -> MessageRecord:
    return MessageRecord(pid, author, when, text)


def store(sessions: sessionmaker[Session], *messages: MessageRecord, workspace=WORKSPACE) -> int:
    """Store the messages; the workspace's id."""
    with sessions.begin() as session:
        store_batch(session, ImportBatch("test.json", workspace, GENERAL, list(messages)))
        return session.scalars(
            select(Workspace.id).where(Workspace.platform_id == workspace.platform_id)
        ).one()


def section(topic: str, markdown: str, people=(), sources=()) -> Section:
    return Section(topic, topic.title(), markdown, people=list(people), sources=list(sources))


def draft(
    sessions: sessionmaker[Session],
    workspace_id: int,
    week: date,
    status: str,
    *sections: Section,
) -> int:
    with sessions.begin() as session:
        d = save_draft(
            session,
            workspace_id=workspace_id,
            week_start=week,
            title=f"Week of {week}",
            summarizer="extractive",
            created_at=AT,
            sections=list(sections),
        )
        d.status = status
        return d.id


def sections_of(sessions: sessionmaker[Session], draft_id: int) -> dict[str, DraftSection]:
    with sessions() as session:
        rows = session.scalars(select(DraftSection).where(DraftSection.draft_id == draft_id)).all()
        return {s.topic: s for s in rows}


def stored_ids(sessions: sessionmaker[Session]) -> set[str]:
    with sessions() as session:
        return set(session.scalars(select(Message.platform_id)))


def stored_refs(sessions: sessionmaker[Session]) -> list[str]:
    with sessions() as session:
        return sorted(session.scalars(select(PRRefRow.raw)))


# -- forgetting a member ---------------------------------------------------------------------


def test_forgetting_deletes_their_messages_and_refs_and_keeps_others(sessions) -> None:
    ws = store(
        sessions,
        msg("m1", "fixed in #12", at(WEEK_C)),
        msg("m2", "and lab/main#14", at(WEEK_C, 10)),
        msg("m3", "reviewed #13", at(WEEK_C, 11), author=BEN),
    )
    with sessions.begin() as session:
        assert forget_person(session, ws, "u1", AT) == 2
    assert stored_ids(sessions) == {"m3"}
    assert stored_refs(sessions) == ["#13"]
    with sessions() as session:
        assert forgotten_ids(session, ws) == {"u1"}
        assert is_forgotten(session, ws, "u1") and not is_forgotten(session, ws, "u2")
        ana = session.scalars(select(Person).where(Person.platform_id == "u1")).one()
        assert ana.forgotten_at == AT
        assert ana.display_name == "Ana Ruiz"


def test_forgetting_is_idempotent_and_keeps_the_first_time(sessions) -> None:
    ws = store(sessions, msg("m1", "hello", at(WEEK_C)))
    draft_id = draft(
        sessions,
        ws,
        WEEK_C,
        "in_review",
        section("general", "Ana Ruiz said hello", people=["Ana Ruiz"], sources=["m1"]),
    )
    with sessions.begin() as session:
        assert forget_person(session, ws, "u1", AT) == 1
    with sessions.begin() as session:
        assert forget_person(session, ws, "u1", AT + timedelta(days=1)) == 0
    with sessions() as session:
        ana = session.scalars(select(Person).where(Person.platform_id == "u1")).one()
        assert ana.forgotten_at == AT
    general = sections_of(sessions, draft_id)["general"]
    assert general.flags == [OPTED_OUT_FLAG, deleted_source_flag("m1")]
    assert general.people == []


def test_a_member_who_never_posted_can_opt_out(sessions) -> None:
    ws = store(sessions, msg("m1", "hello", at(WEEK_C)))
    with sessions.begin() as session:
        assert forget_person(session, ws, "u9", AT) == 0
    with sessions() as session:
        assert forgotten_ids(session, ws) == {"u9"}
        person = session.scalars(select(Person).where(Person.platform_id == "u9")).one()
        assert (person.display_name, person.forgotten_at) == ("", AT)
    assert stored_ids(sessions) == {"m1"}


def test_forgetting_scrubs_drafts_under_way_but_not_published_ones(sessions) -> None:
    ws = store(
        sessions,
        msg("a1", "old news", at(WEEK_A)),
        msg("m1", "my fix", at(WEEK_C)),
        msg("m3", "shipped", at(WEEK_C, 10), author=BEN),
    )
    published = draft(
        sessions,
        ws,
        WEEK_A,
        "published",
        section("general", "Ana Ruiz wrote old news", people=["Ana Ruiz"], sources=["a1"]),
    )
    open_draft = draft(
        sessions,
        ws,
        WEEK_C,
        "in_review",
        section("named", "Thanks to ana ruiz's fix, Ben shipped", ["Ana Ruiz", "Ben Ode"], ["m3"]),
        section("others", "Ben Ode shipped", ["Ben Ode"], ["m3"]),
        section("cited", "A fix landed", [], ["m3", "m1"]),
        section("lookalike", "Banana Ruizz is no one", ["Ben Ode"], ["m3"]),
    )
    with sessions.begin() as session:
        assert forget_person(session, ws, "u1", AT) == 2

    sections = sections_of(sessions, open_draft)
    assert sections["named"].people == ["Ben Ode"]
    assert sections["named"].flags == [OPTED_OUT_FLAG]
    assert (sections["others"].people, sections["others"].flags) == (["Ben Ode"], [])
    assert sections["cited"].flags == [deleted_source_flag("m1")]
    assert sections["lookalike"].flags == []
    untouched = sections_of(sessions, published)["general"]
    assert (untouched.people, untouched.flags) == (["Ana Ruiz"], [])


def test_forgetting_looks_for_names_given_besides_the_stored_one(sessions) -> None:
    ws = store(sessions, msg("m3", "shipped", at(WEEK_C), author=BEN))
    draft_id = draft(
        sessions,
        ws,
        WEEK_C,
        "drafted",
        section("general", "Cleo Lind and Ben shipped", ["Cleo Lind", "Ben Ode"], ["m3"]),
    )
    with sessions.begin() as session:
        forget_person(session, ws, "u7", AT, also_names=["Cleo Lind", " "])
    general = sections_of(sessions, draft_id)["general"]
    assert (general.people, general.flags) == (["Ben Ode"], [OPTED_OUT_FLAG])


def test_forgetting_stays_in_its_workspace(sessions) -> None:
    ws = store(sessions, msg("m1", "here", at(WEEK_C)))
    other = store(sessions, msg("x1", "there", at(WEEK_C)), workspace=OTHER_WORKSPACE)
    with sessions.begin() as session:
        assert forget_person(session, ws, "u1", AT) == 1
    assert stored_ids(sessions) == {"x1"}
    with sessions() as session:
        assert forgotten_ids(session, other) == set()


# -- messages deleted on the platform --------------------------------------------------------


def test_deleting_a_message_deletes_it_and_its_refs(sessions) -> None:
    ws = store(
        sessions,
        msg("m1", "fixed in #12 and #15", at(WEEK_C)),
        msg("m2", "see #13", at(WEEK_C, 10)),
    )
    with sessions.begin() as session:
        loaded = session.scalars(select(Message).where(Message.platform_id == "m1")).one()
        assert loaded.pr_refs  # objects already in the session do not get in the way
        assert delete_message(session, ws, "m1", datetime.now(UTC)) is True
    assert stored_ids(sessions) == {"m2"}
    assert stored_refs(sessions) == ["#13"]


def test_drafts_under_way_citing_a_deleted_message_are_flagged_once(sessions) -> None:
    ws = store(sessions, msg("m1", "a", at(WEEK_A)), msg("m2", "b", at(WEEK_A, 10)))
    open_draft = draft(
        sessions,
        ws,
        WEEK_A,
        "approved",
        section("one", "A", sources=["m1", "m2"]),
        section("two", "B", sources=["m1"]),
        section("three", "C", sources=["m2"]),
    )
    published = draft(sessions, ws, WEEK_B, "published", section("one", "A", sources=["m1"]))
    discarded = draft(sessions, ws, WEEK_C, "discarded", section("one", "A", sources=["m1"]))
    with sessions.begin() as session:
        assert delete_message(session, ws, "m1", datetime.now(UTC)) is True
    with sessions.begin() as session:
        assert delete_message(session, ws, "m1", datetime.now(UTC)) is False

    flag = deleted_source_flag("m1")
    assert flag == "a source message was deleted: m1"
    sections = sections_of(sessions, open_draft)
    assert {t: s.flags for t, s in sections.items()} == {
        "one": [flag],
        "two": [flag],
        "three": [],
    }
    assert sections_of(sessions, published)["one"].flags == []
    assert sections_of(sessions, discarded)["one"].flags == []


def test_a_second_deletion_adds_its_own_flag(sessions) -> None:
    ws = store(sessions, msg("m1", "a", at(WEEK_A)), msg("m2", "b", at(WEEK_A, 10)))
    draft_id = draft(sessions, ws, WEEK_A, "drafted", section("one", "A", sources=["m1", "m2"]))
    for pid in ("m1", "m2", "m1"):
        with sessions.begin() as session:
            delete_message(session, ws, pid, datetime.now(UTC))
    assert sections_of(sessions, draft_id)["one"].flags == [
        deleted_source_flag("m1"),
        deleted_source_flag("m2"),
    ]


def test_deleting_an_unknown_message_changes_nothing(sessions) -> None:
    ws = store(sessions, msg("m1", "see #12", at(WEEK_A)))
    other = store(sessions, msg("x1", "there", at(WEEK_A)), workspace=OTHER_WORKSPACE)
    draft_id = draft(sessions, ws, WEEK_A, "drafted", section("one", "A", sources=["m9"]))
    with sessions.begin() as session:
        assert delete_message(session, ws, "m9", datetime.now(UTC)) is False
        assert (
            delete_message(session, other, "m1", datetime.now(UTC)) is False
        )  # another workspace's id
        assert delete_message(session, ws, "x1", datetime.now(UTC)) is False
    assert stored_ids(sessions) == {"m1", "x1"}
    assert stored_refs(sessions) == ["#12"]
    assert sections_of(sessions, draft_id)["one"].flags == []


# -- retention --------------------------------------------------------------------------------


def test_purging_deletes_only_old_messages_of_published_weeks(sessions) -> None:
    no_draft_week = date(2026, 10, 26)
    ws = store(
        sessions,
        msg("n1", "before any draft", at(no_draft_week)),
        msg("a1", "fixed #12", at(WEEK_A)),
        msg("a2", "late in week A", at(WEEK_A, 6 * 24 + 23)),
        msg("b1", "see #13", at(WEEK_B)),
        msg("c1", "early in week C", at(WEEK_C)),
        msg("c2", "after the cutoff", at(WEEK_C, 3 * 24)),
    )
    other = store(sessions, msg("x1", "elsewhere", at(WEEK_A)), workspace=OTHER_WORKSPACE)
    draft(sessions, ws, WEEK_A, "published", section("one", "A", sources=["a1"]))
    draft(sessions, ws, WEEK_B, "in_review", section("one", "B", sources=["b1"]))
    draft(sessions, ws, WEEK_C, "published", section("one", "C", sources=["c1"]))
    draft(sessions, other, WEEK_A, "published", section("one", "X", sources=["x1"]))

    cutoff = at(WEEK_C, 2 * 24)
    with sessions.begin() as session:
        assert purge_expired(session, ws, cutoff) == 3
    assert stored_ids(sessions) == {"n1", "b1", "c2", "x1"}
    assert stored_refs(sessions) == ["#13"]
    with sessions.begin() as session:
        assert purge_expired(session, ws, cutoff) == 0


def test_purging_uses_the_workspace_timezone_for_week_bounds(sessions) -> None:
    # Europe/Amsterdam is UTC+1 in November: its Monday 00:30 is Sunday 23:30 UTC.
    ws = store(
        sessions,
        msg("a0", "Monday 00:30 in Amsterdam, week A", at(WEEK_A, -0.5)),
        msg("b0", "Monday 00:30 in Amsterdam, week B", at(WEEK_B, -0.5)),
    )
    draft(sessions, ws, WEEK_A, "published", section("one", "A"))
    cutoff = at(WEEK_C)
    with sessions.begin() as session:
        assert purge_expired(session, ws, cutoff, timezone="Europe/Amsterdam") == 1
    assert stored_ids(sessions) == {"b0"}
    with sessions.begin() as session:  # in UTC, b0 was sent in week A
        assert purge_expired(session, ws, cutoff, timezone="UTC") == 1
    assert stored_ids(sessions) == set()


def test_purging_many_published_weeks_goes_in_chunks(sessions, monkeypatch) -> None:
    monkeypatch.setattr(storage.privacy, "PURGE_WEEKS_PER_STATEMENT", 2)
    weeks = [WEEK_A + timedelta(weeks=n) for n in range(5)]
    ws = store(sessions, *(msg(f"w{n}", "hi", at(week, 30)) for n, week in enumerate(weeks)))
    for week in weeks:
        draft(sessions, ws, week, "published", section("one", "A"))
    with sessions.begin() as session:
        assert purge_expired(session, ws, at(weeks[-1], 24)) == 4
    assert stored_ids(sessions) == {"w4"}


def test_purging_with_nothing_published_deletes_nothing(sessions) -> None:
    ws = store(sessions, msg("m1", "old", at(WEEK_A)))
    with sessions.begin() as session:
        assert purge_expired(session, ws, AT) == 0
        assert session.scalar(select(func.count()).select_from(DraftRow)) == 0
    assert stored_ids(sessions) == {"m1"}


def test_purging_needs_an_aware_cutoff(sessions) -> None:
    with sessions() as session, pytest.raises(ValueError, match="naive"):
        purge_expired(session, 1, datetime(2026, 11, 1))
