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

    # The editor's work, without chat: a revision like any other.
    edit = "Ana Ruiz pushed the hero run to 25.0% MFU with #9999."
    edited = cli("drafts", "edit", "1", "1", "--by", "Ana", "--text", edit).stderr
    assert edited == "Hero run (section 1 of draft 1) updated (revision 1) by Ana.\n"
    assert edit in cli("drafts", "show", "1").stdout

    # Approved with no publish channel, then published to a file.
    assert "approved by Ana" in cli("approve", "1", "--by", "Ana").stderr
    target = tmp_path / "summary.md"
    cli("publish", "1", "--to", str(target))
    published = target.read_text(encoding="utf-8")
    assert published.startswith("# Marin: Week of November 16th summary")
    assert f"## Hero run\n\n{edit}\n" in published

    assert cli("export", "--week", "2026-11-18").stdout == published
    # eval compares the drafter's text with what was published: it finds the editor's work.
    evaluation = cli("eval", "--week", "2026-11-16").stdout
    assert "Missing PRs (1): #9999" in evaluation and "Missing figures (1): 25.0%" in evaluation
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


def test_editing_a_section_from_the_command_line(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'bot.db'}"

    def cli(*args: str, code: int = 0, stdin: str | None = None):
        result = runner.invoke(app, ["--database", db, *args], input=stdin)
        assert result.exit_code == code, result.output
        return result

    with as_file(files("bot.ops").joinpath("sample_week")) as sample:
        cli("import", str(sample))
    cli("draft", "--week", "2026-11-16")
    text_file = tmp_path / "iris.md"
    text_file.write_text("Iris now preempts CPU jobs last (#9160).\n", encoding="utf-8")

    assert cli("drafts", "edit", "1", "iris", "--by", "Bo", "--file", str(text_file)).stderr == (
        "Iris (section 2 of draft 1) updated (revision 1) by Bo.\n"
    )
    by_stdin = cli("drafts", "edit", "1", "Iris", "--by", "Bo", "--file", "-", stdin="Again.")
    assert "(revision 2)" in by_stdin.stderr

    def refused(*args: str) -> str:
        return cli("drafts", "edit", *args, code=2).stderr.strip()

    assert refused("1", "1", "--by", "Bo") == (
        "error: give the new text with --text TEXT or --file FILE (one of them)"
    )
    assert refused("1", "1", "--by", "Bo", "--text", "x", "--file", str(text_file)).startswith(
        "error: give the new text with"
    )
    assert refused("1", "9", "--by", "Bo", "--text", "x") == (
        "error: Draft 1 has 6 sections; there is no section 9."
    )
    assert refused("7", "1", "--by", "Bo", "--text", "x") == (
        "error: there is no draft 7; `summarybot drafts list` shows them"
    )
    assert refused("1", "1", "--by", "Bo", "--text", "  ") == (
        "error: The new text is empty; the section was not changed."
    )
    assert refused("1", "1", "--by", "Bo", "--file", str(tmp_path / "nope.md")).startswith(
        "error: cannot read"
    )
    cli("approve", "1", "--by", "Bo")
    assert refused("1", "1", "--by", "Bo", "--text", "late") == (
        "error: The summary of the week of 2026-11-16 is already approved; it can no longer "
        "be edited."
    )
    engine = make_engine(db)
    with make_sessionmaker(engine)() as session:
        iris = get_draft_by_id(session, 1).sections[1]
        assert [(r.editor_name, r.markdown) for r in iris.revisions] == [
            ("Bo", "Iris now preempts CPU jobs last (#9160)."),
            ("Bo", "Again."),
        ]
    engine.dispose()


def test_settings_show_counts_a_single_day(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'bot.db'}"
    with as_file(files("bot.ops").joinpath("sample_week")) as sample:
        assert runner.invoke(app, ["--database", db, "import", str(sample)]).exit_code == 0
    assert runner.invoke(app, ["--database", db, "settings", "set", "retention", "1"]).stdout == (
        "Logged messages will be kept for 1 day.\n"
    )
    shown = runner.invoke(app, ["--database", db, "settings", "show"]).stdout
    assert "Logged messages are kept for 1 day." in shown
