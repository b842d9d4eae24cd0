"""The invite link and what it asks for."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import discord
import pytest
from typer.testing import CliRunner

from bot.discord.run import PERMISSIONS, application_id_from_token, invite_url
from bot.ops.cli import app


def test_the_invite_link_asks_for_exactly_the_permissions_the_bot_uses() -> None:
    query = parse_qs(urlparse(invite_url(1000000000000000001)).query)
    assert query["client_id"] == ["1000000000000000001"]
    assert query["scope"] == ["bot applications.commands"]
    granted = discord.Permissions(int(query["permissions"][0]))
    assert granted == PERMISSIONS
    assert {name for name, on in granted if on} == {
        "read_messages",
        "read_message_history",
        "send_messages",
        "create_public_threads",
        "send_messages_in_threads",
    }


def test_the_application_id_comes_from_the_token_or_the_option(monkeypatch) -> None:
    assert application_id_from_token("MTAwMDAwMDAwMDAwMDAwMDAwMQ.GXyz.abc") == 1000000000000000001
    with pytest.raises(ValueError, match="does not look like a Discord bot token"):
        application_id_from_token("not-a-token")
    runner = CliRunner()
    monkeypatch.setenv("DISCORD_TOKEN", "MTAwMDAwMDAwMDAwMDAwMDAwMQ.GXyz.abc")
    result = runner.invoke(app, ["discord", "invite-url"])
    assert result.exit_code == 0 and "client_id=1000000000000000001" in result.stdout
    monkeypatch.delenv("DISCORD_TOKEN")
    result = runner.invoke(app, ["discord", "invite-url"])
    assert result.exit_code == 2 and "set DISCORD_TOKEN" in result.stderr


def test_rest_and_gateway_can_be_pointed_elsewhere() -> None:
    from discord.gateway import DiscordWebSocket
    from discord.http import Route

    from bot.discord.run import point_at

    saved = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    try:
        point_at("http://127.0.0.1:9/api/v10/", "ws://127.0.0.1:9/gateway")
        assert Route.BASE == "http://127.0.0.1:9/api/v10"
        assert str(DiscordWebSocket.DEFAULT_GATEWAY) == "ws://127.0.0.1:9/gateway"
        point_at(None, None)  # unset: left as they are
        assert Route.BASE == "http://127.0.0.1:9/api/v10"
    finally:
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = saved
