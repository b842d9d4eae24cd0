"""The chat platforms the bot speaks, in one table. Adding a platform is one folder under
`bot/` with its `Platform` (see `bot/core/platform.py`) and one line here; `bot/ops` and
`bot/web` ask this table and never name a platform."""

from __future__ import annotations

from bot.core.platform import Platform
from bot.discord.platform import DISCORD
from bot.slack.platform import SLACK

PLATFORMS: tuple[Platform, ...] = (SLACK, DISCORD)


def registered() -> tuple[Platform, ...]:
    """The platforms, in the order they start, are checked and are tried as export formats."""
    return PLATFORMS


def named(name: str) -> Platform:
    """The platform called `name` (`KeyError` if none is)."""
    for platform in registered():
        if platform.name == name:
            return platform
    raise KeyError(name)
