"""Engine and session set-up, and applying the Alembic migrations from code."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from importlib.resources import files
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import CursorResult, Engine, Result, create_engine, event, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import ConnectionPoolEntry

log = logging.getLogger(__name__)
DEFAULT_DATABASE_URL = "sqlite:///summarybot.db"
# The advisory lock that lets one of several processes starting together migrate at a time.
MIGRATION_LOCK = 0x53_42_4D_47  # "SBMG"
SQLITE_BUSY_TIMEOUT_MS = 10_000


def make_engine(url: str) -> Engine:
    """An engine for `url`; SQLite gets WAL, a busy timeout, enforced foreign keys and
    secure deletes."""
    engine = create_engine(url)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _configure_sqlite)
    return engine


def _configure_sqlite(dbapi_connection: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
    cursor = dbapi_connection.cursor()
    # WAL lets the bot read a week while an import writes; in-memory databases ignore it.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    # Deleted rows (forget-me, platform deletes, retention) are overwritten with zeros, not
    # left readable in free pages of the file.
    cursor.execute("PRAGMA secure_delete=ON")
    cursor.close()


def reclaim_deleted(session: Session, tables: Sequence[str]) -> None:
    """After a purge committed, make what it deleted unreadable where the database lets us.
    `session` is a fresh one (nothing begun): its connection is put in autocommit.

    SQLite: secure_delete zeroed the rows in their pages, but the WAL still holds the pages
    as they were; a TRUNCATE checkpoint copies the WAL into the file and empties it.
    PostgreSQL: deleted and updated rows stay in the heap as dead tuples until VACUUM, which
    runs here on `tables` (outside a transaction, as it must). Plain VACUUM marks their space
    free for reuse; the old bytes stay on disk until overwritten (see the README).
    """
    connection = session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})
    dialect = connection.dialect
    if dialect.name == "sqlite":
        busy, _, _ = connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)").one()
        if busy:  # a reader held an old snapshot: the next purge's checkpoint catches up
            log.warning("the WAL could not be checkpointed after a purge (database busy)")
    elif dialect.name == "postgresql":
        quote = dialect.identifier_preparer.quote
        connection.exec_driver_sql(f"VACUUM {', '.join(quote(t) for t in tables)}")


def dialect_insert(session: Session, target: Any) -> postgresql.Insert | sqlite.Insert:
    """An INSERT that knows ON CONFLICT, in the session's SQL dialect."""
    dialect = session.get_bind().dialect.name
    if dialect == "postgresql":
        return postgresql.insert(target)
    if dialect == "sqlite":
        return sqlite.insert(target)
    raise NotImplementedError(f"upserts are written for SQLite and PostgreSQL, not {dialect}")


def affected_rows(result: Result[Any]) -> int:
    """How many rows the UPDATE or DELETE that gave `result` changed."""
    if not isinstance(result, CursorResult):  # what executing a DML statement returns
        raise TypeError(f"{type(result).__name__} carries no row count")
    return result.rowcount


def make_sessionmaker(engine: Engine) -> sessionmaker[Session]:
    """Sessions that keep loaded objects usable after commit (the CLI prints them afterwards)."""
    return sessionmaker(engine, expire_on_commit=False)


def alembic_config() -> Config:
    """The Alembic configuration of the installed `migrations` package.

    Commands run with it need a connection in `cfg.attributes["connection"]`.
    """
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(str(files("migrations")))))
    return cfg


def migrate(engine: Engine) -> None:
    """Bring the database schema up to the newest migration (a no-op when it is current).
    Several processes starting together on one PostgreSQL migrate one after another: the
    others then find the schema current."""
    cfg = alembic_config()
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, "head")


def is_current(engine: Engine) -> bool:
    """Whether the database is at the newest migration."""
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision() == head
