"""`summarybot eval`: how close a week's draft came to the summary that was published.

Registered on the app by bot/ops/cli.py: ``app.command("eval")(eval_command)``.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from sqlalchemy import select
from sqlalchemy.orm import Session

from bot.core.settings import workspace_settings
from bot.drafting.compose import DraftingError, resolve_workspace
from bot.drafting.store import as_summary
from bot.drafting.week import week_start
from bot.ops.console import fail, parse_day, say
from storage.drafts import get_draft
from storage.models import DraftRow, Person
from summarizer.evaluate import evaluate, report
from summarizer.render import to_markdown


def eval_command(
    ctx: typer.Context,
    week: Annotated[
        str,
        typer.Option(help="Any day of the week to evaluate, as YYYY-MM-DD (weeks start Monday)."),
    ],
    reference: Annotated[
        Path | None,
        typer.Option(
            help="Markdown to compare the draft with (default: the week's published summary)."
        ),
    ] = None,
    workspace: Annotated[
        str | None, typer.Option(help="Workspace name or id, when several are stored.")
    ] = None,
    draft_file: Annotated[
        Path | None,
        typer.Option(
            "--draft-file", help="Evaluate this Markdown file instead of the week's stored draft."
        ),
    ] = None,
) -> None:
    """Compare a week's draft, as the drafter wrote it, with the published summary (its
    editors' work included): recall of PRs, people and figures, PR placement, and how much
    each section was changed."""
    day = parse_day(week)
    monday = week_start(day)
    draft_text = _read(draft_file, "draft") if draft_file else None
    reference_text = _read(reference, "reference") if reference else None
    config = ctx.obj.config
    people: list[str] = []
    bots: list[str] = []
    default_repo = config.default_repo
    topics: dict[str, str] = {t.title: t.id for t in config.topic_list}
    try:
        with ctx.obj.sessions.begin() as session:
            found = resolve_workspace(session, workspace)
            settings = workspace_settings(session, config, found.id)
            default_repo = settings.default_repo
            topics = {t.title: t.id for t in settings.topic_list}
            people = _people(session, found.id)
            bots = _people(session, found.id, bots=True)
            stored = get_draft(session, found.id, monday)
            if stored is not None:
                topics |= {s.title: s.topic for s in stored.sections}
            if draft_text is None or reference_text is None:
                if stored is None:
                    _no_draft(monday, need_reference=draft_text is not None)
                if draft_text is None:
                    draft_text = _summary_text(stored, found.name)
                if reference_text is None:
                    if stored.published_markdown is None:
                        state = stored.status.words
                        fail(
                            f"the week of {monday} is not published yet (it is {state}); "
                            "pass --reference FILE with the text to compare the draft with"
                        )
                    reference_text = stored.published_markdown
    except DraftingError as error:
        if workspace is not None or draft_text is None or reference_text is None:
            fail(str(error))
        # Two files need no stored week; only the workspace's names and settings are missing.
        say(f"{error}; comparing the two files without them", "note")
    evaluation = evaluate(
        draft_text,
        reference_text,
        people=people,
        default_repo=default_repo or None,
        repo_aliases=config.repos,
        topics=topics,
        bots=bots,
    )
    sys.stdout.write(report(evaluation))


def _summary_text(stored: DraftRow, workspace_name: str) -> str:
    """The draft as the drafter wrote it, before its editors' changes (those are what the
    published summary adds: comparing the edited text with it would find no difference),
    without the notes for the editors: those are not part of the summary (and name PRs,
    people and figures, e.g. what a grounding check removed)."""
    summary = as_summary(stored, workspace_name)
    sections = [
        replace(section, markdown=row.drafted_markdown or row.markdown, warnings=[])
        for section, row in zip(summary.sections, stored.sections, strict=True)
    ]
    return to_markdown(replace(summary, sections=sections, notes=[]))


def _people(session: Session, workspace_id: int, *, bots: bool = False) -> list[str]:
    """The display names of the workspace's members who did not opt out, or of its bots."""
    rows = session.scalars(
        select(Person.display_name)
        .where(
            Person.workspace_id == workspace_id,
            Person.is_bot.is_(bots),
            Person.forgotten_at.is_(None),
            Person.display_name != "",
        )
        .order_by(Person.id)
    )
    return list(dict.fromkeys(rows))


def _read(path: Path, what: str) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        fail(f"cannot read the {what} {path}: it is not UTF-8 text")
    except OSError as error:
        fail(f"cannot read the {what} {path}: {error.strerror or error}")


def _no_draft(monday: date, *, need_reference: bool) -> NoReturn:
    if need_reference:
        fail(
            f"the week of {monday} has no stored draft, so no published summary either; "
            "pass --reference FILE with the text to compare the draft with"
        )
    fail(
        f"there is no draft of the week of {monday}; make one with "
        f"`summarybot draft --week {monday}`, or pass --draft-file FILE"
    )
