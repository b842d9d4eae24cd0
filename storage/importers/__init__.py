"""Readers for chat exports: DiscordChatExporter JSON and Slack workspace exports.

`open_sources(path)` lists the source files found at a path; each source's `read()` parses
one file into an `ImportBatch`. A file that cannot be read raises `ImportFileError` naming it,
so the caller can roll that file back and go on with the others.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from storage.records import ImportBatch

FORMATS = ("discord-export", "slack-export")


class ImportFileError(Exception):
    """A source file that cannot be imported, with the file's name and the problem in words."""

    def __init__(self, source: str, problem: str) -> None:
        super().__init__(f"{source}: {problem}")
        self.source = source
        self.problem = problem


class ImportSource(Protocol):
    """One file of an export, parsed on demand."""

    name: str

    def read(self) -> ImportBatch: ...


def detect_format(path: Path) -> str:
    """Tell which export format `path` holds, or raise `ImportFileError` saying why not."""
    from storage.importers import discord_export, slack_export

    if slack_export.looks_like(path):
        return "slack-export"
    if discord_export.looks_like(path):
        return "discord-export"
    raise ImportFileError(
        str(path),
        "not a recognised export (expected DiscordChatExporter JSON, or a Slack export "
        "ZIP or folder with channels.json)",
    )


def open_sources(path: Path, fmt: str | None = None) -> list[ImportSource]:
    """The source files at `path` in the given (or detected) format, in a stable order."""
    from storage.importers import discord_export, slack_export

    if not path.exists():
        raise ImportFileError(str(path), "no such file or folder")
    fmt = fmt or detect_format(path)
    if fmt == "discord-export":
        return discord_export.open_sources(path)
    if fmt == "slack-export":
        return slack_export.open_sources(path)
    raise ImportFileError(str(path), f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
