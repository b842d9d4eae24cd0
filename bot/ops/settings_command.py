"""`summarybot settings show|set`: a workspace's settings from the command line, in the
`/summary` grammar (`bot.core.command_registry`) and through the same handlers and audit trail
(`bot.core.admin`), acting as the operator "cli". Registered on the app by bot/ops/cli.py.

Channels given here are stored as typed (there is no platform to look them up in); people
and channels in the answers are named as the stored messages know them.
"""

from __future__ import annotations

import asyncio
import shlex
import sys
from typing import Annotated

import typer
from sqlalchemy.orm import Session

from bot.config import Config
from bot.core.admin import is_read_only
from bot.core.clock import utcnow
from bot.core.command_registry import SETTING_VERBS, handle_admin, is_admin_command, parse
from bot.core.commands import CommandError
from bot.core.names import StoredNames, channel_ref, with_names
from bot.core.port import Caller
from bot.core.settings import workspace_settings
from bot.core.wording import counted
from bot.drafting.compose import DraftingError, resolve_workspace
from bot.ops.console import fail
from storage.models import Workspace
from storage.records import WorkspaceRecord

OPERATOR_ID = "cli"
# What `settings show` lists when not told: every listing of the grammar.
SHOW_ALL = ("channels", "publish list", "editors", "admins", "schedule", "topics")

settings_app = typer.Typer(
    help="Show or change a workspace's settings, in the /summary grammar.",
    no_args_is_help=True,
)

WorkspaceOption = Annotated[
    str | None, typer.Option(help="Workspace name or id, when several are stored.")
]


@settings_app.command("show")
def settings_show(
    ctx: typer.Context,
    what: Annotated[
        list[str] | None,
        typer.Argument(help="A listing, e.g. channels, publish list, editors (default: all)."),
    ] = None,
    workspace: WorkspaceOption = None,
) -> None:
    """Show the settings (all of them, or one listing of the /summary grammar)."""
    if what:
        _check_setting(what[0])
    texts = [shlex.join(what)] if what else list(SHOW_ALL)
    for text in texts:
        command = _parsed(text)
        if not is_read_only(command):
            fail(f"{text!r} changes a setting; use `summarybot settings set {text}`")
    with ctx.obj.sessions.begin() as session:
        found = _workspace(session, workspace)
        replies = [_handle(session, ctx.obj.config, found, OPERATOR_ID, text) for text in texts]
        if not what:
            replies += _single_values(session, ctx.obj.config, found)
    sys.stdout.write("".join(f"{reply}\n" for reply in replies))


@settings_app.command("set")
def settings_set(
    ctx: typer.Context,
    words: Annotated[
        list[str],
        typer.Argument(help="A /summary settings command, e.g.: publish add blog"),
    ],
    workspace: WorkspaceOption = None,
    by: Annotated[str, typer.Option(help="Who makes the change, for the audit trail.")] = "cli",
) -> None:
    """Change a setting as the /summary command would; the change is audited."""
    text = shlex.join(words)
    _check_setting(words[0])
    if not is_admin_command(_parsed(text)):
        fail(f"{text!r} is not a settings command; `summarybot settings show` lists them")
    with ctx.obj.sessions.begin() as session:
        found = _workspace(session, workspace)
        reply = _handle(session, ctx.obj.config, found, by, text)
    sys.stdout.write(f"{reply}\n")


def _check_setting(word: str) -> None:
    """Stop, naming the settings, when `word` is not one (a command such as `edit`, say)."""
    if word.lower() not in SETTING_VERBS:
        fail(f"{word!r} is not a setting; the settings are: {', '.join(SETTING_VERBS)}")


def _parsed(text: str):  # noqa: ANN202 (a bot.core.commands.Command)
    try:
        return parse(text)
    except CommandError as error:
        fail(str(error))


def _workspace(session: Session, name: str | None) -> Workspace:
    try:
        return resolve_workspace(session, name)
    except DraftingError as error:
        fail(str(error))


def _handle(session: Session, config: Config, workspace: Workspace, by: str, text: str) -> str:
    """The answer to a settings command run by the operator, with names filled in; a
    refusal stops the command line with its sentence (and the transaction rolls back)."""
    operator = Caller(OPERATOR_ID, by, is_admin=True)
    reply = handle_admin(session, config, workspace.id, operator, parse(text), utcnow())
    text = _named(session, workspace, reply.text)
    if not reply.ok:
        fail(text)
    return text


def _single_values(session: Session, config: Config, workspace: Workspace) -> list[str]:
    """The settings the grammar sets but has no listing for."""
    settings = workspace_settings(session, config, workspace.id)
    review = channel_ref(settings.review_channel) if settings.review_channel else "not set"
    return [
        _named(session, workspace, f"Review channel: {review}."),
        f"Default repository: {settings.default_repo or 'none'}.",
        f"Logged messages are kept for {counted(settings.retention_days, 'day')}.",
        f"Drafter: {settings.summarizer}.",
    ]


def _named(session: Session, workspace: Workspace, text: str) -> str:
    """`text` with channels and people named as the stored messages know them."""
    record = WorkspaceRecord(workspace.platform, workspace.platform_id, workspace.name)
    return asyncio.run(with_names(StoredNames(session, workspace.id), record, text))
