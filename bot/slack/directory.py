"""What the adapter needs to know about a Slack workspace, fetched once and cached:
the installation (team and app), people (names and admin flags), user groups' members and
channel names.

What decides access (a user's admin flag and deactivation, who is in a user group) is read
again after `ACCESS_TTL_S`, and at once after Slack's `user_change`, `subteam_updated` or
`subteam_members_changed` event (`forget_user`, `forget_group`): the TTL only bounds how long
a change lasts whose event was lost."""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.slack.messages import person_from_user
from storage.records import PersonRecord, WorkspaceRecord

log = logging.getLogger(__name__)

PLATFORM = "slack"
USER_TTL_S = 600.0  # names of the people in stored messages: re-read after ten minutes
ACCESS_TTL_S = 30.0  # admin flag, deactivation, user-group members, when deciding access
CHANNELS_TTL_S = 300.0  # channel names -> ids (conversations.list): re-read after five minutes
CHANNELS_RETRY_S = 10.0  # a name not in the list re-reads it, at most this often
CHANNELS_PAGE = 200
_USER_MENTION_RE = re.compile(r"<@([UW][A-Z0-9]+)")


@dataclass
class _Cached:
    user: dict[str, Any]
    at: float


@dataclass(frozen=True, slots=True)
class Installation:
    """Which workspace and app this bot is: only their events are taken. `app_id` is None
    when Slack would not say (then the team alone decides)."""

    team_id: str
    app_id: str | None
    bot_user_id: str | None


@dataclass
class Directory:
    """Lookups through the Web API, cached (`clock`: seconds, monotonic)."""

    client: AsyncWebClient
    clock: Callable[[], float] = time.monotonic
    _team: dict[str, Any] | None = None
    _installation: Installation | None = None
    _users: dict[str, _Cached] = field(default_factory=dict)
    _channels: dict[str, str] = field(default_factory=dict)
    _groups: dict[str, tuple[float, frozenset[str]]] = field(default_factory=dict)
    _ids_by_name: dict[str, str] = field(default_factory=dict)
    _ids_read_at: float | None = None

    async def team(self) -> dict[str, Any]:
        """auth.test's answer: team_id, team, url, user_id (the bot)."""
        if self._team is None:
            answer = (await self.client.auth_test()).data
            if not isinstance(answer, dict):
                raise TypeError("auth.test answered with something other than JSON")
            self._team = dict(answer)
        return self._team

    async def installation(self) -> Installation:
        """The team (auth.test) and the app (bots.info of auth.test's bot_id) of the token."""
        if self._installation is None:
            team = await self.team()
            app_id = None
            try:
                bot = (await self.client.bots_info(bot=team.get("bot_id", "")))["bot"]
                app_id = bot.get("app_id")
            except SlackApiError as error:
                log.warning(
                    "Slack: cannot read this app's id (%s); events are checked by team only",
                    error.response.get("error"),
                )
            self._installation = Installation(team["team_id"], app_id, team.get("user_id"))
        return self._installation

    async def workspace(self) -> WorkspaceRecord:
        team = await self.team()
        return WorkspaceRecord(PLATFORM, team["team_id"], team.get("team") or team["team_id"])

    async def user(self, user_id: str, max_age: float = USER_TTL_S) -> dict[str, Any]:
        """The user (`users.info`), read again when the copy held is older than `max_age`."""
        cached = self._users.get(user_id)
        if cached is None or self.clock() - cached.at >= max_age:
            try:
                user = (await self.client.users_info(user=user_id))["user"]
            except SlackApiError:
                user = {"id": user_id, "name": user_id}
            cached = self._users[user_id] = _Cached(user, self.clock())
        return cached.user

    async def member(self, user_id: str) -> dict[str, Any]:
        """The user as fresh as an access decision needs (admin flag, `deleted`)."""
        return await self.user(user_id, ACCESS_TTL_S)

    def forget_user(self, user_id: str) -> None:
        """Drop what is held about a user (their profile, flags or status changed)."""
        self._users.pop(user_id, None)

    def forget_group(self, group_id: str) -> None:
        """Drop a user group's members (they, or the group, changed)."""
        self._groups.pop(group_id, None)

    async def group_members(self, group_id: str) -> frozenset[str]:
        """The user ids in a user group (`usergroups.users.list`), cached for
        `ACCESS_TTL_S`; none when Slack cannot say (an unknown group, or the
        `usergroups:read` scope missing)."""
        cached = self._groups.get(group_id)
        if cached is None or self.clock() - cached[0] >= ACCESS_TTL_S:
            try:
                users = (await self.client.usergroups_users_list(usergroup=group_id))["users"]
            except SlackApiError as error:
                log.warning(
                    "Slack: cannot read user group %s (%s)", group_id, error.response.get("error")
                )
                users = []
            cached = self._groups[group_id] = (self.clock(), frozenset(users))
        return cached[1]

    async def groups_of(self, user_id: str, group_ids: list[str]) -> tuple[str, ...]:
        """Which of `group_ids` the user is a member of."""
        return tuple([g for g in group_ids if user_id in await self.group_members(g)])

    async def people(self, raws: list[dict[str, Any]]) -> dict[str, PersonRecord]:
        """The people a batch of raw messages names: authors and mentioned users."""
        ids: set[str] = set()
        for raw in raws:
            if isinstance(raw.get("user"), str):
                ids.add(raw["user"])
            ids.update(_USER_MENTION_RE.findall(raw.get("text") or ""))
        return {uid: person_from_user(uid, await self.user(uid)) for uid in sorted(ids)}

    async def channel_name(self, channel_id: str) -> str:
        if channel_id not in self._channels:
            try:
                info = await self.client.conversations_info(channel=channel_id)
                self._channels[channel_id] = info["channel"].get("name") or channel_id
            except SlackApiError:
                self._channels[channel_id] = channel_id
        return self._channels[channel_id]

    async def channel_id(self, name: str) -> str | None:
        """The id of the channel called `name` (with or without "#", any case), from
        `conversations.list` (public and private channels, paginated), cached for a few
        minutes; a name not in the cached list re-reads it (a channel made a moment ago).
        None when there is no such channel, or Slack cannot list them."""
        wanted = name.lstrip("#").lower()
        now = self.clock()
        age = None if self._ids_read_at is None else now - self._ids_read_at
        if (
            age is None
            or age > CHANNELS_TTL_S
            or (wanted not in self._ids_by_name and age > CHANNELS_RETRY_S)
        ):
            await self._read_channel_list()
        return self._ids_by_name.get(wanted)

    async def _read_channel_list(self) -> None:
        ids: dict[str, str] = {}
        try:
            async for page in await self.client.conversations_list(
                types="public_channel,private_channel",
                exclude_archived=True,
                limit=CHANNELS_PAGE,
            ):
                for channel in page["channels"]:
                    ids[str(channel.get("name", "")).lower()] = channel["id"]
                    self._channels[channel["id"]] = channel.get("name") or channel["id"]
        except SlackApiError as error:
            log.warning("Slack: cannot list channels (%s)", error.response.get("error"))
            return
        self._ids_by_name = ids
        self._ids_read_at = self.clock()

    async def permalink(self, channel_id: str, ts: str, thread_ts: str | None) -> str | None:
        """The message's link, built from the team URL (no API call per message)."""
        url = (await self.team()).get("url")
        if not url:
            return None
        link = f"{url.rstrip('/')}/archives/{channel_id}/p{ts.replace('.', '')}"
        if thread_ts and thread_ts != ts:
            link += f"?thread_ts={thread_ts}&cid={channel_id}"
        return link
