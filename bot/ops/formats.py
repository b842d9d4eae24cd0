"""The export formats `summarybot import` reads: each registered platform's readers
(`bot.platforms`), in the order they are tried when the format is not given."""

from __future__ import annotations

from pathlib import Path

from bot.core.ingest import ExportFormat, ImportSource
from bot.core.ingest import detect_format as _detect
from bot.core.ingest import open_sources as _open
from bot.platforms import registered


def export_formats() -> tuple[ExportFormat, ...]:
    """Every registered platform's export readers."""
    return tuple(fmt for platform in registered() for fmt in platform.exports)


EXPORT_FORMATS = export_formats()
FORMATS = tuple(sorted(f.name for f in EXPORT_FORMATS))


def detect_format(path: Path) -> str:
    """The name of the export format `path` holds (`ImportFileError` if none)."""
    return _detect(path, export_formats()).name


def open_sources(path: Path, fmt: str | None = None) -> list[ImportSource]:
    """The source files at `path` in the given (or detected) format, in a stable order."""
    return _open(path, export_formats(), fmt)
