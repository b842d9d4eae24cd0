"""Set-up help through the core and the fake port: `status` says what is still to set up and
how, a history fetch reports to the admin who asked and nobody else, and a command that
partly succeeds says what was done and what was not."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from bot.core.history import Progress
from bot.core.port import Caller, CommandEvent, HistoryChannel, HistoryPage
from bot.core.router import Core
from bot.core.settings import workspace_settings
from bot.ops.config import load_config
from storage.records import ChannelRecord, MessageRecord, PersonRecord, WorkspaceRecord
from tests.fakes.fakeport import FakePort

LAB = WorkspaceRecord("slack", "T1", "Lab")
ADMIN = Caller("UADMIN", "Ada Admin", is_admin=True)
NOW = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)


def run(coro):
    return asyncio.run(coro)


@pytest.fixture
def port() -> FakePort:
    # #nosuch and #nowhere are another workspace's: not found in this one.
    return FakePort(
        channel_ids={"hero-run": "C01HERO", "introductions": "C01INTRO", "review": "C01REV"},
        foreign={"nosuch": "T9", "nowhere": "T9"},
    )


@pytest.fixture
def core(sessions, port) -> Core:
    return Core(sessions, load_config(), port, clock=lambda: NOW)


def command(core: Core, text: str, caller: Caller = ADMIN):
    return run(core.on_command(CommandEvent(LAB, caller, text, "CHERE")))


def test_status_lists_what_is_still_to_set_up_with_the_commands(core) -> None:
    status = command(core, "status").text
    assert status.splitlines()[-5:] == [
        "Still to set up (by an admin):",
        "- a review channel: `/summary review-channel #channel`",
        "- a publish channel: `/summary publish add #channel`",
        "- editors: `/summary editors add @person`",
        "- channels to log: `/summary channels add #channel`",
    ]
    assert status.startswith("Logging 0 channels; review channel: not set;")

    for text in (
        "channels add #hero-run",
        "review-channel #review",
        "publish add #review",
        "editors add <@UEVE>",
    ):
        assert command(core, text).ok
    status = command(core, "status").text
    assert "Still to set up" not in status and status.startswith("Logging 1 channel;")


def test_a_partly_done_command_says_what_was_done_and_what_was_not(core, sessions) -> None:
    reply = command(core, "channels add introductions #nosuch")
    assert reply.ok
    assert reply.text.startswith("Logging #introductions from now on.")
    assert "\n#nosuch was not found in this workspace, so it was not added." in reply.text
    several = command(core, "channels add #hero-run #nosuch #nowhere").text
    assert "\n#nosuch and #nowhere were not found in this workspace, so they were not added." in (
        several
    )
    with sessions() as session:
        assert workspace_settings(session, core.config, 1).channels == ["C01HERO", "C01INTRO"]
    # None found: nothing is done, and the answer says so.
    refused = command(core, "channels add #nosuch #nowhere")
    assert (
        not refused.ok and refused.text == "#nosuch and #nowhere were not found in this workspace."
    )


class _OneChannelHistory:
    """A platform's history of one channel: one page of two messages since any time."""

    async def workspaces(self) -> list[WorkspaceRecord]:
        return [LAB]

    async def channel(self, workspace: WorkspaceRecord, ref: str) -> HistoryChannel:
        return HistoryChannel(ref, ref, self._sources)

    async def _sources(self) -> list[_Source]:
        return [_Source()]


class _Source:
    channel_id = "C01HERO"

    async def pages(self, since: datetime) -> AsyncIterator[HistoryPage]:
        channel = ChannelRecord("C01HERO", "hero-run")
        messages = [
            MessageRecord(
                platform_id=f"C01HERO:{n}",
                author=PersonRecord("U1", "Ana Ruiz"),
                created_at=since + timedelta(hours=n),
                text=f"Status {n}",
            )
            for n in (1, 2)
        ]
        yield HistoryPage(channel, messages, frozenset(m.platform_id for m in messages))

    def threads_read(self) -> None:
        return None


def test_history_progress_goes_to_the_admin_who_asked_only(sessions, port) -> None:
    core = Core(sessions, load_config(), port, clock=lambda: NOW, history=_OneChannelHistory())

    async def scenario() -> None:
        reply = await core.on_command(CommandEvent(LAB, ADMIN, "channels add #hero-run", "CHERE"))
        assert reply.ok and reply.private
        await asyncio.gather(*core._background)

    run(scenario())
    assert port.told == [
        ("UADMIN", "Fetching #C01HERO history since 2026-11-16…"),
        ("UADMIN", "#C01HERO: 2 messages stored since 2026-11-16."),
    ]
    assert not port.in_channel("CHERE") and not port.in_channel("C01HERO")


@pytest.mark.parametrize(("stored", "said"), [(1, "1 message"), (1200, "1,200 messages")])
def test_history_counts_read_well(port, stored, said) -> None:
    progress = Progress(port, "UADMIN", "CHERE")

    async def scenario() -> None:
        await progress.begin("hero-run", datetime(2026, 11, 16, tzinfo=UTC))
        await progress.add(str(n) for n in range(stored))
        await progress.end()

    run(scenario())
    assert port.told[-1] == ("UADMIN", f"#hero-run: {said} stored since 2026-11-16.")
