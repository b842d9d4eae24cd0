"""Discord's slash commands, generated from the command registry (`bot.core.command_registry`):
`/summary` (drafts, review, status: for everyone; the core decides who may do what) and
`/summary-admin` (settings), which Discord hides from members without Manage Server by
default (a default permission applies to a top-level command only, hence two commands).

Each native subcommand's options become Discord options: channel, member and role pickers,
choices, ranges, and autocomplete for topics, sections and drafts. Their values build the
core's command directly, typed; nothing is written back into text.
"""

from __future__ import annotations

import hashlib
import inspect
import json
from collections.abc import Callable
from typing import Any, Literal

import discord
from discord import app_commands

from bot.core import command_registry as registry
from bot.core.command_registry import Native, Option, OptionType, Value, Who
from bot.core.suggest import Kind
from bot.discord.translate import workspace_of

ADMIN_PERMISSIONS = discord.Permissions(manage_guild=True)

_PICKERS: dict[OptionType, type] = {
    OptionType.TEXT: str,
    OptionType.INTEGER: int,
    OptionType.BOOLEAN: bool,
    OptionType.CHANNEL: discord.TextChannel,
    OptionType.MEMBER: discord.Member,
    OptionType.ROLE: discord.Role,
}


async def _choices(
    interaction: discord.Interaction, kind: Kind, current: str
) -> list[app_commands.Choice[str]]:
    if interaction.guild is None:
        return []
    core = interaction.client.core  # type: ignore[attr-defined]
    found = await core.suggest(workspace_of(interaction.guild), kind, current)
    return [app_commands.Choice(name=label[:100], value=value) for label, value in found]


def _suggester(kind: Kind) -> Callable[..., Any]:
    async def suggest(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await _choices(interaction, kind, current)

    return suggest


def _annotation(option: Option) -> Any:
    """The Python type discord.py reads the option's Discord type from."""
    annotation: Any = _PICKERS[option.type]
    if option.choices:
        annotation = Literal[option.choices]
    elif option.range is not None:
        annotation = app_commands.Range[int, option.range[0], option.range[1]]
    return annotation if option.required else annotation | None


def _core_value(value: object) -> Value:
    """A picked channel or member as its id, a role as "role:ID"; other values as given."""
    if isinstance(value, discord.Role):
        return f"role:{value.id}"
    if isinstance(value, discord.abc.Snowflake):
        return str(value.id)
    return value  # type: ignore[return-value]


def _command(native: Native) -> app_commands.Command[Any, ..., None]:
    """The subcommand: its options typed, and a callback that builds the core's command."""

    async def callback(interaction: discord.Interaction, **values: object) -> None:
        typed = {name: _core_value(value) for name, value in values.items()}
        await interaction.client.run_command(  # type: ignore[attr-defined]
            interaction, lambda: registry.build(native, typed)
        )

    parameters = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    for option in native.options:
        parameters.append(
            inspect.Parameter(
                option.name,
                inspect.Parameter.KEYWORD_ONLY,
                annotation=_annotation(option),
                default=inspect.Parameter.empty if option.required else None,
            )
        )
    callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    described = {o.name: o.help for o in native.options if o.help}
    if described:
        app_commands.describe(**described)(callback)
    renamed = {o.name: o.label for o in native.options if o.label}
    if renamed:
        app_commands.rename(**renamed)(callback)
    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name=native.path[-1], description=native.description, callback=callback
    )
    for option in native.options:
        if option.suggest is not None:
            command.autocomplete(option.name)(_suggester(option.suggest))
    return command


def _in_settings(native: Native, natives: list[Native]) -> bool:
    """Whether a subcommand belongs under `/summary-admin`: an admin's, or one of a group
    that holds an admin's (`channels list` stays beside `channels add`)."""
    if len(native.path) == 1:
        return native.who is Who.ADMINS
    group = native.path[:-1]
    return any(other.who is Who.ADMINS for other in natives if other.path[:-1] == group)


def _tree(root: app_commands.Group, natives: list[Native]) -> app_commands.Group:
    """`root` with the subcommands, nested by their paths."""
    groups: dict[tuple[str, ...], app_commands.Group] = {(): root}
    for native in natives:
        parent = native.path[:-1]
        if parent not in groups:
            description = registry.verb(parent[0]).description
            groups[parent] = app_commands.Group(name=parent[-1], description=description)
            groups[parent[:-1]].add_command(groups[parent])
        groups[parent].add_command(_command(native))
    return root


def summary_group() -> app_commands.Group:
    """`/summary`: help, status, drafting, review and approval, news, forget-me."""
    group = app_commands.Group(
        name="summary", description="The weekly summary: drafts, review, approval", guild_only=True
    )
    natives = registry.natives()
    return _tree(group, [n for n in natives if not _in_settings(n, natives)])


def admin_group() -> app_commands.Group:
    """`/summary-admin`: the settings, for admins only."""
    group = app_commands.Group(
        name="summary-admin",
        description="Summary settings: channels, review, publishing, editors, schedule",
        guild_only=True,
        default_permissions=ADMIN_PERMISSIONS,
    )
    natives = registry.natives()
    return _tree(group, [n for n in natives if _in_settings(n, natives)])


def definition_hash(tree: app_commands.CommandTree) -> str:
    """A hash of the commands as they would be synced: sync only when it changes."""
    payload = [command.to_dict(tree) for command in tree.get_commands()]
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
