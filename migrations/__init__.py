"""Alembic migrations for the Summary Bot schema (applied from code by `storage.db.migrate`)."""
