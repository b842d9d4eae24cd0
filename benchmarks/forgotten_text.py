"""Where forgotten text remains: after `/summary forget-me` and a platform delete, is the
removed text still in the tables, the review thread, the SQLite file and WAL, or PostgreSQL's
heap files?

A week is logged through the core (the fake port stands for Slack or Discord, which share
this path), drafted and posted for review; then Ana opts out and one of Ben's messages is
deleted on the platform. Each removed message carries a marker string, searched for
afterwards. The bot's engine is then disposed, as when it stops.

    python -m benchmarks.forgotten_text
    python -m benchmarks.forgotten_text --database postgresql+psycopg://postgres@127.0.0.1:5432/test

PostgreSQL's heap files are read from the server's data directory (this needs the same
machine and read access, e.g. root), after a CHECKPOINT so they are current; VACUUM's effect
is shown by `pg_stat_user_tables` (last_vacuum, n_dead_tup).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import create_engine, text

from bot.core.port import Caller, CommandEvent, DeleteEvent, MessageEvent
from bot.core.router import Core
from bot.ops.config import load_config
from storage.db import make_engine, make_sessionmaker, migrate
from storage.records import ChannelRecord, MessageRecord, PersonRecord, WorkspaceRecord
from tests.fakes.fakeport import FakePort

LAB = WorkspaceRecord("slack", "T1", "Lab")
ADMIN = Caller("UADMIN", "Ada Admin", is_admin=True)
ANA = PersonRecord("UANA", "Ana Ruiz")
BEN = PersonRecord("UBEN", "Ben Cho")
HERO = ChannelRecord("CHERO01", "hero-run")
MONDAY = datetime(2026, 11, 16, tzinfo=UTC)
NOW = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
FORGOTTEN = "ZQXFORGOTTEN"  # in Ana's message: she opts out
DELETED = "ZQXDELETED"  # in Ben's message: deleted on the platform
TABLES = ("messages", "draft_sections", "section_revisions")


async def scenario(url: str) -> dict[str, object]:
    engine = make_engine(url)
    migrate(engine)
    sessions = make_sessionmaker(engine)
    port = FakePort(channel_ids={"hero-run": "CHERO01", "review": "CREVIEW1"})
    core = Core(sessions, load_config(), port, clock=lambda: NOW)

    async def command(caller: Caller, line: str) -> None:
        reply = await core.on_command(CommandEvent(LAB, caller, line, "C-any"))
        assert reply.ok, reply.text

    await command(ADMIN, "channels add #hero-run")
    await command(ADMIN, "review-channel #review")
    for pid, who, words, hours in [
        ("1", ANA, f"Hero run {FORGOTTEN} reached 22.4% MFU after #812 merged.", 10),
        ("2", BEN, f"Checkpoint saves {DELETED} are 3.5x faster after #815 landed.", 11),
        ("3", BEN, "Eval harness now runs MMLU in 40 minutes with #820.", 12),
    ]:
        message = MessageRecord(pid, who, MONDAY + timedelta(hours=hours), words)
        await core.on_message(MessageEvent(LAB, HERO, message))
    await command(ADMIN, f"draft {MONDAY.date()}")
    shown_before = _in_thread(port)
    await command(Caller("UANA", "Ana Ruiz"), "forget-me")
    await core.on_delete(DeleteEvent(LAB, "2"))
    core.db.close()
    with engine.connect() as connection:
        rows = {
            t: connection.execute(
                text(
                    f"SELECT count(*) FROM {t} WHERE {_text_column(t)} LIKE :a OR "
                    f"{_text_column(t)} LIKE :b"
                ),
                {"a": f"%{FORGOTTEN}%", "b": f"%{DELETED}%"},
            ).scalar_one()
            for t in TABLES
        }
    figures: dict[str, object] = {
        "review thread messages with the text, before": shown_before,
        "review thread messages with the text, after": _in_thread(port),
        "table rows with the text": rows,
    }
    if url.startswith("sqlite:///"):
        figures.update(_sqlite_files(Path(url.removeprefix("sqlite:///")), "running"))
    engine.dispose()  # the bot stops (its connections close, so do their statistics)
    if url.startswith("sqlite:///"):
        figures.update(_sqlite_files(Path(url.removeprefix("sqlite:///")), "stopped"))
    else:
        figures.update(_postgres_files(create_engine(url)))
    return figures


def _text_column(table: str) -> str:
    return "text" if table == "messages" else "markdown"


def _in_thread(port: FakePort) -> int:
    return sum(1 for m in port.messages.values() if FORGOTTEN in m.text or DELETED in m.text)


def _holds(path: Path) -> bool:
    data = path.read_bytes() if path.exists() else b""
    return FORGOTTEN.encode() in data or DELETED.encode() in data


def _sqlite_files(path: Path, when: str) -> dict[str, object]:
    wal = path.with_name(path.name + "-wal")
    return {
        f"SQLite file holds the text, bot {when}": _holds(path),
        f"SQLite WAL holds the text, bot {when}": _holds(wal),
        f"SQLite WAL bytes, bot {when}": wal.stat().st_size if wal.exists() else 0,
    }


def _postgres_files(engine) -> dict[str, object]:  # noqa: ANN001
    with engine.connect() as connection:
        connection.execute(text("SELECT pg_stat_force_next_flush()"))
        connection.execute(text("CHECKPOINT"))
        directory = connection.execute(text("SHOW data_directory")).scalar_one()
        found, stats = {}, {}
        for table in TABLES:
            relative = connection.execute(
                text("SELECT pg_relation_filepath(:t)"), {"t": table}
            ).scalar_one()
            found[table] = _holds(Path(directory) / relative)
            row = connection.execute(
                text(
                    "SELECT last_vacuum IS NOT NULL, n_dead_tup FROM pg_stat_user_tables "
                    "WHERE relname = :t AND schemaname = current_schema()"
                ),
                {"t": table},
            ).one()
            stats[table] = {"vacuumed": row[0], "n_dead_tup": row[1]}
    return {"PostgreSQL heap file holds the text": found, "PostgreSQL table stats": stats}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", help="a PostgreSQL URL (default: a SQLite file)")
    args = parser.parse_args()
    if args.database:
        schema = f"forgot_{uuid.uuid4().hex[:8]}"
        admin = create_engine(args.database)
        with admin.begin() as connection:
            connection.execute(text(f"CREATE SCHEMA {schema}"))
        try:
            url = f"{args.database}?options=-csearch_path%3D{schema}"
            figures = asyncio.run(scenario(url))
        finally:
            with admin.begin() as connection:
                connection.execute(text(f"DROP SCHEMA {schema} CASCADE"))
    else:
        with tempfile.TemporaryDirectory() as folder:
            figures = asyncio.run(scenario(f"sqlite:///{Path(folder) / 'bot.db'}"))
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
