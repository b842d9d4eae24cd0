"""Privacy in the core: a member opting out, messages deleted on the platform, retention.

What is removed goes everywhere the bot keeps it: the tables (one transaction), the bytes the
database still holds after the commit (`storage.db.reclaim_deleted`), and the review threads
of drafts under way, rewritten through the port (`ReviewWorkflow.show_drafts`).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy.orm import Session, sessionmaker

from bot.core.port import Caller, Reply
from bot.core.review import ReviewWorkflow
from storage.db import reclaim_deleted
from storage.privacy import (
    PURGED_TABLES,
    Purged,
    Removed,
    delete_message,
    forget_person,
    is_forgotten,
    purge_expired,
)

PROMISE = "nothing new of yours will be stored, and summaries will not name you."


async def forget_me(
    review: ReviewWorkflow, workspace_id: int, caller: Caller, now: datetime
) -> Reply:
    """`/summary forget-me`: delete the caller's messages and stop storing new ones; drafts
    under way lose their name and what they drew from those messages, in the review
    threads too.

    Asking again is harmless; the reply says it was already done.
    """
    already, removed = await review.db.call(_forget, review.sessions, workspace_id, caller, now)
    await review.show_drafts(removed.drafts)
    deleted = removed.messages
    if not already:
        return Reply(f"Done: {_messages_were(deleted)} deleted, {PROMISE}")
    if deleted:  # stored in a race with the first opt-out
        return Reply(
            f"Already done: you had opted out before ({_messages_were(deleted, 'more ')} "
            f"deleted now); {PROMISE}"
        )
    return Reply(f"Already done: you had opted out before (0 messages deleted now); {PROMISE}")


def _forget(
    sessions: sessionmaker[Session], workspace_id: int, caller: Caller, now: datetime
) -> tuple[bool, Removed]:
    """Whether the caller had opted out before, and what forgetting them removed now."""
    with sessions.begin() as session:
        already = is_forgotten(session, workspace_id, caller.user_id)
        removed = forget_person(
            session, workspace_id, caller.user_id, now, also_names=[caller.display_name]
        )
    _reclaim(sessions)
    return already, removed


def _messages_were(count: int, more: str = "") -> str:
    if count == 1:
        return f"1 {more}of your messages was"
    return f"{count} {more}of your messages were"


async def on_delete(
    review: ReviewWorkflow, workspace_id: int, message_platform_id: str, at: datetime
) -> None:
    """A message was deleted on the platform `at` that time: delete it here too, and its
    text from drafts not yet published (their sections are flagged) and their threads."""
    removed = await review.db.call(_delete, review.sessions, workspace_id, message_platform_id, at)
    await review.show_drafts(removed.drafts)


def _delete(
    sessions: sessionmaker[Session], workspace_id: int, message_platform_id: str, at: datetime
) -> Removed:
    with sessions.begin() as session:
        removed = delete_message(session, workspace_id, message_platform_id, at)
    if removed.messages:
        _reclaim(sessions)
    return removed


def purge(
    sessions: sessionmaker[Session],
    workspace_id: int,
    retention_days: int,
    now: datetime,
    *,
    timezone: str = "UTC",
) -> Purged:
    """Delete messages older than `retention_days`, and drafts (with their revisions) of
    weeks that ended before then, published or not; what went.

    `timezone` is the workspace's setting, which decides where its weeks begin.
    """
    if retention_days < 1:
        raise ValueError(f"retention_days must be at least 1, not {retention_days}")
    older_than = now - timedelta(days=retention_days)
    with sessions.begin() as session:
        purged = purge_expired(session, workspace_id, older_than, timezone=timezone)
    if purged.messages or purged.drafts:
        _reclaim(sessions)
    return purged


def _reclaim(sessions: sessionmaker[Session]) -> None:
    with sessions() as session:
        reclaim_deleted(session, PURGED_TABLES)
