"""Hostile commands, button presses and editor submissions: each is answered with a clear,
private refusal or handled correctly; none raises, hangs, or changes what is stored."""

from __future__ import annotations

import asyncio
import time

import pytest
from sqlalchemy import func, select

from bot.core.port import ButtonPress, CommandEvent, EditorSubmit, Reply
from bot.core.router import Core
from bot.ops.config import load_config
from storage.models import DraftRow, SectionRevision, Setting, SettingChange
from tests.core.test_router import ADMIN, EDITOR, HERO, LAB, MEMBER, NOW, chat, set_up
from tests.fakes.fakeport import FakePort

COMMANDS = [
    "",
    " " * 10_000,
    "\x00\x00\x00",
    "channels add " + "#" * 10_000,
    "channels add <#" + "9" * 5_000 + ">",
    "topics add " + "x" * 5_000,
    'topics add evil "Evil" patterns=(a+)+$',
    'topics add evil "Evil" patterns=[',
    "schedule " + "mon 09:00 " * 500,
    "schedule mon 25:99 Mars/Olympus",
    "editors add <@" + "U" * 5_000 + ">",
    "editors add role:" + "x" * 5_000,
    "retention -1",
    "retention 99999999999999999999999",
    "edit 99999999999999999999999 text",
    "edit -1 text",
    "edit hero-run " + "a" * 200_000,
    "history \u202e1",
    "approve 0",
    "publish 18446744073709551616",
    "summarizer rm -rf /",
    "[/] [bold] :smile: <!here> @everyone",
    "\ud800 lone surrogate",
    "help " + "\u200b" * 1000,
]
ACTIONS = [
    "",
    "approve",
    "approve:",
    "approve:abc",
    "approve:-5",
    "approve:" + "9" * 5_000,
    "edit:1:2:3",
    "history:1e9",
    "regenerate:0x10",
    "unknown:1",
    "\x00:1",
]


@pytest.fixture
def core(sessions) -> Core:
    return Core(sessions, load_config(), FakePort(), clock=lambda: NOW)


def counts(sessions) -> tuple[int, ...]:
    with sessions() as session:
        return tuple(
            session.scalar(select(func.count()).select_from(model))
            for model in (DraftRow, SectionRevision, Setting, SettingChange)
        )


def answer(core: Core, event) -> Reply | None:
    started = time.perf_counter()
    if isinstance(event, CommandEvent):
        reply = asyncio.run(core.on_command(event))
    elif isinstance(event, ButtonPress):
        reply = asyncio.run(core.on_button(event))
    else:
        reply = asyncio.run(core.on_editor_submit(event))
    assert time.perf_counter() - started < 10, "a hostile input must not stall the bot"
    return reply


@pytest.mark.parametrize("caller", [MEMBER, EDITOR], ids=["member", "editor"])
def test_hostile_commands_from_members_and_editors_change_no_setting(core, sessions, caller):
    set_up(core)
    chat(core, HERO, "1", "Ana Ruiz", "Hero run at 22.4% MFU with #812", 2)
    before = counts(sessions)
    for text in COMMANDS:
        reply = answer(core, CommandEvent(LAB, caller, text, "C-any"))
        assert reply is not None and reply.text, repr(text[:30])
        assert reply.private, repr(text[:30])
    after = counts(sessions)
    assert after[2:] == before[2:], "a member or editor changed a setting"


def test_hostile_commands_from_an_admin_are_refused_or_stored_sanely(core, sessions):
    set_up(core)
    for text in COMMANDS:
        reply = answer(core, CommandEvent(LAB, ADMIN, text, "C-any"))
        assert reply is not None and reply.text, repr(text[:30])
    # The bot still works afterwards: a normal command is answered.
    assert answer(core, CommandEvent(LAB, ADMIN, "status", "C-any")).ok


def test_hostile_button_presses_and_submissions_are_refused(core, sessions):
    set_up(core)
    before = counts(sessions)
    for action in ACTIONS:
        reply = answer(core, ButtonPress(LAB, EDITOR, action))
        assert reply is None or not reply.ok, repr(action[:30])
    for section_id in (0, -1, 2**63 - 1, 10**30):
        reply = answer(core, EditorSubmit(LAB, EDITOR, section_id, "x" * 100_000))
        assert reply is not None and not reply.ok
    assert counts(sessions) == before


def test_an_oversized_edit_is_refused_and_the_section_kept(core, sessions):
    set_up(core)
    chat(core, HERO, "1", "Ana Ruiz", "Hero run at 22.4% MFU with #812", 2)
    assert answer(core, CommandEvent(LAB, EDITOR, "draft 2026-11-18", "C-any")).ok
    before = counts(sessions)
    reply = answer(core, CommandEvent(LAB, EDITOR, "edit 1 " + "a" * 50_000, "C-any"))
    assert not reply.ok and "at most 40,000" in reply.text
    assert counts(sessions) == before
