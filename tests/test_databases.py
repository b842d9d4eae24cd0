"""The database fixture cleans up after a test whatever the test left behind."""

from __future__ import annotations

import pytest
from sqlalchemy import Connection, Engine, insert

from storage.models import Workspace

# Kept past the test's end, as a bot's database thread still writing when a test returned.
LEFT_OPEN: list[Connection] = []


def test_a_transaction_left_open_does_not_keep_the_schema(engine: Engine) -> None:
    if engine.dialect.name != "postgresql":
        pytest.skip("a SQLite file is deleted with its folder, whatever holds it")
    connection = engine.connect()
    connection.begin()
    connection.execute(insert(Workspace).values(platform="slack", platform_id="T1", name="w"))
    LEFT_OPEN.append(connection)
