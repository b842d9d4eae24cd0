"""Discord's `/summary` and `/summary-admin` slash commands, through the real discord.py
client against the fake Discord: their structure and default permissions as registered,
subcommands reaching the core as the one text grammar, autocomplete, and syncing only when
the definition changed."""

from __future__ import annotations

import asyncio

from bot.core.settings import workspace_settings
from bot.ops.config import load_config
from tests.discord.test_week import ADMIN, BEN, EDITOR, HERO, MANAGE_GUILD, Bot, populate
from tests.fakes.fakediscord import FakeDiscord
from tests.support.waiting import eventually

ROLE = "1500000000000000001"


def option(command: dict, *path: str) -> dict:
    for name in path:
        command = next(o for o in command["options"] if o["name"] == name)
    return command


def test_commands_are_registered_once_with_pickers_and_admin_permissions(sessions) -> None:
    async def scenario() -> None:
        async with FakeDiscord() as fake:
            populate(fake)
            fake.add_role(ROLE, "Editors")
            undo = fake.patch()
            try:
                first = Bot(fake, sessions)
                async with first.running():
                    await eventually(lambda: len(fake.commands_synced) == 2)
                    await check_structure(fake)
                    await check_invocations(fake, first)
                # The same definition at the next start: nothing is synced.
                second = Bot(fake, sessions)
                async with second.running():
                    await asyncio.sleep(0.2)
                assert len(fake.commands_synced) == 2
                # A changed definition is synced again (globally only).
                third = Bot(fake, sessions)
                third.client.tree.get_command("summary").description = "Changed"
                async with third.running():
                    await eventually(lambda: len(fake.commands_synced) == 3)
                assert fake.commands_synced[-1]["guild_id"] is None
            finally:
                undo()

    asyncio.run(asyncio.wait_for(scenario(), 60))


async def check_structure(fake: FakeDiscord) -> None:
    # One global sync, and the copies earlier versions made in the guild are removed.
    assert [s["guild_id"] for s in fake.commands_synced] == [None, fake.GUILD_ID]
    assert fake.commands_synced[1]["commands"] == []
    commands = fake.commands[None]
    assert set(commands) == {"summary", "summary-admin"}
    admin, summary = commands["summary-admin"], commands["summary"]
    # Members do not see the settings by default; everyone sees /summary.
    assert int(admin["default_member_permissions"]) == MANAGE_GUILD
    assert summary["default_member_permissions"] is None
    assert {o["name"] for o in admin["options"]} >= {
        "channels",
        "publish",
        "editors",
        "admins",
        "topics",
        "schedule",
        "review-channel",
        "audit",
    }
    assert option(admin, "channels", "add", "channel")["type"] == 7  # a channel picker
    assert option(admin, "editors", "add", "member")["type"] == 6  # a member picker
    assert option(admin, "editors", "add", "role")["type"] == 8  # a role picker
    assert option(admin, "topics", "remove", "id")["autocomplete"] is True
    assert option(summary, "edit", "section")["autocomplete"] is True
    assert option(summary, "approve", "draft")["autocomplete"] is True
    assert option(summary, "edit", "draft")["autocomplete"] is True
    assert [c["value"] for c in option(admin, "summarizer", "name")["choices"]] == [
        "extractive",
        "llm",
    ]


async def check_invocations(fake: FakeDiscord, bot: Bot) -> None:
    def settings():
        with bot.core.sessions() as session:
            return workspace_settings(session, load_config(), 1)

    # Each subcommand reaches the core as the shared grammar's text.
    reply = await bot.slash(ADMIN, "summary-admin", "editors", "add", member=EDITOR, role=ROLE)
    assert "Only" not in reply["content"]
    assert settings().editors == [EDITOR, f"role:{ROLE}"]
    await bot.slash(
        ADMIN,
        "summary-admin",
        "topics",
        "add",
        id="evals",
        title="Evals and benchmarks",
        keywords="GSM8K, MMLU",
    )
    (evals,) = [t for t in settings().topics if t.id == "evals"]
    assert evals.title == "Evals and benchmarks" and evals.keywords == ["GSM8K", "MMLU"]
    await bot.slash(ADMIN, "summary-admin", "schedule", "set", when="tue 10:00")
    assert settings().schedule == "tue 10:00"
    status = await bot.slash(BEN, "summary", "status")
    assert "Schedule: tue 10:00" in status["content"]
    # Another draft's section: the draft picked goes to the grammar as `--draft ID`.
    other = await bot.slash(ADMIN, "summary", "history", section="1", draft="99")
    assert other["content"] == "There is no draft 99."
    # The core still decides: a member's settings command is refused.
    refused = await bot.slash(BEN, "summary-admin", "channels", "add", channel=HERO)
    assert "Only workspace admins" in refused["content"]

    # Autocomplete offers the workspace's topics.
    data = fake.slash(
        "summary-admin",
        [
            {
                "name": "topics",
                "type": 2,
                "options": [
                    {
                        "name": "remove",
                        "type": 1,
                        "options": [{"name": "id", "type": 3, "value": "ev", "focused": True}],
                    }
                ],
            }
        ],
    )
    answer = await fake.interact(data, type_=4, user_id=ADMIN, channel_id=HERO)
    assert answer["type"] == 8
    assert answer["data"]["choices"] == [{"name": "Evals and benchmarks (evals)", "value": "evals"}]
