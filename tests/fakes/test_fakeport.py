"""The in-memory chat port the core's tests drive: what it records and how it fails."""

from __future__ import annotations

import asyncio

import pytest

from bot.core.port import Button, ChatPort
from storage.records import WorkspaceRecord
from tests.fakes.fakeport import FakePort, InjectedFailure


def test_it_is_a_chat_port_that_keeps_threads_and_edits() -> None:
    port: ChatPort = FakePort()

    async def go():
        header = await port.post("C1", "header", [Button("Approve", "approve:1")])
        reply = await port.reply(header, "section")
        await port.update(reply, "section, edited")
        return header

    header = asyncio.run(go())
    assert [m.text for m in port.in_channel("C1")] == ["header"]
    (sent,) = port.thread(header)
    assert (sent.text, sent.edits) == ("section, edited", 1)
    assert port.calls == ["post", "reply", "update"]


def test_an_injected_failure_happens_once_after_the_given_calls() -> None:
    port = FakePort()
    port.fail("post", after=1)

    async def go():
        await port.post("C1", "first")
        with pytest.raises(InjectedFailure):
            await port.post("C1", "second")
        await port.post("C1", "third")

    asyncio.run(go())
    assert [m.text for m in port.in_channel("C1")] == ["first", "third"]


def test_it_refuses_what_a_platform_would() -> None:
    port = FakePort(max_message_chars=10)
    with pytest.raises(AssertionError, match="over the platform limit"):
        asyncio.run(port.post("C1", "x" * 11))


def test_channels_and_roles_are_found_in_their_own_workspace_only() -> None:
    a, b = WorkspaceRecord("discord", "A", "A"), WorkspaceRecord("discord", "B", "B")
    port = FakePort(foreign={"announcements": "A"}, roles={"A": {"Editors": "r1"}})

    async def go():
        return [
            await port.find_channel(a, "announcements"),
            await port.find_channel(b, "announcements"),
            await port.find_channel(b, "general"),
            await port.find_role(a, "Editors"),
            await port.find_role(a, "r1"),
            await port.find_role(b, "Editors"),
        ]

    assert asyncio.run(go()) == ["announcements", None, "general", "r1", "r1", None]
