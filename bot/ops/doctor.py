"""`summarybot doctor`: check a deployment and say, in plain words, what to fix.

Each check is a small function that answers `Check(name, status, message)`: `ok`, `warn` (works,
but worth a look) or `FAIL` (the bot will not work as configured), with one sentence saying what
is wrong and what to do. The network checks (Slack, Discord, GitHub, the LLM) run concurrently,
each request once, without retries, with a `TIMEOUT`-second limit. Nothing is changed: the
database is not migrated, no message is sent. Token values are never printed.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import typer
from pydantic import ValidationError
from sqlalchemy import Engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from bot.core.settings import SettingsError, cron_trigger, workspace_settings
from bot.drafting.config import Config
from bot.ops.config import ConfigError, load_config
from storage.db import is_current, make_engine, make_sessionmaker
from storage.messages import find_workspaces

if TYPE_CHECKING:
    from slack_sdk.web.async_client import AsyncWebClient
    from sqlalchemy.orm import Session

    from bot.ops.env import Environment
    from storage.models import Workspace

__all__ = ["Check", "doctor_command", "run_checks"]

TIMEOUT = 5.0  # seconds, for every network request (read at call time: tests shorten it)
OK, WARN, FAIL = "ok", "warn", "FAIL"
DISCORD_API_URL = "https://discord.com/api/v10"
EVENTS_PATH = "/slack/events"  # as bot.slack.run serves it (not imported: that pulls in Bolt)
MANIFEST = "bot/slack/manifest.yml"
# The bot scopes bot/slack/manifest.yml asks for (a test keeps the two equal).
SLACK_SCOPES = (
    "channels:history",
    "groups:history",
    "channels:read",
    "groups:read",
    "channels:join",
    "chat:write",
    "chat:write.public",
    "commands",
    "users:read",
)
_SLACK_REJECTED = {
    "invalid_auth",
    "not_authed",
    "account_inactive",
    "token_revoked",
    "token_expired",
    "not_allowed_token_type",
}
# Application flags: GATEWAY_MESSAGE_CONTENT (1 << 18) and GATEWAY_MESSAGE_CONTENT_LIMITED
# (1 << 19, bots in fewer than 100 servers); either means the intent is on.
MESSAGE_CONTENT_FLAGS = (1 << 18) | (1 << 19)


@dataclass(frozen=True, slots=True)
class Check:
    """One finding: what was checked, `ok` / `warn` / `FAIL`, and a sentence for people."""

    name: str
    status: str
    message: str

    def line(self) -> str:
        return f"{self.status:<4}  {self.name}: {self.message}"


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
        parsed = parsed.update_query_dict({"connect_timeout": str(max(1, round(TIMEOUT)))})
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


def check_platforms(env: Environment) -> Check:
    """At least one chat platform has a token."""
    names = [
        platform
        for platform, token in (("Slack", env.slack_bot_token), ("Discord", env.discord_token))
        if token
    ]
    if not names:
        return Check(
            "Platforms",
            FAIL,
            "neither SLACK_BOT_TOKEN nor DISCORD_TOKEN is set, so `summarybot run` has nowhere "
            "to connect; set one of them in the environment or in .env",
        )
    return Check("Platforms", OK, f"{' and '.join(names)} configured")


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
                    "/summary in Slack or Discord",
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
        checks.append(Check(name, OK, f"{len(settings.editors)} editor(s) may approve"))
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
    upcoming = trigger.get_next_fire_time(None, datetime.now(trigger.timezone))
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


# ---- Slack ----------------------------------------------------------------------------------


async def check_slack(env: Environment) -> list[Check]:
    """The bot token (auth.test), its scopes, and how events reach the bot."""
    from bot.slack.run import slack_client

    client = slack_client(env)
    client.timeout = TIMEOUT  # one bounded try: no waiting out rate limits, no retries
    client.retry_handlers = []
    (auth, scopes), connection = await asyncio.gather(
        _slack_auth(client, env), _slack_connection(client, env)
    )
    return [auth, *([scopes] if scopes else []), connection]


async def _slack_auth(client: AsyncWebClient, env: Environment) -> tuple[Check, Check | None]:
    from slack_sdk.errors import SlackApiError

    name = "Slack"
    try:
        response = await client.auth_test()
    except SlackApiError as error:
        code = _slack_code(error)
        if code in _SLACK_REJECTED:
            return Check(
                name,
                FAIL,
                f"SLACK_BOT_TOKEN was rejected by Slack ({code}); copy the Bot User OAuth Token "
                "(xoxb-...) from the app's Install App page",
            ), None
        if code == "ratelimited":
            return Check(
                name, WARN, "Slack is rate limiting auth.test; try again in a minute"
            ), None
        return Check(name, FAIL, f"Slack refused auth.test ({code})"), None
    except Exception as error:  # noqa: BLE001 (any network trouble is the finding)
        return Check(
            name, FAIL, _unreachable("Slack", env.slack_api_url, error, "SLACK_API_URL")
        ), None
    who = f"bot {response.get('user') or '?'} in workspace {response.get('team') or '?'}"
    token = env.slack_bot_token or ""
    if not token.startswith("xoxb-"):
        auth = Check(
            name,
            WARN,
            f"SLACK_BOT_TOKEN is accepted ({who}) but is not a bot token (xoxb-...); use the "
            "Bot User OAuth Token from the app's Install App page",
        )
    else:
        auth = Check(name, OK, f"SLACK_BOT_TOKEN accepted: {who}")
    return auth, slack_scopes_check(response.headers.get("x-oauth-scopes"))


def slack_scopes_check(header: str | None) -> Check:
    """Compare the scopes Slack says the token has (`x-oauth-scopes`) with the manifest's."""
    name = "Slack scopes"
    if header is None:
        return Check(
            name,
            WARN,
            "Slack did not say which scopes the bot token has; compare OAuth & Permissions "
            f"with {MANIFEST}",
        )
    granted = {scope.strip() for scope in header.split(",") if scope.strip()}
    missing = [scope for scope in SLACK_SCOPES if scope not in granted]
    if missing:
        return Check(
            name,
            FAIL,
            f"the bot token lacks the scope(s) {', '.join(missing)}; add them on the app's "
            f"OAuth & Permissions page (or update the app from {MANIFEST}), reinstall the "
            "app and copy the new Bot User OAuth Token",
        )
    return Check(
        name, OK, f"the bot token has all {len(SLACK_SCOPES)} scopes the manifest asks for"
    )


async def _slack_connection(client: AsyncWebClient, env: Environment) -> Check:
    from slack_sdk.errors import SlackApiError

    name = "Slack connection"
    token_page = (
        "generate an app-level token with the connections:write scope on the app's Basic "
        "Information page"
    )
    if env.slack_app_token:
        if not env.slack_app_token.startswith("xapp-"):
            return Check(
                name,
                FAIL,
                f"SLACK_APP_TOKEN does not start with xapp-, so it is not an app-level token; "
                f"{token_page}",
            )
        try:
            await client.apps_connections_open(app_token=env.slack_app_token)
        except SlackApiError as error:
            return Check(
                name,
                FAIL,
                f"SLACK_APP_TOKEN was refused by Slack ({_slack_code(error)}); turn on Socket "
                f"Mode in the app's settings and {token_page}",
            )
        except Exception as error:  # noqa: BLE001
            return Check(
                name, FAIL, _unreachable("Slack", env.slack_api_url, error, "SLACK_API_URL")
            )
        return Check(name, OK, "Socket Mode: SLACK_APP_TOKEN can open a connection")
    if env.slack_signing_secret:
        return Check(
            name,
            WARN,
            "HTTP Events API (no SLACK_APP_TOKEN): make sure the request URLs of Event "
            f"Subscriptions, Interactivity and /summary point at https://YOUR-HOST{EVENTS_PATH} "
            f"and that port {env.port} is reachable from Slack",
        )
    return Check(
        name,
        FAIL,
        "neither SLACK_APP_TOKEN (Socket Mode) nor SLACK_SIGNING_SECRET (HTTP Events API) is "
        f"set, so no events reach the bot; {token_page} and set SLACK_APP_TOKEN",
    )


def _slack_code(error: Exception) -> str:
    response = getattr(error, "response", None)
    try:
        return str(response.get("error") or "unknown_error")  # type: ignore[union-attr]
    except (AttributeError, TypeError):
        return "unknown_error"


# ---- Discord --------------------------------------------------------------------------------


async def check_discord(env: Environment) -> list[Check]:
    """The bot token (GET /users/@me) and the Message Content Intent (application flags)."""
    base = (env.discord_api_url or DISCORD_API_URL).rstrip("/")
    headers = {
        "Authorization": f"Bot {env.discord_token}",
        "User-Agent": "DiscordBot (https://github.com/summarybot, 0.1)",
    }
    async with httpx.AsyncClient(base_url=base, headers=headers, timeout=TIMEOUT) as http:
        try:
            me = await http.get("/users/@me")
        except httpx.HTTPError as error:
            return [Check("Discord", FAIL, _unreachable("Discord", base, error, "DISCORD_API_URL"))]
        if me.status_code == 401:
            return [
                Check(
                    "Discord",
                    FAIL,
                    "DISCORD_TOKEN was rejected by Discord (401 Unauthorized); copy the bot "
                    "token from the Developer Portal, Bot page (Reset Token)",
                )
            ]
        user = _json(me)
        if me.status_code != 200 or not isinstance(user, dict):
            return [Check("Discord", FAIL, f"Discord answered {me.status_code} to GET /users/@me")]
        checks = [Check("Discord", OK, f"DISCORD_TOKEN accepted: bot {user.get('username', '?')}")]
        try:
            application = await http.get("/oauth2/applications/@me")
        except httpx.HTTPError as error:
            reason = _reason(error)
            checks.append(Check("Discord intents", WARN, f"could not read the app ({reason})"))
            return checks
    data = _json(application)
    if application.status_code != 200 or not isinstance(data, dict):
        checks.append(
            Check(
                "Discord intents",
                WARN,
                f"Discord answered {application.status_code} to GET /oauth2/applications/@me; "
                "check that Message Content Intent is on in the Developer Portal, Bot page",
            )
        )
    elif int(data.get("flags") or 0) & MESSAGE_CONTENT_FLAGS:
        checks.append(Check("Discord intents", OK, "Message Content Intent is on"))
    else:
        checks.append(
            Check(
                "Discord intents",
                FAIL,
                "Message Content Intent is off, so the bot cannot connect (it asks for message "
                "text); turn on Message Content Intent in the Developer Portal, Bot page",
            )
        )
    return checks


# ---- GitHub and the LLM ---------------------------------------------------------------------


async def check_github(env: Environment) -> Check:
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
        async with httpx.AsyncClient(headers=headers, timeout=TIMEOUT) as http:
            response = await http.get(url)
    except httpx.HTTPError as error:
        return Check(
            name,
            FAIL,
            _unreachable("GitHub", env.github_api_url, error, "GITHUB_API_URL")
            + "; drafts come out without PR titles until it can",
        )
    if response.status_code == 401 and env.github_token:
        return Check(
            name,
            FAIL,
            "GITHUB_TOKEN was rejected by GitHub (401 Bad credentials); create a new token "
            "(read access to the repositories is enough) and set GITHUB_TOKEN",
        )
    data = _json(response)
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


async def check_llm(config: Config, env: Environment) -> Check:
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
        async with httpx.AsyncClient(headers=headers, timeout=TIMEOUT) as http:
            response = await http.get(url)
    except httpx.UnsupportedProtocol:
        return Check(name, FAIL, f"[llm] base_url {root!r} is not an http(s) URL; fix the config")
    except httpx.HTTPError as error:
        return Check(
            name,
            FAIL,
            f"the LLM endpoint {root} could not be reached ({_reason(error)}); start the "
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
    data = _json(response)
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


def _json(response: httpx.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        return None


def _reason(error: BaseException) -> str:
    if isinstance(error, (TimeoutError, httpx.TimeoutException)):
        return f"no answer within {TIMEOUT:g} s"
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__


def _unreachable(service: str, url: str, error: BaseException, variable: str) -> str:
    return (
        f"{service} could not be reached at {url} ({_reason(error)}); check the network, "
        f"or {variable} if it is set"
    )


async def _guarded(name: str, work: Awaitable[Check | list[Check]]) -> list[Check]:
    """A network check's findings; one FAIL line if it crashes or outlasts two timeouts."""
    try:
        found = await asyncio.wait_for(work, 2 * TIMEOUT + 1)
    except TimeoutError:
        return [Check(name, FAIL, f"no answer within {2 * TIMEOUT + 1:g} s")]
    except Exception as error:  # noqa: BLE001 (a doctor reports; it does not crash)
        return [Check(name, FAIL, f"could not be checked ({type(error).__name__}: {error})")]
    return found if isinstance(found, list) else [found]


async def run_checks(database_url: str, config_path: Path | None, env: Environment) -> list[Check]:
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
    if env.slack_bot_token:
        network.append(_guarded("Slack", check_slack(env)))
    if env.discord_token:
        network.append(_guarded("Discord", check_discord(env)))
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


def _secrets(env: Environment, database_url: str) -> list[str]:
    values = [
        env.slack_bot_token,
        env.slack_app_token,
        env.slack_signing_secret,
        env.discord_token,
        env.github_token,
        env.llm_api_key,
    ]
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
    from bot.ops.env import Environment

    try:
        env = Environment()
    except ValidationError as error:
        typer.echo(Check("Environment", FAIL, f"{_problems(error)}; fix the variable").line())
        raise typer.Exit(1) from None
    checks = asyncio.run(run_checks(ctx.obj.database_url, ctx.obj.config_path, env))
    secrets = _secrets(env, ctx.obj.database_url)
    for check in checks:
        typer.echo(redact(check.line(), secrets))
    if any(check.status == FAIL for check in checks):
        raise typer.Exit(1)
