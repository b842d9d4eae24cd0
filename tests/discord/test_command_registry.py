"""The command registry (`bot.core.command_registry`): a command declared there once is in
Slack's text grammar and in Discord's slash commands, and a Discord option reaches the core
typed, as the command it builds, with no text in between."""

from __future__ import annotations

import asyncio
from datetime import date

from discord import app_commands

from bot.core import command_registry as registry
from bot.core.commands import (
    CommandError,
    EditorsAdd,
    History,
    RetentionSet,
    StartDraft,
    SummarizerSet,
    TopicsAdd,
)
from bot.core.port import CommandEvent
from bot.discord.commands import admin_group, summary_group
from tests.discord.test_week import ADMIN, EDITOR, Bot, populate
from tests.fakes.fakediscord import FakeDiscord

ROLE = "1500000000000000001"


def leaves(group: app_commands.Group, path: tuple[str, ...] = ()) -> set[tuple[str, ...]]:
    """The subcommands under `group`, by their path below it."""
    found: set[tuple[str, ...]] = set()
    for child in group.commands:
        if isinstance(child, app_commands.Group):
            found |= leaves(child, (*path, child.name))
        else:
            found.add((*path, child.name))
    return found


def test_each_declared_command_is_in_the_text_grammar_and_the_discord_tree() -> None:
    declared = {native.path for native in registry.natives()}
    on_discord = leaves(summary_group()) | leaves(admin_group())
    # Every native subcommand declared is on Discord, and Discord has nothing else; the
    # one name (`publish`) on both is /summary publish and /summary-admin publish list|...
    assert on_discord == declared
    assert len(leaves(summary_group()) & leaves(admin_group())) == 0
    # Every verb is in Slack's grammar and its help.
    for verb in registry.VERBS:
        try:
            registry.parse(verb.name)
        except CommandError as error:
            assert not str(error).startswith("Unknown command"), verb.name
        assert verb.syntax in registry.USAGE


def test_a_native_subcommand_and_its_text_build_the_same_command() -> None:
    topics_add = next(n for n in registry.natives() if n.path == ("topics", "add"))
    typed = registry.build(
        topics_add,
        {"id": "evals", "title": " Evals ", "keywords": "GSM8K, MMLU", "patterns": r"a{1,3}"},
    )
    written = registry.parse('topics add evals " Evals " keywords="GSM8K, MMLU" patterns=a{1,3}')
    assert typed == written == TopicsAdd("evals", "Evals", ("GSM8K", "MMLU"), (), ("a{1,3}",))


def test_a_discord_option_reaches_the_core_typed(sessions, monkeypatch) -> None:
    async def scenario() -> None:
        async with FakeDiscord() as fake:
            populate(fake)
            fake.add_role(ROLE, "Editors")
            undo = fake.patch()
            try:
                bot = Bot(fake, sessions)
                async with bot.running():
                    received: list[CommandEvent] = []
                    on_command = bot.core.on_command

                    async def recording(event: CommandEvent):  # noqa: ANN202
                        received.append(event)
                        return await on_command(event)

                    monkeypatch.setattr(bot.core, "on_command", recording)
                    await bot.slash(ADMIN, "summary-admin", "retention", days=30)
                    await bot.slash(ADMIN, "summary-admin", "summarizer", name="llm")
                    await bot.slash(
                        ADMIN, "summary-admin", "editors", "add", member=EDITOR, role=ROLE
                    )
                    await bot.slash(ADMIN, "summary", "draft", week="2026-11-16", open=True)
                    await bot.slash(ADMIN, "summary", "history", section="Evals", draft="7")
                    assert [event.text for event in received] == [
                        RetentionSet(30),
                        SummarizerSet("llm"),
                        EditorsAdd((EDITOR, f"role:{ROLE}")),
                        StartDraft(date(2026, 11, 16), open_week=True),
                        History("Evals", 7),
                    ]
                    # A wrong value is refused as the grammar refuses it; the core sees nothing.
                    wrong = await bot.slash(ADMIN, "summary", "approve", draft="seven")
                    assert wrong["content"] == (
                        "The draft number must be a positive whole number, not 'seven'. "
                        "Usage: /summary approve [DRAFT]"
                    )
                    assert len(received) == 5
            finally:
                undo()

    asyncio.run(asyncio.wait_for(scenario(), 60))
