"""What the command line's commands share: the error console, failing with one clear line,
reading a `--week` day, and writing a draft or a text to stdout or a file.

Messages name files, channels and chat text, so they are printed as plain text: never read
as rich markup (`[general]` in a file name is kept, a stray `[/]` cannot break a report) nor
emoji codes. Only the label in front of a line is styled."""

from __future__ import annotations

import json
import sys
from datetime import date
from pathlib import Path
from typing import NoReturn

import typer
from rich.console import Console
from rich.text import Text

from summarizer.render import to_json, to_markdown
from summarizer.types import DraftSummary

# Error lines name paths: never break them.
err = Console(stderr=True, soft_wrap=True, markup=False, emoji=False, highlight=False)


def say(message: str, label: str = "", style: str = "yellow") -> None:
    """One line on stderr: `label:` in `style` when given, then `message` as plain text."""
    line = Text()
    if label:
        line.append(f"{label}:", style=style)
        line.append(" ")
    line.append(message)
    err.print(line)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print one clear error line and stop with `code`."""
    say(message, "error", "bold red")
    raise typer.Exit(code)


def parse_day(value: str) -> date:
    """A `--week` value: any day of the week, as YYYY-MM-DD."""
    try:
        return date.fromisoformat(value)
    except ValueError:
        fail(f"--week {value!r} is not a date; use YYYY-MM-DD, e.g. 2026-11-16")


def emit(draft: DraftSummary, fmt: str, output: Path | None) -> None:
    """The draft as Markdown, or as the JSON of the CLI's contract (`fmt` "json"), whose notes
    and warnings go to stderr (the contract has no place for them)."""
    if fmt == "json":
        text = json.dumps(to_json(draft), indent=2, ensure_ascii=False) + "\n"
        for note in draft.notes:
            say(note, "note")
        for section in draft.sections:
            for warning in section.warnings:
                say(warning, section.title)
    else:
        text = to_markdown(draft)
    write(text, output)


def write(text: str, output: Path | None) -> None:
    """`text` to stdout, or to the file `output`."""
    if output is None:
        sys.stdout.write(text)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as error:
        fail(f"cannot write {output}: {error}")
    say(f"Written to {output}.")
