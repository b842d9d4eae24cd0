"""JSON nested deeper than any export is refused before it is parsed: a DiscordChatExporter
file nested 20,000 deep once took 1 GB to stream. The refusal is one line naming the file
(a ZIP member by its path in the ZIP), nothing of it is stored, and the other files of the
same import are. How the depth is told (`bot.core.json_depth`) is checked against `json`
on documents cut into chunks anywhere, escapes and brackets inside strings included. Its
memory is measured in benchmarks/bench_hostile_text.py, not here."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from bot.core.ingest import import_paths
from bot.core.json_depth import MAX_DEPTH, too_deep
from bot.ops.formats import EXPORT_FORMATS
from storage.models import Message
from tests.hostile.corpus import dce_document, dce_message, slack_message

DEEP = 20_000
REFUSED = f"nested more than {MAX_DEPTH} levels deep"


def _nested(depth: int, inner: object = 1) -> object:
    value = inner
    for level in range(depth):
        value = [value] if level % 2 else {"k": value}
    return value


def _depth(value: object) -> int:
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    return 0


_STRINGS = st.text(alphabet='ab"\\[]{}\n\u00e9', max_size=8)
_JSON = st.recursive(
    st.none() | st.integers() | _STRINGS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_STRINGS, inner, max_size=3),
    max_leaves=40,
)


@settings(max_examples=300)
@given(_JSON, st.integers(min_value=1, max_value=9), st.booleans())
def test_the_depth_is_told_as_json_reads_it_in_chunks_of_any_size(
    value: object, size: int, ascii_only: bool
) -> None:
    data = json.dumps(value, ensure_ascii=ascii_only).encode()
    chunks = [data[i : i + size] for i in range(0, len(data), size)]
    depth = _depth(value)
    assert not too_deep(chunks, limit=depth)
    assert depth == 0 or too_deep(chunks, limit=depth - 1)


def test_brackets_in_strings_do_not_count() -> None:
    text = json.dumps({"content": "[" * 1000 + '\\"{' * 1000}).encode()
    assert not too_deep([text])
    assert too_deep([json.dumps(_nested(MAX_DEPTH + 1)).encode()])
    assert not too_deep([json.dumps(_nested(MAX_DEPTH)).encode()])


def _good_dce(folder: Path) -> Path:
    path = folder / "good.json"
    document = dce_document([dce_message("8001", "a good message")])
    document["channel"] = document["channel"] | {"id": "777", "name": "good"}
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def _stored(sessions: sessionmaker[Session]) -> set[str]:
    with sessions() as session:
        return set(session.scalars(select(Message.text)))


def test_a_deeply_nested_discord_file_is_refused_and_the_others_imported(
    sessions: sessionmaker[Session], tmp_path: Path
) -> None:
    deep = tmp_path / "deep.json"
    document = dce_document([dce_message("8002", "from the deep file"), "DEEP"])
    inner = "[" * DEEP + "1" + "]" * DEEP
    deep.write_text(json.dumps(document).replace('"DEEP"', inner), encoding="utf-8")
    good = _good_dce(tmp_path)
    report = import_paths(sessions, [deep, good], EXPORT_FORMATS)
    (error,) = report.errors
    assert error.source == str(deep) and REFUSED in str(error) and "\n" not in str(error)
    assert report.files == 1
    assert _stored(sessions) == {"a good message"}


def test_deeply_nested_slack_files_are_refused_by_name_and_the_others_imported(
    sessions: sessionmaker[Session], tmp_path: Path
) -> None:
    export = tmp_path / "export.zip"
    deep_day = b'[{"type": "message", "text": "from the deep day", "ts": "1763373600.000200", '
    deep_day += b'"blocks": ' + b"[" * DEEP + b"]" * DEEP + b"}]"
    with zipfile.ZipFile(export, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("users.json", json.dumps([{"id": "U1", "team_id": "T1", "name": "m"}]))
        archive.writestr("channels.json", json.dumps([{"id": "C1", "name": "general"}]))
        archive.writestr("general/2026-11-17.json", deep_day)
        good_day = [slack_message(ts="1763373600.000100", text="a good day")]
        archive.writestr("general/2026-11-18.json", json.dumps(good_day))
    report = import_paths(sessions, [export], EXPORT_FORMATS)
    (error,) = report.errors
    assert error.source == f"{export}:general/2026-11-17.json"
    assert REFUSED in str(error) and "\n" not in str(error)
    assert _stored(sessions) == {"a good day"}


def test_a_deeply_nested_slack_user_list_refuses_the_export_by_name(
    sessions: sessionmaker[Session], tmp_path: Path
) -> None:
    export = tmp_path / "export.zip"
    with zipfile.ZipFile(export, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("users.json", b"[" * DEEP + b"]" * DEEP)
        archive.writestr("channels.json", json.dumps([{"id": "C1", "name": "general"}]))
        archive.writestr("general/2026-11-18.json", json.dumps([slack_message()]))
    good = _good_dce(tmp_path)
    report = import_paths(sessions, [export, good], EXPORT_FORMATS)
    (error,) = report.errors
    assert error.source == f"{export}:users.json" and REFUSED in str(error)
    assert _stored(sessions) == {"a good message"}
