"""Members' news in the core: the grammar, a reaction on a stored message, forget-me (what a
member sent goes, and nothing more is taken from them), and the admin's settings."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.core.command_registry import parse
from bot.core.commands import CommandError, MemberNewsSet, NewsSubmit
from bot.core.port import Caller, MessageEvent
from bot.core.router import Core
from storage.records import MessageRecord, PersonRecord
from tests.core.test_access import (
    ADMIN_A,
    GUILD_A,
    HERO,
    MONDAY,
    command,
    core,  # noqa: F401
    port,  # noqa: F401
    run,
    set_up,
)
from tests.support.waiting import submissions

ANA = Caller("ana", "Ana Ruiz")
BEN = PersonRecord("ben", "Ben Cho")


def test_the_grammar() -> None:
    assert parse('news We shipped "v2"\nwith notes') == NewsSubmit('We shipped "v2"\nwith notes')
    assert parse("member-news off") == MemberNewsSet(on=False)
    assert parse("member-news on reaction :tada:") == MemberNewsSet(True, ":tada:")
    assert parse("member-news reaction 📰") == MemberNewsSet(None, "📰")
    for wrong in ("news", "member-news", "member-news maybe", "member-news reaction a b"):
        with pytest.raises(CommandError, match="Usage: /summary"):
            parse(wrong)


def test_a_reaction_sends_a_stored_message_in(core: Core, sessions) -> None:  # noqa: F811
    set_up(core, GUILD_A, ADMIN_A)
    message = MessageRecord("m1", BEN, MONDAY + timedelta(hours=1), "Iris scheduler v2 is live")
    assert run(core.on_message(MessageEvent(GUILD_A, HERO, message)))
    run(core.on_reaction(GUILD_A, "m1", +1, "👀", PersonRecord("ana", "Ana Ruiz")))
    run(core.on_reaction(GUILD_A, "m9", +1, "📰", PersonRecord("ana", "Ana Ruiz")))  # unknown
    run(core.on_reaction(GUILD_A, "m1", +1, "📰", PersonRecord("bot", "CI", is_bot=True)))
    assert submissions(sessions) == []
    run(core.on_reaction(GUILD_A, "m1", +1, "📰", PersonRecord("ana", "Ana Ruiz")))
    assert submissions(sessions) == [("Ana Ruiz", "Iris scheduler v2 is live", "m1")]


def test_forget_me_takes_what_a_member_sent_and_stops_them_sending(
    core: Core,  # noqa: F811
    sessions,
) -> None:
    set_up(core, GUILD_A, ADMIN_A)
    message = MessageRecord("m1", BEN, MONDAY + timedelta(hours=1), "Iris scheduler v2 is live")
    assert run(core.on_message(MessageEvent(GUILD_A, HERO, message)))
    assert command(core, GUILD_A, ANA, "news The loader is 2x faster").ok
    run(core.on_reaction(GUILD_A, "m1", +1, "📰", PersonRecord("ana", "Ana Ruiz")))
    assert len(submissions(sessions)) == 2

    assert command(core, GUILD_A, ANA, "forget-me").ok
    assert submissions(sessions) == []
    refused = command(core, GUILD_A, ANA, "news Another thing")
    assert not refused.ok and "opted out" in refused.text
    run(core.on_reaction(GUILD_A, "m1", +1, "📰", PersonRecord("ana", "Ana Ruiz")))
    assert submissions(sessions) == []


def test_news_too_long_is_refused_and_nothing_is_stored(core: Core, sessions) -> None:  # noqa: F811
    set_up(core, GUILD_A, ADMIN_A)
    reply = command(core, GUILD_A, ANA, "news " + "x" * 2_001)
    assert not reply.ok and "2,001 characters" in reply.text
    assert submissions(sessions) == []


def test_an_invalid_reaction_setting_is_refused(core: Core) -> None:  # noqa: F811
    reply = command(core, GUILD_A, ADMIN_A, "member-news reaction ::")
    assert not reply.ok and "one emoji" in reply.text
    shown = command(core, GUILD_A, ADMIN_A, "member-news on")
    assert shown.text.startswith("Members' news is on") and "📰 or :newspaper:" in shown.text
