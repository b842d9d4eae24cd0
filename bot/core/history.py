"""Channel history an adapter fetches: the progress of a backfill, reported in the channel
where `channels add` was typed, and what the core needs to reconcile a re-read week.

A backfill can take minutes on a big channel, so `channels add` answers at once and the
backfill runs in the background; `Progress` posts one message where the admin asked and
updates it as batches are stored ("Fetching #hero-run history… 1,200 messages so far"),
then says how it ended ("#hero-run: 2,345 messages stored since 2026-11-09").
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from datetime import datetime

from bot.core.port import ChatPort, Posted

log = logging.getLogger(__name__)

UPDATE_EVERY_S = 2.0  # at most one progress update this often (platforms rate-limit edits)


class Progress:
    """Reports one channel's backfill in `channel_id` (where it was asked for). A report
    that cannot be posted is logged: it never stops the backfill."""

    def __init__(self, port: ChatPort, channel_id: str) -> None:
        self.port = port
        self.channel_id = channel_id
        self.name = ""
        self.since: datetime | None = None
        self._stored: set[str] = set()  # ids: a message read twice (a thread root) counts once
        self._message: Posted | None = None
        self._updated_at = 0.0

    async def begin(self, name: str, since: datetime) -> None:
        """The backfill of #`name` starts, from `since`."""
        self.name, self.since = name, since
        try:
            self._message = await self.port.post(
                self.channel_id, f"Fetching #{name} history since {since:%Y-%m-%d}…"
            )
        except Exception:  # noqa: BLE001 (any platform error: the backfill goes on)
            log.warning("cannot report the backfill of #%s in %s", name, self.channel_id)
        self._updated_at = time.monotonic()

    @property
    def stored(self) -> int:
        return len(self._stored)

    async def add(self, message_ids: Iterable[str]) -> None:
        """These messages are stored (now, or already before)."""
        self._stored.update(message_ids)
        if time.monotonic() - self._updated_at >= UPDATE_EVERY_S:
            await self._say(f"Fetching #{self.name} history… {self.stored:,} messages so far")

    async def end(self) -> None:
        """The backfill is done (nothing is said when it never began)."""
        if not self.name:
            return
        since = f" since {self.since:%Y-%m-%d}" if self.since else ""
        await self._say(f"#{self.name}: {self.stored:,} messages stored{since}.")

    async def fail(self, problem: str) -> None:
        await self._say(
            f"#{self.name or 'channel'}: fetching its history stopped after "
            f"{self.stored:,} messages ({problem}). It is fetched again at the next start."
        )

    async def _say(self, text: str) -> None:
        self._updated_at = time.monotonic()
        try:
            if self._message is None:
                self._message = await self.port.post(self.channel_id, text)
            else:
                await self.port.update(self._message, text)
        except Exception:  # noqa: BLE001 (any platform error: the backfill goes on)
            log.warning("cannot report the backfill of #%s in %s", self.name, self.channel_id)


def judged(platform_id: str, thread_id: str | None, threads: set[str] | None) -> bool:
    """Whether a stored message was covered by a re-read: top-level messages and thread
    roots always are; a reply only when its thread was read (`threads` None: all were)."""
    return threads is None or thread_id is None or thread_id == platform_id or thread_id in threads
