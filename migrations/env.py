"""Alembic environment: runs against a connection handed in by `storage.db.migrate`, or the URL
from alembic.ini / SUMMARYBOT_DATABASE_URL when the `alembic` command is used directly."""

from __future__ import annotations

import os
from typing import Literal

from alembic import context
from alembic.autogenerate.api import AutogenContext
from sqlalchemy import Connection, create_engine

from storage.db import DEFAULT_DATABASE_URL
from storage.models import Base, UTCDateTime

config = context.config
target_metadata = Base.metadata


def _render_item(type_: str, obj: object, autogen_context: AutogenContext) -> str | Literal[False]:
    # Migrations spell the UTC type as the plain column type it stores as.
    if type_ == "type" and isinstance(obj, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    return False


def _configure(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        # SQLite cannot ALTER most things in place; batch mode copies the table instead.
        render_as_batch=True,
        compare_type=True,
        render_item=_render_item,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _configure(connection)
        return
    url = (
        config.get_main_option("sqlalchemy.url")
        or os.environ.get("SUMMARYBOT_DATABASE_URL")
        or DEFAULT_DATABASE_URL
    )
    engine = create_engine(url)
    with engine.connect() as connection:
        _configure(connection)
        connection.commit()


if context.is_offline_mode():
    raise SystemExit("Offline (--sql) migrations are not supported; run against a database.")
run_migrations_online()
