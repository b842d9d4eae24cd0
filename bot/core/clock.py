"""The bot's one clock. Everything that needs the time takes a `Clock` (tests pass a fixed
one); `utcnow` is the real one, given once, where the bot is put together."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

Clock = Callable[[], datetime]


def utcnow() -> datetime:
    """Now, timezone-aware, in UTC."""
    return datetime.now(UTC)
