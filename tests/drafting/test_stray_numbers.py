"""What a bare "#N" is: not a PR where it counts something ("coffee #1 of the day" beside a
repository's three-digit numbers, "printer #4" in a week that names no repository at all), and
another repository's where the week cites that number only there ("pipelines#329", then "will
test #329")."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from bot.core.ingest import store_batch
from bot.drafting.compose import load_week
from bot.ops.config import load_config
from storage.records import ChannelRecord, ImportBatch, MessageRecord, PersonRecord, WorkspaceRecord
from summarizer.prrefs import stray_numbers
from tests.drafting.helpers import week_for

WORKSPACE = WorkspaceRecord("slack", "T1", "Maps")
BO = PersonRecord("U2", "Bo Lind")
TUESDAY = datetime(2026, 11, 17, 9, 0, tzinfo=UTC)


def _cited(
    sessions, tmp_path: Path, *texts: str, repo: str = "maps/core", aliases: str = ""
) -> dict[str, list[str]]:
    (tmp_path / "config.toml").write_text(f'default_repo = "{repo}"\n[repos]\n{aliases}')
    config = load_config(tmp_path / "config.toml")
    posted = [
        MessageRecord(f"m{i}", BO, TUESDAY + timedelta(minutes=i), text)
        for i, text in enumerate(texts)
    ]
    with sessions.begin() as session:
        store_batch(session, ImportBatch("t.json", WORKSPACE, ChannelRecord("C1", "dev"), posted))
    week = week_for(sessions, config, date(2026, 11, 17))
    with sessions() as session:
        return {m.id: [p.ref for p in m.prs] for m in load_week(session, config, week)}


def test_a_single_digit_beside_a_mature_repository_s_prs_is_no_pr(sessions, tmp_path) -> None:
    cited = _cited(
        sessions, tmp_path, "reprojection engine is in #2231", "coffee #1 of the day", "#3 here"
    )
    assert cited == {"m0": ["maps/core#2231"], "m1": [], "m2": []}


def test_a_young_repository_s_first_issues_are_cited(sessions, tmp_path) -> None:
    assert _cited(sessions, tmp_path, "fixed #3, and #12 is next") == {
        "m0": ["maps/core#3", "maps/core#12"]
    }


def test_only_a_bare_small_number_is_a_stray() -> None:
    refs = [
        ("#1", "maps/core#1"),
        ("PR 4", "maps/core#4"),
        ("maps/core#5", "maps/core#5"),
        ("#2231", "maps/core#2231"),
        ("#2", "maps/tiles#2"),
    ]
    assert stray_numbers(refs) == {("#1", "maps/core#1")}


def test_six_digits_beside_a_repository_s_small_numbers_are_a_colour() -> None:
    refs = [("#41", "club/tools#41"), ("#330000", "club/tools#330000")]
    assert stray_numbers(refs) == {("#330000", "club/tools#330000")}
    # (a repository in its hundreds of thousands cites six digits)
    assert stray_numbers([("#1234", "big/repo#1234"), ("#331000", "big/repo#331000")]) == set()
    assert stray_numbers([("#331000", "big/repo#331000")]) == set()


def test_a_community_without_code_has_numbers_not_prs(sessions, tmp_path) -> None:
    cited = _cited(
        sessions,
        tmp_path,
        "Printer #4 is free for your classroom",
        "your calipers are in cubby #14",
        repo="",
    )
    assert cited == {"m0": [], "m1": []}


def test_without_a_default_repository_a_linked_one_keeps_bare_prs(sessions, tmp_path) -> None:
    cited = _cited(
        sessions,
        tmp_path,
        "#14 is merged",
        "review https://github.com/maps/core/pull/15 please",
        repo="",
    )
    assert cited == {"m0": ["#14"], "m1": ["maps/core#15"]}


def test_a_week_naming_no_repository_keeps_large_numbers_and_named_prs() -> None:
    refs = [("#4", "#4"), ("#14", "#14"), ("#2231", "#2231"), ("PR 12", "#12")]
    assert stray_numbers(refs) == {("#4", "#4"), ("#14", "#14")}
    assert stray_numbers([("#4", "#4"), ("core#7", "core#7")]) == set()


def test_a_two_digit_number_beside_numbers_ten_times_larger_is_no_pr(sessions, tmp_path) -> None:
    cited = _cited(
        sessions,
        tmp_path,
        "the migration is in #5203",
        "my Zigbee network is on channel #15",
        "the k8s chart is tracked in maps/charts#61",
        "#61 is yours, I assigned you",
    )
    assert cited == {
        "m0": ["maps/core#5203"],
        "m1": [],
        "m2": ["maps/charts#61"],
        "m3": ["maps/charts#61"],  # (the other repository's: no stray there)
    }


def test_a_bare_ref_said_after_its_repository_s_name_is_that_repository_s(
    sessions, tmp_path
) -> None:
    cited = _cited(
        sessions,
        tmp_path,
        "scrnaseq is a draft: pipelines#329",
        "will test #329 this week",
        "#2214 is in",
        aliases='pipelines = "maps/pipelines"\n',
    )
    assert cited == {
        "m0": ["maps/pipelines#329"],
        "m1": ["maps/pipelines#329"],
        "m2": ["maps/core#2214"],
    }
