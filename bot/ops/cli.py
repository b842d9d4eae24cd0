"""The `summarybot` command line."""

from __future__ import annotations

import sys
import tempfile
from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from importlib.metadata import version as package_version
from importlib.resources import as_file, files
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from sqlalchemy import Engine
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from bot.config import Config
from bot.core.access import SectionRef
from bot.core.chunking import chunk
from bot.core.clock import utcnow
from bot.core.ingest import ImportReport, import_paths
from bot.core.port import Caller, Reply
from bot.core.review import approve_draft, edit_draft_section, mark_published
from bot.core.review_text import published_markdown, section_label
from bot.core.settings import week_of, workspace_settings
from bot.core.wording import counted
from bot.drafting.compose import DraftingError, resolve_workspace
from bot.drafting.llm.drafter import LLM
from bot.drafting.service import DraftingService
from bot.drafting.store import as_summary
from bot.drafting.week import Week, week_start
from bot.ops.config import ConfigError, load_config
from bot.ops.console import emit, err, fail, parse_day, say, write
from bot.ops.doctor import doctor_command
from bot.ops.eval_command import eval_command
from bot.ops.formats import EXPORT_FORMATS, FORMATS, export_formats
from bot.ops.settings_command import OPERATOR_ID, settings_app
from bot.platforms import registered
from storage.db import DEFAULT_DATABASE_URL, make_engine, make_sessionmaker, migrate
from storage.drafts import get_draft, get_draft_by_id, list_drafts, load_draft
from storage.messages import count_messages, find_workspaces
from storage.models import LOCKED, DraftRow, Workspace
from storage.privacy import blocking_flags
from summarizer.types import DraftSummary

SAMPLE_WEEK = date(2026, 11, 16)
POSTGRES_SUPPORT = "install it with pip install 'summarybot[postgres]'"
SUPPORTED_DATABASES = (
    "summarybot works with SQLite (sqlite:///summarybot.db) and PostgreSQL "
    f"(postgresql+psycopg://user@host/dbname; for psycopg, {POSTGRES_SUPPORT})"
)

app = typer.Typer(
    help=f"Turn a week of {' or '.join(p.title for p in registered())} chat into a draft "
    "weekly summary.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,  # plain help: flags shown as flags (`--dry-run`), not `<bool>`
    context_settings={"help_option_names": ["-h", "--help"]},
)


class Summarizer(StrEnum):
    extractive = "extractive"
    llm = "llm"


class OutputFormat(StrEnum):
    markdown = "markdown"
    json = "json"


def _export_format(value: str | None) -> str | None:
    """`--format`'s value, one of the export formats (or none given)."""
    if value is not None and value not in FORMATS:
        raise typer.BadParameter(f"{value!r} is not one of {', '.join(FORMATS)}.")
    return value


@dataclass(slots=True)
class Context:
    """What every command needs: the database and the configuration, opened on first use."""

    database_url: str
    config_path: Path | None
    _engine: Engine | None = None
    _sessions: sessionmaker[Session] | None = None
    _config: Config | None = None

    @property
    def config(self) -> Config:
        if self._config is None:
            try:
                self._config = load_config(self.config_path)
            except ConfigError as error:
                fail(str(error))
        return self._config

    @property
    def sessions(self) -> sessionmaker[Session]:
        if self._sessions is None:
            unsupported = _unsupported_database(self.database_url)
            if unsupported:
                fail(f"cannot open the database {self.safe_url}: {unsupported}")
            try:
                self._engine = make_engine(self.database_url)
                migrate(self._engine)
            except ImportError as error:
                fail(f"cannot open the database {self.safe_url}: {_missing_driver(error)}")
            except SQLAlchemyError as error:
                fail(f"cannot open the database {self.safe_url}: {error}")
            self._sessions = make_sessionmaker(self._engine)
        return self._sessions

    @property
    def safe_url(self) -> str:
        """The database URL with any password masked, for messages."""
        try:
            return make_url(self.database_url).render_as_string(hide_password=True)
        except ArgumentError:
            return "(an unparsable URL)"

    @property
    def engine(self) -> Engine:
        """The database engine (opened, and migrated, on first use)."""
        self.sessions  # noqa: B018 (opening the sessions creates the engine)
        assert self._engine is not None  # or opening the sessions failed and exited
        return self._engine

    def close(self) -> None:
        """Release the database connections."""
        if self._engine is not None:
            self._engine.dispose()


def _unsupported_database(url: str) -> str | None:
    """Why summarybot cannot use the database at `url`; None for SQLite and PostgreSQL with
    psycopg (and for a URL that does not parse: opening it says why)."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        return None
    backend, driver = parsed.get_backend_name(), parsed.get_driver_name()
    if backend == "sqlite" or (backend, driver) == ("postgresql", "psycopg"):
        return None
    if backend == "postgresql":
        return f"the {driver} driver is not supported; {SUPPORTED_DATABASES}"
    return f"{backend} is not supported; {SUPPORTED_DATABASES}"


def _missing_driver(error: ImportError) -> str:
    """What to install for a database driver that is missing."""
    if "psycopg" in str(error):
        return f"PostgreSQL needs psycopg; {POSTGRES_SUPPORT}"
    return str(error)


def _print_version(wanted: bool) -> None:
    if wanted:
        sys.stdout.write(f"summarybot {package_version('summarybot')}\n")
        raise typer.Exit()


@app.callback()
def main(
    ctx: typer.Context,
    database: Annotated[
        str,
        typer.Option(
            envvar="SUMMARYBOT_DATABASE_URL",
            help="SQLAlchemy database URL (SQLite file in the current directory by default).",
        ),
    ] = DEFAULT_DATABASE_URL,
    config: Annotated[
        Path | None,
        typer.Option(envvar="SUMMARYBOT_CONFIG", help="TOML configuration file.", dir_okay=False),
    ] = None,
    _version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_print_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    ctx.obj = Context(database, config)


@app.command("migrate")
def migrate_command(ctx: typer.Context) -> None:
    """Create or upgrade the database schema (also done automatically on first use)."""
    ctx.obj.sessions  # noqa: B018 (opening the database applies the migrations)
    say(f"Database {ctx.obj.safe_url} is up to date.")


@app.command("import")
def import_command(
    ctx: typer.Context,
    paths: Annotated[
        list[Path],
        typer.Argument(
            help=", ".join(f.reads for f in EXPORT_FORMATS) + ".",
            exists=True,
        ),
    ],
    fmt: Annotated[
        str | None,
        typer.Option(
            "--format",
            help=f"Export format: {', '.join(FORMATS)} (detected when omitted).",
            callback=_export_format,
        ),
    ] = None,
) -> None:
    """Import chat exports; importing the same data again stores nothing twice."""
    report = _import(ctx.obj.sessions, paths, fmt)
    _print_report(report)
    if report.errors:
        raise typer.Exit(1)


def _import(sessions: sessionmaker[Session], paths: list[Path], fmt: str | None) -> ImportReport:
    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("files"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=err, transient=True, disable=not err.is_terminal) as progress:
        return import_paths(sessions, paths, export_formats(), fmt, progress)


def _print_report(report: ImportReport) -> None:
    """One line per skipped or failed file, then one saying what was imported."""
    for skipped in report.skipped:
        say(str(skipped), "skipped", "yellow")
    for error in report.errors:
        say(str(error), "failed", "bold red")
    failed = len(report.errors)
    failures = f"{counted(failed, 'file')} failed" if failed else ""
    if not report.files:
        say(f"Nothing was imported: {failures}." if failed else "Nothing was imported.")
        return
    c = report.counts
    imported = (
        f"Imported {counted(report.files, 'file')}: {counted(c.new, 'new message')}, "
        f"{c.updated} updated, {c.unchanged} unchanged"
    )
    say(
        f"{imported}; {failures} and {'was' if failed == 1 else 'were'} not imported."
        if failed
        else f"{imported}."
    )


@app.command("draft")
def draft_command(
    ctx: typer.Context,
    week: Annotated[
        str, typer.Option(help="Any day of the week to draft, as YYYY-MM-DD (weeks start Monday).")
    ],
    fmt: Annotated[OutputFormat, typer.Option("--format")] = OutputFormat.markdown,
    output: Annotated[
        Path | None, typer.Option(help="Write the draft to this file instead of stdout.")
    ] = None,
    workspace: Annotated[
        str | None, typer.Option(help="Workspace name or id, when several are stored.")
    ] = None,
    summarizer: Annotated[
        Summarizer | None,
        typer.Option(help="Which drafter writes the sections (default: the workspace's)."),
    ] = None,
) -> None:
    """Draft the summary of a week and store the draft."""
    day = parse_day(week)
    config = ctx.obj.config
    try:
        with ctx.obj.sessions() as session:
            found = resolve_workspace(session, workspace)
            settings = workspace_settings(session, config, found.id)
            chosen = summarizer.value if summarizer else None
            the_week = week_of(settings, found.id, found.name, day, chosen)
            logged = count_messages(session, found.id, (the_week.start, the_week.end))
        if not logged:
            say(
                f"no messages of {found.name} are stored for the week of {the_week.monday}; "
                "nothing was drafted or stored (import that week's export first)"
            )
            return
        draft = _draft(ctx.obj.sessions, config, the_week)
    except DraftingError as error:
        fail(str(error))
    emit(draft, fmt.value, output)


def _draft(
    sessions: sessionmaker[Session], config: Config, week: Week, *, offline: bool = False
) -> DraftSummary:
    """Draft `week` with the drafting service (GitHub and the LLM as the config and the week
    ask, unless `offline`), and read the stored draft back."""
    import asyncio

    from bot.ops.env import read_environment
    from bot.ops.run import LLMNotConfigured, github_for, llm_client_for

    github = llm = None
    if not offline:
        env = read_environment()
        github = github_for(env)
        if week.drafter == LLM:
            try:
                llm = llm_client_for(config, env)
            except LLMNotConfigured as error:
                fail(str(error))
    service = DraftingService(sessions, config, utcnow, github=github, llm=llm)
    drafted = asyncio.run(service.draft(week))
    if drafted.github is not None:
        for problem in sorted(set(drafted.github.unavailable.values())):
            say(problem, "GitHub")
    assert drafted.draft_id is not None  # drafted without `new_only`: always stored
    with sessions() as session:
        return as_summary(load_draft(session, drafted.draft_id), week.workspace_name)


drafts_app = typer.Typer(help="Look at and edit stored drafts.", no_args_is_help=True)
app.add_typer(drafts_app, name="drafts")
app.add_typer(settings_app, name="settings")
DRAFTS_HEADER = "ID\tWORKSPACE\tWEEK\tSTATUS\tSECTIONS\tAPPROVED BY"


@drafts_app.command("list")
def drafts_list(ctx: typer.Context) -> None:
    """Every stored draft: id, workspace, week, status, sections, who approved it."""
    ctx.obj.config  # noqa: B018 (a bad --config is an error here too)
    with ctx.obj.sessions.begin() as session:
        names = {w.id: w.name for w in find_workspaces(session)}
        rows = [
            f"{d.id}\t{names[d.workspace_id]}\t{d.week_start}\t{d.status}\t"
            f"{len(d.sections)}\t{d.approved_by or ''}"
            for d in list_drafts(session)
        ]
    if not rows:
        sys.stdout.write("No drafts stored.\n")
        return
    sys.stdout.write("".join(f"{row}\n" for row in [DRAFTS_HEADER, *rows]))


@drafts_app.command("show")
def drafts_show(
    ctx: typer.Context,
    draft_id: Annotated[int, typer.Argument(help="The draft's id (see `drafts list`).")],
    fmt: Annotated[OutputFormat, typer.Option("--format")] = OutputFormat.markdown,
) -> None:
    """A stored draft with its editors' changes."""
    with ctx.obj.sessions.begin() as session:
        draft = _stored(session, draft_id)
        workspace = session.get(Workspace, draft.workspace_id)
        summary = as_summary(draft, workspace.name)
        flags = [f"{s.title}: {flag}" for s in draft.sections for flag in s.flags]
    emit(summary, fmt.value, None)
    for flag in flags:
        say(flag, "needs a look")


@drafts_app.command("edit")
def drafts_edit(
    ctx: typer.Context,
    draft_id: Annotated[int, typer.Argument(help="The draft's id (see `drafts list`).")],
    section: Annotated[
        str,
        typer.Argument(help="The section: its number in the draft (1..n), or its topic or title."),
    ],
    by: Annotated[str, typer.Option(help="Who edits, as recorded on the revision.")],
    text: Annotated[str | None, typer.Option(help="The section's new text.")] = None,
    file: Annotated[
        Path | None,
        typer.Option(help="Read the new text from this file ('-' for stdin).", allow_dash=True),
    ] = None,
) -> None:
    """Replace a section's text, as an editor does in chat: a revision like any other, which
    approving publishes and `eval` measures."""
    if (text is None) == (file is None):
        fail("give the new text with --text TEXT or --file FILE (one of them)")
    if file is not None:
        text = _read_text(file)
    assert text is not None
    operator = Caller(OPERATOR_ID, by, is_admin=True)
    ref = SectionRef(int(section) if section.isdigit() else section, draft_id)
    with ctx.obj.sessions.begin() as session:
        # The operator acts on any workspace's draft: it is checked in its own workspace.
        workspace_id = _stored(session, draft_id).workspace_id
        edited = edit_draft_section(
            session, ctx.obj.config, workspace_id, operator, ref, text, utcnow()
        )
        if isinstance(edited, Reply):
            fail(edited.text)
        done = f"{section_label(edited)} updated (revision {len(edited.revisions)}) by {by}."
    say(done)


def _read_text(path: Path) -> str:
    """A file's text ('-': stdin), or a clear error."""
    if str(path) == "-":
        return sys.stdin.read()
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        fail(f"cannot read {path}: it is not UTF-8 text")
    except OSError as error:
        fail(f"cannot read {path}: {error.strerror or error}")


@app.command("approve")
def approve_command(
    ctx: typer.Context,
    draft_id: Annotated[int, typer.Argument(help="The draft's id (see `drafts list`).")],
    by: Annotated[str, typer.Option(help="Who approves, as recorded on the draft.")],
) -> None:
    """Approve a draft as an operator; publish it with `publish ID --to FILE`, or the
    running bot publishes it to the publish channels."""
    operator = Caller(OPERATOR_ID, by, is_admin=True)
    with ctx.obj.sessions.begin() as session:
        # The operator acts on any workspace's draft: it is checked in its own workspace.
        workspace_id = _stored(session, draft_id).workspace_id
        draft = approve_draft(
            session, ctx.obj.config, workspace_id, draft_id, operator, utcnow(), needs_channel=False
        )
        if isinstance(draft, Reply):
            fail(draft.text)
        week = draft.week_start
    say(
        f"Draft {draft_id} (week of {week}) approved by {by}. Publish it to a file with "
        f"`summarybot publish {draft_id} --to FILE`, or the running bot (`summarybot run`) "
        "posts it in the publish channels."
    )


@app.command("publish")
def publish_command(
    ctx: typer.Context,
    draft_id: Annotated[int, typer.Argument(help="The draft's id (see `drafts list`).")],
    to: Annotated[
        str | None,
        typer.Option(
            "--to",
            help="Publish to this file ('-' for stdout): the summary is recorded as published, "
            "no chat platform needed.",
        ),
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Print what would be posted, post nothing.")
    ] = False,
    limit: Annotated[
        int, typer.Option(help="The platform's message length limit.", min=100)
    ] = 2000,
) -> None:
    """Publish an approved draft to a file (--to), or show the messages publishing it in the
    publish channels would post (--dry-run)."""
    if (to is None) == (not dry_run):
        fail(
            "say where to publish: --to FILE (or - for stdout) publishes the Markdown, "
            "--dry-run shows what the running bot would post; the bot (`summarybot run`) "
            "publishes approved drafts in the publish channels"
        )
    if to is not None:
        _publish_to(ctx, draft_id, to)
        return
    with ctx.obj.sessions.begin() as session:
        draft = _stored(session, draft_id)
        channels = workspace_settings(session, ctx.obj.config, draft.workspace_id).publish_channels
        chunks = chunk(published_markdown(draft), limit)
    for channel in channels or ["(no publish channel set)"]:
        for position, text in enumerate(chunks, start=1):
            sys.stdout.write(f"--- {channel}, message {position} of {len(chunks)} ---\n{text}\n")


def _publish_to(ctx: typer.Context, draft_id: int, to: str) -> None:
    """Write an approved draft's published Markdown to `to` and record it as published (a
    draft already published is written again, as it was published)."""
    with ctx.obj.sessions.begin() as session:
        draft = _stored(session, draft_id)
        if draft.status not in LOCKED:
            fail(
                f"draft {draft_id} is {draft.status.words}; approve it first "
                f"(`summarybot approve {draft_id} --by NAME`)"
            )
        if blocking_flags(draft):
            fail("; ".join(blocking_flags(draft)) + ": edit these sections first")
        markdown = draft.published_markdown or published_markdown(draft)
        write(markdown, None if to == "-" else Path(to))
        mark_published(draft, markdown, utcnow())
        week = draft.week_start
    say(f"Draft {draft_id} (week of {week}) is published.")


@app.command("export")
def export_command(
    ctx: typer.Context,
    week: Annotated[str, typer.Option(help="Any day of the published week, as YYYY-MM-DD.")],
    output: Annotated[
        Path | None, typer.Option(help="Write the Markdown to this file instead of stdout.")
    ] = None,
    workspace: Annotated[
        str | None, typer.Option(help="Workspace name or id, when several are stored.")
    ] = None,
) -> None:
    """The Markdown of a published summary, exactly as it was published."""
    day = parse_day(week)
    try:
        with ctx.obj.sessions.begin() as session:
            found = resolve_workspace(session, workspace)
            draft = get_draft(session, found.id, week_start(day))
            text = draft.published_markdown if draft else None
    except DraftingError as error:
        fail(str(error))
    if text is None:
        state = draft.status.words if draft else "not drafted"
        fail(f"the week of {week_start(day)} is not published yet (it is {state})")
    write(text, output)


def _stored(session: Session, draft_id: int) -> DraftRow:
    draft = get_draft_by_id(session, draft_id)
    if draft is None:
        fail(f"there is no draft {draft_id}; `summarybot drafts list` shows them")
    return draft


@app.command("run")
def run_command(ctx: typer.Context) -> None:
    """Start the bot on the platforms whose tokens are in the environment, with the scheduler."""
    import asyncio

    from bot.ops.env import read_environment
    from bot.ops.logs import configure as configure_logging
    from bot.ops.run import NoPlatform, serve

    env = read_environment()
    configure_logging(env.summarybot_log_format)
    try:
        for platform in registered():
            platform.check(env)
    except ValueError as error:
        fail(str(error))
    try:
        sessions = ctx.obj.sessions
        asyncio.run(serve(ctx.obj.engine, sessions, ctx.obj.config, env))
    except NoPlatform as error:
        fail(str(error))
    except KeyboardInterrupt:
        say("Stopped.")


app.command("eval")(eval_command)
app.command("doctor")(doctor_command)

for _platform in registered():
    if _platform.cli is not None:
        app.add_typer(_platform.cli(), name=_platform.name)


@app.command("demo")
def demo_command(
    ctx: typer.Context,
    fmt: Annotated[OutputFormat, typer.Option("--format")] = OutputFormat.markdown,
) -> None:
    """Draft the sample week the package ships, in a throwaway database (no tokens, no network)."""
    config = ctx.obj.config
    with tempfile.TemporaryDirectory(prefix="summarybot-demo-") as tmp:
        demo = Context(f"sqlite:///{Path(tmp) / 'demo.db'}", ctx.obj.config_path)
        with as_file(files("bot.ops").joinpath("sample_week")) as sample:
            report = _import(demo.sessions, [Path(sample)], None)
        _print_report(report)
        if report.errors:
            raise typer.Exit(1)
        with demo.sessions() as session:
            workspace = resolve_workspace(session, None)
            settings = workspace_settings(session, config, workspace.id)
        week = week_of(settings, workspace.id, workspace.name, SAMPLE_WEEK, "extractive")
        draft = _draft(demo.sessions, config, week, offline=True)
        demo.close()
    emit(draft, fmt.value, None)
