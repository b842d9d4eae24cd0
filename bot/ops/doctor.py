"""`summarybot doctor`: check a deployment and say, in plain words, what to fix.

Each check is a small function that answers `Check(name, status, message)`: `ok`, `warn` (works,
but worth a look) or `FAIL` (the bot will not work as configured), with one sentence saying what
is wrong and what to do. The network checks (each platform's, GitHub, the LLM) run concurrently,
each request once, without retries, with a `checking.TIMEOUT`-second limit. Nothing is changed: the
database is not migrated, no message is sent. Token values are never printed.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import typer
from pydantic import ValidationError
from sqlalchemy import Engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from bot.config import Config
from bot.core import checks as checking
from bot.core.checks import FAIL, OK, WARN, Check, json_of, reason, unreachable
from bot.core.clock import utcnow
from bot.core.settings import SettingsError, cron_trigger, workspace_settings
from bot.core.wording import counted
from bot.ops.config import ConfigError, load_config
from bot.platforms import registered
from storage.db import is_current, make_engine, make_sessionmaker
from storage.messages import find_workspaces

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from bot.ops.env import Deployment
    from storage.models import Workspace

__all__ = ["Check", "doctor_command", "run_checks"]


# ---- database and configuration (local) ----------------------------------------------------


def check_database(url: str) -> tuple[Check, Engine | None]:
    """Whether the database answers and is migrated; the engine when both hold (else None).

    It never migrates, and never creates a missing SQLite file."""
    name = "Database"
    try:
        parsed = make_url(url)
    except ArgumentError:
        return Check(
            name,
            FAIL,
            f"{url!r} is not a database URL; set --database or SUMMARYBOT_DATABASE_URL to "
            "e.g. sqlite:///summarybot.db or postgresql+psycopg://USER:PASSWORD@HOST/DB",
        ), None
    shown = parsed.render_as_string(hide_password=True)
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        path = parsed.database or ""
        in_file = path and path != ":memory:" and not path.startswith("file:")
        if in_file and not Path(path).is_file():
            return Check(
                name,
                FAIL,
                f"the SQLite file {Path(path).resolve()} does not exist; point --database or "
                "SUMMARYBOT_DATABASE_URL at the bot's database, or run `summarybot migrate` "
                "to create it",
            ), None
    elif parsed.get_driver_name() in ("psycopg", "psycopg2") and "connect_timeout" not in (
        parsed.query
    ):
        parsed = parsed.update_query_dict({"connect_timeout": str(max(1, round(checking.TIMEOUT)))})
    try:
        engine = make_engine(parsed.render_as_string(hide_password=False))
    except ImportError as error:
        return Check(
            name,
            FAIL,
            f"the database driver for {shown} is not installed ({error}); for PostgreSQL "
            "install summarybot[postgres] and use a postgresql+psycopg:// URL",
        ), None
    except (SQLAlchemyError, ValueError) as error:
        return Check(name, FAIL, f"cannot use {shown} ({_sql_reason(error)})"), None
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
    except SQLAlchemyError as error:
        engine.dispose()
        return Check(
            name,
            FAIL,
            f"cannot connect to {shown} ({_sql_reason(error)}); check the URL, that the "
            "server runs and that the user may log in",
        ), None
    try:
        current = is_current(engine)
    except SQLAlchemyError as error:
        engine.dispose()
        return Check(name, FAIL, f"cannot read the schema version of {shown} ({error})"), None
    if not current:
        engine.dispose()
        return Check(
            name,
            FAIL,
            f"{shown} is not migrated to this version's schema; run `summarybot migrate` "
            "(with the same --database)",
        ), None
    return Check(name, OK, f"{shown} is reachable and migrated"), engine


def _sql_reason(error: Exception) -> str:
    """The driver's own first line (SQLAlchemy's message adds the SQL and a link)."""
    original = getattr(error, "orig", None) or error
    return (str(original).strip().splitlines() or [type(original).__name__])[0]


def check_config(path: Path | None) -> tuple[Check, Config | None]:
    """Whether the configuration loads; the configuration when it does."""
    try:
        config = load_config(path)
    except ConfigError as error:
        return Check(
            "Config",
            FAIL,
            f"{error}; fix the file, or the --config / SUMMARYBOT_CONFIG path "
            "(the shipped default_config.toml documents every key)",
        ), None
    source = str(path) if path else "the default configuration (no --config given)"
    return Check("Config", OK, f"{source} loads"), config


def check_platforms(env: Deployment) -> Check:
    """At least one chat platform has a token."""
    names = [platform.title for platform in registered() if platform.enabled(env)]
    if not names:
        return Check(
            "Platforms",
            FAIL,
            f"{_none_set([platform.token for platform in registered()])}, so `summarybot run` "
            "has nowhere to connect; set one of them in the environment or in .env",
        )
    return Check("Platforms", OK, f"{' and '.join(names)} configured")


def _none_set(variables: list[str]) -> str:
    if len(variables) == 1:
        return f"{variables[0]} is not set"
    if len(variables) == 2:
        return f"neither {variables[0]} nor {variables[1]} is set"
    return f"none of {', '.join(variables)} is set"


# ---- workspaces (local) ---------------------------------------------------------------------


def check_workspaces(engine: Engine, config: Config) -> list[Check]:
    """The settings every stored workspace needs before the bot can draft and publish."""
    with make_sessionmaker(engine)() as session:
        workspaces = find_workspaces(session)
        if not workspaces:
            return [
                Check(
                    "Workspaces",
                    WARN,
                    "none stored yet; start the bot (`summarybot run`) and set it up with "
                    f"/summary in {' or '.join(p.title for p in registered())}",
                )
            ]
        checks: list[Check] = []
        for workspace in workspaces:
            checks.extend(check_workspace(session, config, workspace))
        return checks


def check_workspace(session: Session, config: Config, workspace: Workspace) -> list[Check]:
    """One workspace: logged channels, review and publish channels, editors, schedule."""
    name = f'Workspace "{workspace.name}" ({workspace.platform})'
    try:
        settings = workspace_settings(session, config, workspace.id)
    except (ValidationError, ValueError) as error:
        return [Check(name, FAIL, f"its stored settings are not valid ({_problems(error)})")]
    checks: list[Check] = []
    if settings.channels:
        checks.append(Check(name, OK, f"logs {_listing(settings.channels)}"))
    else:
        checks.append(
            Check(
                name,
                WARN,
                "no channel is logged; nothing is logged until an admin runs "
                "/summary channels add #channel",
            )
        )
    if settings.review_channel:
        checks.append(Check(name, OK, f"drafts go to {settings.review_channel} for review"))
    else:
        checks.append(
            Check(
                name,
                FAIL,
                "no review channel is set, so drafts have nowhere to go; an admin runs "
                "/summary review-channel #channel",
            )
        )
    if settings.publish_channels:
        checks.append(
            Check(name, OK, f"approved summaries go to {_listing(settings.publish_channels)}")
        )
    else:
        checks.append(
            Check(
                name,
                FAIL,
                "no publish channel is set, so approved summaries are not posted; an admin "
                "runs /summary publish add #channel",
            )
        )
    if settings.editors:
        editors = counted(len(settings.editors), "editor")
        checks.append(Check(name, OK, f"{editors} may approve"))
    else:
        checks.append(
            Check(
                name,
                WARN,
                "no editors are set: only admins can approve; add some with "
                "/summary editors add @person",
            )
        )
    checks.append(_schedule_check(name, settings.schedule, settings.timezone))
    return checks


def _schedule_check(name: str, schedule: str, timezone: str) -> Check:
    try:
        trigger = cron_trigger(schedule, timezone)
    except SettingsError as error:
        return Check(name, FAIL, f"{error}; an admin sets it with /summary schedule")
    upcoming = trigger.get_next_fire_time(None, utcnow().astimezone(trigger.timezone))
    when = f"; next on {upcoming:%a %Y-%m-%d %H:%M}" if upcoming else ""
    return Check(name, OK, f'drafts on schedule "{schedule}" ({timezone}){when}')


def _problems(error: Exception) -> str:
    if isinstance(error, ValidationError):
        return "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'settings'}: {e['msg']}"
            for e in error.errors()
        )
    return str(error)


def _listing(values: Iterable[str]) -> str:
    return ", ".join(values)


# ---- GitHub and the LLM ---------------------------------------------------------------------


async def check_github(env: Deployment) -> Check:
    """GitHub answers (GET /rate_limit), with the token when set, and how much quota is left."""
    name = "GitHub"
    url = f"{env.github_api_url.rstrip('/')}/rate_limit"
    headers = {
        "Accept": "application/vnd.github+json",
        "X-GitHub-Api-Version": "2022-11-28",
        "User-Agent": "summarybot",
    }
    if env.github_token:
        headers["Authorization"] = f"Bearer {env.github_token}"
    try:
        async with httpx.AsyncClient(headers=headers, timeout=checking.TIMEOUT) as http:
            response = await http.get(url)
    except httpx.HTTPError as error:
        return Check(
            name,
            FAIL,
            unreachable("GitHub", env.github_api_url, error, "GITHUB_API_URL")
            + "; drafts come out without PR titles until it can",
        )
    if response.status_code == 401 and env.github_token:
        return Check(
            name,
            FAIL,
            "GITHUB_TOKEN was rejected by GitHub (401 Bad credentials); create a new token "
            "(read access to the repositories is enough) and set GITHUB_TOKEN",
        )
    data = json_of(response)
    if response.status_code != 200 or not isinstance(data, dict):
        return Check(
            name,
            FAIL,
            f"GitHub answered {response.status_code} at {url}; check GITHUB_API_URL "
            "(GitHub Enterprise Server: https://HOST/api/v3)",
        )
    resources = data.get("resources") or {}
    core = resources.get("core") or data.get("rate") or {}
    remaining, limit = core.get("remaining"), core.get("limit")
    quota = f"{remaining} of {limit} requests left this hour" if limit else "reachable"
    if not env.github_token:
        return Check(
            name,
            WARN,
            f"reachable without GITHUB_TOKEN, so GitHub allows 60 requests an hour ({quota}); "
            "set GITHUB_TOKEN for 5,000",
        )
    if remaining == 0:
        return Check(name, WARN, f"token accepted but the quota is spent ({quota})")
    return Check(name, OK, f"token accepted; {quota}")


async def check_llm(config: Config, env: Deployment) -> Check:
    """The OpenAI-compatible endpoint answers GET /models and lists the configured model."""
    name = "LLM"
    root = config.llm.base_url.strip().rstrip("/")
    if root.endswith("/chat/completions"):
        root = root[: -len("/chat/completions")]
    url = f"{root}/models"
    headers = {"User-Agent": "summarybot", "Accept": "application/json"}
    if env.llm_api_key:
        headers["Authorization"] = f"Bearer {env.llm_api_key}"
    try:
        async with httpx.AsyncClient(headers=headers, timeout=checking.TIMEOUT) as http:
            response = await http.get(url)
    except httpx.UnsupportedProtocol:
        return Check(name, FAIL, f"[llm] base_url {root!r} is not an http(s) URL; fix the config")
    except httpx.HTTPError as error:
        return Check(
            name,
            FAIL,
            f"the LLM endpoint {root} could not be reached ({reason(error)}); start the "
            "server or fix [llm] base_url in the config",
        )
    if response.status_code in (401, 403):
        what = "refused LLM_API_KEY" if env.llm_api_key else "needs an API key"
        return Check(
            name,
            FAIL,
            f"the LLM endpoint {what} ({response.status_code}); set LLM_API_KEY to a valid key",
        )
    if response.status_code == 404:
        return Check(
            name,
            WARN,
            f"{url} answered 404: is [llm] base_url right (it usually ends in /v1)?",
        )
    data = json_of(response)
    listed = data.get("data") if isinstance(data, dict) else None
    if response.status_code != 200 or not isinstance(listed, list):
        return Check(name, WARN, f"{url} answered {response.status_code} without a model list")
    models = [str(m.get("id")) for m in listed if isinstance(m, dict) and m.get("id")]
    if config.llm.model not in models:
        shown = ", ".join(models[:10]) + (", ..." if len(models) > 10 else "")
        return Check(
            name,
            WARN,
            f"{root} does not list the model {config.llm.model!r} (it lists: {shown or 'none'}); "
            "check [llm] model in the config",
        )
    return Check(name, OK, f"{root} serves {config.llm.model}")


# ---- helpers --------------------------------------------------------------------------------


async def _guarded(name: str, work: Awaitable[Check | list[Check]]) -> list[Check]:
    """A network check's findings; one FAIL line if it crashes or outlasts two timeouts."""
    try:
        found = await asyncio.wait_for(work, 2 * checking.TIMEOUT + 1)
    except TimeoutError:
        return [Check(name, FAIL, f"no answer within {2 * checking.TIMEOUT + 1:g} s")]
    except Exception as error:  # noqa: BLE001 (a doctor reports; it does not crash)
        return [Check(name, FAIL, f"could not be checked ({type(error).__name__}: {error})")]
    return found if isinstance(found, list) else [found]


async def run_checks(database_url: str, config_path: Path | None, env: Deployment) -> list[Check]:
    """Every check, in the order printed; the network ones run concurrently."""
    database, engine = check_database(database_url)
    config_check, config = check_config(config_path)
    checks = [database, config_check, check_platforms(env)]
    try:
        workspaces: list[Check] = []
        if engine is not None:
            try:
                workspaces = check_workspaces(engine, config or load_config())
            except SQLAlchemyError as error:
                workspaces = [Check("Workspaces", FAIL, f"cannot be read ({_sql_reason(error)})")]
    finally:
        if engine is not None:
            engine.dispose()
    network: list[Awaitable[list[Check]]] = []
    for platform in registered():
        if platform.enabled(env):
            network.append(_guarded(platform.title, platform.doctor(env)))
    tail: list[Awaitable[list[Check]]] = []
    if config is not None and config.github.enabled:
        tail.append(_guarded("GitHub", check_github(env)))
    if config is not None and config.llm.model:
        tail.append(_guarded("LLM", check_llm(config, env)))
    results = await asyncio.gather(*network, *tail)
    for found in results[: len(network)]:
        checks.extend(found)
    checks.extend(workspaces)
    for found in results[len(network) :]:
        checks.extend(found)
    return checks


def _secrets(env: Deployment, database_url: str) -> list[str]:
    values = [secret for platform in registered() for secret in platform.secrets(env)]
    values += [env.github_token, env.llm_api_key]
    with contextlib.suppress(ArgumentError):
        values.append(make_url(database_url).password)
    return sorted({str(v) for v in values if v and len(str(v)) >= 4}, key=len, reverse=True)


def redact(line: str, secrets: Iterable[str]) -> str:
    """`line` with every secret value replaced by ***: a last guard; no check prints one."""
    for secret in secrets:
        line = line.replace(secret, "***")
    return line


def doctor_command(ctx: typer.Context) -> None:
    """Check the deployment: database, config, tokens, workspace settings, GitHub, the LLM.

    One line per check (ok, warn or FAIL) with what to do; exits 1 if anything FAILs."""
    from bot.ops.env import read_environment

    try:
        env = read_environment()
    except ValidationError as error:
        typer.echo(Check("Environment", FAIL, f"{_problems(error)}; fix the variable").line())
        raise typer.Exit(1) from None
    checks = asyncio.run(run_checks(ctx.obj.database_url, ctx.obj.config_path, env))
    secrets = _secrets(env, ctx.obj.database_url)
    for check in checks:
        typer.echo(redact(check.line(), secrets))
    if any(check.status == FAIL for check in checks):
        raise typer.Exit(1)
