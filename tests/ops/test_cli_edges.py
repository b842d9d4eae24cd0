"""The command line's rough edges, each with the answer a user should get."""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bot.ops.cli import DRAFTS_HEADER, app
from tests.ops.test_cli import dce_export

runner = CliRunner()


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'bot.db'}"


def test_version_and_short_help() -> None:
    version = runner.invoke(app, ["--version"])
    assert version.exit_code == 0 and version.stdout.startswith("summarybot ")
    short = runner.invoke(app, ["publish", "-h"])
    assert short.exit_code == 0 and "Usage: " in short.stdout
    assert "--dry-run " in short.stdout and "<bool>" not in short.stdout


def test_drafts_list_has_a_header_and_honours_a_bad_config(tmp_path: Path, db: str) -> None:
    export = tmp_path / "hero.json"
    export.write_text(
        json.dumps(
            dce_export(
                "hero-run", [("1", "2026-11-17T10:00:00+00:00", "Hero run at 21% MFU (#812)")]
            )
        )
    )
    runner.invoke(app, ["--database", db, "import", str(export)])
    runner.invoke(app, ["--database", db, "draft", "--week", "2026-11-16"])
    assert runner.invoke(app, ["--database", db, "drafts", "list"]).stdout.startswith(
        DRAFTS_HEADER + "\n1\tLab\t2026-11-16\tdrafted\t"
    )
    bad = tmp_path / "bad.toml"
    bad.write_text("timezone = 3\n")
    result = runner.invoke(app, ["--database", db, "--config", str(bad), "drafts", "list"])
    assert result.exit_code == 2 and "bad.toml" in result.stderr


def test_an_empty_week_stores_nothing_and_says_so(tmp_path: Path, db: str) -> None:
    export = tmp_path / "hero.json"
    export.write_text(
        json.dumps(dce_export("hero-run", [("1", "2026-11-17T10:00:00+00:00", "hi")]))
    )
    runner.invoke(app, ["--database", db, "import", str(export)])
    result = runner.invoke(app, ["--database", db, "draft", "--week", "2026-12-01"])
    assert result.exit_code == 0 and result.stdout == ""
    assert "no messages of Lab are stored for the week of 2026-11-30" in result.stderr
    assert runner.invoke(app, ["--database", db, "drafts", "list"]).stdout == "No drafts stored.\n"


def test_postgresql_without_psycopg_says_what_to_install(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)
    result = runner.invoke(
        app, ["--database", "postgresql+psycopg://u@127.0.0.1:1/x", "drafts", "list"]
    )
    assert result.exit_code == 2
    assert "pip install 'summarybot[postgres]'" in result.stderr


def test_run_prints_no_migration_chatter(db: str, monkeypatch) -> None:
    for name in ("DISCORD_TOKEN", "SLACK_BOT_TOKEN", "SLACK_APP_TOKEN", "SLACK_SIGNING_SECRET"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(Path(db.removeprefix("sqlite:///")).parent)  # no .env to read
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    try:
        result = runner.invoke(app, ["--database", db, "run"])
    finally:
        root.handlers[:], root.level = handlers, level
    assert result.exit_code == 2 and "no platform token is set" in result.stderr
    assert "alembic" not in result.stderr and "Context impl" not in result.stderr


def test_import_errors_in_plain_words(tmp_path: Path, db: str) -> None:
    missing = runner.invoke(app, ["--database", db, "import", str(tmp_path / "nope.json")])
    assert missing.exit_code == 2 and "does not exist" in missing.stderr
    assert "the others were" not in missing.stderr

    broken = tmp_path / "broken.json"
    good = json.dumps(dce_export("hero-run", [("1", "2026-11-17T10:00:00+00:00", "hi")]))
    broken.write_text(good[: good.index('"content"') + 14])
    result = runner.invoke(app, ["--database", db, "import", str(broken)])
    assert result.exit_code == 1
    assert "broken.json: not valid JSON (line 1, column " in result.stderr
    assert "Unterminated string starting" in result.stderr
    assert "starting at" not in result.stderr

    as_slack = runner.invoke(
        app, ["--database", db, "import", "--format", "slack-export", str(broken)]
    )
    assert as_slack.exit_code == 1
    assert "not a slack-export: it expects a ZIP file or a folder" in as_slack.stderr


def test_a_folder_import_names_a_json_file_that_is_not_an_export(tmp_path: Path) -> None:
    folder = tmp_path / "export"
    folder.mkdir()
    message = ("101", "2026-11-17T10:00:00+00:00", "Hero run at 21.4% MFU")
    (folder / "hero-run.json").write_text(json.dumps(dce_export("hero-run", [message])))
    (folder / "provenance.json").write_text(json.dumps({"dceVersion": "2.48"}))
    db = f"sqlite:///{tmp_path / 'bot.db'}"
    result = runner.invoke(app, ["--database", db, "import", str(folder)])
    assert result.exit_code == 0, result.output
    assert "skipped:" in result.stderr and "provenance.json" in result.stderr
    assert "not a DiscordChatExporter export" in result.stderr


def test_failed_imports_take_a_line_each_and_say_nothing_was_imported(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'bot.db'}"
    broken, other = tmp_path / "broken.json", tmp_path / "other.json"
    broken.write_text('{"guild": {"id": "1",\n')
    other.write_text('{"name": "a package.json, say"}')
    result = runner.invoke(app, ["--database", db, "import", str(broken), str(other)])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"failed: {broken}: not valid JSON (line 2, column 1): Expecting property name "
        "enclosed in double quotes",
        f"failed: {other}: valid JSON, but not an export (expected a Slack export ZIP or "
        "folder with channels.json or DiscordChatExporter JSON (files or folders))",
        "Nothing was imported: 2 files failed.",
    ]


def test_settings_set_lists_only_what_can_be_set(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'bot.db'}"
    for command, word in [("set", "bogus"), ("set", "edit"), ("show", "edit")]:
        result = runner.invoke(app, ["--database", db, "settings", command, word, "1"])
        assert result.exit_code == 2
        assert f"'{word}' is not a setting; the settings are: channels, topics" in result.stderr
        assert "edit," not in result.stderr and "approve" not in result.stderr


def test_an_unsupported_database_names_the_supported_ones() -> None:
    result = runner.invoke(app, ["--database", "mysql://u@127.0.0.1:1/x", "drafts", "list"])
    assert result.exit_code == 2
    assert "MySQLdb" not in result.stderr
    assert "mysql is not supported" in result.stderr
    assert "SQLite" in result.stderr and "PostgreSQL (postgresql+psycopg://" in result.stderr
    assert "pip install 'summarybot[postgres]'" in result.stderr
