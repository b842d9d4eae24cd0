"""Storing what export readers and live adapters read: messages, people, channels, PR refs.

Every platform's export reader (`Platform.exports`, `bot.core.platform`) describes itself as
an `ExportFormat`; `import_paths` finds the source files at the paths it is given, and each
source file is stored in a transaction of its own, so a bad file is rolled back whole while
the others still import. Every record passes `storage.normalise` on its way in; a file whose
records cannot be stored is refused whole, with one line naming it and the problem.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Protocol

from rich.progress import Progress
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from bot.core.known_rows import KnownRows
from bot.core.news import from_reactions
from storage import normalise
from storage.messages import (
    MessageToStore,
    StoreCounts,
    upsert_channel,
    upsert_messages,
    upsert_people,
    upsert_workspace,
)
from storage.privacy import forgotten_ids, remember_names
from storage.records import ImportBatch, MessageRecord, PersonRecord
from summarizer.prrefs import PRRef, parse_pr_refs

log = logging.getLogger(__name__)

# Messages stored per round of a streamed file: bounds memory whatever the file's size.
CHUNK_MESSAGES = 5_000
# A JSON file up to this size that is no export (or that breaks) is parsed again, to say
# where it breaks or that it is valid JSON of another shape.
REPARSE_BYTES = 32 * 1024 * 1024
_CONTROL = str.maketrans({c: " " for c in map(chr, [*range(32), 127])})


class ImportFileError(Exception):
    """A source file that cannot be imported, with the file's name and the problem in words.

    Both are kept on one line (control characters become spaces), so a report is one line
    per file whatever a file name or a parser says."""

    def __init__(self, source: str, problem: str) -> None:
        source, problem = source.translate(_CONTROL), problem.translate(_CONTROL)
        super().__init__(f"{source}: {problem}")
        self.source = source
        self.problem = problem


class SkippedFile(ImportFileError):
    """A file found in an export's folder that is not part of the export (valid JSON of
    another shape, such as a `provenance.json`): named in the report, not a failure."""


@dataclass(frozen=True, slots=True)
class Skipped:
    """The source for such a file: reading it says why it was left out."""

    name: str
    why: str

    def read(self) -> ImportBatch:
        raise SkippedFile(self.name, self.why)


class ImportSource(Protocol):
    """One file of an export, parsed on demand."""

    @property
    def name(self) -> str: ...

    def read(self) -> ImportBatch: ...


@dataclass(frozen=True, slots=True)
class ExportFormat:
    """A platform's export reader: its name (`--format`), whether a path holds its export,
    and the source files found there."""

    name: str
    looks_like: Callable[[Path], bool]
    open_sources: Callable[[Path], Sequence[ImportSource]]
    # What its export looks like, for a path given with `--format` that is not one.
    expects: str = ""
    # The paths it reads, for `summarybot import --help`.
    reads: str = ""


def json_problem(error: json.JSONDecodeError) -> str:
    """A JSON parse error in words: where, then what. json's messages that end in "at"
    ("Unterminated string starting at") point to that position, so the "at" goes."""
    what = error.msg.removesuffix(" at")
    return f"not valid JSON (line {error.lineno}, column {error.colno}): {what}"


def json_file_problem(path: Path) -> str | None:
    """Where the file at `path` breaks as JSON, in words that quote none of it; None when it
    is valid JSON. Raises `OSError` when it cannot be read."""
    try:
        with path.open("rb") as stream:
            json.load(stream)
    except json.JSONDecodeError as error:
        return json_problem(error)
    except UnicodeDecodeError:
        return "not valid JSON: the file is not UTF-8 text"
    except RecursionError:
        return "not valid JSON: nested too deeply"
    except ValueError:
        return "not valid JSON: a number too long to read"
    return None


def detect_format(path: Path, formats: Sequence[ExportFormat]) -> ExportFormat:
    """The first of `formats` whose export `path` holds, or `ImportFileError` saying why not."""
    for fmt in formats:
        if fmt.looks_like(path):
            return fmt
    raise ImportFileError(str(path), _not_an_export(path, formats))


def _not_an_export(path: Path, formats: Sequence[ExportFormat]) -> str:
    """Why `path` is no export: a JSON file is broken JSON, or valid JSON of another shape."""
    expected = f"expected {' or '.join(fmt.reads for fmt in formats)}"
    unknown = f"not a recognised export ({expected})"
    if not (path.is_file() and path.suffix.lower() == ".json"):
        return unknown
    try:
        if path.stat().st_size > REPARSE_BYTES:
            return unknown
        problem = json_file_problem(path)
    except OSError as error:
        return f"cannot read the file: {error.strerror or error}"
    return problem or f"valid JSON, but not an export ({expected})"


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
            if known.expects and not known.looks_like(path):
                raise ImportFileError(str(path), f"not a {fmt}: {known.expects}")
            return list(known.open_sources(path))
    names = ", ".join(f.name for f in formats)
    raise ImportFileError(str(path), f"unknown format {fmt!r}; use one of {names}")


@dataclass(slots=True)
class ImportReport:
    """What an import did, and which files failed and why."""

    files: int = 0
    counts: StoreCounts = field(default_factory=StoreCounts)
    errors: list[ImportFileError] = field(default_factory=list)
    skipped: list[SkippedFile] = field(default_factory=list)


def store_batch(
    session: Session,
    batch: ImportBatch,
    workspace_id: int | None = None,
    *,
    strict: bool = False,
    written: dict[str, bool] | None = None,
    known: KnownRows | None = None,
) -> StoreCounts:
    """Store one source's workspace (unless its id is given), channel, people and messages
    with their PR refs, `CHUNK_MESSAGES` at a time (an export's messages may be streamed).

    Every record is normalised first (`storage.normalise`). A message that cannot be stored
    fails the whole batch with `ImportFileError` when `strict` (imports), and is left out
    with a warning otherwise (live events). Messages of members who opted out are not
    stored; the names they post under are remembered, so drafts never name them.
    `written`, when given, receives each stored message's platform id (`upsert_messages`).
    `known`, when given, holds the channel and people rows already stored (live stores):
    only records that differ from them are upserted. A news reaction on a message (where
    the platform says who added it) sends the message in as news (`bot.core.news`).
    """
    try:
        workspace = normalise.workspace_record(batch.workspace)
        channel = normalise.channel_record(batch.channel)
    except normalise.RecordError as error:
        raise ImportFileError(batch.source, str(error)) from None
    if workspace_id is None:
        workspace_id = upsert_workspace(session, workspace)
    channel_id = known.channel(workspace_id, channel) if known else None
    if channel_id is None:
        channel_id = upsert_channel(session, workspace_id, channel)
        if known:
            known.learn_channel(session, workspace_id, channel, channel_id)
    forgotten = forgotten_ids(session, workspace_id)
    counts = StoreCounts()
    messages = _normalised(batch.source, batch.messages, strict)
    while chunk := list(islice(messages, CHUNK_MESSAGES)):
        remember_names(
            session,
            workspace_id,
            {m.author.display_name for m in chunk if m.author.platform_id in forgotten},
        )
        kept = [m for m in chunk if m.author.platform_id not in forgotten]
        author_ids = _store_people(session, workspace_id, [m.author for m in kept], known)
        to_store = [MessageToStore(m, _refs(m.text)) for m in kept]
        counts.add(
            upsert_messages(session, workspace_id, channel_id, to_store, author_ids, written)
        )
        if any(m.reactions for m in kept):
            from_reactions(session, workspace_id, kept, forgotten)
    return counts


def _store_people(
    session: Session, workspace_id: int, people: list[PersonRecord], known: KnownRows | None
) -> dict[str, int]:
    """Ids of the people, upserting those not `known` to be stored as they are."""
    if known is None:
        return upsert_people(session, workspace_id, people)
    ids, unknown = known.people(workspace_id, list({p.platform_id: p for p in people}.values()))
    if unknown:
        stored = upsert_people(session, workspace_id, unknown)
        known.learn_people(session, workspace_id, unknown, stored)
        ids.update(stored)
    return ids


def _normalised(
    source: str, messages: Iterable[MessageRecord], strict: bool
) -> Iterator[MessageRecord]:
    people: dict[PersonRecord, PersonRecord] = {}  # each author is normalised once
    for number, message in enumerate(messages, start=1):
        try:
            yield normalise.message_record(message, people)
        except normalise.RecordError as error:
            if strict:
                raise ImportFileError(source, f"message {number}: {error}") from None
            log.warning("%s: message %s not stored: %s", source, number, error)


def _refs(text: str) -> list[PRRef]:
    """The PR refs of a message that fit their columns."""
    return [r for r in parse_pr_refs(text) if normalise.fits_ref(r.repo, r.number, r.raw)]


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
    with sessions() as session:  # one session, one transaction per file
        for source in sources:
            _import_source(session, source, report)
            if progress is not None and task is not None:
                progress.advance(task)
    return report


def _import_source(session: Session, source: ImportSource, report: ImportReport) -> None:
    """Store one source file in a transaction of its own; a failure is reported, not raised."""
    try:
        with session.begin():
            report.counts.add(store_batch(session, source.read(), strict=True))
        report.files += 1
    except SkippedFile as skipped:
        report.skipped.append(skipped)
    except ImportFileError as error:
        report.errors.append(error)
    except Exception as error:  # noqa: BLE001 (one bad file never stops the others)
        report.errors.append(ImportFileError(source.name, _problem(error)))


def _problem(error: Exception) -> str:
    """An unexpected failure in words that never echo a statement or its (message) values."""
    if isinstance(error, SQLAlchemyError):
        cause = getattr(error, "orig", None) or error
        return f"the database refused it ({type(cause).__name__}); nothing of it was stored"
    if isinstance(error, MemoryError):
        return "too large to import (out of memory); nothing of it was stored"
    return f"could not be imported ({type(error).__name__}); nothing of it was stored"
