"""`summarybot doctor`: one plain line per check, exit 1 on any FAIL, no token ever printed, and
every network check bounded. Slack, Discord, GitHub and the LLM are fakes on 127.0.0.1."""

from __future__ import annotations

import asyncio
import re
import socket
import sqlite3
import time
from datetime import UTC, datetime
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
import typer
from aiohttp import web
from sqlalchemy.orm import Session
from typer.testing import CliRunner

from bot.core import checks as checking
from bot.core.port import Caller
from bot.core.settings import change_setting
from bot.discord.doctor import check_discord
from bot.ops import doctor
from bot.ops.cli import main
from bot.ops.config import load_config
from bot.ops.doctor import (
    FAIL,
    OK,
    WARN,
    Check,
    check_database,
    check_github,
    check_llm,
    check_workspaces,
    doctor_command,
    run_checks,
)
from bot.ops.env import Environment
from bot.slack.doctor import SLACK_SCOPES, check_slack
from storage.db import make_engine, migrate
from storage.messages import upsert_workspace
from storage.records import WorkspaceRecord
from storage.settings import save_setting
from tests.fakes.fakediscord import FakeDiscord
from tests.fakes.fakeslack import FakeSlack

BOT_TOKEN = "xoxb-1111-2222-s3cr3tBotToken"
APP_TOKEN = "xapp-1-A1-3333-s3cr3tAppToken"
DISCORD_TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAwMQ.Gs3cr3t.d1sc0rdT0kenValue"
GITHUB_TOKEN = "ghp_s3cr3tGitHubToken"
ENV_VARS = (
    "SLACK_BOT_TOKEN",
    "SLACK_APP_TOKEN",
    "SLACK_SIGNING_SECRET",
    "SLACK_API_URL",
    "PORT",
    "DISCORD_TOKEN",
    "DISCORD_API_URL",
    "DISCORD_GATEWAY_URL",
    "GITHUB_TOKEN",
    "GITHUB_API_URL",
    "LLM_API_KEY",
    "SUMMARYBOT_DATABASE_URL",
    "SUMMARYBOT_CONFIG",
)
ADMIN = Caller("U1", "Ana Ruiz", is_admin=True)

app = typer.Typer()
app.callback()(main)
app.command("doctor")(doctor_command)
runner = CliRunner()


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No token of the machine running the tests, and no .env file, reaches the checks."""
    for name in ENV_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def db(tmp_path: Path) -> str:
    """A migrated SQLite database with no workspace."""
    url = f"sqlite:///{tmp_path / 'bot.db'}"
    engine = make_engine(url)
    migrate(engine)
    engine.dispose()
    return url


def add_workspace(url: str, name: str = "Lab", platform: str = "slack", **settings: Any) -> None:
    engine = make_engine(url)
    config = load_config()
    with Session(engine) as session, session.begin():
        workspace_id = upsert_workspace(session, WorkspaceRecord(platform, f"T-{name}", name))
        for key, value in settings.items():
            change_setting(session, config, workspace_id, key, value, ADMIN, datetime.now(UTC))
    engine.dispose()


def ready(url: str) -> None:
    """A workspace with everything the bot needs."""
    add_workspace(
        url,
        channels=["C1"],
        review_channel="C2",
        publish_channels=["C3"],
        editors=["U2"],
    )


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.strip()]


def line_of(output: str, name: str) -> str:
    found = [line for line in lines(output) if line[6:].startswith(f"{name}:")]
    assert found, f"no {name!r} line in:\n{output}"
    return found[0]


async def doctor_cli(*args: str):
    """Run the command in a thread: its own asyncio.run there, the fakes on this loop."""
    return await asyncio.to_thread(runner.invoke, app, list(args))


class ScopedSlack(FakeSlack):
    """FakeSlack whose auth.test sends the token's scopes as Slack does (x-oauth-scopes)."""

    scopes: str | None = ",".join(SLACK_SCOPES) + ",incoming-webhook"

    async def _api(self, request: web.Request) -> web.Response:
        response = await super()._api(request)
        if request.match_info["method"] == "auth.test" and self.scopes is not None:
            response.headers["x-oauth-scopes"] = self.scopes
        return response


class PortalDiscord(FakeDiscord):
    """FakeDiscord whose application carries the flags the Developer Portal's switches set."""

    app_flags = 1 << 18  # GATEWAY_MESSAGE_CONTENT

    def _get_application(self, method: str, req: Any) -> dict:
        return {**super()._get_application(method, req), "flags": self.app_flags}


class Stub:
    """A tiny HTTP server on 127.0.0.1: path -> (status, JSON body); `delay` before answering."""

    def __init__(self, routes: dict[str, tuple[int, Any]], delay: float = 0.0) -> None:
        self.routes = routes
        self.delay = delay
        self.url = ""
        self.seen: list[tuple[str, dict[str, str]]] = []
        self._runner: web.AppRunner | None = None

    async def __aenter__(self) -> Stub:
        server = web.Application()
        server.router.add_route("*", "/{tail:.*}", self._answer)
        self._runner = web.AppRunner(server, shutdown_timeout=0.5, handler_cancellation=True)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", 0).start()
        self.url = f"http://127.0.0.1:{self._runner.addresses[0][1]}"
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        assert self._runner is not None
        await self._runner.cleanup()

    async def _answer(self, request: web.Request) -> web.Response:
        self.seen.append((request.path, dict(request.headers)))
        if self.delay:
            await asyncio.sleep(self.delay)
        status, body = self.routes.get(request.path, (404, {"message": "Not Found"}))
        return web.json_response(body, status=status)


def config_file(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "bot.toml"
    path.write_text(body)
    return path


# ---- the whole command ------------------------------------------------------------------------


def test_a_healthy_slack_deployment_passes(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    ready(db)

    async def scenario():
        async with ScopedSlack() as fake:
            monkeypatch.setenv("SLACK_BOT_TOKEN", BOT_TOKEN)
            monkeypatch.setenv("SLACK_APP_TOKEN", APP_TOKEN)
            monkeypatch.setenv("SLACK_API_URL", fake.url)
            result = await doctor_cli("--database", db, "doctor")
            return result, fake

    result, fake = asyncio.run(scenario())
    assert result.exit_code == 0, result.output
    assert all(line.startswith((f"{OK}    ", f"{WARN}  ")) for line in lines(result.stdout))
    assert line_of(result.stdout, "Database").startswith("ok    Database: sqlite:///")
    assert line_of(result.stdout, "Slack") == (
        "ok    Slack: SLACK_BOT_TOKEN accepted: bot summarybot in workspace Lab"
    )
    assert line_of(result.stdout, "Slack scopes").startswith("ok")
    assert line_of(result.stdout, "Slack connection").startswith("ok    Slack connection: Socket")
    workspace = [line for line in lines(result.stdout) if 'Workspace "Lab" (slack)' in line]
    assert len(workspace) == 5 and all(line.startswith("ok") for line in workspace)
    assert BOT_TOKEN not in result.output and APP_TOKEN not in result.output
    assert len(fake.called("auth.test")) == 1  # every network check runs once
    assert len(fake.called("apps.connections.open")) == 1


def test_a_rejected_slack_token_fails_in_plain_words_without_printing_it(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    ready(db)

    async def scenario():
        async with ScopedSlack() as fake:
            fake.fail_next("auth.test", "invalid_auth")
            monkeypatch.setenv("SLACK_BOT_TOKEN", BOT_TOKEN)
            monkeypatch.setenv("SLACK_APP_TOKEN", APP_TOKEN)
            monkeypatch.setenv("SLACK_API_URL", fake.url)
            return await doctor_cli("--database", db, "doctor"), fake

    result, fake = asyncio.run(scenario())
    assert result.exit_code == 1
    assert line_of(result.stdout, "Slack") == (
        "FAIL  Slack: SLACK_BOT_TOKEN was rejected by Slack (invalid_auth); copy the Bot User "
        "OAuth Token (xoxb-...) from the app's Install App page"
    )
    assert "Slack scopes" not in result.stdout  # nothing to compare with a rejected token
    assert BOT_TOKEN not in result.output and "s3cr3t" not in result.output
    assert len(fake.called("auth.test")) == 1


def test_no_platform_fails(db: str) -> None:
    result = runner.invoke(app, ["--database", db, "doctor"])
    assert result.exit_code == 1
    assert line_of(result.stdout, "Platforms").startswith(
        "FAIL  Platforms: neither SLACK_BOT_TOKEN nor DISCORD_TOKEN is set"
    )


def test_a_database_that_is_not_migrated_fails(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE something (id INTEGER)")
    result = runner.invoke(app, ["--database", f"sqlite:///{path}", "doctor"])
    assert result.exit_code == 1
    line = line_of(result.stdout, "Database")
    assert line.startswith("FAIL") and "run `summarybot migrate`" in line
    with sqlite3.connect(path) as connection:  # doctor did not migrate it
        tables = {r[0] for r in connection.execute("SELECT name FROM sqlite_master")}
    assert tables == {"something"}


def test_the_environment_is_read_from_dotenv_too(db: str, tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(
        f"DISCORD_TOKEN={DISCORD_TOKEN}\nDISCORD_API_URL=http://127.0.0.1:{closed_port()}/api/v10\n"
    )
    result = runner.invoke(app, ["--database", db, "doctor"])
    assert result.exit_code == 1
    assert line_of(result.stdout, "Platforms") == "ok    Platforms: Discord configured"
    assert line_of(result.stdout, "Discord").startswith(
        "FAIL  Discord: Discord could not be reached"
    )
    assert DISCORD_TOKEN not in result.output


def test_secrets_are_redacted_as_a_last_guard() -> None:
    line = Check("X", FAIL, f"echoed {BOT_TOKEN} and hunter2").line()
    assert doctor.redact(line, [BOT_TOKEN, "hunter2"]) == "FAIL  X: echoed *** and ***"


# ---- database ---------------------------------------------------------------------------------


def test_a_migrated_database_is_ok(db: str) -> None:
    check, engine = check_database(db)
    assert check.status == OK and engine is not None
    engine.dispose()


def test_a_missing_sqlite_file_fails_and_is_not_created(tmp_path: Path) -> None:
    path = tmp_path / "nowhere" / "bot.db"
    check, engine = check_database(f"sqlite:///{path}")
    assert (check.status, engine) == (FAIL, None)
    assert "does not exist" in check.message and "summarybot migrate" in check.message
    assert not path.exists()


def test_an_unreachable_database_fails_without_its_password() -> None:
    url = f"postgresql+psycopg://summary:hunter2pw@127.0.0.1:{closed_port()}/summary"
    started = time.monotonic()
    check, engine = check_database(url)
    assert (check.status, engine) == (FAIL, None)
    assert check.message.startswith("cannot connect to postgresql+psycopg://summary:***@127.0.0.1")
    assert "hunter2pw" not in check.line()
    assert time.monotonic() - started < 10


def test_a_url_that_is_not_a_database_url_fails() -> None:
    check, engine = check_database("not a url")
    assert (check.status, engine) == (FAIL, None)
    assert "is not a database URL" in check.message


def test_a_broken_config_fails_with_its_message(db: str, tmp_path: Path) -> None:
    path = config_file(tmp_path, 'timezone = "Mars/Olympus"\n')
    result = runner.invoke(app, ["--database", db, "--config", str(path), "doctor"])
    assert result.exit_code == 1
    line = line_of(result.stdout, "Config")
    assert line.startswith("FAIL") and "unknown timezone 'Mars/Olympus'" in line


# ---- Slack ------------------------------------------------------------------------------------


def slack_env(fake: FakeSlack, **overrides: Any) -> Environment:
    values = {"slack_bot_token": BOT_TOKEN, "slack_app_token": APP_TOKEN, "slack_api_url": fake.url}
    return Environment(**(values | overrides))


def run_slack(env_of, *, scopes: str | None = ScopedSlack.scopes, setup=None) -> list[Check]:
    async def scenario():
        async with ScopedSlack() as fake:
            fake.scopes = scopes
            if setup:
                setup(fake)
            return await check_slack(env_of(fake))

    return asyncio.run(scenario())


def test_missing_scopes_fail_listing_them() -> None:
    granted = ",".join(s for s in SLACK_SCOPES if s not in ("commands", "users:read"))
    checks = run_slack(slack_env, scopes=granted)
    scopes = next(c for c in checks if c.name == "Slack scopes")
    assert scopes.status == FAIL
    assert scopes.message.startswith("the bot token lacks the scope(s) commands, users:read; ")
    assert "reinstall the app" in scopes.message


def test_unknown_scopes_are_a_warning() -> None:
    checks = run_slack(slack_env, scopes=None)
    assert next(c for c in checks if c.name == "Slack scopes").status == WARN


def test_the_scope_list_matches_the_manifest() -> None:
    manifest = files("bot.slack").joinpath("manifest.yml").read_text("utf-8")
    block = re.search(r"^oauth_config:\n  scopes:\n    bot:\n((?:      - .*\n)+)", manifest, re.M)
    assert block is not None
    listed = re.findall(r"^      - ([\w:.-]+)", block.group(1), re.M)
    assert tuple(listed) == SLACK_SCOPES


def test_http_mode_warns_about_the_request_url() -> None:
    checks = run_slack(
        lambda fake: slack_env(fake, slack_app_token=None, slack_signing_secret="sign-s3cr3t")
    )
    connection = next(c for c in checks if c.name == "Slack connection")
    assert connection.status == WARN and "/slack/events" in connection.message


def test_no_way_to_receive_events_fails() -> None:
    checks = run_slack(lambda fake: slack_env(fake, slack_app_token=None))
    connection = next(c for c in checks if c.name == "Slack connection")
    assert connection.status == FAIL and "SLACK_APP_TOKEN" in connection.message


def test_a_bot_token_in_the_app_token_slot_fails() -> None:
    checks = run_slack(lambda fake: slack_env(fake, slack_app_token=BOT_TOKEN))
    connection = next(c for c in checks if c.name == "Slack connection")
    assert connection.status == FAIL and "does not start with xapp-" in connection.message


def test_a_refused_app_token_fails() -> None:
    checks = run_slack(
        slack_env, setup=lambda fake: fake.fail_next("apps.connections.open", "invalid_auth")
    )
    connection = next(c for c in checks if c.name == "Slack connection")
    assert connection.status == FAIL
    assert connection.message.startswith("SLACK_APP_TOKEN was refused by Slack (invalid_auth)")


def test_a_rate_limit_is_not_waited_out() -> None:
    async def scenario():
        async with ScopedSlack() as fake:
            fake.rate_limit_next("auth.test", retry_after=30)
            started = time.monotonic()
            checks = await check_slack(slack_env(fake))
            return checks, fake, time.monotonic() - started

    checks, fake, elapsed = asyncio.run(scenario())
    assert checks[0].status == WARN and "rate limiting" in checks[0].message
    assert len(fake.called("auth.test")) == 1 and elapsed < 5


def test_unreachable_slack_fails() -> None:
    url = f"http://127.0.0.1:{closed_port()}/api/"
    checks = asyncio.run(check_slack(Environment(slack_bot_token=BOT_TOKEN, slack_api_url=url)))
    assert checks[0].status == FAIL and "Slack could not be reached" in checks[0].message


# ---- Discord ----------------------------------------------------------------------------------


def run_discord(flags: int | None = None, setup=None) -> list[Check]:
    async def scenario():
        async with PortalDiscord() as fake:
            if flags is not None:
                fake.app_flags = flags
            if setup:
                setup(fake)
            env = Environment(discord_token=DISCORD_TOKEN, discord_api_url=fake.api_base)
            return await check_discord(env)

    return asyncio.run(scenario())


def test_discord_with_the_message_content_intent_is_ok() -> None:
    checks = run_discord()
    assert [(c.name, c.status) for c in checks] == [("Discord", OK), ("Discord intents", OK)]
    assert checks[0].message == "DISCORD_TOKEN accepted: bot summarybot"


def test_discord_with_the_limited_message_content_flag_is_ok() -> None:
    assert run_discord(flags=1 << 19)[1].status == OK


def test_discord_without_the_message_content_intent_fails() -> None:
    checks = run_discord(flags=(1 << 14) | (1 << 12))  # members and presence, not content
    intents = checks[1]
    assert intents.status == FAIL
    assert intents.message.endswith(
        "turn on Message Content Intent in the Developer Portal, Bot page"
    )


def test_a_rejected_discord_token_fails() -> None:
    checks = run_discord(setup=lambda fake: fake.fail_next("GET", "/users/@me", status=401, code=0))
    assert len(checks) == 1 and checks[0].status == FAIL
    assert checks[0].message.startswith("DISCORD_TOKEN was rejected by Discord (401 Unauthorized)")
    assert DISCORD_TOKEN not in checks[0].line()


def test_discord_without_the_intent_fails_the_command(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    add_workspace(db, "Guild", "discord", review_channel="1", publish_channels=["2"])

    async def scenario():
        async with PortalDiscord() as fake:
            fake.app_flags = 0
            monkeypatch.setenv("DISCORD_TOKEN", DISCORD_TOKEN)
            monkeypatch.setenv("DISCORD_API_URL", fake.api_base)
            return await doctor_cli("--database", db, "doctor")

    result = asyncio.run(scenario())
    assert result.exit_code == 1
    assert line_of(result.stdout, "Discord intents").startswith("FAIL  Discord intents: ")
    assert [line for line in lines(result.stdout) if line.startswith("FAIL")] == [
        line_of(result.stdout, "Discord intents")
    ]
    assert DISCORD_TOKEN not in result.output


# ---- workspaces -------------------------------------------------------------------------------


def workspace_checks(url: str) -> list[Check]:
    engine = make_engine(url)
    try:
        return check_workspaces(engine, load_config())
    finally:
        engine.dispose()


def test_a_workspace_without_review_and_publish_channels_fails(db: str) -> None:
    add_workspace(db, "Marin")
    checks = workspace_checks(db)
    assert {c.name for c in checks} == {'Workspace "Marin" (slack)'}
    failed = [c.message for c in checks if c.status == FAIL]
    assert len(failed) == 2
    assert failed[0].startswith("no review channel is set")
    assert failed[1].startswith("no publish channel is set")
    warned = [c.message for c in checks if c.status == WARN]
    assert any("nothing is logged until an admin runs /summary channels add" in m for m in warned)
    assert any("only admins can approve" in m for m in warned)


def test_the_command_names_the_workspace_in_its_fail_lines(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    ready(db)
    add_workspace(db, "Marin", review_channel="C9")

    async def scenario():
        async with ScopedSlack() as fake:
            monkeypatch.setenv("SLACK_BOT_TOKEN", BOT_TOKEN)
            monkeypatch.setenv("SLACK_APP_TOKEN", APP_TOKEN)
            monkeypatch.setenv("SLACK_API_URL", fake.url)
            return await doctor_cli("--database", db, "doctor")

    result = asyncio.run(scenario())
    assert result.exit_code == 1
    assert [line for line in lines(result.stdout) if line.startswith("FAIL")] == [
        'FAIL  Workspace "Marin" (slack): no publish channel is set, so approved summaries are '
        "not posted; an admin runs /summary publish add #channel"
    ]


def test_an_invalid_stored_schedule_fails(db: str) -> None:
    ready(db)
    engine = make_engine(db)
    with Session(engine) as session, session.begin():
        save_setting(
            session,
            1,
            "schedule",
            "someday",
            actor_id="x",
            actor_name="x",
            at=datetime.now(UTC),
        )
    engine.dispose()
    checks = workspace_checks(db)
    schedule = [c for c in checks if "schedule" in c.message]
    assert [c.status for c in schedule] == [FAIL]
    assert "'someday' is not understood" in schedule[0].message


def test_no_stored_workspace_is_a_warning(db: str) -> None:
    assert [c.status for c in workspace_checks(db)] == [WARN]


# ---- GitHub and the LLM -----------------------------------------------------------------------

RATE = {"resources": {"core": {"limit": 5000, "remaining": 4990, "reset": 0}}}


def test_github_with_a_token_reports_the_quota() -> None:
    async def scenario():
        async with Stub({"/rate_limit": (200, RATE)}) as stub:
            env = Environment(github_api_url=stub.url, github_token=GITHUB_TOKEN)
            return await check_github(env), stub

    check, stub = asyncio.run(scenario())
    assert check == Check("GitHub", OK, "token accepted; 4990 of 5000 requests left this hour")
    assert stub.seen[0][1]["Authorization"] == f"Bearer {GITHUB_TOKEN}"


def test_github_without_a_token_warns() -> None:
    rate = {"resources": {"core": {"limit": 60, "remaining": 59, "reset": 0}}}

    async def scenario():
        async with Stub({"/rate_limit": (200, rate)}) as stub:
            return await check_github(Environment(github_api_url=stub.url))

    check = asyncio.run(scenario())
    assert check.status == WARN and "60 requests an hour" in check.message


def test_a_rejected_github_token_fails() -> None:
    async def scenario():
        async with Stub({"/rate_limit": (401, {"message": "Bad credentials"})}) as stub:
            env = Environment(github_api_url=stub.url, github_token=GITHUB_TOKEN)
            return await check_github(env)

    check = asyncio.run(scenario())
    assert check.status == FAIL and check.message.startswith("GITHUB_TOKEN was rejected")


def test_unreachable_github_fails_the_command(db: str, tmp_path: Path, monkeypatch) -> None:
    ready(db)
    path = config_file(tmp_path, "[github]\nenabled = true\n")
    monkeypatch.setenv("GITHUB_API_URL", f"http://127.0.0.1:{closed_port()}")
    monkeypatch.setenv("GITHUB_TOKEN", GITHUB_TOKEN)
    monkeypatch.setenv("SLACK_BOT_TOKEN", BOT_TOKEN)
    monkeypatch.setenv("SLACK_API_URL", f"http://127.0.0.1:{closed_port()}/api/")
    result = runner.invoke(app, ["--database", db, "--config", str(path), "doctor"])
    assert result.exit_code == 1
    assert line_of(result.stdout, "GitHub").startswith("FAIL  GitHub: GitHub could not be reached")
    assert GITHUB_TOKEN not in result.output and BOT_TOKEN not in result.output


def llm_config(tmp_path: Path, base_url: str, model: str = "qwen3-32b"):
    return load_config(
        config_file(tmp_path, f'[llm]\nbase_url = "{base_url}"\nmodel = "{model}"\n')
    )


def run_llm(tmp_path: Path, routes: dict, model: str = "qwen3-32b", key: str | None = None):
    async def scenario():
        async with Stub(routes) as stub:
            config = llm_config(tmp_path, f"{stub.url}/v1/", model)
            return await check_llm(config, Environment(llm_api_key=key)), stub

    return asyncio.run(scenario())


MODELS = {"object": "list", "data": [{"id": "qwen3-32b", "object": "model"}, {"id": "llama3"}]}


def test_an_llm_serving_the_model_is_ok(tmp_path: Path) -> None:
    check, stub = run_llm(tmp_path, {"/v1/models": (200, MODELS)}, key="sk-s3cr3t")
    assert check.status == OK and check.message.endswith("serves qwen3-32b")
    assert stub.seen[0][1]["Authorization"] == "Bearer sk-s3cr3t"


def test_an_llm_model_that_is_not_listed_warns(tmp_path: Path) -> None:
    check, _ = run_llm(tmp_path, {"/v1/models": (200, MODELS)}, model="gpt-9")
    assert check.status == WARN
    assert "does not list the model 'gpt-9' (it lists: qwen3-32b, llama3)" in check.message


def test_an_llm_refusing_the_key_fails(tmp_path: Path) -> None:
    check, _ = run_llm(tmp_path, {"/v1/models": (401, {"error": {}})}, key="sk-s3cr3t")
    assert check.status == FAIL and "refused LLM_API_KEY" in check.message


def test_an_unreachable_llm_fails(tmp_path: Path) -> None:
    config = llm_config(tmp_path, f"http://127.0.0.1:{closed_port()}/v1")
    check = asyncio.run(check_llm(config, Environment()))
    assert check.status == FAIL and "could not be reached" in check.message


def test_the_llm_check_runs_only_with_a_model(db: str, tmp_path: Path) -> None:
    checks = asyncio.run(run_checks(db, None, Environment()))
    assert not [c for c in checks if c.name in ("LLM", "GitHub")]
    path = config_file(
        tmp_path, f'[llm]\nbase_url = "http://127.0.0.1:{closed_port()}/v1"\nmodel = "m"\n'
    )
    checks = asyncio.run(run_checks(db, path, Environment()))
    assert [c.status for c in checks if c.name == "LLM"] == [FAIL]


# ---- bounded ----------------------------------------------------------------------------------


def test_silent_services_time_out_concurrently(
    db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Slack, Discord, GitHub and the LLM never answer: each request gives up after TIMEOUT,
    and they wait side by side, not one after another."""
    monkeypatch.setattr(checking, "TIMEOUT", 0.5)

    async def scenario():
        async with Stub({}, delay=30) as stub:
            path = config_file(
                tmp_path,
                f'[github]\nenabled = true\n[llm]\nbase_url = "{stub.url}/v1"\nmodel = "m"\n',
            )
            env = Environment(
                slack_bot_token=BOT_TOKEN,
                slack_app_token=APP_TOKEN,
                slack_api_url=f"{stub.url}/api/",
                discord_token=DISCORD_TOKEN,
                discord_api_url=f"{stub.url}/api/v10",
                github_api_url=stub.url,
                github_token=GITHUB_TOKEN,
            )
            started = time.monotonic()
            checks = await run_checks(db, path, env)
            return checks, time.monotonic() - started, stub

    checks, elapsed, stub = asyncio.run(scenario())
    network = [
        c for c in checks if c.name in ("Slack", "Slack connection", "Discord", "GitHub", "LLM")
    ]
    assert [c.status for c in network] == [FAIL] * 5
    assert all("no answer within 0.5 s" in c.message for c in network)
    assert elapsed < 2.5  # one after another would take at least 2.5 s
    # One request each, no retries. (The stub shares the checks' event loop: on a loaded
    # machine a request can time out before the stub has read it, so it may see fewer.)
    assert 1 <= len(stub.seen) <= 5
