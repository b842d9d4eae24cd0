"""A bare "#N" the week cites with another repository's name is that repository's."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from bot.core.ingest import store_batch
from bot.drafting.compose import load_week
from bot.ops.config import load_config
from storage.records import ChannelRecord, ImportBatch, MessageRecord, PersonRecord, WorkspaceRecord
from tests.drafting.helpers import week_for

WORKSPACE = WorkspaceRecord("slack", "T1", "Seq")
BO = PersonRecord("U2", "Bo Lind")
TUESDAY = datetime(2026, 11, 17, 9, 0, tzinfo=UTC)


def test_a_bare_ref_said_after_its_repository_s_name_is_that_repository_s(
    sessions, tmp_path: Path
) -> None:
    (tmp_path / "config.toml").write_text(
        'default_repo = "seq/core"\n[repos]\npipelines = "seq/pipelines"\n'
    )
    config = load_config(tmp_path / "config.toml")
    texts = ["scrnaseq is a draft: pipelines#329", "will test #329 this week", "#2214 is in"]
    posted = [
        MessageRecord(f"m{i}", BO, TUESDAY + timedelta(minutes=i), text)
        for i, text in enumerate(texts)
    ]
    with sessions.begin() as session:
        store_batch(session, ImportBatch("t.json", WORKSPACE, ChannelRecord("C1", "dev"), posted))
    week = week_for(sessions, config, date(2026, 11, 17))
    with sessions() as session:
        cited = {m.id: [p.ref for p in m.prs] for m in load_week(session, config, week)}
    assert cited == {
        "m0": ["seq/pipelines#329"],
        "m1": ["seq/pipelines#329"],
        "m2": ["seq/core#2214"],
    }
