"""Catching up after downtime: what the re-read did not see was deleted, unless it arrived
live while the history was being read (a race that deleted fresh messages)."""

from __future__ import annotations

from datetime import timedelta

from tests.core.test_router import (  # noqa: F401 (fixtures)
    ADMIN,
    HERO,
    LAB,
    MONDAY,
    NOW,
    chat,
    command,
    core,
    port,
    run,
    set_up,
    stored,
)


def test_a_message_that_arrives_during_the_re_read_is_kept(core, sessions) -> None:  # noqa: F811
    set_up(core)
    chat(core, HERO, "old-gone", "Ana Ruiz", "Deleted while the bot was down", 2)
    chat(core, HERO, "old-kept", "Ana Ruiz", "Still there on the platform", 3)
    live_hours = (NOW - MONDAY + timedelta(seconds=30)) / timedelta(hours=1)
    chat(core, HERO, "live", "Ben Cho", "Posted while the history was being read", live_hours)
    assert command(core, ADMIN, "status").ok

    deleted = run(core.reconcile(LAB, HERO.platform_id, MONDAY, {"old-kept"}, read_at=NOW))
    assert deleted == 1
    assert set(stored(sessions)) == {"old-kept", "live"}
