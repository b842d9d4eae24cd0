"""`SummaryClient._guard_parsers` wraps a private part of discord.py (written for 2.7, the
version pyproject.toml pins): the client state's `parsers` table, which the gateway reads
each event's parser from. These tests fail when that part moves, so an upgrade that breaks
the guard is seen before a malformed event ends a connection in production."""

from __future__ import annotations

import inspect
import logging

from discord.gateway import DiscordWebSocket

from bot.discord.client import SummaryClient


class _Core:
    """A core no event reaches in these tests."""


def client() -> SummaryClient:
    return SummaryClient(lambda outbound: _Core())  # type: ignore[arg-type, return-value]


def test_the_gateway_still_reads_each_parser_from_the_client_state() -> None:
    assert "client._connection.parsers" in inspect.getsource(DiscordWebSocket.from_client)
    assert "self._discord_parsers[event]" in inspect.getsource(DiscordWebSocket.received_message)


def test_every_event_parser_is_guarded(caplog) -> None:
    parsers = client()._connection.parsers
    assert {"MESSAGE_CREATE", "MESSAGE_UPDATE", "MESSAGE_DELETE", "GUILD_CREATE"} <= set(parsers)
    assert all(parse.__qualname__ == "_guarded.<locals>.call" for parse in parsers.values())
    with caplog.at_level(logging.ERROR):
        parsers["MESSAGE_UPDATE"]({"id": "1", "channel_id": "2"})  # no `type`: dropped, logged
    assert "dropped a malformed MESSAGE_UPDATE event" in caplog.text
