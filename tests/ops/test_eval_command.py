"""`summarybot eval` on the shipped sample week, drafted through the real command line."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from importlib.resources import as_file, files
from pathlib import Path

import pytest
import typer
from sqlalchemy import create_engine, update
from typer.testing import CliRunner

from bot.ops import cli
from bot.ops.eval_command import eval_command
from storage.models import DraftRow

runner = CliRunner()
WEEK = "2026-11-16"


def eval_app() -> typer.Typer:
    """The app with `eval`: bot.ops.cli's once the owner registers it, else a fresh one."""
    if any(command.name == "eval" for command in cli.app.registered_commands):
        return cli.app
    app = typer.Typer()
    app.callback()(cli.main)  # sets ctx.obj (database, configuration) like the real app
    app.command("eval")(eval_command)
    return app


def run_eval(db: str, *args: str):
    return runner.invoke(eval_app(), ["--database", db, "eval", *args])


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A database holding the sample week and its stored draft."""
    url = f"sqlite:///{tmp_path_factory.mktemp('eval') / 'bot.db'}"
    with as_file(files("bot.ops").joinpath("sample_week")) as sample:
        result = runner.invoke(cli.app, ["--database", url, "import", str(sample)])
    assert result.exit_code == 0, result.output
    result = runner.invoke(cli.app, ["--database", url, "draft", "--week", WEEK])
    assert result.exit_code == 0, result.output
    return url


REFERENCE = """# Marin: Week of November 16th summary

## Hero run

Adaeze Okafor's grouped GEMM (#9170) took the hero to 23.9% MFU; Tomasz Kowalczyk's fix
(#9162) kept the loss smooth. Uptime was 99.9% all week (#9999).

## Iris

Lucía Fernández landed band-aware preemption (#9140). The hero crash guard #9141 also helped.
"""


def test_eval_against_a_reference_file_prints_the_figures(db: str, tmp_path: Path) -> None:
    reference = tmp_path / "reference.md"
    reference.write_text(REFERENCE, encoding="utf-8")
    result = run_eval(db, "--week", "2026-11-18", "--reference", str(reference))
    assert result.exit_code == 0, result.output
    lines = [" ".join(line.split()) for line in result.stdout.splitlines()]
    assert lines[:4] == [
        "PR recall 80.0% 4 of 5 reference PRs cited",  # #9999 is not in the draft
        "People recall 100.0% 3 of 3 people named",
        "Figure recall 50.0% 1 of 2 figures kept verbatim",  # 99.9% is not
        # #9141 is under the draft's Hero run, the reference has it under Iris.
        "Placement 75.0% 3 of 4 shared PRs in the matching section",
    ]
    assert lines[4].startswith("ROUGE-1 / 2 0.")
    assert lines[5].startswith("Words ") and "the reference has" in lines[5]
    assert lines[6:8] == ["Cut sentences 0", "Bots as people 0"]
    header = lines.index("Section Reference section Change")
    assert lines[header + 1].startswith("hero-run Hero run ")
    assert any(line.startswith("iris Iris ") for line in lines)
    assert any(line.startswith("other (unmatched) 100.0%") for line in lines)
    assert "Missing PRs (1): #9999" in lines
    assert "Missing figures (1): 99.9%" in lines


def test_a_draft_file_against_itself_and_the_published_text(db: str, tmp_path: Path) -> None:
    draft = tmp_path / "draft.md"
    result = runner.invoke(cli.app, ["--database", db, "drafts", "show", "1"])
    assert result.exit_code == 0, result.output
    draft.write_text(result.stdout, encoding="utf-8")
    result = run_eval(db, "--week", WEEK, "--draft-file", str(draft), "--reference", str(draft))
    assert result.exit_code == 0, result.output
    assert "PR recall 100.0%" in " ".join(result.stdout.split())
    out = result.stdout.splitlines()
    header = next(i for i, line in enumerate(out) if line.startswith("Section"))
    sections = [line.split() for line in out[header + 1 : header + 7]]
    assert [(s[0], s[-1]) for s in sections] == [
        ("hero-run", "0.0%"),
        ("iris", "0.0%"),
        ("data", "0.0%"),
        ("rl", "0.0%"),
        ("introductions", "0.0%"),
        ("other", "0.0%"),
    ]


def test_the_published_text_is_the_default_reference(tmp_path: Path, db: str) -> None:
    # A copy, so that publishing here does not change the other tests' database.
    copy = tmp_path / "published.db"
    source = sqlite3.connect(db.removeprefix("sqlite:///"))
    target = sqlite3.connect(copy)
    with closing(source), closing(target):
        source.backup(target)
    url = f"sqlite:///{copy}"
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(
            update(DraftRow).values(status="published", published_markdown=REFERENCE)
        )
    engine.dispose()
    result = run_eval(url, "--week", WEEK)
    assert result.exit_code == 0, result.output
    assert " ".join(result.stdout.split()).startswith("PR recall 80.0% 4 of 5")


def test_a_week_without_a_draft_is_an_error(db: str, tmp_path: Path) -> None:
    reference = tmp_path / "reference.md"
    reference.write_text(REFERENCE, encoding="utf-8")
    result = run_eval(db, "--week", "2026-11-09", "--reference", str(reference))
    assert result.exit_code == 2
    assert "there is no draft of the week of 2026-11-09" in result.stderr
    assert "`summarybot draft --week 2026-11-09`" in result.stderr


def test_an_unpublished_week_needs_a_reference(db: str) -> None:
    result = run_eval(db, "--week", WEEK)
    assert result.exit_code == 2
    assert "the week of 2026-11-16 is not published yet (it is drafted)" in result.stderr
    assert "--reference FILE" in result.stderr


def test_unreadable_files_are_errors(db: str, tmp_path: Path) -> None:
    missing = tmp_path / "missing.md"
    result = run_eval(db, "--week", WEEK, "--reference", str(missing))
    assert result.exit_code == 2
    assert f"cannot read the reference {missing}: No such file or directory" in result.stderr
    binary = tmp_path / "draft.md"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    result = run_eval(db, "--week", WEEK, "--draft-file", str(binary), "--reference", str(binary))
    assert result.exit_code == 2
    assert f"cannot read the draft {binary}: it is not UTF-8 text" in result.stderr
    result = run_eval(db, "--week", "16/11/2026")
    assert result.exit_code == 2 and "is not a date" in result.stderr
