"""A community that drafts from exports and posts the summary by hand: import -> draft ->
settings -> approve -> publish to a file -> export -> eval, with no chat platform at all."""

from __future__ import annotations

from importlib.resources import as_file, files
from pathlib import Path

from typer.testing import CliRunner

from bot.ops.cli import DRAFTS_HEADER, app
from storage.db import make_engine, make_sessionmaker
from storage.drafts import get_draft_by_id
from storage.settings import setting_changes

runner = CliRunner()


def test_the_whole_path_from_exports_to_eval(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'bot.db'}"

    def cli(*args: str):
        result = runner.invoke(app, ["--database", db, *args])
        assert result.exit_code == 0, result.output
        return result

    with as_file(files("bot.ops").joinpath("sample_week")) as sample:
        cli("import", str(sample))
    draft = cli("draft", "--week", "2026-11-16").stdout
    assert "## Hero run" in draft

    # Settings in the /summary grammar, audited as the operator.
    assert cli("settings", "set", "--by", "Ana", "retention", "30").stdout == (
        "Logged messages will be kept for 30 days.\n"
    )
    shown = cli("settings", "show").stdout
    assert "No channels are logged yet" in shown and "kept for 30 days" in shown
    assert cli("settings", "show", "editors").stdout.startswith("No editors are set")

    # Approved with no publish channel, then published to a file.
    assert "approved by Ana" in cli("approve", "1", "--by", "Ana").stderr
    target = tmp_path / "summary.md"
    cli("publish", "1", "--to", str(target))
    published = target.read_text(encoding="utf-8")
    assert published.startswith("# Marin: Week of November 16th summary")

    assert cli("export", "--week", "2026-11-18").stdout == published
    assert "PR recall" in cli("eval", "--week", "2026-11-16").stdout
    header, row = cli("drafts", "list").stdout.splitlines()
    assert header == DRAFTS_HEADER and row.startswith("1\tMarin\t2026-11-16\tpublished\t")

    engine = make_engine(db)
    with make_sessionmaker(engine)() as session:
        assert get_draft_by_id(session, 1).published_markdown == published
        (change,) = setting_changes(session, 1, 10)
        assert (change.actor_id, change.actor_name, change.key) == ("cli", "Ana", "retention_days")
    engine.dispose()


def test_publish_to_stdout_and_what_it_refuses(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'bot.db'}"
    with as_file(files("bot.ops").joinpath("sample_week")) as sample:
        runner.invoke(app, ["--database", db, "import", str(sample)])
    runner.invoke(app, ["--database", db, "draft", "--week", "2026-11-16"])

    early = runner.invoke(app, ["--database", db, "publish", "1", "--to", "-"])
    assert early.exit_code == 2 and "draft 1 is drafted; approve it first" in early.stderr
    neither = runner.invoke(app, ["--database", db, "publish", "1"])
    assert neither.exit_code == 2 and "--to FILE" in neither.stderr
    setting = runner.invoke(app, ["--database", db, "settings", "set", "draft"])
    assert setting.exit_code == 2 and "is not a setting" in setting.stderr
    bad = runner.invoke(app, ["--database", db, "settings", "set", "retention", "0"])
    assert bad.exit_code == 2 and "at least 1 day" in bad.stderr

    runner.invoke(app, ["--database", db, "approve", "1", "--by", "Ana"])
    out = runner.invoke(app, ["--database", db, "publish", "1", "--to", "-"])
    assert out.exit_code == 0 and out.stdout.startswith("# Marin: Week of")
