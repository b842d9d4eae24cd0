"""The export formats `summarybot import` reads: each platform adapter's reader, in the order
they are tried when the format is not given."""

from __future__ import annotations

from pathlib import Path

from bot.core.ingest import ExportFormat, ImportSource
from bot.core.ingest import detect_format as _detect
from bot.core.ingest import open_sources as _open
from bot.discord.export import FORMAT as DISCORD_EXPORT
from bot.slack.export import FORMAT as SLACK_EXPORT

EXPORT_FORMATS: tuple[ExportFormat, ...] = (SLACK_EXPORT, DISCORD_EXPORT)
FORMATS = tuple(sorted(f.name for f in EXPORT_FORMATS))


def detect_format(path: Path) -> str:
    """The name of the export format `path` holds (`ImportFileError` if none)."""
    return _detect(path, EXPORT_FORMATS).name


def open_sources(path: Path, fmt: str | None = None) -> list[ImportSource]:
    """The source files at `path` in the given (or detected) format, in a stable order."""
    return _open(path, EXPORT_FORMATS, fmt)
