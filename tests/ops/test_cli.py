"""The `summarybot` command line: import, draft, migrate, and the errors a user can make."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import create_engine, func, select
from typer.testing import CliRunner

from bot.ops.cli import app
from storage.models import DraftRow, DraftSection, Message
from tests.support.realdata import real_data

runner = CliRunner()


def dce_export(channel: str, messages: list[tuple[str, str, str]]) -> dict:
    """A small DiscordChatExporter document: (id, ISO timestamp, content) per message."""
    return {
        "guild": {"id": "900", "name": "Lab"},
        "channel": {
            "id": f"9{abs(hash(channel)) % 10**6}",
            "type": "GuildTextChat",
            "categoryId": None,
            "category": None,
            "name": channel,
        },
        "messages": [
            {
                "id": mid,
                "type": "Default",
                "timestamp": ts,
                "timestampEdited": None,
                "content": content,
                "author": {"id": "1", "name": "ana", "nickname": "Ana Ruiz", "isBot": False},
                "attachments": [],
                "embeds": [],
                "reactions": [],
                "mentions": [],
            }
            for mid, ts, content in messages
        ],
    }


@pytest.fixture
def export_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "export"
    folder.mkdir()
    hero = dce_export(
        "hero-run",
        [
            ("101", "2026-11-17T10:00:00+00:00", "Hero run reached 21.4% MFU with #812 merged"),
            ("102", "2026-11-18T10:00:00+00:00", "Checkpoint writes split across hosts in #815"),
        ],
    )
    data = dce_export(
        "data",
        [
            ("201", "2026-11-19T10:00:00+00:00", "Dedup audit over 500 documents came back clean"),
        ],
    )
    (folder / "hero-run.json").write_text(json.dumps(hero))
    (folder / "data.json").write_text(json.dumps(data))
    return folder


def invoke(db: str, *args: str):
    return runner.invoke(app, ["--database", db, *args])


def stored(db: str, what) -> int:
    engine = create_engine(db)
    with engine.connect() as connection:
        value = connection.execute(select(func.count()).select_from(what)).scalar_one()
    engine.dispose()
    return value


def test_import_then_draft_json_follows_the_contract(tmp_path: Path, export_dir: Path) -> None:
    db = f"sqlite:///{tmp_path / 'bot.db'}"
    result = invoke(db, "import", str(export_dir))
    assert result.exit_code == 0, result.output
    assert "Imported 2 files: 3 new messages, 0 updated, 0 unchanged." in result.stderr

    result = invoke(db, "draft", "--week", "2026-11-20", "--format", "json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["workspace"] == "Lab"
    assert (out["week_start"], out["week_end"]) == ("2026-11-16", "2026-11-23")
    assert out["title"] == "Lab: Week of November 16th summary"
    assert [s["topic"] for s in out["sections"]] == ["hero-run", "data"]
    hero = out["sections"][0]
    assert hero["prs"] == ["#812", "#815"] and hero["people"] == ["Ana Ruiz"]
    assert sorted(hero["sources"]) == ["101", "102"]
    assert "21.4% MFU" in hero["markdown"]
    assert stored(db, DraftRow) == 1 and stored(db, DraftSection) == 2


def test_one_pr_written_two_ways_is_listed_once(tmp_path: Path) -> None:
    folder = tmp_path / "export"
    folder.mkdir()
    hero = dce_export(
        "hero-run",
        [
            ("301", "2026-11-17T10:00:00+00:00", "Shard size tuning is in #9197, 3x faster"),
            (
                "302",
                "2026-11-18T10:00:00+00:00",
                "Merged https://github.com/marin-community/marin/pull/9197 and the loader is fine",
            ),
        ],
    )
    (folder / "hero-run.json").write_text(json.dumps(hero))
    db = f"sqlite:///{tmp_path / 'bot.db'}"
    assert invoke(db, "import", str(folder)).exit_code == 0
    out = json.loads(invoke(db, "draft", "--week", "2026-11-17", "--format", "json").stdout)
    assert [s["prs"] for s in out["sections"]] == [["marin-community/marin#9197"]]


def test_importing_twice_changes_nothing(tmp_path: Path, export_dir: Path) -> None:
    db = f"sqlite:///{tmp_path / 'bot.db'}"
    invoke(db, "import", str(export_dir))
    first = invoke(db, "draft", "--week", "2026-11-16", "--format", "json").stdout
    result = invoke(db, "import", str(export_dir))
    assert "0 new messages, 0 updated, 3 unchanged" in result.stderr
    assert stored(db, Message) == 3
    assert invoke(db, "draft", "--week", "2026-11-16", "--format", "json").stdout == first
    assert stored(db, DraftRow) == 1  # drafting the week again replaces its draft


def test_a_config_file_sets_the_default_repo_and_name(tmp_path: Path, export_dir: Path) -> None:
    db = f"sqlite:///{tmp_path / 'bot.db'}"
    config = tmp_path / "bot.toml"
    config.write_text('name = "Marin"\ndefault_repo = "marin-community/marin"\n')
    invoke(db, "import", str(export_dir))
    result = runner.invoke(
        app, ["--database", db, "--config", str(config), "draft", "--week", "2026-11-16"]
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("# Marin: Week of November 16th summary")
    assert "[#812](https://github.com/marin-community/marin/issues/812)" in result.stdout


def test_a_bad_file_is_named_rolled_back_and_the_others_import(
    tmp_path: Path, export_dir: Path
) -> None:
    good = (export_dir / "data.json").read_text()
    (export_dir / "zz-truncated.json").write_text(good[: len(good) // 2])
    db = f"sqlite:///{tmp_path / 'bot.db'}"
    result = invoke(db, "import", str(export_dir))
    assert result.exit_code == 1
    assert "zz-truncated.json: not valid JSON (line 1" in result.stderr
    assert "1 file failed and was not imported" in result.stderr
    assert stored(db, Message) == 3


def test_a_truncated_zip_and_an_unknown_file_get_clear_errors(tmp_path: Path) -> None:
    zipped = tmp_path / "export.zip"
    zipped.write_bytes(b"PK\x03\x04 not really a zip")
    text = tmp_path / "notes.txt"
    text.write_text("just some notes")
    db = f"sqlite:///{tmp_path / 'bot.db'}"
    result = invoke(db, "import", str(zipped), str(text))
    assert result.exit_code == 1
    assert "export.zip: not a readable ZIP file" in result.stderr
    assert "notes.txt: not a recognised export" in result.stderr


def test_draft_errors_are_plain(tmp_path: Path, export_dir: Path) -> None:
    db = f"sqlite:///{tmp_path / 'bot.db'}"
    result = invoke(db, "draft", "--week", "2026-11-16")
    assert result.exit_code == 2 and "run `summarybot import` first" in result.stderr
    invoke(db, "import", str(export_dir))
    result = invoke(db, "draft", "--week", "next tuesday")
    assert result.exit_code == 2 and "is not a date; use YYYY-MM-DD" in result.stderr
    result = invoke(db, "draft", "--week", "2026-11-16", "--workspace", "Nope")
    assert result.exit_code == 2 and "no workspace called 'Nope'; stored: Lab" in result.stderr


def test_a_week_with_no_messages_stores_nothing(tmp_path: Path, export_dir: Path) -> None:
    db = f"sqlite:///{tmp_path / 'bot.db'}"
    invoke(db, "import", str(export_dir))
    result = invoke(db, "draft", "--week", "2026-12-01")
    assert result.exit_code == 0 and result.stdout == ""
    assert "nothing was drafted or stored" in result.stderr


def test_draft_output_file(tmp_path: Path, export_dir: Path) -> None:
    db = f"sqlite:///{tmp_path / 'bot.db'}"
    invoke(db, "import", str(export_dir))
    target = tmp_path / "draft.md"
    result = invoke(db, "draft", "--week", "2026-11-16", "--output", str(target))
    assert result.exit_code == 0 and result.stdout == ""
    assert target.read_text().startswith("# Lab: Week of November 16th summary")


def test_migrate_and_a_database_that_cannot_be_opened(tmp_path: Path) -> None:
    result = invoke(f"sqlite:///{tmp_path / 'bot.db'}", "migrate")
    assert result.exit_code == 0 and "is up to date" in result.stderr
    result = invoke(f"sqlite:///{tmp_path / 'no' / 'such' / 'dir.db'}", "migrate")
    assert result.exit_code == 2 and "cannot open the database" in result.stderr


def test_every_real_export_imports_and_reimports_as_unchanged(tmp_path: Path) -> None:
    paths = [
        real_data("discord-nordscope-dce-2.48-captured"),
        real_data("slack-hfaran-slack-export-viewer") / "testarchive.zip",
        real_data("slack-houstondatavis"),
    ]
    db = f"sqlite:///{tmp_path / 'bot.db'}"
    result = invoke(db, "import", *map(str, paths))
    assert result.exit_code == 0, result.stderr
    # 3 Discord files + 17 and 228 Slack day files; 12 + 147 + 628 messages, the Discord
    # thread's first message being the same message in two files.
    assert "Imported 248 files: 787 new messages, 0 updated, 1 unchanged." in result.stderr
    result = invoke(db, "import", *map(str, paths))
    assert "0 new messages, 0 updated, 788 unchanged." in result.stderr
    assert stored(db, Message) == 787


def test_database_passwords_are_never_printed(tmp_path: Path) -> None:
    url = "postgresql+psycopg://bot:s3cret@127.0.0.1:1/nowhere"
    result = invoke(url, "migrate")
    assert result.exit_code == 2
    assert "s3cret" not in result.stderr and "bot:***@127.0.0.1:1/nowhere" in result.stderr


def test_errors_are_plain_text_never_markup(tmp_path: Path, export_dir: Path) -> None:
    good = (export_dir / "data.json").read_text()
    (export_dir / "[general].json").write_text(good[: len(good) // 2])
    db = f"sqlite:///{tmp_path / 'bot.db'}"
    result = invoke(db, "import", str(export_dir))
    assert result.exit_code == 1
    assert "[general].json: not valid JSON" in result.stderr
    result = invoke(db, "import", str(tmp_path / "[/]missing.json"))
    assert result.exit_code == 2 and "[/]missing.json' does not exist" in result.stderr
    result = invoke(db, "draft", "--week", "[/] :smile: [bold]")
    assert result.exit_code == 2
    assert "--week '[/] :smile: [bold]' is not a date" in result.stderr


def test_a_real_week_s_integration_posts_reach_the_draft_credited_to_people(
    tmp_path: Path,
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(
        'default_repo = "mesos-magellan/enrique"\n'
        '[repos]\npyrallelsa = "mesos-magellan/pyrallelsa"\n'
        'traveling-sailor = "mesos-magellan/traveling-sailor"\n'
    )
    db = f"sqlite:///{tmp_path / 'bot.db'}"
    export = real_data("slack-hfaran-slack-export-viewer") / "testarchive.zip"
    assert invoke(db, "import", str(export)).exit_code == 0
    result = invoke(
        db, "--config", str(config), "draft", "--week", "2016-03-21", "--format", "json"
    )
    assert result.exit_code == 0, result.stderr
    sections = json.loads(result.stdout)["sections"]
    cited = {ref for s in sections for ref in s["prs"]}
    # "[pyrallelsa:master] ... Merge pull request #5": #5 is pyrallelsa's, not the default repo's.
    assert {"mesos-magellan/pyrallelsa#5", "mesos-magellan/traveling-sailor#9"} <= cited
    assert {"mesos-magellan/enrique#16", "mesos-magellan/enrique#17"} <= cited
    people = {p for s in sections for p in s["people"]}
    assert "Hamza Faran" in people and "bot" not in people
