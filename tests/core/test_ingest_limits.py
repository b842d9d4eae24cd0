"""What ingest does with records that do not fit: normalised the same way for exports and
live events, refused in one line that never quotes message text, and never an aborted import."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from typer.testing import CliRunner

import bot.core.ingest
from bot.core.ingest import ImportFileError, import_paths, store_batch
from bot.ops.cli import app
from bot.ops.formats import EXPORT_FORMATS
from bot.slack.messages import parse_ts
from storage.models import Message, Person
from storage.normalise import INT32_MAX, TEXT_MAX, TRUNCATED
from storage.records import ChannelRecord, ImportBatch, MessageRecord, PersonRecord, WorkspaceRecord
from tests.hostile.corpus import SECRET, dce_document, dce_message

WORKSPACE = WorkspaceRecord("slack", "T1", "Lab")
GENERAL = ChannelRecord("C1", "general")
ANA = PersonRecord("U1", "Ana\x00 Ruiz")
T0 = datetime(2026, 11, 17, 9, tzinfo=UTC)


def test_a_huge_message_is_stored_capped(sessions) -> None:
    huge = MessageRecord("1.1", ANA, T0, "x" * 5_000_000, reaction_count=2**40)
    with sessions.begin() as session:
        store_batch(session, ImportBatch("live", WORKSPACE, GENERAL, [huge]))
    with sessions() as session:
        stored = session.scalars(select(Message)).one()
        name = session.scalars(select(Person.display_name)).one()
    assert len(stored.text) == TEXT_MAX and stored.text.endswith(TRUNCATED)
    assert stored.reaction_count == INT32_MAX
    assert name == "Ana Ruiz"


def test_a_live_message_that_cannot_be_stored_is_left_out(sessions, caplog) -> None:
    ancient = MessageRecord("1.1", ANA, datetime(1, 1, 1, tzinfo=UTC), f"old {SECRET}")
    fine = MessageRecord("1.2", ANA, T0, "fine")
    with sessions.begin() as session:
        store_batch(session, ImportBatch("live", WORKSPACE, GENERAL, [ancient, fine]))
    with sessions() as session:
        assert list(session.scalars(select(Message.platform_id))) == ["1.2"]
    assert "message 1 not stored: the timestamp is in the year 1" in caplog.text
    assert SECRET not in caplog.text


def _dce_file(path: Path, text: str, mid: str = "1") -> Path:
    path.write_text(json.dumps(dce_document([dce_message(mid, text)])), encoding="utf-8")
    return path


def test_a_database_error_names_the_file_and_never_echoes_the_statement(
    sessions, tmp_path, monkeypatch
) -> None:
    first = _dce_file(tmp_path / "a.json", f"one {SECRET}")
    second = _dce_file(tmp_path / "b.json", "two", mid="2")
    real = bot.core.ingest.upsert_messages

    def failing(session, workspace_id, channel_id, messages, author_ids, *rest):  # noqa: ANN001, ANN002, ANN202
        if messages[0].record.text.startswith("one"):
            raise IntegrityError("INSERT INTO messages ...", {"text": SECRET}, Exception(SECRET))
        return real(session, workspace_id, channel_id, messages, author_ids, *rest)

    monkeypatch.setattr(bot.core.ingest, "upsert_messages", failing)
    report = import_paths(sessions, [first, second], EXPORT_FORMATS)
    assert report.files == 1
    (error,) = report.errors
    assert error.source == str(first)
    assert error.problem == "the database refused it (Exception); nothing of it was stored"
    assert SECRET not in str(error)


def test_an_import_error_is_one_line() -> None:
    error = ImportFileError("odd\nname.json", "bad\r\nthing")
    assert str(error) == "odd name.json: bad  thing"


def test_the_command_line_reports_each_bad_file_on_one_line(tmp_path) -> None:
    good = _dce_file(tmp_path / "good.json", "fine")
    nul = _dce_file(tmp_path / "nul.json", f"a\x00b {SECRET}", mid="2")
    late = tmp_path / "late.json"
    late.write_text(json.dumps(dce_document([dce_message("3", timestamp="0001-01-01T00:00Z")])))
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    result = CliRunner().invoke(app, ["--database", url, "import", str(late), str(nul), str(good)])
    assert result.exit_code == 1
    failed = [line for line in result.output.splitlines() if line.startswith("failed:")]
    assert failed == [
        f"failed: {late}: message 1: the timestamp is in the year 1 (accepted: 2000 to 2099)"
    ]
    assert "Imported 2 files: 2 new messages, 0 updated, 0 unchanged; 1 file failed" in (
        result.output
    )
    assert SECRET not in result.output


@pytest.mark.parametrize(
    "ts",
    ["1" * 5000, "-5", "1e9", 10**5000, float("nan")],
    ids=["5000-digits", "negative", "exponent", "huge-int", "nan"],
)
def test_slack_timestamps_that_are_not_are_refused_cleanly(ts) -> None:
    assert parse_ts(ts) is None
