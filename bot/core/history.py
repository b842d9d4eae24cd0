"""Channel history an adapter fetches: the progress of a backfill, reported privately to the
admin who asked, and what the core needs to reconcile a re-read week.

A backfill can take minutes on a big channel, so `channels add` answers at once and the
backfill runs in the background; `Progress` tells the admin who typed the command, and only
them (Slack: an ephemeral message where they typed it; Discord: a direct message), when it
starts, now and then how far it got ("Fetching #hero-run history… 1,200 messages so far"),
and how it ended ("#hero-run: 2,345 messages stored since 2026-11-09"). The logged channel
sees none of it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from datetime import datetime

from bot.core.port import ChatPort

log = logging.getLogger(__name__)

UPDATE_EVERY_S = 30.0  # at most one progress report this often: each is a new message


class Progress:
    """Reports one channel's backfill to `user_id` only (in `channel_id`, where they asked,
    when the platform can). A report that cannot be sent is logged: it never stops the
    backfill."""

    def __init__(self, port: ChatPort, user_id: str, channel_id: str | None = None) -> None:
        self.port = port
        self.user_id = user_id
        self.channel_id = channel_id
        self.name = ""
        self.since: datetime | None = None
        self._stored: set[str] = set()  # ids: a message read twice (a thread root) counts once
        self._told_at = 0.0

    async def begin(self, name: str, since: datetime) -> None:
        """The backfill of #`name` starts, from `since`."""
        self.name, self.since = name, since
        await self._say(f"Fetching #{name} history since {since:%Y-%m-%d}…")

    @property
    def stored(self) -> int:
        return len(self._stored)

    async def add(self, message_ids: Iterable[str]) -> None:
        """These messages are stored (now, or already before)."""
        self._stored.update(message_ids)
        if time.monotonic() - self._told_at >= UPDATE_EVERY_S:
            so_far = self._count()
            await self._say(f"Fetching #{self.name} history… {so_far} so far")

    async def end(self) -> None:
        """The backfill is done (nothing is said when it never began)."""
        if not self.name:
            return
        since = f" since {self.since:%Y-%m-%d}" if self.since else ""
        await self._say(f"#{self.name}: {self._count()} stored{since}.")

    async def fail(self, problem: str) -> None:
        await self._say(
            f"#{self.name or 'channel'}: fetching its history stopped after "
            f"{self._count()} ({problem}). It is fetched again at the next "
            "start."
        )

    def _count(self) -> str:
        return f"{self.stored:,} message{'' if self.stored == 1 else 's'}"

    async def _say(self, text: str) -> None:
        self._told_at = time.monotonic()
        try:
            await self.port.tell(self.user_id, text, self.channel_id)
        except Exception:  # noqa: BLE001 (any platform error: the backfill goes on)
            log.warning("cannot report the backfill of #%s to %s", self.name, self.user_id)


def judged(platform_id: str, thread_id: str | None, threads: set[str] | None) -> bool:
    """Whether a stored message was covered by a re-read: top-level messages and thread
    roots always are; a reply only when its thread was read (`threads` None: all were)."""
    return threads is None or thread_id is None or thread_id == platform_id or thread_id in threads
