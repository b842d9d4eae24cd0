"""Helpers for end-to-end tests: bounded waiting, and what the database holds."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from sqlalchemy import select

from storage.models import Message


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
