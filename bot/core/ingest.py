"""Storing what export readers and live adapters read: messages, people, channels, PR refs.

Every platform's export reader (`bot.slack.export`, `bot.discord.export`) describes itself as
an `ExportFormat`; `import_paths` finds the source files at the paths it is given, and each
source file is stored in a transaction of its own, so a bad file is rolled back whole while
the others still import.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from rich.progress import Progress
from sqlalchemy.orm import Session, sessionmaker

from storage.messages import (
    MessageToStore,
    StoreCounts,
    upsert_channel,
    upsert_messages,
    upsert_people,
    upsert_workspace,
)
from storage.privacy import forgotten_ids
from storage.records import ImportBatch
from summarizer.prrefs import parse_pr_refs


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


@dataclass(frozen=True, slots=True)
class ExportFormat:
    """A platform's export reader: its name (`--format`), whether a path holds its export,
    and the source files found there."""

    name: str
    looks_like: Callable[[Path], bool]
    open_sources: Callable[[Path], Sequence[ImportSource]]


def detect_format(path: Path, formats: Sequence[ExportFormat]) -> ExportFormat:
    """The first of `formats` whose export `path` holds, or `ImportFileError` saying why not."""
    for fmt in formats:
        if fmt.looks_like(path):
            return fmt
    raise ImportFileError(
        str(path),
        "not a recognised export (expected DiscordChatExporter JSON, or a Slack export "
        "ZIP or folder with channels.json)",
    )


def open_sources(
    path: Path, formats: Sequence[ExportFormat], fmt: str | None = None
) -> list[ImportSource]:
    """The source files at `path` in the format named `fmt` (detected when None)."""
    if not path.exists():
        raise ImportFileError(str(path), "no such file or folder")
    if fmt is None:
        return list(detect_format(path, formats).open_sources(path))
    for known in formats:
        if known.name == fmt:
            return list(known.open_sources(path))
    names = ", ".join(f.name for f in formats)
    raise ImportFileError(str(path), f"unknown format {fmt!r}; use one of {names}")


@dataclass(slots=True)
class ImportReport:
    """What an import did, and which files failed and why."""

    files: int = 0
    counts: StoreCounts = field(default_factory=StoreCounts)
    errors: list[ImportFileError] = field(default_factory=list)


def store_batch(
    session: Session, batch: ImportBatch, workspace_id: int | None = None
) -> StoreCounts:
    """Store one source's workspace (unless its id is given), channel, people and messages
    with their PR refs. Messages of members who opted out are not stored."""
    if workspace_id is None:
        workspace_id = upsert_workspace(session, batch.workspace)
    channel_id = upsert_channel(session, workspace_id, batch.channel)
    forgotten = forgotten_ids(session, workspace_id)
    messages = [m for m in batch.messages if m.author.platform_id not in forgotten]
    author_ids = upsert_people(session, workspace_id, (m.author for m in messages))
    to_store = [MessageToStore(m, parse_pr_refs(m.text)) for m in messages]
    return upsert_messages(session, workspace_id, channel_id, to_store, author_ids)


def import_paths(
    sessions: sessionmaker[Session],
    paths: Sequence[Path],
    formats: Sequence[ExportFormat],
    fmt: str | None = None,
    progress: Progress | None = None,
) -> ImportReport:
    """Import every source file found at `paths` (read by one of `formats`); failures are
    reported, not raised."""
    report = ImportReport()
    sources: list[ImportSource] = []
    for path in paths:
        try:
            sources.extend(open_sources(path, formats, fmt))
        except ImportFileError as error:
            report.errors.append(error)
    task = progress.add_task("Importing", total=len(sources)) if progress else None
    for source in sources:
        try:
            with sessions.begin() as session:
                report.counts.add(store_batch(session, source.read()))
            report.files += 1
        except ImportFileError as error:
            report.errors.append(error)
        if progress is not None and task is not None:
            progress.advance(task)
    return report
