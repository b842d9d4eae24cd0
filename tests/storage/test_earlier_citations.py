"""Earlier weeks' drafts as priors: under which topics they cited each PR and person."""

from __future__ import annotations

from datetime import UTC, date, datetime

from sqlalchemy.orm import Session, sessionmaker

from bot.core.ingest import store_batch
from storage.drafts import earlier_citations, save_draft
from storage.records import ChannelRecord, ImportBatch, MessageRecord, PersonRecord, WorkspaceRecord
from summarizer.types import Section

AT = datetime(2026, 11, 20, tzinfo=UTC)
ANA = PersonRecord("u1", "Ana Ruiz")
GENERAL = ChannelRecord("c1", "general")


def workspace(sessions: sessionmaker[Session], platform_id: str) -> int:
    record = WorkspaceRecord("discord", platform_id, f"Lab {platform_id}")
    message = MessageRecord(f"{platform_id}-m1", ANA, AT, "hello")
    with sessions.begin() as session:
        store_batch(
            session, ImportBatch("t.json", record, ChannelRecord("c1", "general"), [message])
        )
    with sessions() as session:
        from storage.messages import find_workspaces

        return next(w.id for w in find_workspaces(session) if w.platform_id == platform_id)


def draft(sessions: sessionmaker[Session], workspace_id: int, week: date, *sections: Section):
    with sessions.begin() as session:
        save_draft(
            session,
            workspace_id=workspace_id,
            week_start=week,
            title=f"Week of {week}",
            summarizer="extractive",
            created_at=AT,
            sections=list(sections),
        )


def section(topic: str, prs: list[str], people: list[str]) -> Section:
    return Section(topic, topic.title(), "text", prs=prs, people=people)


def test_counts_each_topic_citing_a_pr_or_person_in_the_weeks_asked_for(sessions) -> None:
    lab, other_lab = workspace(sessions, "g1"), workspace(sessions, "g2")
    draft(
        sessions,
        lab,
        date(2026, 11, 2),
        section("iris", ["lab/main#7", "lab/main#8"], ["Ana Ruiz"]),
        section("data", ["lab/main#8"], ["Ana Ruiz", "Ben Cho"]),
    )
    draft(sessions, lab, date(2026, 11, 9), section("iris", ["lab/main#7"], ["Ana Ruiz"]))
    draft(sessions, lab, date(2026, 10, 5), section("data", ["lab/main#7"], []))  # too early
    draft(sessions, lab, date(2026, 11, 16), section("data", ["lab/main#7"], []))  # this week
    draft(sessions, other_lab, date(2026, 11, 9), section("data", ["lab/main#7"], []))
    with sessions() as session:
        cited = earlier_citations(session, lab, date(2026, 10, 12), date(2026, 11, 16))
    assert cited.prs == {"lab/main#7": {"iris": 2}, "lab/main#8": {"iris": 1, "data": 1}}
    assert cited.people == {"Ana Ruiz": {"iris": 2, "data": 1}, "Ben Cho": {"data": 1}}
