"""FakeChat: a whole chat platform that lives in memory, declared the way `bot/slack` and
`bot/discord` declare theirs (`bot.core.platform.Platform`). Registering `FAKECHAT` in
`bot.platforms` is all it takes for `summarybot run`, `doctor`, `import`, the environment
and the review page's previews to know it (`tests/fakes/test_fakechat.py`)."""

from __future__ import annotations

import asyncio
import html
import json
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from pydantic_settings import BaseSettings

from bot.core.checks import FAIL, OK, Check
from bot.core.ingest import ExportFormat, ImportSource
from bot.core.platform import Connection, Platform
from bot.core.port import (
    Caller,
    CommandEvent,
    HistoryChannel,
    HistoryPage,
    HistorySource,
    MakeCore,
    MessageEvent,
    Outbound,
    Reply,
)
from storage.records import ChannelRecord, ImportBatch, MessageRecord, PersonRecord, WorkspaceRecord
from tests.fakes.fakeport import FakePort

NAME = "fakechat"
WORKSPACE = WorkspaceRecord(NAME, "W1", "Fake Lab")


class FakeChatSettings(BaseSettings):
    fakechat_token: str | None = None  # enables FakeChat; "bad" is rejected by its doctor


@dataclass
class World:
    """What the fake platform holds: channels' history and members."""

    history: dict[str, list[MessageRecord]] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    admins: set[str] = field(default_factory=set)


class FakeChatHistory:
    def __init__(self, world: World) -> None:
        self.world = world

    async def workspaces(self) -> list[WorkspaceRecord]:
        return [WORKSPACE]

    async def channel(self, workspace: WorkspaceRecord, ref: str) -> HistoryChannel | None:
        if ref not in self.world.history:
            return None

        async def sources() -> list[HistorySource]:
            return [_Source(self.world, ref)]

        return HistoryChannel(ref, self.world.names.get(ref, ref), sources)


class _Source:
    def __init__(self, world: World, channel_id: str) -> None:
        self.world, self.channel_id = world, channel_id

    async def pages(self, since: datetime) -> AsyncIterator[HistoryPage]:
        recent = [m for m in self.world.history[self.channel_id] if m.created_at > since]
        channel = ChannelRecord(self.channel_id, self.world.names.get(self.channel_id, ""))
        yield HistoryPage(channel, recent, frozenset(m.platform_id for m in recent))

    def threads_read(self) -> set[str] | None:
        return None


class FakeChatMembers:
    def __init__(self, world: World) -> None:
        self.world = world

    async def member(
        self, workspace_id: str, user_id: str, role_ids: Sequence[str]
    ) -> Caller | None:
        if workspace_id != WORKSPACE.platform_id:
            return None
        return Caller(user_id, user_id, user_id in self.world.admins)


class FakeChatBot:
    """The adapter: its outbound side in memory, the core it drives got at construction."""

    def __init__(self, make_core: MakeCore, world: World) -> None:
        self.world = world
        self.port = FakePort()
        self.core = make_core(Outbound(self.port, FakeChatHistory(world), FakeChatMembers(world)))

    async def command(self, user_id: str, text: str, channel_id: str) -> Reply:
        caller = Caller(user_id, user_id, user_id in self.world.admins)
        return await self.core.on_command(CommandEvent(WORKSPACE, caller, text, channel_id))

    async def say(self, channel_id: str, message: MessageRecord) -> bool:
        channel = ChannelRecord(channel_id, self.world.names.get(channel_id, ""))
        return await self.core.on_message(MessageEvent(WORKSPACE, channel, message))


STARTED: list[FakeChatBot] = []  # the adapters `start` made, for the test to drive
WORLD = World()


async def start(env: FakeChatSettings, make_core: MakeCore) -> Connection:
    bot = FakeChatBot(make_core, WORLD)
    await bot.core.catch_up()
    STARTED.append(bot)
    stopped = asyncio.Event()

    async def stop() -> None:
        stopped.set()

    async def connected() -> bool:
        return not stopped.is_set()

    return Connection(stop, connected)


async def doctor(env: FakeChatSettings) -> list[Check]:
    if env.fakechat_token == "bad":
        return [Check("FakeChat", FAIL, "FAKECHAT_TOKEN was rejected")]
    return [Check("FakeChat", OK, "FAKECHAT_TOKEN accepted")]


def preview(markdown: str) -> str:
    return f"<pre>{html.escape(markdown)}</pre>"


# --- its export: one JSON file per channel, `*.fakechat` ------------------------------------


def message(platform_id: str, user: str, text: str, at: datetime) -> MessageRecord:
    return MessageRecord(platform_id, PersonRecord(user, user), at, text)


@dataclass(frozen=True)
class _ExportFile:
    path: Path

    @property
    def name(self) -> str:
        return self.path.name

    def read(self) -> ImportBatch:
        data = json.loads(self.path.read_text())
        channel = ChannelRecord(data["channel"], data["channel"])
        messages = [
            message(m["id"], m["user"], m["text"], datetime.fromtimestamp(m["ts"], UTC))
            for m in data["messages"]
        ]
        return ImportBatch(self.name, WORKSPACE, channel, messages)


def _open(path: Path) -> Sequence[ImportSource]:
    return [_ExportFile(path)]


EXPORT = ExportFormat(
    "fakechat-export",
    lambda path: path.suffix == ".fakechat",
    _open,
    reads="FakeChat .fakechat files",
)

FAKECHAT = Platform(
    name=NAME,
    title="FakeChat",
    settings=FakeChatSettings,
    token="FAKECHAT_TOKEN",
    needs="FAKECHAT_TOKEN",
    start=start,
    doctor=doctor,
    preview=preview,
    exports=(EXPORT,),
    secrets=lambda env: (env.fakechat_token,),
)
