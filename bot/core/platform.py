"""What a chat platform declares to the rest of the bot: one `Platform` per adapter folder
(`bot/slack/platform.py`, `bot/discord/platform.py`), listed once in `bot/platforms.py`.

`bot/ops` (the command line, `summarybot run`, doctor, logging, the environment) and
`bot/web` (previews) ask that table and never name a platform. The core sees a platform only
through the port (`bot.core.port`): `Outbound` is what it calls, `Inbound` what the adapter
calls; `start` hands the adapter a `MakeCore`, so the adapter builds its outbound side and
gets its core in one step.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic_settings import BaseSettings

from bot.core.checks import Check
from bot.core.ingest import ExportFormat
from bot.core.port import MakeCore

if TYPE_CHECKING:
    import typer


@dataclass(frozen=True, slots=True)
class Connection:
    """A started platform connection: how to stop it, and the health probe that says whether
    it is connected."""

    stop: Callable[[], Awaitable[None]]
    connected: Callable[[], Awaitable[bool]]


Env = Any  # the environment (`bot.ops.env.Environment`): it holds every platform's settings


@dataclass(frozen=True, slots=True)
class Platform:
    """One chat platform, as the rest of the bot sees it.

    `settings`: its environment variables (a pydantic `BaseSettings`, merged into the
    environment); `token`: the one whose value enables it; `needs`: what to set to run it,
    in words. `check(env)`: its environment is usable
    (`ValueError` says why not). `secrets(env)`: the values never to print. `start(env,
    make_core)`: connect, catch up, and return the `Connection`. `doctor(env)`: its
    deployment checks (one bounded try each). `exports`: its export readers (`summarybot
    import`). `preview(markdown)`: a section as it will show there, as HTML (the review
    page). `loggers`: its libraries' loggers, kept at WARNING. `cli`: its set-up helpers,
    `summarybot <name> ...`."""

    name: str  # the stored workspaces' platform, metrics' label, the review page's key
    title: str
    settings: type[BaseSettings]
    token: str
    needs: str
    start: Callable[[Env, MakeCore], Awaitable[Connection]]
    doctor: Callable[[Env], Awaitable[list[Check]]]
    preview: Callable[[str], str]
    exports: Sequence[ExportFormat] = ()
    secrets: Callable[[Env], Sequence[str | None]] = lambda env: ()
    check: Callable[[Env], object] = lambda env: None
    loggers: Sequence[str] = ()
    cli: Callable[[], typer.Typer] | None = field(default=None)

    def enabled(self, env: Env) -> bool:
        """Whether the environment asks for this platform: its token is set."""
        return bool(getattr(env, self.token.lower(), None))
