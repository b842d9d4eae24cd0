"""A fake Discord for tests: the REST API and the gateway websocket on 127.0.0.1.

It runs on aiohttp inside the test's own event loop. Point the real discord.py at it with
`patch()` (process-global: it sets `discord.http.Route.BASE` and
`discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`, and returns a function that restores them):

    async with FakeDiscord() as fake:
        undo = fake.patch()
        bot = commands.Bot(command_prefix="!", intents=intents, guild_ready_timeout=0.05)
        task = asyncio.create_task(bot.start("fake.token"))
        try:
            await asyncio.wait_for(bot.wait_until_ready(), 10)
            ...
        finally:
            await bot.close()
            await asyncio.wait_for(task, 5)
            undo()

The fake serves one guild built with `add_channel` / `add_role` / `add_member` (the bot is
always a member) in READY + GUILD_CREATE, answers heartbeats, member chunk requests (op 8) and
RESUME, and pushes events with `dispatch`. REST requests are recorded in `requests`; what the
bot posts is in `sent(channel_id)`, the threads it made in `threads`, its command syncs in
`commands_synced`. `interact` sends an INTERACTION_CREATE and returns the bot's callback body;
`followups` reads the webhook messages and edits that come after it.

What the bot posts is also appended to `history` (as on Discord, a backfill sees the bot's own
messages), and REST writes are echoed through the gateway (MESSAGE_CREATE / MESSAGE_UPDATE /
MESSAGE_DELETE / THREAD_CREATE) unless `echo_own_messages=False`.

Faithful to Discord where discord.py depends on it: REST answers with `Content-Type:
application/json` exactly (discord.py compares the header with ==), full message objects
everywhere, gateway frames as TEXT JSON, snowflakes that grow with time, newest-first history
pages, a thread started from a message shares the message's id, a second response to one
interaction is refused (400, code 40060), and without the MESSAGE_CONTENT intent other users'
messages arrive with empty content (unless they mention the bot), as Discord does.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import re
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import unquote

import yarl
from aiohttp import WSMsgType, web

DISCORD_EPOCH_MS = 1420070400000
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_PRESENCES = 1 << 8
INTENT_MESSAGE_CONTENT = 1 << 15
PRIVILEGED_INTENTS = INTENT_GUILD_MEMBERS | INTENT_GUILD_PRESENCES | INTENT_MESSAGE_CONTENT
EPHEMERAL = 1 << 6
LOADING = 1 << 7
HAS_THREAD = 1 << 5
# VIEW_CHANNEL, SEND_MESSAGES, EMBED_LINKS, ATTACH_FILES, READ_MESSAGE_HISTORY, ADD_REACTIONS,
# USE_APPLICATION_COMMANDS, CREATE_PUBLIC_THREADS, SEND_MESSAGES_IN_THREADS
EVERYONE_PERMISSIONS = (
    (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 6) | (1 << 31) | (1 << 35)
) | (1 << 38)
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024

OP_DISPATCH, OP_HEARTBEAT, OP_IDENTIFY, OP_RESUME = 0, 1, 2, 6
OP_RECONNECT, OP_REQUEST_MEMBERS, OP_INVALID_SESSION, OP_HELLO, OP_HEARTBEAT_ACK = 7, 8, 9, 10, 11


@dataclass
class Request:
    """One REST request as the fake received it. `path` is relative to /api/v10."""

    method: str
    path: str
    json_body: Any
    query: dict[str, str]
    files: list[dict] = field(default_factory=list)  # multipart files: {name, filename, size}


class DiscordError(Exception):
    """Raised by a route handler: the fake answers `status` {"message", "code"}."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def _iso(moment: datetime) -> str:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def _now() -> datetime:
    return datetime.now(UTC)


def snowflake_time(snowflake: str | int) -> datetime:
    """The creation time encoded in a snowflake."""
    ms = (int(snowflake) >> 22) + DISCORD_EPOCH_MS
    return datetime.fromtimestamp(ms / 1000, UTC)


class FakeDiscord:
    APP_ID = "1000000000000000001"
    BOT_ID = APP_ID  # the bot user's id is the application's id, as for real bots
    GUILD_ID = "1100000000000000001"
    OWNER_ID = "1200000000000000001"
    BOT_NAME = "summarybot"

    def __init__(self, *, echo_own_messages: bool = True) -> None:
        self.api_base = ""
        self.gateway_url = ""
        self.echo_own_messages = echo_own_messages  # MESSAGE_CREATE/UPDATE/DELETE for REST writes
        self.enforce_message_content_intent = True
        # the privileged intents switched on in the developer portal; asking for others in
        # IDENTIFY closes the gateway with 4014 (discord.PrivilegedIntentsRequired)
        self.privileged_intents_enabled = PRIVILEGED_INTENTS
        self.guild_name = "Summary Lab"
        self.owner_id = self.OWNER_ID
        self.channels: dict[str, dict] = {}  # text channels, categories, forums and threads
        self.dm_channels: dict[str, dict] = {}  # the bot's direct-message channels, by user id
        self.roles: dict[str, dict] = {}
        self.members: dict[str, dict] = {}
        self.history: dict[str, list[dict]] = {}
        self.requests: list[Request] = []
        self.unhandled: list[Request] = []  # requests answered with the catch-all 404
        self.threads: list[dict] = []
        self.commands_synced: list[dict] = []  # {"guild_id": str | None, "commands": [...]}
        self.commands: dict[str | None, dict[str, dict]] = {}  # guild id or None -> name -> cmd
        self.interactions: list[dict] = []  # INTERACTION_CREATE payloads sent by `interact`
        self.callbacks: list[dict] = []  # {"interaction_id", "token", "body"}
        self.deleted: list[tuple[str, str]] = []  # (channel_id, message_id) the bot deleted
        self.reactions: list[dict] = []  # {"method", "channel_id", "message_id", "emoji"}
        self.dispatched: list[tuple[str, Any]] = []  # (event, data) in the order sent
        self.identifies: list[dict] = []  # op 2 payloads ("d")
        self.resumes: list[dict] = []  # op 6 payloads ("d")
        self.gateway_received: list[dict] = []  # every client frame, decoded
        self.connections = 0
        # Other guilds than GUILD_ID (id -> name): they hold only the channels added to them.
        self.other_guilds: dict[str, str] = {}
        # A sharded client (IDENTIFY with shard [id, count], count > 1): the socket of each
        # shard id; each guild's events go to shard (guild_id >> 22) % count only.
        self.shard_count = 1
        self.shard_sockets: dict[int, web.WebSocketResponse] = {}
        self._messages: dict[str, dict] = {}  # every message object the fake knows, by id
        self._sent: dict[str, list[str]] = {}  # channel id -> ids the bot posted there
        self._allowed_mentions: dict[str, Any] = {}
        self._followups: dict[str, list[dict]] = {}
        self._pending: dict[str, dict] = {}  # interaction token -> bookkeeping
        self._injected: list[tuple[str, re.Pattern[str], int, dict, dict]] = []
        self._counter = itertools.count(1)
        self._runner: web.AppRunner | None = None
        self._ws: web.WebSocketResponse | None = None
        self._sockets: set[web.WebSocketResponse] = set()
        self._session_ready = asyncio.Event()
        self._session_id: str | None = None
        self._seq = 0
        self._intents = 0
        self._send_lock = asyncio.Lock()
        self._bot_user = {
            "id": self.BOT_ID,
            "username": self.BOT_NAME,
            "global_name": "Summary Bot",
            "discriminator": "0",
            "avatar": None,
            "bot": True,
            "system": False,
            "public_flags": 0,
            "flags": 0,
        }
        self.add_role(self.GUILD_ID, "@everyone", EVERYONE_PERMISSIONS)
        self.add_member(self.BOT_ID, self.BOT_NAME, global_name="Summary Bot", bot=True)

    # ---- lifecycle -------------------------------------------------------------------------

    async def __aenter__(self) -> FakeDiscord:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, shutdown_timeout=2.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        try:
            await site.start()
        except BaseException:
            await self._runner.cleanup()
            raise
        port = self._runner.addresses[0][1]
        self.api_base = f"http://127.0.0.1:{port}/api/v10"
        self.gateway_url = f"ws://127.0.0.1:{port}/gateway"
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        for pending in self._pending.values():
            pending["callback"].cancel()
        for ws in list(self._sockets):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(code=1001), timeout=2)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def patch(self) -> Callable[[], None]:
        """Point discord.py at this fake; returns a function that restores the previous values."""
        import discord.gateway  # here, so that importing the fake does not need discord.py
        import discord.http

        route, socket = discord.http.Route, discord.gateway.DiscordWebSocket
        old_base, old_gateway = route.BASE, socket.DEFAULT_GATEWAY
        route.BASE = self.api_base
        socket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)

        def undo() -> None:
            route.BASE = old_base
            socket.DEFAULT_GATEWAY = old_gateway

        return undo

    # ---- ids -------------------------------------------------------------------------------

    def snowflake(self, moment: datetime | None = None) -> str:
        """A fresh snowflake for `moment` (default now); later moments give larger ids."""
        moment = moment or _now()
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        ms = int(moment.timestamp() * 1000)
        return str(((ms - DISCORD_EPOCH_MS) << 22) + (next(self._counter) & 0x3FFFFF))

    # ---- the guild model -------------------------------------------------------------------

    def add_channel(
        self,
        id: str,
        name: str,
        *,
        type_: int = 0,
        parent_id: str | None = None,
        guild_id: str | None = None,
    ) -> dict:
        """A channel of GUILD_ID (or `guild_id`): text (0), category (4), announcement (5),
        forum (15), or a thread (10, 11, 12) of `parent_id`. Threads are served in
        GUILD_CREATE's `threads`."""
        if type_ in (10, 11, 12):
            if parent_id is None:
                raise ValueError("a thread needs parent_id")
            channel = self._thread_object(id, name, parent_id, type_=type_, owner_id=self.OWNER_ID)
        else:
            channel = {
                "id": id,
                "type": type_,
                "guild_id": self.GUILD_ID,
                "name": name,
                "position": sum(1 for c in self.channels.values() if c["type"] == type_),
                "parent_id": parent_id,
                "permission_overwrites": [],
                "topic": None,
                "nsfw": False,
                "last_message_id": None,
                "rate_limit_per_user": 0,
                "flags": 0,
                "default_auto_archive_duration": 1440,
            }
            if type_ in (15, 16):
                channel.update(
                    available_tags=[],
                    default_reaction_emoji=None,
                    default_sort_order=None,
                    default_forum_layout=0,
                    default_thread_rate_limit_per_user=0,
                )
        channel["guild_id"] = guild_id or self.GUILD_ID
        self.channels[id] = channel
        return channel

    def _thread_object(
        self, id: str, name: str, parent_id: str, *, type_: int = 11, owner_id: str
    ) -> dict:
        now = _iso(_now())
        return {
            "id": id,
            "type": type_,
            "guild_id": self.GUILD_ID,
            "parent_id": parent_id,
            "owner_id": owner_id,
            "name": name,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "message_count": 0,
            "member_count": 1,
            "total_message_sent": 0,
            "flags": 0,
            "applied_tags": [],
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": 1440,
                "archive_timestamp": now,
                "locked": False,
                "create_timestamp": now,
            },
        }

    def add_role(self, id: str, name: str, permissions: int = 0) -> dict:
        """A role; the role whose id is GUILD_ID is @everyone (created already)."""
        role = {
            "id": id,
            "name": name,
            "permissions": str(permissions),
            "position": 0 if id == self.GUILD_ID else len(self.roles),
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "icon": None,
            "unicode_emoji": None,
            "flags": 0,
        }
        self.roles[id] = role
        return role

    def add_member(
        self,
        id: str,
        username: str,
        *,
        global_name: str | None = None,
        nick: str | None = None,
        roles: Iterable[str] = (),
        permissions: int = 0,
        bot: bool = False,
    ) -> dict:
        """A guild member (`{"user": {...}, "roles", "nick", ...}`). `permissions` is added to
        the roles' permissions when the member's permissions are computed for interactions."""
        user = {
            "id": id,
            "username": username,
            "global_name": global_name,
            "discriminator": "0",
            "avatar": None,
            "bot": bot,
            "system": False,
            "public_flags": 0,
        }
        member = {
            "user": user,
            "nick": nick,
            "roles": list(roles),
            "joined_at": "2024-01-01T00:00:00.000000+00:00",
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "avatar": None,
            "banner": None,
            "communication_disabled_until": None,
            "extra_permissions": permissions,  # the fake's own field, stripped when served
        }
        self.members[id] = member
        return member

    def permissions_of(self, user_id: str) -> int:
        """@everyone's permissions | the member's roles' | the member's own extra ones."""
        value = int(self.roles[self.GUILD_ID]["permissions"])
        member = self.members.get(user_id)
        if member is not None:
            for role_id in member["roles"]:
                if role_id in self.roles:
                    value |= int(self.roles[role_id]["permissions"])
            value |= member["extra_permissions"]
        return value

    def _member_payload(self, user_id: str, *, with_user: bool = True) -> dict:
        member = {k: v for k, v in self.members[user_id].items() if k != "extra_permissions"}
        if not with_user:
            member.pop("user")
        return member

    def _user(self, user_id: str) -> dict:
        if user_id == self.BOT_ID:
            return dict(self._bot_user)
        member = self.members.get(user_id)
        if member is not None:
            return dict(member["user"])
        return {
            "id": user_id,
            "username": f"user{user_id[-4:]}",
            "global_name": None,
            "discriminator": "0",
            "avatar": None,
            "bot": False,
            "public_flags": 0,
        }

    def add_guild(self, id: str, name: str) -> None:
        """Another guild the bot is in (members and roles are GUILD_ID's; channels are those
        added with its `guild_id`)."""
        self.other_guilds[id] = name

    def shard_of(self, guild_id: str | int, shard_count: int | None = None) -> int:
        """The shard a guild's events go to, as Discord assigns it."""
        return (int(guild_id) >> 22) % (shard_count or self.shard_count)

    def guilds_of_shard(self, shard_id: int, shard_count: int) -> list[str]:
        every = [self.GUILD_ID, *self.other_guilds]
        return [g for g in every if self.shard_of(g, shard_count) == shard_id]

    def guild_object(self, guild_id: str | None = None) -> dict:
        """The guild (default GUILD_ID) as GUILD_CREATE carries it. Without the
        GUILD_PRESENCES intent Discord sends only the bot's own member; discord.py with the
        members intent then asks for the rest with op 8 (GUILD_MEMBERS_CHUNK)."""
        guild_id = guild_id or self.GUILD_ID
        if self._intents & INTENT_GUILD_PRESENCES:  # a small guild's members come with presences
            members = [self._member_payload(uid) for uid in self.members]
        else:  # only the bot itself (and voice members): the client asks for the rest by op 8
            members = [self._member_payload(self.BOT_ID)]
        channels = [c for c in self.channels.values() if c.get("guild_id") == guild_id]
        fields = self._guild_fields()
        if guild_id != self.GUILD_ID:
            everyone = {**self.roles[self.GUILD_ID], "id": guild_id}
            fields.update(id=guild_id, name=self.other_guilds[guild_id], roles=[everyone])
        return {
            **fields,
            "joined_at": "2024-01-01T00:00:00.000000+00:00",
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "channels": [c for c in channels if c["type"] not in (10, 11, 12)],
            "threads": [
                c
                for c in channels
                if c["type"] in (10, 11, 12) and not c["thread_metadata"]["archived"]
            ],
            "members": members,
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def _guild_fields(self) -> dict:
        return {
            "id": self.GUILD_ID,
            "name": self.guild_name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": self.owner_id,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": list(self.roles.values()),
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "incidents_data": None,
        }

    # ---- messages --------------------------------------------------------------------------

    def message(
        self,
        channel_id: str,
        author_id: str,
        content: str,
        *,
        id: str | None = None,
        timestamp: datetime | None = None,
        edited: datetime | None = None,
        reference: str | None = None,
        embeds: Iterable[dict] = (),
        mentions: Iterable[str] = (),
        type_: int | None = None,
    ) -> dict:
        """A full message object as Discord sends it (MESSAGE_CREATE, REST history).

        The id grows with `timestamp` (default now). `reference` makes it a reply (type 19 unless
        `type_` says otherwise) to that message id, with `referenced_message` when the fake
        knows it. The author's `member` is included when the author is a guild member. Nothing
        is stored: append it to `history` and/or `dispatch` it."""
        timestamp = timestamp or _now()
        message_id = id or self.snowflake(timestamp)
        author = self._user(author_id)
        guild_id = self.channels.get(channel_id, {}).get("guild_id", self.GUILD_ID)
        message: dict[str, Any] = {
            "id": message_id,
            "channel_id": channel_id,
            "guild_id": guild_id,
            "author": author,
            "content": content,
            "timestamp": _iso(timestamp),
            "edited_timestamp": _iso(edited) if edited else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [self._mention(uid) for uid in mentions],
            "mention_roles": [],
            "attachments": [],
            "embeds": list(embeds),
            "reactions": [],
            "pinned": False,
            "type": type_ if type_ is not None else (19 if reference else 0),
            "flags": 0,
            "components": [],
        }
        if author_id in self.members:
            message["member"] = self._member_payload(author_id, with_user=False)
        if reference is not None:
            message["message_reference"] = {
                "type": 0,
                "message_id": reference,
                "channel_id": channel_id,
                "guild_id": guild_id,
            }
            referenced = self._find_message(reference)
            if referenced is not None:
                message["referenced_message"] = referenced
        return message

    def _mention(self, user_id: str) -> dict:
        mention = self._user(user_id)
        if user_id in self.members:
            mention["member"] = self._member_payload(user_id, with_user=False)
        return mention

    def _find_message(self, message_id: str) -> dict | None:
        if message_id in self._messages:
            return self._messages[message_id]
        for messages in self.history.values():
            for message in messages:
                if message["id"] == message_id:
                    return message
        return None

    def sent(self, channel_id: str) -> list[dict]:
        """The bot's messages in a channel or thread (POST /channels/{id}/messages), oldest
        first, as they are now (after edits, without deleted ones), each with the
        `allowed_mentions` it was last sent with (None when the request had none)."""
        return [
            {**self._messages[mid], "allowed_mentions": self._allowed_mentions.get(mid)}
            for mid in self._sent.get(channel_id, [])
            if mid in self._messages
        ]

    # ---- the gateway -----------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=16 * 1024 * 1024)
        await ws.prepare(request)
        self._sockets.add(ws)
        self.connections += 1
        if self.shard_count == 1:
            if self._ws is not None and not self._ws.closed:
                with contextlib.suppress(Exception):
                    await self._ws.close(code=4000)
            self._ws = ws
            self._session_ready.clear()
        try:
            await self._send(ws, {"op": OP_HELLO, "d": {"heartbeat_interval": 45000}})
            async for frame in ws:
                if frame.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                    continue
                payload = json.loads(frame.data)
                self.gateway_received.append(payload)
                await self._on_client_frame(ws, payload)
        finally:
            self._sockets.discard(ws)
            for shard, socket in list(self.shard_sockets.items()):
                if socket is ws:
                    del self.shard_sockets[shard]
            if self._ws is ws:
                self._ws = None
                self._session_ready.clear()
        return ws

    async def _on_client_frame(self, ws: web.WebSocketResponse, payload: dict) -> None:
        op, data = payload.get("op"), payload.get("d")
        if op == OP_HEARTBEAT:
            await self._send(ws, {"op": OP_HEARTBEAT_ACK, "d": None})
        elif op == OP_IDENTIFY:
            self.identifies.append(data)
            intents = int(data.get("intents") or 0)
            if intents & PRIVILEGED_INTENTS & ~self.privileged_intents_enabled:
                await ws.close(code=4014, message=b"Disallowed intent(s).")
                return
            self._intents = intents
            self._session_id = secrets.token_hex(16)
            self._seq = 0
            shard_id, shard_count = data.get("shard") or (0, 1)
            if shard_count > 1:
                self.shard_count = shard_count
                self.shard_sockets[shard_id] = ws
            self._ws = ws
            guilds = self.guilds_of_shard(shard_id, shard_count)
            ready = {
                "v": 10,
                "user": {
                    **self._bot_user,
                    "verified": True,
                    "mfa_enabled": False,
                    "email": None,
                },
                "session_id": self._session_id,
                "session_type": "normal",
                "resume_gateway_url": self.gateway_url,
                "shard": [shard_id, shard_count],
                "guilds": [{"id": g, "unavailable": True} for g in guilds],
                "application": {"id": self.APP_ID, "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "guild_join_requests": [],
                "geo_ordered_rtc_regions": [],
                "user_settings": {},
                "auth": {},
            }
            await self._dispatch_on(ws, "READY", ready)
            for guild_id in guilds:
                await self._dispatch_on(ws, "GUILD_CREATE", self.guild_object(guild_id))
            self._session_ready.set()
        elif op == OP_RESUME:
            self.resumes.append(data)
            if self._session_id is None or data.get("session_id") != self._session_id:
                await self._send(ws, {"op": OP_INVALID_SESSION, "d": False})
                return
            await self._dispatch_on(ws, "RESUMED", {})
            self._session_ready.set()
        elif op == OP_REQUEST_MEMBERS:
            await self._dispatch_on(ws, "GUILD_MEMBERS_CHUNK", self._members_chunk(data))

    def _members_chunk(self, data: dict) -> dict:
        ids = list(self.members)
        if data.get("user_ids"):
            wanted = {str(u) for u in data["user_ids"]}
            ids = [uid for uid in ids if uid in wanted]
        elif data.get("query"):
            query = data["query"].lower()
            ids = [uid for uid in ids if self.members[uid]["user"]["username"].startswith(query)]
        if data.get("limit"):
            ids = ids[: int(data["limit"])]
        chunk: dict[str, Any] = {
            "guild_id": str(data.get("guild_id", self.GUILD_ID)),
            "members": [self._member_payload(uid) for uid in ids],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
            "presences": [],
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        return chunk

    async def _send(self, ws: web.WebSocketResponse, payload: Any) -> None:
        text = payload if isinstance(payload, str) else json.dumps(payload)
        async with self._send_lock:
            await ws.send_str(text)

    async def _dispatch_on(self, ws: web.WebSocketResponse, event: str, data: Any) -> None:
        self._seq += 1
        self.dispatched.append((event, data))
        await self._send(ws, {"op": OP_DISPATCH, "s": self._seq, "t": event, "d": data})

    async def wait_ready(self, timeout: float = 10) -> None:
        """Until the connected client's IDENTIFY was answered (READY + GUILD_CREATE) or its
        RESUME was answered (RESUMED). The client's own on_ready comes `guild_ready_timeout`
        later: wait for `bot.wait_until_ready()` for that."""
        await asyncio.wait_for(self._session_ready.wait(), timeout)

    async def _live_socket(self, timeout: float = 5) -> web.WebSocketResponse:
        await self.wait_ready(timeout)
        ws = self._ws
        if ws is None or ws.closed:
            raise RuntimeError("no gateway client is connected")
        return ws

    async def dispatch(self, event: str, data: dict) -> None:
        """Send op 0 `event` with the next sequence number (waits up to 5 s for a session).

        MESSAGE_CREATE / MESSAGE_UPDATE lose content, embeds, attachments and components, as on
        Discord, when the client did not ask for the MESSAGE_CONTENT intent (unless the bot wrote
        or is mentioned in the message); set `enforce_message_content_intent = False` to stop."""
        ws = await self._socket_for(data)
        if event in ("MESSAGE_CREATE", "MESSAGE_UPDATE"):
            data = self._as_seen_by_bot(data)
        await self._dispatch_on(ws, event, data)

    async def _socket_for(self, data: Any, timeout: float = 5) -> web.WebSocketResponse:
        """The socket of the shard the event's guild is on (the one socket when unsharded)."""
        if self.shard_count == 1:
            return await self._live_socket(timeout)
        guild_id = (data.get("guild_id") if isinstance(data, dict) else None) or self.GUILD_ID
        shard = self.shard_of(guild_id)
        deadline = asyncio.get_running_loop().time() + timeout
        while (ws := self.shard_sockets.get(shard)) is None or ws.closed:
            if asyncio.get_running_loop().time() >= deadline:
                raise RuntimeError(f"shard {shard} of guild {guild_id} is not connected")
            await asyncio.sleep(0.01)
        return ws

    async def _dispatch_if_connected(self, event: str, data: dict) -> None:
        ws = self._ws
        if self.shard_count > 1:
            ws = self.shard_sockets.get(self.shard_of(data.get("guild_id") or self.GUILD_ID))
        if ws is None or ws.closed or not self._session_ready.is_set():
            return
        with contextlib.suppress(ConnectionError, RuntimeError):
            await self._dispatch_on(ws, event, data)

    def _as_seen_by_bot(self, message: dict, *, rest: bool = False) -> dict:
        # the gateway follows the session's intents, REST the portal's switch
        intents = self.privileged_intents_enabled if rest else self._intents
        if not self.enforce_message_content_intent or intents & INTENT_MESSAGE_CONTENT:
            return message
        if (message.get("author") or {}).get("id") == self.BOT_ID:
            return message
        if any(m.get("id") == self.BOT_ID for m in message.get("mentions") or []):
            return message
        stripped = dict(message)
        for key in ("content",):
            if key in stripped:
                stripped[key] = ""
        for key in ("embeds", "attachments", "components"):
            if key in stripped:
                stripped[key] = []
        stripped.pop("poll", None)
        return stripped

    async def send_raw(self, payload: Any) -> None:
        """Send any frame as is: a str or bytes verbatim, anything else as JSON text."""
        ws = await self._live_socket()
        if isinstance(payload, bytes):
            async with self._send_lock:
                await ws.send_bytes(payload)
        else:
            await self._send(ws, payload if isinstance(payload, str) else json.dumps(payload))

    async def disconnect(self, code: int = 4000) -> None:
        """Close the gateway websocket with `code`. discord.py resumes after 4000 (and after a
        close it did not ask for with 1000); codes 4004 and 4010-4014 end the client."""
        ws = self._ws
        if ws is None:
            raise RuntimeError("no gateway client is connected")
        self._session_ready.clear()
        await ws.close(code=code)

    async def invalidate_session(self, resumable: bool = False) -> None:
        """Send op 9; with resumable=False the client starts over with a new IDENTIFY."""
        ws = await self._live_socket()
        if not resumable:
            self._session_id = None
        self._session_ready.clear()  # `dispatch` / `wait_ready` wait for the next session
        await self._send(ws, {"op": OP_INVALID_SESSION, "d": resumable})

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT: the client closes and RESUMEs."""
        ws = await self._live_socket()
        self._session_ready.clear()
        await self._send(ws, {"op": OP_RECONNECT, "d": None})

    # ---- interactions ----------------------------------------------------------------------

    def slash(self, name: str, options: list[dict], *, guild: bool | None = None) -> dict:
        """`data` of a chat-input command. The command is a guild command (data has guild_id)
        when it was synced to the guild, or when `guild=True`. Option values of type 6 (user),
        7 (channel), 8 (role) and 9 (mentionable) are resolved from the guild model."""
        if guild is None:
            guild = name in self.commands.get(self.GUILD_ID, {})
        synced = self.commands.get(self.GUILD_ID if guild else None, {}).get(name)
        data: dict[str, Any] = {
            "id": synced["id"] if synced else self.snowflake(),
            "name": name,
            "type": 1,
            "options": options,
        }
        if guild:
            data["guild_id"] = self.GUILD_ID
        resolved: dict[str, dict] = {}
        self._resolve_options(options, resolved)
        if resolved:
            data["resolved"] = resolved
        return data

    def _resolve_options(self, options: list[dict], resolved: dict[str, dict]) -> None:
        for option in options:
            kind, value = option.get("type"), option.get("value")
            if kind in (1, 2):
                self._resolve_options(option.get("options", []), resolved)
            elif kind == 7:
                resolved.setdefault("channels", {})[str(value)] = self._resolved_channel(value)
            elif kind == 8 or (kind == 9 and str(value) in self.roles):
                resolved.setdefault("roles", {})[str(value)] = self.roles[str(value)]
            elif kind in (6, 9):
                uid = str(value)
                resolved.setdefault("users", {})[uid] = self._user(uid)
                if uid in self.members:
                    member = self._member_payload(uid, with_user=False)
                    member["permissions"] = str(self.permissions_of(uid))
                    resolved.setdefault("members", {})[uid] = member

    def _resolved_channel(self, channel_id: Any) -> dict:
        channel = self.channels.get(str(channel_id))
        if channel is None:
            raise KeyError(f"unknown channel {channel_id}: add_channel it first")
        keys = ("id", "type", "name", "parent_id", "guild_id", "thread_metadata", "owner_id")
        resolved = {k: channel[k] for k in keys if k in channel}
        resolved["permissions"] = str(self.permissions_of(self.BOT_ID))
        if channel["type"] in (10, 11, 12):
            resolved.update(member_count=channel["member_count"])
            resolved.update(message_count=channel["message_count"])
        return resolved

    def button(self, custom_id: str) -> dict:
        return {"custom_id": custom_id, "component_type": 2}

    def modal_submit(self, custom_id: str, values: dict[str, str]) -> dict:
        """`data` of a modal submit: one action row per text input custom_id -> value."""
        return {
            "custom_id": custom_id,
            "components": [
                {"type": 1, "components": [{"type": 4, "custom_id": cid, "value": value}]}
                for cid, value in values.items()
            ],
        }

    @staticmethod
    def modal_inputs(callback_body: dict) -> dict[str, str]:
        """Label -> custom_id of the text inputs in a type 9 (modal) callback body."""
        found: dict[str, str] = {}

        def walk(components: list[dict], label: str | None = None) -> None:
            for component in components:
                if component.get("type") == 18:  # Label wrapping one component
                    walk([component["component"]], component.get("label"))
                elif component.get("type") == 1:
                    walk(component.get("components", []))
                elif component.get("type") == 4:
                    found[component.get("label") or label or component["custom_id"]] = component[
                        "custom_id"
                    ]

        walk(callback_body.get("data", {}).get("components", []))
        return found

    async def interact(
        self,
        data: dict,
        *,
        type_: int,
        user_id: str,
        channel_id: str,
        message: dict | None = None,
        timeout: float = 5,
    ) -> dict:
        """Send INTERACTION_CREATE and return the JSON body of the bot's callback POST.

        type_: 2 application command, 3 component, 4 autocomplete, 5 modal submit. For a
        component without `message`, the fake uses the bot's latest message carrying that
        custom_id, or makes a bot message with one button of that custom_id. The interaction's
        token is in `interactions[-1]["token"]`; see `followups`."""
        token = f"tok{self.snowflake()}{secrets.token_hex(8)}"
        interaction_id = self.snowflake()
        channel = self.channels.get(channel_id) or {
            "id": channel_id,
            "type": 0,
            "guild_id": self.GUILD_ID,
            "name": "unknown",
            "position": 0,
        }
        if user_id not in self.members:
            raise KeyError(f"unknown member {user_id}: add_member it first")
        member = self._member_payload(user_id)
        member["permissions"] = str(self.permissions_of(user_id))
        payload: dict[str, Any] = {
            "id": interaction_id,
            "application_id": self.APP_ID,
            "type": type_,
            "data": data,
            "guild_id": self.GUILD_ID,
            "guild": {"id": self.GUILD_ID, "locale": "en-US", "features": []},
            "channel_id": channel_id,
            "channel": {**channel, "permissions": str(self.permissions_of(self.BOT_ID))},
            "member": member,
            "token": token,
            "version": 1,
            "app_permissions": str(self.permissions_of(self.BOT_ID)),
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": {"0": self.GUILD_ID},
            "context": 0,
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }
        if type_ == 3 and message is None:
            message = self._message_with_component(channel_id, data.get("custom_id", ""))
        if message is not None:
            payload["message"] = message
        callback: asyncio.Future[dict] = asyncio.get_running_loop().create_future()
        self._pending[token] = {
            "id": interaction_id,
            "type": type_,
            "channel_id": channel_id,
            "user_id": user_id,
            "message_id": message["id"] if message is not None else None,
            "original": None,
            "callback": callback,
        }
        self._followups[token] = []
        self.interactions.append(payload)
        await self.dispatch("INTERACTION_CREATE", payload)
        return await asyncio.wait_for(asyncio.shield(callback), timeout)

    def _message_with_component(self, channel_id: str, custom_id: str) -> dict:
        for mid in reversed(self._sent.get(channel_id, [])):
            found = self._messages.get(mid)
            if found is not None and _has_custom_id(found.get("components", []), custom_id):
                return found
        message = self.message(channel_id, self.BOT_ID, "")
        message["components"] = [
            {
                "type": 1,
                "components": [{"type": 2, "style": 1, "label": custom_id, "custom_id": custom_id}],
            }
        ]
        return message

    async def followups(
        self, token: str | None = None, *, count: int = 1, timeout: float = 5
    ) -> list[dict]:
        """The webhook calls made with an interaction's token (default: the latest interaction)
        after its callback, once there are at least `count`: each {"method": "POST" | "PATCH" |
        "DELETE", "message_id": "@original" | id | None (POST), "body": json, "message": the
        resulting message object or None}."""
        if token is None:
            if not self.interactions:
                raise RuntimeError("no interaction was sent")
            token = self.interactions[-1]["token"]
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while len(self._followups.get(token, [])) < count:
            if loop.time() > deadline:
                raise TimeoutError(
                    f"{len(self._followups.get(token, []))} followups for the interaction, "
                    f"expected {count}"
                )
            await asyncio.sleep(0.01)
        return list(self._followups[token])

    # ---- failure injection -----------------------------------------------------------------

    def fail_next(
        self, method: str, path_pattern: str, *, status: int = 403, code: int = 50013
    ) -> None:
        """The next REST request matching `method` and regex `path_pattern` (full match against
        the path under /api/v10) answers `status` {"message", "code"}. 403/50013 is Missing
        Permissions. discord.py retries 500/502/504 itself (after 1 s, 3 s, ...)."""
        body = {"message": f"{status}: injected failure", "code": code}
        self._injected.append((method.upper(), re.compile(path_pattern), status, body, {}))

    def rate_limit_next(self, method: str, path_pattern: str, retry_after: float = 0.05) -> None:
        """The next matching request answers 429 with `retry_after`; discord.py sleeps and
        retries (the `Via` header marks it as Discord's own limit, not a Cloudflare ban)."""
        body = {"message": "You are being rate limited.", "retry_after": retry_after}
        body["global"] = False
        headers = {
            "Retry-After": str(retry_after),
            "Via": "1.1 google",
            "X-RateLimit-Scope": "user",
        }
        self._injected.append((method.upper(), re.compile(path_pattern), 429, body, headers))

    # ---- REST ------------------------------------------------------------------------------

    _ROUTES: list[tuple[str, re.Pattern[str], str]] = [
        (m, re.compile(p), h)
        for m, p, h in [
            ("GET", r"/users/@me", "_get_me"),
            ("GET", r"/users/(?P<uid>\d+)", "_get_user"),
            ("POST", r"/users/@me/channels", "_open_dm"),
            ("GET", r"/oauth2/applications/@me", "_get_application"),
            ("GET", r"/applications/@me", "_get_application"),
            ("GET", r"/gateway", "_get_gateway"),
            ("GET", r"/gateway/bot", "_get_gateway_bot"),
            ("GET", r"/channels/(?P<cid>\d+)", "_get_channel"),
            ("GET", r"/channels/(?P<cid>\d+)/messages", "_get_messages"),
            ("GET", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", "_get_message"),
            ("POST", r"/channels/(?P<cid>\d+)/messages", "_post_message"),
            ("PATCH", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", "_patch_message"),
            ("DELETE", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", "_delete_message"),
            ("POST", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)/threads", "_thread_from_msg"),
            ("POST", r"/channels/(?P<cid>\d+)/threads", "_thread_without_msg"),
            ("GET", r"/channels/(?P<cid>\d+)/threads/archived/public", "_archived_threads"),
            ("POST", r"/channels/(?P<cid>\d+)/typing", "_no_content"),
            ("PUT", r"/channels/(?P<cid>\d+)/thread-members/@me", "_no_content"),
            (
                "PUT",
                r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)/reactions/(?P<emoji>[^/]+)/@me",
                "_reaction",
            ),
            (
                "DELETE",
                r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)/reactions/(?P<emoji>[^/]+)/@me",
                "_reaction",
            ),
            ("POST", r"/interactions/(?P<iid>\d+)/(?P<token>[^/]+)/callback", "_callback"),
            ("POST", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)", "_webhook_post"),
            (
                "GET|PATCH|DELETE",
                r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)",
                "_webhook_message",
            ),
            ("GET|PUT", r"/applications/(?P<app>\d+)/commands", "_commands"),
            ("GET|PUT", r"/applications/(?P<app>\d+)/guilds/(?P<gid>\d+)/commands", "_commands"),
            ("GET", r"/guilds/(?P<gid>\d+)", "_get_guild"),
            ("GET", r"/guilds/(?P<gid>\d+)/members", "_get_members"),
            ("GET", r"/guilds/(?P<gid>\d+)/members/(?P<uid>\d+)", "_get_member"),
            ("GET", r"/guilds/(?P<gid>\d+)/channels", "_get_guild_channels"),
            ("GET", r"/guilds/(?P<gid>\d+)/roles", "_get_roles"),
            ("GET", r"/guilds/(?P<gid>\d+)/threads/active", "_get_active_threads"),
        ]
    ]
    _NO_AUTH = ("_callback", "_webhook_post", "_webhook_message")

    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        body: Any = None
        files: list[dict] = []
        if request.can_read_body:
            if request.content_type == "application/json":
                body = await request.json()
            elif request.content_type.startswith("multipart/"):
                body, files = await self._read_multipart(request)
        record = Request(request.method, path, body, dict(request.query), files)
        self.requests.append(record)

        for index, (method, pattern, status, error, headers) in enumerate(self._injected):
            if method == request.method and pattern.fullmatch(path):
                del self._injected[index]
                return _json(error, status=status, headers=headers)

        for methods, pattern, name in self._ROUTES:
            match = pattern.fullmatch(path)
            if match is None or request.method not in methods.split("|"):
                continue
            auth = request.headers.get("Authorization", "")
            if name not in self._NO_AUTH and not auth.startswith("Bot "):
                return _json({"message": "401: Unauthorized", "code": 0}, status=401)
            try:
                result = getattr(self, name)(request.method, record, **match.groupdict())
                if asyncio.iscoroutine(result):
                    result = await result
            except DiscordError as error:
                return _json({"message": error.message, "code": error.code}, status=error.status)
            if result is None:
                return web.Response(status=204)
            return _json(result)

        self.unhandled.append(record)
        return _json({"message": "Unknown", "code": 0}, status=404)

    async def _read_multipart(self, request: web.Request) -> tuple[Any, list[dict]]:
        body: Any = None
        files: list[dict] = []
        reader = await request.multipart()
        async for part in reader:
            if part.name == "payload_json":
                body = json.loads(await part.text())
            else:
                data = await part.read()
                files.append({"name": part.name, "filename": part.filename, "size": len(data)})
        return body, files

    # users, application, gateway

    def _get_me(self, method: str, req: Request) -> dict:
        return {**self._bot_user, "verified": True, "mfa_enabled": False, "email": None}

    def _get_user(self, method: str, req: Request, uid: str) -> dict:
        if uid != self.BOT_ID and uid not in self.members:
            raise DiscordError(404, 10013, "Unknown User")
        return self._user(uid)

    def _open_dm(self, method: str, req: Request) -> dict:
        """The bot's DM channel with a member (made on first use, as Discord does)."""
        uid = str((req.json_body or {}).get("recipient_id"))
        if uid not in self.members:
            raise DiscordError(400, 50007, "Cannot send messages to this user")
        if uid not in self.dm_channels:
            self.dm_channels[uid] = {
                "id": self.snowflake(),
                "type": 1,
                "recipients": [self._user(uid)],
                "last_message_id": None,
            }
        return self.dm_channels[uid]

    def dms(self, user_id: str) -> list[dict]:
        """The bot's direct messages to a member, oldest first."""
        channel = self.dm_channels.get(user_id)
        return [] if channel is None else self.sent(channel["id"])

    def _get_application(self, method: str, req: Request) -> dict:
        return {
            "id": self.APP_ID,
            "name": "Summary Bot",
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "bot_public": False,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "flags": 0,
            "owner": self._user(self.owner_id),
            "team": None,
            "guild_id": None,
            "interactions_endpoint_url": None,
            "redirect_uris": [],
            "tags": [],
            "bot": dict(self._bot_user),
        }

    def _get_gateway(self, method: str, req: Request) -> dict:
        return {"url": self.gateway_url}

    def _get_gateway_bot(self, method: str, req: Request) -> dict:
        return {
            "url": self.gateway_url,
            "shards": 1,
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 0,
                "max_concurrency": 1,
            },
        }

    def _no_content(self, method: str, req: Request, cid: str) -> None:
        self._channel(cid)
        return None

    # channels and messages

    def _channel(self, cid: str) -> dict:
        channel = self.channels.get(cid) or next(
            (dm for dm in self.dm_channels.values() if dm["id"] == cid), None
        )
        if channel is None:
            raise DiscordError(404, 10003, "Unknown Channel")
        return channel

    def _get_channel(self, method: str, req: Request, cid: str) -> dict:
        return self._channel(cid)

    def _archived_threads(self, method: str, req: Request, cid: str) -> dict:
        """The channel's archived public threads (those with thread_metadata.archived)."""
        threads = [
            c
            for c in self.channels.values()
            if c.get("parent_id") == cid and (c.get("thread_metadata") or {}).get("archived")
        ]
        return {"threads": threads, "members": [], "has_more": False}

    def _get_messages(self, method: str, req: Request, cid: str) -> list[dict]:
        if cid not in self.channels and cid not in self.history:
            raise DiscordError(404, 10003, "Unknown Channel")
        try:
            limit = int(req.query.get("limit", "50"))
        except ValueError:
            raise DiscordError(400, 50035, "Invalid Form Body") from None
        if not 1 <= limit <= 100:
            raise DiscordError(400, 50035, "Invalid Form Body")
        ordered = sorted(self.history.get(cid, []), key=lambda m: int(m["id"]))
        if "around" in req.query:
            around = int(req.query["around"])
            newer = [m for m in ordered if int(m["id"]) > around][: limit // 2]
            older = [m for m in ordered if int(m["id"]) <= around]
            page = older[max(0, len(older) - (limit - len(newer))) :] + newer
        elif "before" in req.query:
            before = int(req.query["before"])
            older = [m for m in ordered if int(m["id"]) < before]
            page = older[-limit:]
        elif "after" in req.query:
            after = int(req.query["after"])
            page = [m for m in ordered if int(m["id"]) > after][:limit]
        else:
            page = ordered[-limit:]
        return [self._as_seen_by_bot(m, rest=True) for m in reversed(page)]  # newest first

    def _get_message(self, method: str, req: Request, cid: str, mid: str) -> dict:
        message = self._find_message(mid)
        if message is None or message["channel_id"] != cid:
            raise DiscordError(404, 10008, "Unknown Message")
        return self._as_seen_by_bot(message, rest=True)

    def _bot_message(self, channel_id: str, body: dict, **extra: Any) -> dict:
        """A message object authored by the bot from a create-message body."""
        message = self.message(channel_id, self.BOT_ID, body.get("content") or "")
        message.update(
            embeds=body.get("embeds") or [],
            components=body.get("components") or [],
            flags=int(body.get("flags") or 0),
            tts=bool(body.get("tts", False)),
            type=0,
        )
        if body.get("nonce") is not None:
            message["nonce"] = body["nonce"]
        reference = body.get("message_reference")
        if reference and reference.get("message_id"):
            message["type"] = 19
            ref_id = str(reference["message_id"])
            message["message_reference"] = {
                "type": 0,
                "message_id": ref_id,
                "channel_id": str(reference.get("channel_id") or channel_id),
                "guild_id": self.GUILD_ID,
            }
            referenced = self._find_message(ref_id)
            if referenced is not None:
                message["referenced_message"] = referenced
        self._apply_mentions(message, body.get("allowed_mentions"))
        message.update(extra)
        return message

    def _apply_mentions(self, message: dict, allowed: dict | None) -> None:
        """The fake's model of Discord's mention parsing: <@id>, <@&id>, @everyone/@here in the
        content, kept only when `allowed_mentions` (absent = everything) allows them."""
        content = message.get("content") or ""
        parse = None if allowed is None else set(allowed.get("parse", []))
        users = [u for u in re.findall(r"<@!?(\d+)>", content)]
        roles = [r for r in re.findall(r"<@&(\d+)>", content)]
        if parse is not None:
            allowed_users = {str(u) for u in allowed.get("users", [])}
            allowed_roles = {str(r) for r in allowed.get("roles", [])}
            users = [u for u in users if "users" in parse or u in allowed_users]
            roles = [r for r in roles if "roles" in parse or r in allowed_roles]
            ref = message.get("referenced_message")
            if allowed.get("replied_user") and ref:
                users.append(ref["author"]["id"])
        elif message.get("referenced_message"):
            users.append(message["referenced_message"]["author"]["id"])
        message["mentions"] = [self._mention(u) for u in dict.fromkeys(users)]
        message["mention_roles"] = list(dict.fromkeys(roles))
        everyone = "@everyone" in content or "@here" in content
        message["mention_everyone"] = everyone and (parse is None or "everyone" in parse)

    def _store_sent(self, message: dict, allowed_mentions: Any) -> None:
        cid = message["channel_id"]
        self._messages[message["id"]] = message
        self._sent.setdefault(cid, []).append(message["id"])
        self._allowed_mentions[message["id"]] = allowed_mentions
        self.history.setdefault(cid, []).append(message)
        channel = self.channels.get(cid)
        if channel is not None:
            channel["last_message_id"] = message["id"]
            if channel["type"] in (10, 11, 12):
                channel["message_count"] += 1
                channel["total_message_sent"] += 1

    async def _post_message(self, method: str, req: Request, cid: str) -> dict:
        channel = self._channel(cid)
        if channel["type"] not in (0, 1, 5, 10, 11, 12):
            raise DiscordError(400, 50008, "Cannot send messages in a non-text channel")
        body = req.json_body or {}
        if not (body.get("content") or body.get("embeds") or body.get("components") or req.files):
            raise DiscordError(400, 50006, "Cannot send an empty message")
        message = self._bot_message(cid, body)
        if channel["type"] == 1:  # a direct message belongs to no guild
            message.pop("guild_id", None)
            message.pop("member", None)
        message["attachments"] = [self._attachment(f) for f in req.files]
        self._store_sent(message, body.get("allowed_mentions"))
        await self._echo("MESSAGE_CREATE", message)
        return message

    def _attachment(self, file: dict) -> dict:
        aid = self.snowflake()
        url = f"https://cdn.discordapp.com/attachments/0/{aid}/{file['filename']}"
        return {
            "id": aid,
            "filename": file["filename"],
            "size": file["size"],
            "url": url,
            "proxy_url": url,
            "content_type": "application/octet-stream",
        }

    def _edit(self, message: dict, body: dict) -> None:
        for key in ("content", "embeds", "components", "attachments"):
            if key in body:
                message[key] = (
                    body[key] if body[key] is not None else ([] if key != "content" else "")
                )
        if "flags" in body and body["flags"] is not None:
            message["flags"] = int(body["flags"])
        if "allowed_mentions" in body:
            self._allowed_mentions[message["id"]] = body["allowed_mentions"]
        self._apply_mentions(message, self._allowed_mentions.get(message["id"]))
        message["edited_timestamp"] = _iso(_now())

    async def _patch_message(self, method: str, req: Request, cid: str, mid: str) -> dict:
        message = self._find_message(mid)
        if message is None or message["channel_id"] != cid:
            raise DiscordError(404, 10008, "Unknown Message")
        if message["author"]["id"] != self.BOT_ID:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        self._edit(message, req.json_body or {})
        await self._echo("MESSAGE_UPDATE", message)
        return message

    async def _delete_message(self, method: str, req: Request, cid: str, mid: str) -> None:
        message = self._find_message(mid)
        if message is None or message["channel_id"] != cid:
            raise DiscordError(404, 10008, "Unknown Message")
        self._messages.pop(mid, None)
        self.history[cid] = [m for m in self.history.get(cid, []) if m["id"] != mid]
        self.deleted.append((cid, mid))
        await self._echo(
            "MESSAGE_DELETE", {"id": mid, "channel_id": cid, "guild_id": self.GUILD_ID}
        )
        return None

    async def _echo(self, event: str, data: dict) -> None:
        if self.echo_own_messages:
            await self._dispatch_if_connected(event, data)

    def _reaction(self, method: str, req: Request, cid: str, mid: str, emoji: str) -> None:
        if self._find_message(mid) is None:
            raise DiscordError(404, 10008, "Unknown Message")
        self.reactions.append(
            {"method": method, "channel_id": cid, "message_id": mid, "emoji": unquote(emoji)}
        )
        return None

    # threads

    def _new_thread(self, thread_id: str, parent: dict, body: dict, type_: int) -> dict:
        thread = self._thread_object(
            thread_id, body.get("name") or "thread", parent["id"], type_=type_, owner_id=self.BOT_ID
        )
        if body.get("auto_archive_duration"):
            thread["thread_metadata"]["auto_archive_duration"] = body["auto_archive_duration"]
        if body.get("rate_limit_per_user"):
            thread["rate_limit_per_user"] = body["rate_limit_per_user"]
        if body.get("applied_tags"):
            thread["applied_tags"] = body["applied_tags"]
        thread["member"] = {
            "id": thread_id,
            "user_id": self.BOT_ID,
            "join_timestamp": _iso(_now()),
            "flags": 1,
        }
        self.channels[thread_id] = thread
        self.threads.append(thread)
        return thread

    async def _thread_from_msg(self, method: str, req: Request, cid: str, mid: str) -> dict:
        parent = self._channel(cid)
        message = self._find_message(mid)
        if message is None or message["channel_id"] != cid:
            raise DiscordError(404, 10008, "Unknown Message")
        if mid in self.channels:
            raise DiscordError(400, 160004, "A thread has already been created for this message")
        thread = self._new_thread(mid, parent, req.json_body or {}, 11)  # thread id == message id
        message["flags"] = int(message.get("flags") or 0) | HAS_THREAD
        message["thread"] = thread
        await self._echo("THREAD_CREATE", {**thread, "newly_created": True})
        return thread

    async def _thread_without_msg(self, method: str, req: Request, cid: str) -> dict:
        parent = self._channel(cid)
        body = req.json_body or {}
        thread_id = self.snowflake()
        if parent["type"] in (15, 16):  # forum post: the starter message shares the thread id
            thread = self._new_thread(thread_id, parent, body, 11)
            starter = self._bot_message(thread_id, body.get("message") or {}, id=thread_id)
            self._store_sent(starter, (body.get("message") or {}).get("allowed_mentions"))
            await self._echo("THREAD_CREATE", {**thread, "newly_created": True})
            await self._echo("MESSAGE_CREATE", starter)
            return {**thread, "message": starter}
        thread = self._new_thread(thread_id, parent, body, int(body.get("type") or 12))
        await self._echo("THREAD_CREATE", {**thread, "newly_created": True})
        return thread

    # interactions and webhooks

    def _interaction(self, token: str) -> dict:
        pending = self._pending.get(token)
        if pending is None:
            raise DiscordError(404, 10015, "Unknown Webhook")
        return pending

    def _interaction_message(self, pending: dict, data: dict, *, loading: bool = False) -> dict:
        message = self._bot_message(pending["channel_id"], data)
        if loading:
            message["flags"] = int(message["flags"]) | LOADING
        message["webhook_id"] = self.APP_ID
        message["application_id"] = self.APP_ID
        message["type"] = 20 if pending["type"] == 2 else 0
        message["interaction_metadata"] = {
            "id": pending["id"],
            "type": pending["type"],
            "user": self._user(pending["user_id"]),
            "authorizing_integration_owners": {"0": self.GUILD_ID},
        }
        self._messages[message["id"]] = message
        return message

    async def _callback(self, method: str, req: Request, iid: str, token: str) -> dict:
        pending = self._pending.get(token)
        if pending is None or pending["id"] != iid:
            raise DiscordError(404, 10062, "Unknown interaction")
        if pending["callback"].done():
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        body = req.json_body or {}
        kind = body.get("type")
        data = body.get("data") or {}
        resource: dict[str, Any] = {"type": kind}
        message: dict | None = None
        if kind == 4:
            message = self._interaction_message(pending, data)
            pending["original"] = message["id"]
        elif kind == 5:
            message = self._interaction_message(pending, data, loading=True)
            pending["original"] = message["id"]
        elif kind in (6, 7):
            pending["original"] = pending["message_id"]
            target = self._messages.get(pending["message_id"] or "")
            if kind == 7 and target is not None:
                self._edit(target, data)
                await self._echo("MESSAGE_UPDATE", target)
            message = target
        if message is not None and kind in (4, 7):
            resource["message"] = message
        self.callbacks.append({"interaction_id": iid, "token": token, "body": body})
        pending["callback"].set_result(body)
        flags = int(data.get("flags") or 0)
        return {
            "interaction": {
                "id": iid,
                "type": pending["type"],
                "response_message_id": message["id"] if message is not None else None,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(flags & EPHEMERAL),
            },
            "resource": resource,
        }

    def _webhook_post(self, method: str, req: Request, app: str, token: str) -> dict | None:
        pending = self._interaction(token)
        body = req.json_body or {}
        message = self._interaction_message(pending, body)
        message["attachments"] = [self._attachment(f) for f in req.files]
        self._followups[token].append(
            {"method": "POST", "message_id": None, "body": body, "message": message}
        )
        return message if req.query.get("wait") in ("1", "true", "True") else None

    async def _webhook_message(
        self, method: str, req: Request, app: str, token: str, mid: str
    ) -> dict | None:
        pending = self._interaction(token)
        target_id = pending["original"] if mid == "@original" else mid
        message = self._messages.get(target_id or "")
        if message is None:
            raise DiscordError(404, 10008, "Unknown Message")
        if method == "GET":
            return message
        entry = {"method": method, "message_id": mid, "body": req.json_body, "message": message}
        if method == "PATCH":
            message["flags"] = int(message.get("flags") or 0) & ~LOADING
            self._edit(message, req.json_body or {})
            if message["id"] in self._allowed_mentions:  # a channel message of the bot
                await self._echo("MESSAGE_UPDATE", message)
            self._followups[token].append(entry)
            return message
        self._messages.pop(message["id"], None)
        cid = message["channel_id"]
        if message["id"] in self._allowed_mentions:
            self.history[cid] = [m for m in self.history.get(cid, []) if m["id"] != message["id"]]
            self.deleted.append((cid, message["id"]))
        self._followups[token].append(entry)
        return None

    # application commands

    def _commands(self, method: str, req: Request, app: str, gid: str | None = None) -> list:
        if app != self.APP_ID:
            raise DiscordError(403, 50001, "Missing Access")
        if gid is not None and gid != self.GUILD_ID and gid not in self.other_guilds:
            raise DiscordError(403, 50001, "Missing Access")
        if method == "GET":
            return list(self.commands.get(gid, {}).values())
        body = req.json_body or []
        self.commands_synced.append({"guild_id": gid, "commands": body})
        previous = self.commands.get(gid, {})
        current: dict[str, dict] = {}
        for command in body:
            stored = {
                "type": 1,
                "description": "",
                **command,
                "id": previous.get(command["name"], {}).get("id") or self.snowflake(),
                "application_id": self.APP_ID,
                "version": self.snowflake(),
            }
            if gid is not None:
                stored["guild_id"] = gid
            current[command["name"]] = stored
        self.commands[gid] = current
        return list(current.values())

    # guild

    def _guild(self, gid: str) -> None:
        if gid != self.GUILD_ID and gid not in self.other_guilds:
            raise DiscordError(404, 10004, "Unknown Guild")

    def _get_guild(self, method: str, req: Request, gid: str) -> dict:
        self._guild(gid)
        return {**self._guild_fields(), "approximate_member_count": len(self.members)}

    def _get_members(self, method: str, req: Request, gid: str) -> list[dict]:
        self._guild(gid)
        if not self._intents & INTENT_GUILD_MEMBERS:
            raise DiscordError(403, 50001, "Missing Access")
        after = int(req.query.get("after", "0"))
        limit = int(req.query.get("limit", "1"))
        ids = sorted((uid for uid in self.members if int(uid) > after), key=int)[:limit]
        return [self._member_payload(uid) for uid in ids]

    def _get_member(self, method: str, req: Request, gid: str, uid: str) -> dict:
        self._guild(gid)
        if uid not in self.members:
            raise DiscordError(404, 10007, "Unknown Member")
        return self._member_payload(uid)

    def _get_guild_channels(self, method: str, req: Request, gid: str) -> list[dict]:
        self._guild(gid)
        return [c for c in self.channels.values() if c["type"] not in (10, 11, 12)]

    def _get_roles(self, method: str, req: Request, gid: str) -> list[dict]:
        self._guild(gid)
        return list(self.roles.values())

    def _get_active_threads(self, method: str, req: Request, gid: str) -> dict:
        self._guild(gid)
        threads = [
            c
            for c in self.channels.values()
            if c["type"] in (10, 11, 12) and not c["thread_metadata"]["archived"]
        ]
        return {"threads": threads, "members": []}


def _has_custom_id(components: list[dict], custom_id: str) -> bool:
    for component in components:
        if component.get("custom_id") == custom_id:
            return True
        children = list(component.get("components", []))
        for key in ("component", "accessory"):
            if isinstance(component.get(key), dict):
                children.append(component[key])
        if _has_custom_id(children, custom_id):
            return True
    return False


def _json(
    payload: Any, *, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """JSON with Content-Type exactly `application/json`: discord.py's json_or_text compares
    the header with ==, so aiohttp's json_response (`; charset=utf-8`) would reach it as text."""
    return web.Response(
        body=json.dumps(payload).encode(),
        status=status,
        headers={**(headers or {}), "Content-Type": "application/json"},
    )
