"""The review workflow from the command line: drafts list/show, approve, publish --dry-run,
export."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bot.core.port import Caller
from bot.core.settings import change_setting
from bot.ops.cli import DRAFTS_HEADER, app
from bot.ops.config import load_config
from storage.db import make_engine, make_sessionmaker
from storage.drafts import get_draft_by_id

runner = CliRunner()


@pytest.fixture
def db(tmp_path: Path) -> str:
    """A database holding a drafted week of the Lab workspace, with a publish channel."""
    export = tmp_path / "hero-run.json"
    export.write_text(
        json.dumps(
            {
                "guild": {"id": "900", "name": "Lab"},
                "channel": {"id": "901", "type": "GuildTextChat", "name": "hero-run"},
                "messages": [
                    {
                        "id": "101",
                        "type": "Default",
                        "timestamp": "2026-11-17T10:00:00+00:00",
                        "content": "Hero run reached 21.4% MFU with #812 merged @everyone",
                        "author": {
                            "id": "1",
                            "name": "ana",
                            "nickname": "Ana Ruiz",
                            "isBot": False,
                        },
                    },
                ],
            }
        )
    )
    url = f"sqlite:///{tmp_path / 'bot.db'}"
    assert runner.invoke(app, ["--database", url, "import", str(export)]).exit_code == 0
    assert runner.invoke(app, ["--database", url, "draft", "--week", "2026-11-17"]).exit_code == 0
    engine = make_engine(url)
    with make_sessionmaker(engine).begin() as session:
        admin = Caller("U1", "Admin", is_admin=True)
        change_setting(
            session,
            load_config(),
            1,
            "publish_channels",
            ["announcements"],
            admin,
            datetime.now(UTC),
        )
    engine.dispose()
    return url


def invoke(db: str, *args: str):
    return runner.invoke(app, ["--database", db, *args])


def status_of(db: str, draft_id: int) -> str:
    engine = make_engine(db)
    with make_sessionmaker(engine)() as session:
        status = get_draft_by_id(session, draft_id).status
    engine.dispose()
    return status


def test_drafts_list_and_show(db: str) -> None:
    result = invoke(db, "drafts", "list")
    assert result.stdout == f"{DRAFTS_HEADER}\n1\tLab\t2026-11-16\tdrafted\t1\t\n"
    shown = invoke(db, "drafts", "show", "1", "--format", "json")
    assert json.loads(shown.stdout)["sections"][0]["prs"] == ["#812"]
    missing = invoke(db, "drafts", "show", "7")
    assert missing.exit_code == 2 and "there is no draft 7" in missing.stderr


def test_approve_then_publish_dry_run_then_export_refused_until_published(db: str) -> None:
    result = invoke(db, "approve", "1", "--by", "Eve Editor")
    assert result.exit_code == 0 and "approved by Eve Editor" in result.stderr
    assert status_of(db, 1) == "approved"
    again = invoke(db, "approve", "1", "--by", "Eve Editor")
    assert again.exit_code == 2 and "is already approved" in again.stderr

    plan = invoke(db, "publish", "1", "--dry-run")
    assert plan.stdout.startswith("--- announcements, message 1 of 1 ---\n# Lab: Week of")
    assert "21.4% MFU" in plan.stdout and "@everyone" not in plan.stdout
    assert status_of(db, 1) == "approved"  # a dry run changes nothing
    real = invoke(db, "publish", "1")
    assert real.exit_code == 2 and "--to FILE" in real.stderr

    export = invoke(db, "export", "--week", "2026-11-18")
    assert export.exit_code == 2
    assert "the week of 2026-11-16 is not published yet (it is approved)" in export.stderr


def test_export_prints_the_published_markdown(db: str, tmp_path: Path) -> None:
    engine = make_engine(db)
    with make_sessionmaker(engine).begin() as session:
        draft = get_draft_by_id(session, 1)
        draft.status, draft.published_markdown = "published", "# Lab: as published\n"
    engine.dispose()
    assert invoke(db, "export", "--week", "2026-11-20").stdout == "# Lab: as published\n"
    target = tmp_path / "out.md"
    assert invoke(db, "export", "--week", "2026-11-20", "--output", str(target)).exit_code == 0
    assert target.read_text() == "# Lab: as published\n"
    redraft = invoke(db, "draft", "--week", "2026-11-20")
    assert redraft.exit_code == 2 and "was already published" in redraft.stderr
