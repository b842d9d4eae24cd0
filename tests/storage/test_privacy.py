"""Privacy storage: members opting out, messages deleted on the platform, retention purges."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from bot.core.ingest import store_batch
from storage.drafts import add_revision, record_delivery, save_draft
from storage.models import (
    Delivery,
    DraftRow,
    DraftSection,
    DraftStatus,
    ForgottenName,
    Message,
    Person,
    PRRefRow,
    SectionRevision,
    Workspace,
)
from storage.privacy import (
    OPTED_OUT_FLAG,
    REMOVED_TEXT,
    Purged,
    Removed,
    blocking_flags,
    delete_message,
    deleted_source_flag,
    forget_person,
    forgotten_ids,
    forgotten_names,
    is_forgotten,
    purge_expired,
    unnamer,
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
        assert forget_person(session, ws, "u1", AT).messages == 2
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
        assert forget_person(session, ws, "u1", AT).messages == 1
    with sessions.begin() as session:
        assert forget_person(session, ws, "u1", AT + timedelta(days=1)).messages == 0
    with sessions() as session:
        ana = session.scalars(select(Person).where(Person.platform_id == "u1")).one()
        assert ana.forgotten_at == AT
    general = sections_of(sessions, draft_id)["general"]
    assert general.flags == [deleted_source_flag("m1")]
    assert (general.people, general.markdown) == ([], REMOVED_TEXT)


def test_a_member_who_never_posted_can_opt_out(sessions) -> None:
    ws = store(sessions, msg("m1", "hello", at(WEEK_C)))
    with sessions.begin() as session:
        assert forget_person(session, ws, "u9", AT).messages == 0
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
        assert forget_person(session, ws, "u1", AT).messages == 2

    sections = sections_of(sessions, open_draft)
    assert sections["named"].people == ["Ben Ode"]
    assert sections["named"].flags == [OPTED_OUT_FLAG]
    assert sections["named"].markdown == "Thanks to a member's fix, Ben shipped"
    assert (sections["others"].people, sections["others"].flags) == (["Ben Ode"], [])
    assert sections["cited"].flags == [deleted_source_flag("m1")]
    assert sections["cited"].markdown == REMOVED_TEXT
    assert sections["lookalike"].flags == []
    assert sections["lookalike"].markdown == "Banana Ruizz is no one"
    untouched = sections_of(sessions, published)["general"]
    assert (untouched.people, untouched.flags) == (["Ana Ruiz"], [])
    assert untouched.markdown == "Ana Ruiz wrote old news"


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
    assert general.markdown == "a member and Ben shipped"


def test_forgetting_stays_in_its_workspace(sessions) -> None:
    ws = store(sessions, msg("m1", "here", at(WEEK_C)))
    other = store(sessions, msg("x1", "there", at(WEEK_C)), workspace=OTHER_WORKSPACE)
    with sessions.begin() as session:
        assert forget_person(session, ws, "u1", AT).messages == 1
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
        assert delete_message(session, ws, "m1", datetime.now(UTC)).messages == 1
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
        assert delete_message(session, ws, "m1", datetime.now(UTC)).messages == 1
    with sessions.begin() as session:
        assert delete_message(session, ws, "m1", datetime.now(UTC)).messages == 0

    flag = deleted_source_flag("m1")
    assert flag == "a source message was deleted: m1"
    sections = sections_of(sessions, open_draft)
    assert {t: s.flags for t, s in sections.items()} == {
        "one": [flag],
        "two": [flag],
        "three": [],
    }
    assert {t: s.markdown for t, s in sections.items()} == {
        "one": REMOVED_TEXT,
        "two": REMOVED_TEXT,
        "three": "C",
    }
    with sessions() as session:  # approved but not published: back to review
        assert session.get(DraftRow, open_draft).status == DraftStatus.IN_REVIEW
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
        assert delete_message(session, ws, "m9", datetime.now(UTC)).messages == 0
        assert (
            delete_message(session, other, "m1", datetime.now(UTC)).messages == 0
        )  # another workspace's id
        assert delete_message(session, ws, "x1", datetime.now(UTC)).messages == 0
    assert stored_ids(sessions) == {"m1", "x1"}
    assert stored_refs(sessions) == ["#12"]
    assert sections_of(sessions, draft_id)["one"].flags == []


# -- what forgetting and deleting leave behind ---------------------------------------------------


def test_a_member_who_opts_out_before_posting_is_unnamed_later(sessions) -> None:
    ws = store(sessions, msg("m3", "shipped", at(WEEK_C), author=BEN))
    with sessions.begin() as session:
        forget_person(session, ws, "u7", AT, also_names=["Yan Vogel"])
    # They post later under a new name: nothing is stored, and the new name is remembered.
    store(sessions, msg("m4", "hi all", at(WEEK_C, 10), author=PersonRecord("u7", "Yanni V")))
    assert stored_ids(sessions) == {"m3"}
    with sessions() as session:
        assert forgotten_names(session, ws) == {"Yan Vogel", "Yanni V", "u7"}
        unname = unnamer(forgotten_names(session, ws))
    assert unname("Thanks to @Yan Vogel and yanni v!") == "Thanks to a member and a member!"
    assert unname("Yan Vogelsang stays") == "Yan Vogelsang stays"


def test_revisions_and_drafted_text_lose_the_name_and_the_removed_text_too(sessions) -> None:
    ws = store(sessions, msg("m1", "my fix", at(WEEK_C)), msg("m3", "ok", at(WEEK_C), author=BEN))
    draft_id = draft(
        sessions,
        ws,
        WEEK_C,
        "in_review",
        section("cited", "Ana Ruiz fixed it", ["Ana Ruiz"], ["m1"]),
        section("named", "Ben thanked Ana Ruiz", ["Ben Ode"], ["m3"]),
    )
    with sessions.begin() as session:
        for s in session.scalars(select(DraftSection).where(DraftSection.draft_id == draft_id)):
            add_revision(session, s, editor_id="e", editor_name="Ed", at=AT, markdown=s.markdown)
    with sessions.begin() as session:
        forget_person(session, ws, "u1", AT)
    with sessions() as session:
        revisions = {r.section.topic: r.markdown for r in session.scalars(select(SectionRevision))}
        d = session.get(DraftRow, draft_id)
        drafted = {s.topic: s.drafted_markdown for s in d.sections}
        blocked = blocking_flags(d)
    assert revisions == {"cited": REMOVED_TEXT, "named": "Ben thanked a member"}
    assert drafted == revisions  # the text as drafted, which the review page diffs from
    assert blocked == [
        f"Cited: {deleted_source_flag('m1')}",
        f"Named: {OPTED_OUT_FLAG}",
    ]


def test_an_edit_settles_a_section_flags(sessions) -> None:
    ws = store(sessions, msg("m1", "a", at(WEEK_A)))
    draft_id = draft(sessions, ws, WEEK_A, "in_review", section("one", "A", sources=["m1"]))
    with sessions.begin() as session:
        delete_message(session, ws, "m1", AT)
    with sessions.begin() as session:
        one = session.scalars(select(DraftSection)).one()
        add_revision(session, one, editor_id="e", editor_name="Ed", at=AT, markdown="New")
    with sessions() as session:
        assert blocking_flags(session.get(DraftRow, draft_id)) == []


def test_sqlite_overwrites_deleted_rows(engine) -> None:
    if engine.dialect.name != "sqlite":
        pytest.skip("secure_delete is SQLite's")
    with engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA secure_delete").scalar() == 1


# -- retention --------------------------------------------------------------------------------


def test_purging_deletes_old_messages_and_drafts_of_every_kind(sessions) -> None:
    ws = store(
        sessions,
        msg("a1", "fixed #12", at(WEEK_A)),
        msg("b1", "see #13", at(WEEK_B)),
        msg("c1", "early in week C", at(WEEK_C)),
        msg("c2", "after the cutoff", at(WEEK_C, 3 * 24)),
    )
    other = store(sessions, msg("x1", "elsewhere", at(WEEK_A)), workspace=OTHER_WORKSPACE)
    published = draft(sessions, ws, WEEK_A, "published", section("one", "A", sources=["a1"]))
    draft(sessions, ws, WEEK_B - timedelta(days=14), "discarded", section("one", "D"))
    draft(sessions, ws, WEEK_B, "in_review", section("one", "B", sources=["b1"]))
    draft(sessions, ws, WEEK_C, "drafted", section("one", "C", sources=["c1"]))
    draft(sessions, other, WEEK_A, "published", section("one", "X", sources=["x1"]))
    with sessions.begin() as session:
        record_delivery(
            session,
            draft_id=published,
            channel_id="P",
            position=0,
            platform_message_id="p1",
            at=AT,
        )
        one = session.scalars(select(DraftSection).where(DraftSection.draft_id == published))
        add_revision(session, one.one(), editor_id="e", editor_name="Ed", at=AT, markdown="A!")

    cutoff = at(WEEK_C, 2 * 24)  # week B ended before it, week C did not
    with sessions.begin() as session:
        assert purge_expired(session, ws, cutoff) == Purged(messages=3, drafts=3)
    assert stored_ids(sessions) == {"c2", "x1"}
    assert stored_refs(sessions) == []
    with sessions() as session:
        weeks = session.scalars(select(DraftRow.week_start).order_by(DraftRow.week_start))
        assert list(weeks) == [WEEK_A, WEEK_C]  # the other workspace's week A, and week C
        assert session.scalar(select(func.count()).select_from(SectionRevision)) == 0
        assert session.scalar(select(func.count()).select_from(Delivery)) == 0
    with sessions.begin() as session:
        assert purge_expired(session, ws, cutoff) == Purged(0, 0)


def test_purging_uses_the_workspace_timezone_for_week_bounds(sessions) -> None:
    ws = store(sessions, msg("m1", "hi", at(WEEK_C)))
    draft(sessions, ws, WEEK_B, "published", section("one", "B"))
    # Week B ends Monday WEEK_C 00:00 in Amsterdam, Sunday 23:00 UTC: over by 23:30 UTC
    # there, not yet in UTC.
    cutoff = at(WEEK_C, -0.5)
    with sessions.begin() as session:
        assert purge_expired(session, ws, cutoff, timezone="UTC").drafts == 0
        assert purge_expired(session, ws, cutoff, timezone="Europe/Amsterdam").drafts == 1


def test_purging_needs_an_aware_cutoff(sessions) -> None:
    with sessions() as session, pytest.raises(ValueError, match="naive"):
        purge_expired(session, 1, datetime(2026, 11, 1))


def test_forgotten_names_stay_in_their_workspace(sessions) -> None:
    ws = store(sessions, msg("m1", "here", at(WEEK_C)))
    other = store(sessions, msg("x1", "there", at(WEEK_C)), workspace=OTHER_WORKSPACE)
    with sessions.begin() as session:
        forget_person(session, ws, "u1", AT, also_names=["Ana R."])
        assert session.scalar(select(func.count()).select_from(ForgottenName)) == 2
        assert forgotten_names(session, other) == set()


def test_removal_says_which_drafts_changed_and_takes_warnings_and_notes_along(sessions) -> None:
    """Warnings quote the removed text and notes name people: they go the same way as the
    text; the drafts that changed are returned, so their review threads can be rewritten."""
    ws = store(
        sessions,
        msg("m1", "my fix", at(WEEK_C)),
        msg("m3", "shipped", at(WEEK_C, 10), author=BEN),
    )
    open_draft = draft(
        sessions,
        ws,
        WEEK_C,
        "in_review",
        section("cited", "Ana's fix landed", ["Ana Ruiz"], ["m1"]),
        section("named", "Ben shipped", ["Ben Ode"], ["m3"]),
    )
    untouched = draft(
        sessions, ws, WEEK_B, "in_review", section("other", "Ben shipped", [], ["m3"])
    )
    with sessions.begin() as session:
        row = session.get(DraftRow, open_draft)
        row.notes = ["Kept from the LLM: 1 message(s) addressed to the summary, by Ana Ruiz (m9)."]
        cited, named = sorted(row.sections, key=lambda s: s.topic)
        cited.warnings = [
            "removed sentence 'my fix was cancelled' (its words are not in the sources)"
        ]
        named.warnings = ["removed name 'Ana Ruiz' (not in the sources)"]

    with sessions.begin() as session:
        removed = forget_person(session, ws, "u1", AT)
    assert removed == Removed(1, frozenset({open_draft}))

    sections = sections_of(sessions, open_draft)
    assert sections["cited"].warnings == []
    assert sections["named"].warnings == ["removed name 'a member' (not in the sources)"]
    with sessions() as session:
        assert "Ana Ruiz" not in " ".join(session.get(DraftRow, open_draft).notes)
    assert sections_of(sessions, untouched)["other"].markdown == "Ben shipped"

    with sessions.begin() as session:
        assert delete_message(session, ws, "m3", AT) == Removed(
            1, frozenset({open_draft, untouched})
        )
