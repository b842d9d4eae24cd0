"""The title an integration post gives a PR is that PR's title wherever the week cites it."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from bot.core.ingest import store_batch
from bot.drafting.compose import load_week
from bot.ops.config import load_config
from storage.privacy import forget_person
from storage.records import ChannelRecord, ImportBatch, MessageRecord, PersonRecord, WorkspaceRecord
from tests.drafting.helpers import week_for

WORKSPACE = WorkspaceRecord("slack", "T1", "Lab")
GENERAL = ChannelRecord("C1", "general")
ANA = PersonRecord("U1", "Ana Ruiz")
GITHUB = PersonRecord("B1", "GitHub", is_bot=True)
TUESDAY = datetime(2026, 11, 17, 9, 0, tzinfo=UTC)


def test_a_person_s_mention_carries_the_title_the_integration_post_gave(sessions) -> None:
    posted = [
        MessageRecord("m1", GITHUB, TUESDAY, "[lab/main] Pull request merged: #12 Fix the loader"),
        MessageRecord("m2", ANA, TUESDAY + timedelta(minutes=5), "#12 and #13 are both in now"),
    ]
    with sessions.begin() as session:
        store_batch(session, ImportBatch("test.json", WORKSPACE, GENERAL, posted))
    config = load_config()
    week = week_for(sessions, config, date(2026, 11, 17))
    with sessions() as session:
        loaded = {m.id: m for m in load_week(session, config, week)}
    titles = {p.ref: p.title for p in loaded["m2"].prs}
    assert titles == {"lab/main#12": "Fix the loader", "#13": None}
    assert [p.title for p in loaded["m1"].prs] == ["Fix the loader"]


def test_a_title_names_no_member_who_opted_out(sessions) -> None:
    posted = [
        MessageRecord(
            "m1", GITHUB, TUESDAY, "[lab/main] Pull request merged: #12 Port Cleo Lind's loader"
        ),
        MessageRecord("m2", ANA, TUESDAY + timedelta(minutes=5), "#12 is in"),
    ]
    with sessions.begin() as session:
        store_batch(session, ImportBatch("test.json", WORKSPACE, GENERAL, posted))
    with sessions.begin() as session:
        forget_person(session, 1, "u9", TUESDAY, also_names=["Cleo Lind"])
    config = load_config()
    week = week_for(sessions, config, date(2026, 11, 17))
    with sessions() as session:
        loaded = {m.id: m for m in load_week(session, config, week)}
    assert [p.title for p in loaded["m2"].prs] == ["Port a member's loader"]
