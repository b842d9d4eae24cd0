"""Helpers for end-to-end tests: bounded waiting, and what the database holds."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from sqlalchemy import select

from storage.models import Message, NewsSubmission, Person


async def eventually(check: Callable[[], object], timeout: float = 5.0) -> None:
    """Wait, bounded, until `check()` is true: a bot answers after its platform's ack."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for the bot")
        await asyncio.sleep(0.02)


def stored(sessions) -> dict[str, str]:  # noqa: ANN001 (a sessionmaker)
    """The stored messages' text by platform id."""
    with sessions() as session:
        return dict(session.execute(select(Message.platform_id, Message.text)).all())


def stored_previews(sessions) -> dict[str, tuple[str, str]]:  # noqa: ANN001 (a sessionmaker)
    """The stored messages' text and link-preview text by platform id."""
    with sessions() as session:
        rows = session.execute(select(Message.platform_id, Message.text, Message.preview))
        return {platform_id: (text, preview) for platform_id, text, preview in rows}


def submissions(sessions) -> list[tuple[str, str, str | None]]:  # noqa: ANN001 (a sessionmaker)
    """Every stored news submission as (who sent it, its text, the message's platform id),
    oldest first."""
    with sessions() as session:
        rows = session.execute(
            select(Person.display_name, NewsSubmission.text, Message.platform_id)
            .join(Person, Person.id == NewsSubmission.sender_id)
            .outerjoin(Message, Message.id == NewsSubmission.message_id)
            .order_by(NewsSubmission.id)
        )
        return [tuple(row) for row in rows.all()]
