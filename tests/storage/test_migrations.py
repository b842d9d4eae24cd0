"""The migrations build the models' schema, and go down and up again, on both databases."""

from __future__ import annotations

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from storage.db import alembic_config, is_current, make_engine, migrate
from storage.models import Base


def test_migrated_schema_matches_the_models(database_url: str) -> None:
    engine = make_engine(database_url)
    migrate(engine)
    with engine.connect() as connection:
        diff = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    assert diff == []
    assert is_current(engine)
    engine.dispose()


def test_downgrade_to_nothing_and_back(database_url: str) -> None:
    engine = make_engine(database_url)
    migrate(engine)
    cfg = alembic_config()
    with engine.begin() as connection:
        cfg.attributes["connection"] = connection
        command.downgrade(cfg, "base")
    assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
    assert not is_current(engine)
    migrate(engine)
    assert {"messages", "pr_refs", "drafts"} <= set(inspect(engine).get_table_names())
    engine.dispose()


def test_migrate_twice_is_harmless(database_url: str) -> None:
    engine = make_engine(database_url)
    migrate(engine)
    migrate(engine)
    assert is_current(engine)
    engine.dispose()
