"""Discord's slash commands: `/summary` (drafts, review, status: for everyone; the core
decides who may do what) and `/summary-admin` (settings), which Discord hides from members
without Manage Server by default (a default permission applies to a top-level command only,
hence two commands).

Subcommands have native options: channel, member and role pickers, and autocomplete for
topics, sections and drafts. Each one writes the text of the one command grammar
(`bot.core.command_parser`) that Slack's `/summary` uses, and hands it to the client's
`run_text`: there is no second parser.
"""

from __future__ import annotations

import hashlib
import json
import shlex
from typing import Any, Literal

import discord
from discord import app_commands

from bot.core.suggest import Kind
from bot.discord.translate import workspace_of

ADMIN_PERMISSIONS = discord.Permissions(manage_guild=True)


async def _run(interaction: discord.Interaction, *words: str | None) -> None:
    """Run the command the words spell (None words left out)."""
    text = " ".join(w for w in words if w)
    await interaction.client.run_text(interaction, text)  # type: ignore[attr-defined]


def _quoted(value: str | None) -> str | None:
    """A free-text argument, quoted for the grammar's shell-like splitting."""
    return None if value is None else shlex.quote(value)


def _in_draft(draft: str | None) -> tuple[str | None, ...]:
    """The grammar's `--draft ID`, when a draft was picked."""
    return () if draft is None else ("--draft", _quoted(draft))


def _channel(channel: discord.abc.GuildChannel | app_commands.AppCommandChannel) -> str:
    return f"<#{channel.id}>"


def _who(member: discord.Member | None, role: discord.Role | None) -> list[str]:
    who = [] if member is None else [f"<@{member.id}>"]
    return who if role is None else [*who, f"<@&{role.id}>"]


async def _choices(
    interaction: discord.Interaction, kind: Kind, current: str
) -> list[app_commands.Choice[str]]:
    if interaction.guild is None:
        return []
    core = interaction.client.core  # type: ignore[attr-defined]
    found = await core.suggest(workspace_of(interaction.guild), kind, current)
    return [app_commands.Choice(name=label[:100], value=value) for label, value in found]


async def _topics(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return await _choices(interaction, "topic", current)


async def _sections(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    return await _choices(interaction, "section", current)


async def _drafts(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return await _choices(interaction, "draft", current)


def summary_group() -> app_commands.Group:
    """`/summary`: help, status, drafting, review and approval, forget-me."""
    group = app_commands.Group(
        name="summary", description="The weekly summary: drafts, review, approval", guild_only=True
    )

    @group.command(name="help", description="What the commands do")
    async def help_(interaction: discord.Interaction) -> None:
        await _run(interaction, "help")

    @group.command(description="The current draft and the settings")
    async def status(interaction: discord.Interaction) -> None:
        await _run(interaction, "status")

    @group.command(description="Draft a week's summary now (editors)")
    @app_commands.describe(
        week="Any day of the week, YYYY-MM-DD (default: last week)",
        open_week="Draft it even though the week has not ended",
    )
    @app_commands.rename(open_week="open")
    async def draft(
        interaction: discord.Interaction, week: str | None = None, open_week: bool = False
    ) -> None:
        await _run(interaction, "draft", _quoted(week), "--open" if open_week else None)

    for verb, purpose in (
        ("approve", "Approve a draft (editors)"),
        ("regenerate", "Draft again from the logged messages (editors)"),
        ("discard", "Throw a draft away (editors)"),
        ("publish", "Publish an approved draft (editors)"),
    ):
        group.add_command(_draft_command(verb, purpose))

    @group.command(description="Replace a section's text (editors)")
    @app_commands.describe(
        section="The section (pick one)",
        text="Its new text",
        draft="Another draft's id (default: the draft under review)",
    )
    @app_commands.autocomplete(section=_sections, draft=_drafts)
    async def edit(
        interaction: discord.Interaction, section: str, text: str, draft: str | None = None
    ) -> None:
        await _run(interaction, "edit", _quoted(section), *_in_draft(draft), text)

    @group.command(description="A section's earlier versions")
    @app_commands.describe(draft="Another draft's id (default: the draft under review)")
    @app_commands.autocomplete(section=_sections, draft=_drafts)
    async def history(
        interaction: discord.Interaction, section: str, draft: str | None = None
    ) -> None:
        await _run(interaction, "history", _quoted(section), *_in_draft(draft))

    @group.command(description="Send news in for this week's summary")
    @app_commands.describe(text="Your news, as it should read")
    async def news(interaction: discord.Interaction, text: str) -> None:
        await _run(interaction, "news", text)

    @group.command(name="forget-me", description="Delete your logged messages")
    async def forget_me(interaction: discord.Interaction) -> None:
        await _run(interaction, "forget-me")

    return group


def _draft_command(verb: str, purpose: str) -> app_commands.Command:
    async def act(interaction: discord.Interaction, draft: str | None = None) -> None:
        await _run(interaction, verb, _quoted(draft))

    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name=verb, description=purpose, callback=act
    )
    command.autocomplete("draft")(_drafts)
    return command


def admin_group() -> app_commands.Group:
    """`/summary-admin`: the settings, for admins only."""
    group = app_commands.Group(
        name="summary-admin",
        description="Summary settings: channels, review, publishing, editors, schedule",
        guild_only=True,
        default_permissions=ADMIN_PERMISSIONS,
    )
    group.add_command(_channel_list("channels", "Which channels are logged"))
    group.add_command(_channel_list("publish", "Where approved summaries are posted"))
    group.add_command(_people("editors", "Who edits and approves drafts"))
    group.add_command(_people("admins", "Who changes settings"))
    group.add_command(_topics_group())
    group.add_command(_schedule_group())

    @group.command(name="review-channel", description="Where drafts are posted for review")
    async def review_channel(
        interaction: discord.Interaction, channel: discord.TextChannel
    ) -> None:
        await _run(interaction, "review-channel", _channel(channel))

    @group.command(description="The repository a bare #123 refers to")
    @app_commands.describe(name="owner/name")
    async def repo(interaction: discord.Interaction, name: str) -> None:
        await _run(interaction, "repo", _quoted(name))

    @group.command(description="How long logged messages are kept")
    async def retention(
        interaction: discord.Interaction, days: app_commands.Range[int, 1, 36500]
    ) -> None:
        await _run(interaction, "retention", str(days))

    @group.command(description="Which drafter writes the draft")
    async def summarizer(
        interaction: discord.Interaction, name: Literal["extractive", "llm"]
    ) -> None:
        await _run(interaction, "summarizer", name)

    @group.command(name="member-news", description="Whether members send news, and how")
    @app_commands.describe(
        turn="On or off", reaction="The reaction that sends a message in (default 📰)"
    )
    async def member_news(
        interaction: discord.Interaction,
        turn: Literal["on", "off"] | None = None,
        reaction: str | None = None,
    ) -> None:
        words = [turn] + (["reaction", _quoted(reaction)] if reaction else [])
        await _run(interaction, "member-news", *words)

    @group.command(description="Recent settings changes")
    async def audit(interaction: discord.Interaction) -> None:
        await _run(interaction, "audit")

    return group


def _channel_list(name: str, purpose: str) -> app_commands.Group:
    """`channels` or `publish`: list, add #channel, remove #channel."""
    group = app_commands.Group(name=name, description=purpose)

    @group.command(name="list", description=purpose)
    async def list_(interaction: discord.Interaction) -> None:
        await _run(interaction, name, "list" if name == "publish" else None)

    @group.command(description="Add a channel")
    async def add(interaction: discord.Interaction, channel: discord.TextChannel) -> None:
        await _run(interaction, name, "add", _channel(channel))

    @group.command(description="Remove a channel")
    async def remove(interaction: discord.Interaction, channel: discord.TextChannel) -> None:
        await _run(interaction, name, "remove", _channel(channel))

    return group


def _people(name: str, purpose: str) -> app_commands.Group:
    """`editors` or `admins`: list, add or remove a member and/or a role."""
    group = app_commands.Group(name=name, description=purpose)

    @group.command(name="list", description=purpose)
    async def list_(interaction: discord.Interaction) -> None:
        await _run(interaction, name)

    @group.command(description="Add a member or a role")
    async def add(
        interaction: discord.Interaction,
        member: discord.Member | None = None,
        role: discord.Role | None = None,
    ) -> None:
        await _run(interaction, name, "add", *_who(member, role))

    @group.command(description="Remove a member or a role")
    async def remove(
        interaction: discord.Interaction,
        member: discord.Member | None = None,
        role: discord.Role | None = None,
    ) -> None:
        await _run(interaction, name, "remove", *_who(member, role))

    return group


def _topics_group() -> app_commands.Group:
    group = app_commands.Group(name="topics", description="The summary's sections")

    @group.command(name="list", description="The topics, in section order")
    async def list_(interaction: discord.Interaction) -> None:
        await _run(interaction, "topics")

    @group.command(description="Add or replace a topic")
    @app_commands.describe(
        id="Short id, e.g. rl",
        title="Section title",
        keywords="Comma-separated keywords",
        channels="Comma-separated channel names",
        patterns="Comma-separated regular expressions",
    )
    @app_commands.autocomplete(id=_topics)
    async def add(
        interaction: discord.Interaction,
        id: str,
        title: str,
        keywords: str | None = None,
        channels: str | None = None,
        patterns: str | None = None,
    ) -> None:
        options = [
            f"{key}={shlex.quote(value)}"
            for key, value in (
                ("keywords", keywords),
                ("channels", channels),
                ("patterns", patterns),
            )
            if value
        ]
        await _run(interaction, "topics add", _quoted(id), _quoted(title), *options)

    @group.command(description="Remove a topic")
    @app_commands.autocomplete(id=_topics)
    async def remove(interaction: discord.Interaction, id: str) -> None:
        await _run(interaction, "topics remove", _quoted(id))

    return group


def _schedule_group() -> app_commands.Group:
    group = app_commands.Group(name="schedule", description="When the weekly draft is made")

    @group.command(description="When the weekly draft is made")
    async def show(interaction: discord.Interaction) -> None:
        await _run(interaction, "schedule")

    @group.command(name="set", description="Change when the weekly draft is made")
    @app_commands.describe(when='"mon 09:00" or a cron line', timezone="e.g. Europe/Amsterdam")
    async def set_(
        interaction: discord.Interaction, when: str, timezone: str | None = None
    ) -> None:
        await _run(interaction, "schedule", _quoted(when), _quoted(timezone))

    return group


def definition_hash(tree: app_commands.CommandTree) -> str:
    """A hash of the commands as they would be synced: sync only when it changes."""
    payload = [command.to_dict(tree) for command in tree.get_commands()]
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
