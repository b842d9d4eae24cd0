"""Who a Slack user is, as the core's `Caller`: their name, the admin flag and, of the user
groups the workspace's editors and admins name, those they belong to."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.port import Caller
from bot.slack.directory import Directory


class SlackMembers:
    """The core's `Members` on Slack (and the `Caller` of every interaction)."""

    def __init__(self, directory: Directory) -> None:
        self.directory = directory

    async def caller(self, user_id: str, role_ids: Sequence[str]) -> Caller:
        """Who acts, with the user groups among `role_ids` they belong to."""
        user = await self.directory.member(user_id)
        name = (user.get("profile") or {}).get("real_name") or user.get("real_name") or user_id
        groups = await self.directory.groups_of(user_id, list(role_ids))
        is_admin = bool(user.get("is_admin") or user.get("is_owner"))
        return Caller(user_id, name, is_admin, groups)

    async def member(
        self, workspace_id: str, user_id: str, role_ids: Sequence[str]
    ) -> Caller | None:
        """Who a review-page user is now in this workspace (None in another team, or once
        deactivated)."""
        workspace = await self.directory.workspace()
        if workspace_id != workspace.platform_id:
            return None
        if (await self.directory.member(user_id)).get("deleted"):
            return None
        return await self.caller(user_id, role_ids)
