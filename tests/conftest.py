"""Shared fixtures: databases (SQLite always, PostgreSQL when one is configured)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.orm import Session, sessionmaker

from storage.db import make_engine, make_sessionmaker, migrate

POSTGRES_URL = os.environ.get("SUMMARYBOT_TEST_DATABASE_URL")

# Hypothesis's default 200 ms deadline makes every property test a timed test: on a busy
# machine one example once took 328 ms on its first call and 0.08 ms on the next, and CI
# failed. Speed is measured in benchmarks/, never in tests.
settings.register_profile("untimed", deadline=None)
settings.load_profile("untimed")


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database: a SQLite file, or a fresh schema on the test PostgreSQL server."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'test.db'}"
        return
    if not POSTGRES_URL:
        pytest.skip("PostgreSQL tests need SUMMARYBOT_TEST_DATABASE_URL (see README)")
    schema = f"t_{uuid.uuid4().hex[:12]}"
    admin = create_engine(POSTGRES_URL)
    with admin.begin() as connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    separator = "&" if "?" in POSTGRES_URL else "?"
    try:
        yield f"{POSTGRES_URL}{separator}options=-csearch_path%3D{schema}&application_name={schema}"
    finally:
        with admin.begin() as connection:
            # A teardown that cannot drop the schema fails the test; it never hangs the suite.
            connection.execute(text("SET LOCAL lock_timeout = '10s'"))
            # A connection the test left open (a thread still writing when it ended) holds
            # locks that DROP SCHEMA waits for, and deadlocks if it then takes another.
            connection.execute(
                text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE application_name = :schema AND pid <> pg_backend_pid()"
                ),
                {"schema": schema},
            )
            # Advisory locks are the server's, not the schema's: a connection a test left
            # checked out (a draft lock held when it ended) would stall every later test
            # that takes the same draft's lock for `DraftLocks`' two minutes.
            connection.execute(
                text(
                    "SELECT pg_terminate_backend(pid) FROM pg_locks "
                    "WHERE locktype = 'advisory' AND pid <> pg_backend_pid()"
                )
            )
            connection.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    """A migrated database."""
    engine = make_engine(database_url)
    migrate(engine)
    yield engine
    engine.dispose()


@pytest.fixture
def sessions(engine: Engine) -> sessionmaker[Session]:
    return make_sessionmaker(engine)
