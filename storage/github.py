"""Repository functions for the cache of what GitHub said about referenced PRs and issues."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import or_, select, tuple_, update
from sqlalchemy.orm import Session

from storage.db import dialect_insert
from storage.models import GitHubItemRow

Key = tuple[str, int]  # (repo as referenced, number)
CHUNK = 500


def cached_items(session: Session, keys: Iterable[Key]) -> dict[Key, GitHubItemRow]:
    """The cached rows for these (repo, number) pairs; pairs never fetched are absent."""
    wanted = list(set(keys))
    pair = tuple_(GitHubItemRow.repo, GitHubItemRow.number)
    found: dict[Key, GitHubItemRow] = {}
    for start in range(0, len(wanted), CHUNK):  # within SQLite's bound-parameter limit
        rows = session.scalars(select(GitHubItemRow).where(pair.in_(wanted[start : start + CHUNK])))
        found.update(((r.repo, r.number), r) for r in rows)
    return found


def merged_between(
    session: Session, repos: Iterable[str], start: datetime, end: datetime
) -> list[GitHubItemRow]:
    """Cached PRs of these repositories merged in [start, end), oldest first."""
    names = list(repos)
    if not names:
        return []
    return list(
        session.scalars(
            select(GitHubItemRow)
            .where(
                or_(GitHubItemRow.repo.in_(names), GitHubItemRow.canonical_repo.in_(names)),
                GitHubItemRow.kind == "pr",
                GitHubItemRow.merged_at >= start,
                GitHubItemRow.merged_at < end,
            )
            .order_by(GitHubItemRow.merged_at, GitHubItemRow.number)
        )
    )


def save_item(session: Session, repo: str, number: int, at: datetime, **fields: Any) -> None:
    """Store what GitHub answered for (repo, number): `fields` are the row's columns
    (kind, title, state, merged_at, author, labels, url, etag, canonical_repo...)."""
    values = {"repo": repo, "number": number, "fetched_at": at, "labels": [], **fields}
    stmt = dialect_insert(session, GitHubItemRow.__table__).values(**values)
    changed = {k: stmt.excluded[k] for k in values if k not in ("repo", "number")}
    session.execute(stmt.on_conflict_do_update(index_elements=["repo", "number"], set_=changed))


def mark_fresh(session: Session, repo: str, number: int, at: datetime) -> None:
    """GitHub said the cached row is unchanged (304)."""
    session.execute(
        update(GitHubItemRow)
        .where(GitHubItemRow.repo == repo, GitHubItemRow.number == number)
        .values(fetched_at=at)
    )


def save_paths(session: Session, repo: str, number: int, paths: list[str]) -> None:
    session.execute(
        update(GitHubItemRow)
        .where(GitHubItemRow.repo == repo, GitHubItemRow.number == number)
        .values(paths=paths)
    )
