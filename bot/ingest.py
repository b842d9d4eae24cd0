"""Storing what importers and platform adapters read: messages, people, channels, PR refs.

Each source file is stored in a transaction of its own, so a bad file is rolled back whole while
the others still import.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rich.progress import Progress
from sqlalchemy.orm import Session, sessionmaker

from storage.importers import ImportFileError, ImportSource, open_sources
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
    fmt: str | None = None,
    progress: Progress | None = None,
) -> ImportReport:
    """Import every source file found at `paths`; failures are reported, not raised."""
    report = ImportReport()
    sources: list[ImportSource] = []
    for path in paths:
        try:
            sources.extend(open_sources(path, fmt))
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
