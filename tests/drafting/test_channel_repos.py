"""A bare "#N" said in a channel named for one of the community's repositories is that
repository's PR, not the default repository's."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from bot.core.ingest import store_batch
from bot.drafting.compose import load_week
from bot.ops.config import load_config
from storage.records import ChannelRecord, ImportBatch, MessageRecord, PersonRecord, WorkspaceRecord
from summarizer.prlinks import link, link_prs
from summarizer.prrefs import channel_repository
from tests.drafting.helpers import week_for

WORKSPACE = WorkspaceRecord("discord", "G1", "Kernels")
ANA = PersonRecord("U1", "Ana Ruiz")
TUESDAY = datetime(2026, 11, 17, 9, 0, tzinfo=UTC)
CONFIG = """
default_repo = "kern/core"
[repos]
"boot-fw" = "kern/boot-fw"
"""


def _said(sessions, channel: str, *texts: str) -> None:
    posted = [
        MessageRecord(f"{channel}{i}", ANA, TUESDAY + timedelta(minutes=i), text)
        for i, text in enumerate(texts)
    ]
    with sessions.begin() as session:
        store_batch(
            session, ImportBatch("t.json", WORKSPACE, ChannelRecord(channel, channel), posted)
        )


def test_bare_refs_in_a_repository_s_channel_are_its_prs(sessions, tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text(CONFIG)
    config = load_config(tmp_path / "config.toml")
    _said(sessions, "boot-fw", "merged #310, and PR 316 is next")
    _said(sessions, "core", "#310 is unrelated")
    _said(sessions, "general", "see #12 and boot-fw#7")
    week = week_for(sessions, config, date(2026, 11, 17))
    with sessions() as session:
        refs = {m.id: [p.ref for p in m.prs] for m in load_week(session, config, week)}
    assert refs == {
        "boot-fw0": ["kern/boot-fw#310", "kern/boot-fw#316"],
        "core0": ["kern/core#310"],
        "general0": ["kern/core#12", "kern/boot-fw#7"],
    }


def test_a_bare_ref_of_another_repository_is_written_with_its_repository(
    sessions, tmp_path: Path
) -> None:
    (tmp_path / "config.toml").write_text(CONFIG)
    config = load_config(tmp_path / "config.toml")
    _said(sessions, "boot-fw", "merged #310, and PR 316 is next")
    _said(sessions, "core", "#310 is unrelated")
    week = week_for(sessions, config, date(2026, 11, 17))
    with sessions() as session:
        messages = load_week(session, config, week)
    shown = {m.id: [link(p).partition("]")[0] for p in m.prs] for m in messages}
    # (a reader takes "#310" for the default repository's)
    assert shown == {"boot-fw0": ["[boot-fw#310", "[boot-fw#316"], "core0": ["[#310"]}
    drafted = link_prs(messages[0].text, messages[0].prs)
    assert drafted.startswith("merged [boot-fw#310](https://github.com/kern/boot-fw/")
    assert ", and [boot-fw#316](" in drafted


def test_a_channel_is_named_for_an_alias_or_a_repository_s_name() -> None:
    aliases = {"Boot-FW": "kern/boot-fw", "docs": "kern/website"}
    assert channel_repository("boot-fw", "kern/core", aliases) == "kern/boot-fw"
    assert channel_repository("website", "kern/core", aliases) == "kern/website"
    assert channel_repository("core", "kern/core", aliases) == "kern/core"
    assert channel_repository("general", "kern/core", aliases) is None
    assert channel_repository("general") is None


def test_a_decorated_channel_name_is_its_plain_name() -> None:
    """Discord servers put emoji and separators around names; the admin writes them plain."""
    aliases = {"boot-fw": "kern/boot-fw"}
    assert channel_repository("🥾┃boot-fw", "kern/core", aliases) == "kern/boot-fw"
    assert channel_repository("「core」", "kern/core", aliases) == "kern/core"
    assert channel_repository("🥾┃boot-fw-talk", "kern/core", aliases) is None
