"""Keeping the cache of GitHub PR details fresh for the week being drafted.

Runs before drafting, never while logging. Whatever GitHub cannot answer (no network, rate
limit, outage) is simply missing: the draft is still made from chat, and says which PR
details are missing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from sqlalchemy.orm import Session, sessionmaker

from bot.config import Config
from bot.drafting.compose import load_week, pr_key
from bot.drafting.github.client import Fetched, GitHubClient, GitHubItem
from bot.drafting.week import Week
from bot.drafting.worker import read, write
from storage.github import Key, cached_items, mark_fresh, merged_between, save_item, save_paths
from storage.kept import keep_value, kept_value
from storage.week_rows import week_refs
from summarizer.grouping import TopicScorer
from summarizer.prrefs import PRRef, normalise


@dataclass
class RefreshReport:
    """What a refresh asked GitHub, and what it could not learn."""

    asked: int = 0
    unavailable: dict[Key, str] = field(default_factory=dict)  # key -> the problem
    out_of_time: bool = False  # the time budget ran out: what was not answered is missing


def week_keys(session: Session, config: Config, week: Week) -> set[Key]:
    """The (owner/repo, number) pairs the week's messages cite, where the repo is known."""
    keys = set()
    for row in week_refs(session, week.workspace_id, week.start, week.end):
        ref = normalise(PRRef(row.repo, row.number, row.raw), week.default_repo, config.repos)
        if key := pr_key(ref):
            keys.add(key)
    return keys


async def refresh_week(
    sessions: sessionmaker[Session],
    config: Config,
    client: GitHubClient,
    week: Week,
    now: datetime,
) -> RefreshReport:
    """Bring the cache up to date for `week`: the PRs it cites (one conditional request
    each), their touched paths when a topic asks for paths, and the PRs merged that week in
    the configured repositories."""
    uses_paths = any(t.paths for t in week.topics)

    def cited(session: Session) -> tuple[set[Key], set[Key]]:
        vague = vague_keys(session, config, week) if uses_paths else set()
        return week_keys(session, config, week), vague

    keys, vague = await read(sessions, cited)
    report = RefreshReport()
    await refresh_items(sessions, client, keys, now, config.github.not_found_days, report)
    for repo in config.github.repos:
        merged = await refresh_merged(sessions, client, repo, week, now)
        if merged is None:
            report.unavailable[(repo, 0)] = f"the merged PRs of {repo} are unavailable"
        elif uses_paths:
            vague.update(merged)  # nothing in chat places these
    if vague:
        await refresh_paths(sessions, client, vague)
    report.out_of_time = client.out_of_time
    return report


async def refresh_merged(
    sessions: sessionmaker[Session], client: GitHubClient, repo: str, week: Week, now: datetime
) -> set[Key] | None:
    """The PRs of `repo` merged in `week`, cached; asked conditionally (the list's ETag is
    kept per repository and week), so an unchanged list costs nothing. None: unavailable.

    Items read from a list keep their own ETag: only `item` answers set it."""
    list_key = f"github:merged:{repo}:{week.start.isoformat()}:{week.end.isoformat()}"
    etag = await read(sessions, lambda session: kept_value(session, list_key))
    listed = await client.merged_between(repo, week.start, week.end, etag=etag)
    if listed is None:
        return None

    def keep(session: Session) -> set[Key]:
        if listed.not_modified:
            rows = merged_between(session, [repo], week.start, week.end)
            return {(repo, row.number) for row in rows}
        for item in listed.items:
            save_item(session, repo, item.number, now, **_columns(item))
        if listed.etag:
            keep_value(session, list_key, listed.etag)
        return {(repo, item.number) for item in listed.items}

    return await write(sessions, keep)


def vague_keys(session: Session, config: Config, week: Week) -> set[Key]:
    """PRs cited only by messages whose channel and words point to no topic: the ones whose
    touched paths are worth a request (the others cost one request each, no more)."""
    scorer = TopicScorer(list(week.topics))
    vague: set[Key] = set()
    placed: set[Key] = set()
    for message in load_week(session, config, week):
        keys = {k for p in message.prs if (k := pr_key(p.ref))}
        own = scorer.scores(replace(message, prs=()))
        (placed if max(own) > 0 else vague).update(keys)
    return vague - placed


async def refresh_items(
    sessions: sessionmaker[Session],
    client: GitHubClient,
    keys: Iterable[Key],
    now: datetime,
    not_found_days: int,
    report: RefreshReport,
) -> None:
    """One conditional request per PR, except numbers GitHub recently said it does not know."""
    cached = await read(sessions, lambda session: cached_items(session, keys))
    etags = {k: r.etag for k, r in cached.items()}
    recent_misses = {
        k
        for k, r in cached.items()
        if r.kind == "missing" and r.fetched_at > now - timedelta(days=not_found_days)
    }
    wanted = sorted(set(keys) - recent_misses)
    results = await asyncio.gather(*(client.item(r, n, etag=etags.get((r, n))) for r, n in wanted))
    report.asked += len(wanted)

    def keep(session: Session) -> None:
        for (repo, number), fetched in zip(wanted, results, strict=True):
            _store(session, repo, number, fetched, now, report)

    await write(sessions, keep)


def _store(
    session: Session, repo: str, number: int, fetched: Fetched, now: datetime, report: RefreshReport
) -> None:
    if fetched.status == "ok" and fetched.item is not None:
        save_item(session, repo, number, now, **_columns(fetched.item), etag=fetched.etag)
    elif fetched.status == "not_modified":
        mark_fresh(session, repo, number, now)
    elif fetched.status == "not_found":
        save_item(session, repo, number, now, kind="missing", etag=None)
    else:
        report.unavailable[(repo, number)] = fetched.problem or "unavailable"


async def refresh_paths(
    sessions: sessionmaker[Session], client: GitHubClient, keys: Iterable[Key]
) -> None:
    """Touched paths of the cited PRs that have none cached yet."""
    cached = await read(sessions, lambda session: cached_items(session, keys))
    todo = [k for k, r in cached.items() if r.kind == "pr" and r.paths is None]
    found = await asyncio.gather(*(client.paths(repo, number) for repo, number in todo))

    def keep(session: Session) -> None:
        for (repo, number), paths in zip(todo, found, strict=True):
            if paths is not None:
                save_paths(session, repo, number, list(paths))

    await write(sessions, keep)


def _columns(item: GitHubItem) -> dict:
    """The cached columns of an item, without its ETag (a list answer has none per item)."""
    return {
        "kind": item.kind,
        "canonical_repo": item.repo,
        "title": item.title,
        "state": item.state,
        "merged_at": item.merged_at,
        "author": item.author,
        "labels": list(item.labels),
        "url": item.url,
    }
