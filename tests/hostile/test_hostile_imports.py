"""Every hostile export file, imported next to a good one on SQLite and PostgreSQL: the good
file's messages are stored, the hostile one is refused in one line naming it (never quoting
message text) or stored normalised, and nothing stored before is lost.

The assertion message carries the figures: how many hostile files were tried and held.
"""

from __future__ import annotations

import json
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from bot.core.ingest import ImportReport, import_paths
from bot.ops.formats import EXPORT_FORMATS
from storage.models import Channel, Message, Person
from storage.normalise import ID_MAX, INT32_MAX, NAME_MAX, TEXT_MAX
from tests.hostile.corpus import SECRET, cases, dce_document, dce_message


def _good_file(folder: Path, number: int) -> tuple[Path, dict[str, str]]:
    """A good DCE file of its own channel; its messages' ids and texts."""
    texts = {f"{number}0000{k}": f"good message {k} of file {number}" for k in (1, 2)}
    channel = {"id": f"7{number:03d}", "type": "GuildTextChat", "name": f"good-{number}"}
    document = dce_document(
        [dce_message(mid, text, author={"id": "1", "name": "ana"}) for mid, text in texts.items()],
        channel=channel | {"categoryId": None, "category": None},
    )
    path = folder / f"good-{number}.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path, texts


def _stored(sessions: sessionmaker[Session]) -> dict[str, str]:
    with sessions() as session:
        return {
            pid: text for pid, text in session.execute(select(Message.platform_id, Message.text))
        }


def _unfit_rows(sessions: sessionmaker[Session]) -> list[str]:
    """Stored values that normalising should have made impossible."""
    bad = []
    with sessions() as session:
        for m in session.scalars(select(Message)):
            text_ok = "\x00" not in m.text and len(m.text) <= TEXT_MAX
            counts_ok = 0 <= m.reaction_count <= INT32_MAX and 0 <= m.reply_count <= INT32_MAX
            if not (text_ok and counts_ok and len(m.platform_id) <= ID_MAX):
                bad.append(f"message {m.platform_id[:20]}")
            if any(0xD800 <= ord(c) <= 0xDFFF for c in m.text):
                bad.append(f"surrogate in message {m.platform_id[:20]}")
        names = [
            *session.scalars(select(Person.display_name)),
            *session.scalars(select(Channel.name)),
        ]
        bad += [f"name {n[:20]!r}" for n in names if "\x00" in n or len(n) > NAME_MAX]
    return bad


def _judge(
    report: ImportReport,
    hostile: Path,
    good: Path,
    before: dict[str, str],
    kept: dict[str, str],
    after: dict[str, str],
    unfit: list[str],
) -> str | None:
    """Why this case was not held, or None."""
    lines = [str(e) for e in report.errors]
    if any(good.name in e.source for e in report.errors):
        return f"the good file failed: {lines}"
    if any(after.get(mid) != text for mid, text in kept.items()):
        return "a good message was lost or changed"
    if any(("\n" in line or "\r" in line) for line in lines):
        return f"an error spans lines: {lines!r}"
    if any(SECRET in line for line in lines):
        return "an error quotes message text"
    if report.errors:
        if not all(hostile.name in e.source for e in report.errors):
            return f"an error does not name the file: {lines}"
        new = set(after) - set(before) - set(kept)
        if new:
            return f"refused, yet {len(new)} of its messages were stored"
        return None
    return f"stored unfit values: {unfit}" if unfit else None


def test_hostile_files_are_refused_or_stored_normalised(
    sessions: sessionmaker[Session], database_url: str, tmp_path: Path
) -> None:
    database = database_url.split(":", 1)[0].split("+", 1)[0]
    baseline, kept = _good_file(tmp_path, 0)
    assert not import_paths(sessions, [baseline], EXPORT_FORMATS).errors
    failures: dict[str, str] = {}
    refused = 0
    all_cases = cases()
    for number, case in enumerate(all_cases, start=1):
        folder = tmp_path / case.name
        folder.mkdir()
        hostile = case.write(folder)
        good, texts = _good_file(folder, number)
        before = _stored(sessions)
        report = import_paths(sessions, [hostile, good], EXPORT_FORMATS)
        kept |= texts
        after = _stored(sessions)
        verdict = _judge(report, hostile, good, before, kept, after, _unfit_rows(sessions))
        refused += bool(report.errors)
        if verdict is not None:
            failures[case.name] = verdict
    tried = len(all_cases)
    held = tried - len(failures)
    summary = (
        f"{database}: {held} of {tried} hostile files held "
        f"({refused} refused in one line, {tried - refused} stored normalised)"
    )
    print(summary)
    assert not failures, f"{summary}; not held: {failures}"
    assert tried >= 40
