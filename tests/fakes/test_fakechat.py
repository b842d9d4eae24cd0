"""Adding a platform is one folder and one line in `bot/platforms.py`: FakeChat
(`tests/fakes/fakechat.py`), registered here and nowhere else, is started by `summarybot
run` (its history backfilled by the core), checked by `doctor`, read by `import`, and
previewed on the review page."""

from __future__ import annotations

import asyncio
import contextlib
import json
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select
from typer.testing import CliRunner

import bot.platforms
from bot.core.clock import utcnow
from bot.ops.cli import app
from bot.ops.config import load_config
from bot.ops.env import read_environment
from bot.ops.run import serve
from bot.web.render import Renderer
from storage.db import make_engine, migrate
from storage.models import Message, Workspace
from tests.fakes import fakechat
from tests.ops.test_health import free_port
from tests.support.waiting import eventually

TOKENS = ("SLACK_BOT_TOKEN", "DISCORD_TOKEN", "FAKECHAT_TOKEN")


@pytest.fixture(autouse=True)
def registered(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """FakeChat is registered (one line in the table) and is the only platform with a
    token."""
    monkeypatch.setattr(bot.platforms, "PLATFORMS", (*bot.platforms.PLATFORMS, fakechat.FAKECHAT))
    for name in TOKENS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)  # no .env
    fakechat.STARTED.clear()
    fakechat.WORLD.history.clear()
    fakechat.WORLD.admins.clear()


@pytest.fixture
def db(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'bot.db'}"
    engine = make_engine(url)
    migrate(engine)
    engine.dispose()
    return url


def test_its_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKECHAT_TOKEN", "fc-123456")
    env = read_environment()
    assert env.fakechat_token == "fc-123456"  # type: ignore[attr-defined]
    assert [p.name for p in bot.platforms.registered() if p.enabled(env)] == ["fakechat"]


def test_doctor_runs_its_checks(monkeypatch: pytest.MonkeyPatch, db: str) -> None:
    monkeypatch.setenv("FAKECHAT_TOKEN", "bad")
    result = CliRunner().invoke(app, ["--database", db, "doctor"])
    assert result.exit_code == 1
    assert "ok    Platforms: FakeChat configured" in result.stdout
    assert "FAIL  FakeChat: FAKECHAT_TOKEN was rejected" in result.stdout


def test_doctor_names_its_token_when_none_is_set(db: str) -> None:
    result = CliRunner().invoke(app, ["--database", db, "doctor"])
    assert "none of SLACK_BOT_TOKEN, DISCORD_TOKEN, FAKECHAT_TOKEN is set" in result.stdout


def test_its_export_is_imported(tmp_path: Path, db: str) -> None:
    export = tmp_path / "general.fakechat"
    messages = [
        {"id": f"m{n}", "user": "ana", "text": f"Note {n}", "ts": 1.79e9 + n} for n in range(3)
    ]
    export.write_text(json.dumps({"channel": "general", "messages": messages}))
    result = CliRunner().invoke(app, ["--database", db, "import", str(export)])
    assert result.exit_code == 0, result.output
    engine = make_engine(db)
    with engine.connect() as connection:
        platforms = connection.execute(select(Workspace.platform)).scalars().all()
        texts = connection.execute(select(Message.text)).scalars().all()
    engine.dispose()
    assert platforms == ["fakechat"] and sorted(texts) == ["Note 0", "Note 1", "Note 2"]


def test_the_review_page_previews_it() -> None:
    renderer = Renderer("/review")
    assert renderer.previews("a <b>")["fakechat"] == "<pre>a &lt;b&gt;</pre>"
    assert ("fakechat", "FakeChat") in renderer.env.globals["platforms"]


def test_run_starts_it_and_the_core_backfills_through_its_history(
    monkeypatch: pytest.MonkeyPatch, engine, sessions
) -> None:
    monkeypatch.setenv("FAKECHAT_TOKEN", "fc-123456")
    monkeypatch.setenv("SUMMARYBOT_HEALTH_PORT", str(free_port()))
    earlier = utcnow() - timedelta(hours=1)
    fakechat.WORLD.history["general"] = [
        fakechat.message(f"h{n}", "ana", f"Said earlier {n}", earlier) for n in range(3)
    ]
    fakechat.WORLD.admins.add("ada")

    def texts() -> set[str]:
        with sessions() as session:
            return set(session.scalars(select(Message.text)))

    async def scenario() -> None:
        running = asyncio.create_task(serve(engine, sessions, load_config(), read_environment()))
        try:
            await eventually(lambda: fakechat.STARTED, timeout=10)
            (chat,) = fakechat.STARTED
            reply = await chat.command("ada", "channels add general", "general")
            assert reply.ok, reply.text
            await eventually(lambda: {"Said earlier 0", "Said earlier 2"} <= texts())
            assert await chat.say("general", fakechat.message("live", "ana", "Now", utcnow()))
            assert "Now" in texts()
        finally:
            running.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await running

    asyncio.run(asyncio.wait_for(scenario(), 30))
