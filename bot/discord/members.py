"""Who a guild member is now, outside any interaction (the review page asks on every
request)."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.core.port import Caller


class DiscordMembers:
    """The core's `Members` on discord.py."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def member(
        self, workspace_id: str, user_id: str, role_ids: Sequence[str]
    ) -> Caller | None:
        """The cached member when the gateway keeps members (the members intent), else asked
        over REST; None when they are not a member (left, kicked) or the bot is not in the
        guild. Manage Server is the member's guild-wide permission, as their roles and the
        guild's owner give it. Every role id is given: Discord says them all at once."""
        guild = self.client.get_guild(int(workspace_id))
        if guild is None or not user_id.isdigit():
            return None
        member = guild.get_member(int(user_id))
        if member is None:
            try:
                member = await guild.fetch_member(int(user_id))
            except (discord.NotFound, discord.Forbidden):
                return None
        return Caller(
            str(member.id),
            member.display_name,
            member.guild_permissions.manage_guild,
            tuple(str(r.id) for r in member.roles),
        )
