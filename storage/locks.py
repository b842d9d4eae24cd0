"""PostgreSQL advisory locks: what lets several bot processes on one database agree on who
does a piece of platform work (posting a draft for review, publishing it).

A lock is held by a database connection, not a transaction, so it is held while the holder
talks to the platform with no transaction open, and PostgreSQL releases it the moment the
holder's connection closes: a process that is killed never leaves a lock behind.
"""

from __future__ import annotations

from sqlalchemy import Connection, text


def try_advisory_lock(connection: Connection, space: int, key: int) -> bool:
    """Take the lock (`space`, `key`) for this connection if no other connection holds it."""
    return bool(
        connection.execute(
            text("SELECT pg_try_advisory_lock(:space, :key)"), {"space": space, "key": key}
        ).scalar_one()
    )


def advisory_unlock(connection: Connection, space: int, key: int) -> None:
    """Release the lock (`space`, `key`) this connection holds."""
    connection.execute(
        text("SELECT pg_advisory_unlock(:space, :key)"), {"space": space, "key": key}
    )
