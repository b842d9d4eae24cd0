"""Members' news from exports: a 📰 reaction in a Slack export (`newspaper`, with its users)
or a DiscordChatExporter file (the emoji, with its users) becomes a submission on import,
once however often the export is imported, and the week's draft carries it."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.orm import Session, sessionmaker
from typer.testing import CliRunner

from bot.ops.cli import app
from storage.db import make_engine, make_sessionmaker
from tests.discord.test_export import ALICE, BOB, _export, _message, _write
from tests.slack.test_export import make_export, msg
from tests.support.waiting import submissions

runner = CliRunner()


def cli(db: str, *args: str) -> str:
    result = runner.invoke(app, ["--database", db, *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def sessions_of(db: str) -> sessionmaker[Session]:
    return make_sessionmaker(make_engine(db))


def test_a_slack_export_s_news_reaction_reaches_the_draft(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'bot.db'}"
    day = [
        msg(
            "1452837318.000002",
            "Release 2.1 of the loader is out",
            reactions=[
                {"name": "newspaper", "users": ["U2"], "count": 1},
                {"name": "eyes", "users": ["U1", "U2"], "count": 2},
            ],
        ),
        msg("1452837320.000004", "lunch?", reactions=[{"name": "eyes", "users": ["U2"]}]),
    ]
    root = make_export(tmp_path / "export", {"general/2016-01-15.json": day})
    cli(db, "import", str(root))
    cli(db, "import", str(root))  # again: still one submission
    assert submissions(sessions_of(db)) == [
        ("grace", "Release 2.1 of the loader is out", "C1:1452837318.000002")
    ]
    draft = cli(db, "draft", "--week", "2016-01-15")
    assert "- Release 2.1 of the loader is out (Ada Lovelace) (sent in by grace).\n" in draft


def test_a_discord_export_s_news_reaction_reaches_the_draft(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'bot.db'}"
    news = {"emoji": {"id": "", "name": "📰", "code": "newspaper"}, "count": 1, "users": [BOB]}
    eyes = {"emoji": {"id": "", "name": "👀", "code": "eyes"}, "count": 1, "users": [ALICE]}
    messages = [
        _message("700", "The tokenizer rewrite landed: 2x faster", reactions=[news, eyes]),
        _message("701", "lunch?", reactions=[eyes]),
    ]
    path = _write(tmp_path / "dev.json", _export(messages))
    cli(db, "import", str(path))
    assert submissions(sessions_of(db)) == [
        ("bob", "The tokenizer rewrite landed: 2x faster", "700")
    ]
    draft = cli(db, "draft", "--week", "2026-09-01")
    assert "- The tokenizer rewrite landed: 2x faster (Alice) (sent in by bob).\n" in draft


def test_an_import_sends_nothing_in_when_news_is_off(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'bot.db'}"
    first = [_message("700", "hello", reactions=[])]
    cli(db, "import", str(_write(tmp_path / "a.json", _export(first))))
    assert cli(db, "settings", "set", "--by", "Ana", "member-news", "off").startswith(
        "Members' news is off"
    )
    news = {"emoji": {"id": "", "name": "📰"}, "count": 1, "users": [BOB]}
    later = [_message("701", "The tokenizer rewrite landed", reactions=[news])]
    cli(db, "import", str(_write(tmp_path / "b.json", _export(later))))
    assert submissions(sessions_of(db)) == []
