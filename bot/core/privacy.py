"""Privacy in the core: a member opting out, messages deleted on the platform, retention.

Each function runs one transaction of its own.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy.orm import Session, sessionmaker

from bot.core.port import Caller, Reply
from storage.privacy import Purged, delete_message, forget_person, is_forgotten, purge_expired

PROMISE = "nothing new of yours will be stored, and summaries will not name you."


def forget_me(
    sessions: sessionmaker[Session], workspace_id: int, caller: Caller, now: datetime
) -> Reply:
    """`/summary forget-me`: delete the caller's messages and stop storing new ones.

    Asking again is harmless; the reply says it was already done.
    """
    with sessions.begin() as session:
        already = is_forgotten(session, workspace_id, caller.user_id)
        deleted = forget_person(
            session, workspace_id, caller.user_id, now, also_names=[caller.display_name]
        )
    if not already:
        return Reply(f"Done: {_messages_were(deleted)} deleted, {PROMISE}")
    if deleted:  # stored in a race with the first opt-out
        return Reply(
            f"Already done: you had opted out before ({_messages_were(deleted, 'more ')} "
            f"deleted now); {PROMISE}"
        )
    return Reply(f"Already done: you had opted out before (0 messages deleted now); {PROMISE}")


def _messages_were(count: int, more: str = "") -> str:
    if count == 1:
        return f"1 {more}of your messages was"
    return f"{count} {more}of your messages were"


def on_delete(
    sessions: sessionmaker[Session], workspace_id: int, message_platform_id: str, at: datetime
) -> None:
    """A message was deleted on the platform `at` that time: delete it here too, and its
    text from drafts not yet published (their sections are flagged)."""
    with sessions.begin() as session:
        delete_message(session, workspace_id, message_platform_id, at)


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
        return purge_expired(session, workspace_id, older_than, timezone=timezone)
