"""Repository functions for kept values: small strings the bot keeps between runs that
belong to no workspace (`storage.models.KeptValue`)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from storage.db import dialect_insert
from storage.models import KeptValue


def kept_value(session: Session, key: str) -> str | None:
    """The value kept under `key`, or None."""
    row = session.get(KeptValue, key)
    return None if row is None else row.value


def keep_value(session: Session, key: str, value: str) -> None:
    """Keep `value` under `key`, replacing what was there."""
    stmt = dialect_insert(session, KeptValue.__table__).values(key=key, value=value)
    session.execute(stmt.on_conflict_do_update(index_elements=["key"], set_={"value": value}))
