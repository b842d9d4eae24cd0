"""A fake Slack for tests: the Web API and a Socket Mode websocket on 127.0.0.1.

It runs on aiohttp inside the test's own event loop, so point the real libraries at it:

    async with FakeSlack() as fake:
        client = AsyncWebClient(token="xoxb-test", base_url=fake.url)
        app = AsyncApp(client=client, signing_secret=SECRET, process_before_response=True)
        ...

Every Web API call is recorded in `calls` (method, merged params, token). The fake serves the
data a test puts in `users`, `channels`, `usergroups`, `history` and `replies`, holds what
the bot posted in `posted` / `ephemeral` / `views_opened` / `responses`, and can answer one
call with HTTP 429 or an `ok: false` error on cue. Socket Mode: `apps.connections.open` (xapp
token) hands out the fake's `/link` websocket, which greets with `hello`; `send_envelope`
pushes an envelope and returns the client's ack.

The helpers at the bottom build signed HTTP requests (Events API, slash commands,
interactivity) in the shapes Slack sends, taken from Slack's recorded fixtures.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import time
import uuid
from collections import defaultdict, deque
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any
from urllib.parse import urlencode

from aiohttp import WSMsgType, web
from slack_sdk.signature import SignatureVerifier

# Form fields Slack accepts as JSON-encoded strings; the fake decodes them to objects.
_JSON_FIELDS = ("blocks", "attachments", "view", "metadata", "user_auth_blocks")
_FIRST_TS_MICROS = 1_763_370_000_000_000


@dataclass
class Call:
    """One Web API call as the fake received it."""

    method: str
    params: dict[str, Any]
    token: str | None


class FakeSlack:
    BOT_USER = "UBOT"
    BOT_ID = "BBOT"
    TEAM = "T0LAB"
    APP_ID = "A1"

    def __init__(self) -> None:
        self.url = ""
        self.url_root = ""
        self.calls: list[Call] = []
        self.users: dict[str, dict] = {}
        self.channels: dict[str, dict] = {}
        self.bots: dict[str, dict] = {}
        self.usergroups: dict[str, dict] = {}
        self.history: dict[str, list[dict]] = {}
        self.replies: dict[tuple[str, str], list[dict]] = {}
        self.posted: list[dict] = []
        self.ephemeral: list[dict] = []
        self.views_opened: list[dict] = []
        self.responses: list[dict] = []
        self.responses_by_url: dict[str, list[dict]] = defaultdict(list)
        self.socket_messages: list[dict] = []  # client frames that were not acks we waited for
        self.connections = 0  # Socket Mode websocket connections accepted so far
        self._injected: dict[str, deque[tuple[str, Any]]] = defaultdict(deque)
        self._ts = itertools.count(1)
        self._view_ids = itertools.count(1)
        self._response_ids = itertools.count(1)
        self._runner: web.AppRunner | None = None
        self._ws: web.WebSocketResponse | None = None
        self._sockets: set[web.WebSocketResponse] = set()
        self._connected = asyncio.Event()
        self._acks: dict[str, asyncio.Future[dict]] = {}

    # ---- lifecycle -------------------------------------------------------------------------

    async def __aenter__(self) -> FakeSlack:
        app = web.Application()
        app.router.add_route("*", "/api/{method}", self._api)
        app.router.add_post("/response/{rid}", self._response_url)
        app.router.add_get("/link", self._link)
        self._runner = web.AppRunner(app, shutdown_timeout=2.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        try:
            await site.start()
        except BaseException:
            await self._runner.cleanup()
            raise
        port = self._runner.addresses[0][1]
        self.url_root = f"http://127.0.0.1:{port}/"
        self.url = f"{self.url_root}api/"
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        for future in self._acks.values():
            future.cancel()
        for ws in list(self._sockets):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), timeout=2)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # ---- data the fake serves --------------------------------------------------------------

    def add_user(
        self,
        id: str,
        real_name: str,
        *,
        admin: bool = False,
        owner: bool = False,
        bot: bool = False,
    ) -> dict:
        user = {
            "id": id,
            "team_id": self.TEAM,
            "name": real_name.lower().replace(" ", "."),
            "real_name": real_name,
            "deleted": False,
            "is_admin": admin,
            "is_owner": owner,
            "is_bot": bot,
            "profile": {"real_name": real_name, "display_name": real_name.split(" ")[0]},
        }
        self.users[id] = user
        return user

    def add_channel(
        self, id: str, name: str, *, private: bool = False, archived: bool = False
    ) -> dict:
        channel = {
            "id": id,
            "name": name,
            "is_channel": not private,
            "is_group": private,
            "is_private": private,
            "is_archived": archived,
            "is_member": True,
        }
        self.channels[id] = channel
        return channel

    def add_usergroup(self, id: str, handle: str, name: str, users: list[str]) -> dict:
        """A user group (`<!subteam^ID|@handle>`) of this team with its members."""
        group = {
            "id": id,
            "team_id": self.TEAM,
            "is_usergroup": True,
            "name": name,
            "handle": handle,
            "date_delete": 0,
            "users": list(users),
            "user_count": len(users),
        }
        self.usergroups[id] = group
        return group

    def add_bot(self, id: str, name: str, user_id: str | None = None) -> dict:
        bot = {"id": id, "deleted": False, "name": name, "app_id": "A0OTHER", "user_id": user_id}
        self.bots[id] = bot
        return bot

    def called(self, method: str) -> list[Call]:
        return [call for call in self.calls if call.method == method]

    def messages_in(self, channel: str, thread_ts: str | None = None) -> list[dict]:
        """The bot's messages top-level in `channel` (thread_ts None) or in one thread."""
        return [m for m in self.posted if m["channel"] == channel and m["thread_ts"] == thread_ts]

    def response_url(self) -> str:
        return f"{self.url_root}response/{next(self._response_ids)}"

    # ---- failure injection -----------------------------------------------------------------

    def rate_limit_next(self, method: str, retry_after: int = 1) -> None:
        """The next call of `method` answers HTTP 429 with a Retry-After header."""
        self._injected[method].append(("ratelimit", retry_after))

    def fail_next(self, method: str, error: str) -> None:
        """The next call of `method` answers 200 {"ok": false, "error": error}."""
        self._injected[method].append(("error", error))

    # ---- Web API ---------------------------------------------------------------------------

    async def _api(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        params: dict[str, Any] = dict(request.query)
        if request.can_read_body:
            if request.content_type == "application/json":
                body = await request.json()
                if isinstance(body, dict):
                    params.update(body)
            else:
                form = await request.post()
                params.update({k: v for k, v in form.items() if isinstance(v, str)})
        for name in _JSON_FIELDS:
            value = params.get(name)
            if isinstance(value, str) and value[:1] in ("[", "{"):
                with contextlib.suppress(ValueError):
                    params[name] = json.loads(value)
        auth = request.headers.get("Authorization", "")
        token = auth[len("Bearer ") :] if auth.startswith("Bearer ") else params.get("token")
        self.calls.append(Call(method, params, token))

        if self._injected.get(method):
            kind, arg = self._injected[method].popleft()
            if kind == "ratelimit":
                return web.json_response(
                    {"ok": False, "error": "ratelimited"},
                    status=429,
                    headers={"Retry-After": str(arg)},
                )
            return web.json_response({"ok": False, "error": arg})

        if not token:
            return web.json_response({"ok": False, "error": "not_authed"})
        if (method == "apps.connections.open") != token.startswith("xapp-"):
            return web.json_response({"ok": False, "error": "not_allowed_token_type"})
        handler = getattr(self, "_m_" + method.replace(".", "_"), None)
        try:
            result = handler(params) if handler else {"ok": True}
        except _SlackError as error:
            result = {"ok": False, "error": str(error)}
        return web.json_response(result)

    def _m_auth_test(self, params: dict) -> dict:
        return {
            "ok": True,
            "url": "https://lab.slack.com/",
            "team": "Lab",
            "user": "summarybot",
            "team_id": self.TEAM,
            "user_id": self.BOT_USER,
            "bot_id": self.BOT_ID,
            "is_enterprise_install": False,
        }

    def _m_apps_connections_open(self, params: dict) -> dict:
        return {"ok": True, "url": f"ws{self.url_root[4:]}link"}

    def _m_users_info(self, params: dict) -> dict:
        user = self.users.get(params.get("user", ""))
        return {"ok": True, "user": user} if user else {"ok": False, "error": "user_not_found"}

    def _m_users_list(self, params: dict) -> dict:
        page, cursor = _page(list(self.users.values()), params)
        return {"ok": True, "members": page, "response_metadata": {"next_cursor": cursor}}

    def _m_conversations_info(self, params: dict) -> dict:
        channel = self.channels.get(params.get("channel", ""))
        if not channel:
            return {"ok": False, "error": "channel_not_found"}
        return {"ok": True, "channel": channel}

    def _m_conversations_list(self, params: dict) -> dict:
        """Channels by `types` (default public only, as Slack) and `exclude_archived`, in
        pages of `limit` with a `cursor`."""
        types = set(str(params.get("types") or "public_channel").split(","))
        skip_archived = str(params.get("exclude_archived", "")).lower() in ("1", "true")
        listed = [
            c
            for c in self.channels.values()
            if ("private_channel" if c["is_private"] else "public_channel") in types
            and not (skip_archived and c["is_archived"])
        ]
        page, cursor = _page(listed, params)
        return {"ok": True, "channels": page, "response_metadata": {"next_cursor": cursor}}

    def _m_conversations_join(self, params: dict) -> dict:
        channel = self.channels.get(params.get("channel", ""))
        return {"ok": True, "channel": channel} if channel else {"ok": True}

    def _m_conversations_history(self, params: dict) -> dict:
        channel = params.get("channel", "")
        if channel not in self.history and channel not in self.channels:
            return {"ok": False, "error": "channel_not_found"}
        messages = sorted(self.history.get(channel, []), key=_ts_key, reverse=True)
        page, cursor = _page(_between(messages, params), params)
        return {
            "ok": True,
            "messages": page,
            "has_more": bool(cursor),
            "pin_count": 0,
            "response_metadata": {"next_cursor": cursor},
        }

    def _m_conversations_replies(self, params: dict) -> dict:
        channel, ts = params.get("channel", ""), params.get("ts", "")
        # `ts` may name the thread's root or any message in it, as in Slack.
        thread = self.replies.get((channel, ts))
        if thread is None:
            thread = next(
                (
                    messages
                    for (c, _), messages in self.replies.items()
                    if c == channel and any(m.get("ts") == ts for m in messages)
                ),
                None,
            )
        if thread is None:
            return {"ok": False, "error": "thread_not_found"}
        messages = sorted(thread, key=_ts_key)
        page, cursor = _page(_between(messages, params), params)
        return {
            "ok": True,
            "messages": page,
            "has_more": bool(cursor),
            "response_metadata": {"next_cursor": cursor},
        }

    def _m_usergroups_list(self, params: dict) -> dict:
        with_users = str(params.get("include_users", "")).lower() in ("1", "true")
        groups = [
            {k: v for k, v in group.items() if with_users or k != "users"}
            for group in self.usergroups.values()
        ]
        return {"ok": True, "usergroups": groups}

    def _m_usergroups_users_list(self, params: dict) -> dict:
        group = self.usergroups.get(params.get("usergroup", ""))
        if group is None:
            return {"ok": False, "error": "no_such_subteam"}
        return {"ok": True, "users": list(group["users"])}

    def _m_bots_info(self, params: dict) -> dict:
        bot_id = params.get("bot", "")
        if bot_id == self.BOT_ID:
            bot = {"id": bot_id, "deleted": False, "name": "summarybot", "app_id": self.APP_ID}
            bot["user_id"] = self.BOT_USER
        else:
            bot = self.bots.get(bot_id) or {"id": bot_id, "name": "github", "user_id": None}
        return {"ok": True, "bot": bot}

    def _next_ts(self) -> str:
        micros = _FIRST_TS_MICROS + 100 * next(self._ts)
        return f"{micros // 1_000_000}.{micros % 1_000_000:06d}"

    def _as_message(self, stored: dict) -> dict:
        message = {
            "type": "message",
            "user": self.BOT_USER,
            "bot_id": self.BOT_ID,
            "app_id": self.APP_ID,
            "team": self.TEAM,
            "text": stored["text"],
            "ts": stored["ts"],
        }
        if stored["blocks"] is not None:
            message["blocks"] = stored["blocks"]
        if stored["thread_ts"] is not None:
            message["thread_ts"] = stored["thread_ts"]
        return message

    def _m_chat_postMessage(self, params: dict) -> dict:
        channel = params.get("channel")
        if not channel:
            return {"ok": False, "error": "channel_not_found"}
        if not params.get("text") and not params.get("blocks"):
            return {"ok": False, "error": "no_text"}
        stored = {
            "channel": channel,
            "ts": self._next_ts(),
            "thread_ts": params.get("thread_ts") or None,
            "text": params.get("text", ""),
            "blocks": params.get("blocks"),
        }
        self.posted.append(stored)
        return {
            "ok": True,
            "channel": channel,
            "ts": stored["ts"],
            "message": self._as_message(stored),
        }

    def _m_chat_update(self, params: dict) -> dict:
        channel, ts = params.get("channel"), params.get("ts")
        for stored in self.posted:
            if stored["channel"] == channel and stored["ts"] == ts:
                break
        else:
            return {"ok": False, "error": "message_not_found"}
        if "text" in params:
            stored["text"] = params["text"]
        if "blocks" in params:
            stored["blocks"] = params["blocks"]
        message = self._as_message(stored)
        message.pop("ts")
        return {
            "ok": True,
            "channel": channel,
            "ts": ts,
            "text": stored["text"],
            "message": message,
        }

    def _m_chat_postEphemeral(self, params: dict) -> dict:
        self.ephemeral.append(
            {
                "channel": params.get("channel"),
                "user": params.get("user"),
                "text": params.get("text", ""),
                "blocks": params.get("blocks"),
            }
        )
        return {"ok": True, "message_ts": self._next_ts()}

    def _m_chat_getPermalink(self, params: dict) -> dict:
        channel, ts = params.get("channel", ""), params.get("message_ts", "")
        return {
            "ok": True,
            "channel": channel,
            "permalink": f"https://lab.slack.com/archives/{channel}/p{ts.replace('.', '')}",
        }

    def _m_views_open(self, params: dict) -> dict:
        view = params.get("view") or {}
        self.views_opened.append({"trigger_id": params.get("trigger_id"), "view": view})
        return {"ok": True, "view": {"id": f"V{next(self._view_ids)}", **view}}

    def _m_views_push(self, params: dict) -> dict:
        return self._m_views_open(params)

    def _m_views_update(self, params: dict) -> dict:
        view = params.get("view") or {}
        return {"ok": True, "view": {"id": params.get("view_id") or "V1", **view}}

    async def _response_url(self, request: web.Request) -> web.Response:
        body = await request.json()
        self.responses.append(body)
        self.responses_by_url[str(request.url.with_query(None))].append(body)
        return web.Response(text="ok")

    # ---- Socket Mode -----------------------------------------------------------------------

    async def _link(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()  # answers the client's pings by itself
        await ws.prepare(request)
        self._sockets.add(ws)
        self.connections += 1
        hello = {
            "type": "hello",
            "num_connections": 1,
            "debug_info": {
                "host": "applink-fake",
                "build_number": 1,
                "approximate_connection_time": 18060,
            },
            "connection_info": {"app_id": self.APP_ID},
        }
        await ws.send_str(json.dumps(hello))
        self._ws = ws
        self._connected.set()
        try:
            async for frame in ws:
                if frame.type != WSMsgType.TEXT:
                    continue
                message = json.loads(frame.data)
                future = self._acks.get(message.get("envelope_id", ""))
                if future is not None and not future.done():
                    future.set_result(message)
                else:
                    self.socket_messages.append(message)
        finally:
            self._sockets.discard(ws)
            if self._ws is ws:
                self._ws = None
                self._connected.clear()
        return ws

    async def wait_connected(self, timeout: float = 5) -> None:
        await asyncio.wait_for(self._connected.wait(), timeout)

    async def send_envelope(
        self,
        type_: str,
        payload: dict,
        accepts_response_payload: bool = False,
        timeout: float = 5,
    ) -> dict:
        """Push one envelope over the websocket and return the client's ack."""
        ws = self._ws
        if ws is None or ws.closed:
            raise RuntimeError("no Socket Mode client is connected")
        envelope: dict[str, Any] = {
            "envelope_id": str(uuid.uuid4()),
            "payload": payload,
            "type": type_,
            "accepts_response_payload": accepts_response_payload,
        }
        if type_ == "events_api":
            envelope.update(retry_attempt=0, retry_reason="")
        future: asyncio.Future[dict] = asyncio.get_running_loop().create_future()
        self._acks[envelope["envelope_id"]] = future
        try:
            await ws.send_str(json.dumps(envelope))
            return await asyncio.wait_for(future, timeout)
        finally:
            self._acks.pop(envelope["envelope_id"], None)


class _SlackError(Exception):
    """Raised inside a method handler: the fake answers {"ok": false, "error": str(e)}."""


# ---- paging helpers ----------------------------------------------------------------------------


def _ts_key(message: dict) -> Decimal:
    return Decimal(message["ts"])


def _between(messages: list[dict], params: dict) -> list[dict]:
    """Slack's `oldest`/`latest` bounds: exclusive unless `inclusive` is set."""
    inclusive = str(params.get("inclusive", "")).lower() in ("1", "true")
    oldest = _bound(params, "oldest")
    latest = _bound(params, "latest")
    kept = []
    for message in messages:
        ts = _ts_key(message)
        if oldest is not None and (ts < oldest or (ts == oldest and not inclusive)):
            continue
        if latest is not None and (ts > latest or (ts == latest and not inclusive)):
            continue
        kept.append(message)
    return kept


def _bound(params: dict, name: str) -> Decimal | None:
    value = params.get(name)
    if value in (None, ""):
        return None
    try:
        return Decimal(str(value))
    except InvalidOperation:
        raise _SlackError(f"invalid_ts_{name}") from None


def _page(items: list, params: dict) -> tuple[list, str]:
    """One page of `items` by `limit` (default 100) and `cursor`; returns (page, next_cursor)."""
    try:
        limit = int(params.get("limit") or 100)
    except ValueError:
        raise _SlackError("invalid_arguments") from None
    cursor = params.get("cursor") or ""
    try:
        start = int(base64.b64decode(cursor).decode().split(":")[1]) if cursor else 0
    except (ValueError, IndexError):
        raise _SlackError("invalid_cursor") from None
    end = start + limit
    following = base64.b64encode(f"next:{end}".encode()).decode() if end < len(items) else ""
    return items[start:end], following


# ---- building Slack's requests -------------------------------------------------------------------

_event_ids = itertools.count(1)


def signed_headers(
    secret: str, body: str, *, timestamp: int | None = None, content_type: str
) -> dict[str, str]:
    """The headers Slack signs a request with (`timestamp` defaults to now)."""
    ts = str(int(time.time()) if timestamp is None else timestamp)
    signature = SignatureVerifier(secret).generate_signature(timestamp=ts, body=body)
    return {
        "Content-Type": content_type,
        "X-Slack-Request-Timestamp": ts,
        "X-Slack-Signature": signature,
    }


def event_payload(event: dict, *, team: str = FakeSlack.TEAM, event_id: str | None = None) -> dict:
    """An Events API envelope (the HTTP body, or a Socket Mode `events_api` payload)."""
    return {
        "token": "verification-token",
        "team_id": team,
        "api_app_id": FakeSlack.APP_ID,
        "event": event,
        "type": "event_callback",
        "event_id": event_id or f"Ev{next(_event_ids):08d}",
        "event_time": int(time.time()),
        "authorizations": [
            {
                "enterprise_id": None,
                "team_id": team,
                "user_id": FakeSlack.BOT_USER,
                "is_bot": True,
                "is_enterprise_install": False,
            }
        ],
        "is_ext_shared_channel": False,
    }


def event_body(event: dict, *, team: str = FakeSlack.TEAM, event_id: str | None = None) -> str:
    return json.dumps(event_payload(event, team=team, event_id=event_id))


def command_payload(
    command: str,
    text: str,
    *,
    user_id: str,
    channel_id: str,
    response_url: str,
    trigger_id: str = "trig-1",
    team_id: str = FakeSlack.TEAM,
    user_name: str | None = None,
    channel_name: str = "general",
) -> dict[str, str]:
    """A slash command's fields (the form body, or a Socket Mode `slash_commands` payload)."""
    return {
        "token": "verification-token",
        "team_id": team_id,
        "team_domain": "lab",
        "channel_id": channel_id,
        "channel_name": channel_name,
        "user_id": user_id,
        "user_name": user_name or user_id.lower(),
        "command": command,
        "text": text,
        "api_app_id": FakeSlack.APP_ID,
        "is_enterprise_install": "false",
        "response_url": response_url,
        "trigger_id": trigger_id,
    }


def command_body(
    command: str,
    text: str,
    *,
    user_id: str,
    channel_id: str,
    response_url: str,
    trigger_id: str = "trig-1",
    team_id: str = FakeSlack.TEAM,
) -> str:
    """A slash command as Slack POSTs it: application/x-www-form-urlencoded."""
    return urlencode(
        command_payload(
            command,
            text,
            user_id=user_id,
            channel_id=channel_id,
            response_url=response_url,
            trigger_id=trigger_id,
            team_id=team_id,
        )
    )


def interaction_body(payload: dict) -> str:
    """An interactivity request body: form-encoded `payload=<json>`."""
    return urlencode({"payload": json.dumps(payload)})


def _user(user_id: str, team: str) -> dict:
    return {"id": user_id, "username": user_id.lower(), "name": user_id.lower(), "team_id": team}


def block_actions(
    action_id: str,
    *,
    user_id: str,
    channel_id: str,
    message_ts: str,
    response_url: str,
    trigger_id: str = "trig-1",
    value: str = "",
    block_id: str = "actions",
    message_text: str = "",
    thread_ts: str | None = None,
) -> dict:
    """A button click on one of the bot's messages (`block_actions` payload)."""
    message: dict[str, Any] = {
        "type": "message",
        "user": FakeSlack.BOT_USER,
        "bot_id": FakeSlack.BOT_ID,
        "app_id": FakeSlack.APP_ID,
        "team": FakeSlack.TEAM,
        "text": message_text,
        "ts": message_ts,
    }
    if thread_ts is not None:
        message["thread_ts"] = thread_ts
    return {
        "type": "block_actions",
        "user": _user(user_id, FakeSlack.TEAM),
        "api_app_id": FakeSlack.APP_ID,
        "token": "verification-token",
        "container": {
            "type": "message",
            "message_ts": message_ts,
            "channel_id": channel_id,
            "is_ephemeral": False,
        },
        "trigger_id": trigger_id,
        "team": {"id": FakeSlack.TEAM, "domain": "lab"},
        "enterprise": None,
        "is_enterprise_install": False,
        "channel": {"id": channel_id, "name": "general"},
        "message": message,
        "state": {"values": {}},
        "response_url": response_url,
        "actions": [
            {
                "action_id": action_id,
                "block_id": block_id,
                "text": {"type": "plain_text", "text": action_id, "emoji": True},
                "value": value,
                "type": "button",
                "action_ts": f"{time.time():.6f}",
            }
        ],
    }


def view_submission(
    callback_id: str,
    private_metadata: str,
    values: dict[str, dict[str, dict]],
    *,
    user_id: str,
    view_id: str = "V1",
    trigger_id: str = "trig-2",
) -> dict:
    """A modal's submit (`view_submission` payload); `values` is view.state.values:
    {block_id: {action_id: {"type": "plain_text_input", "value": "..."}}}."""
    return {
        "type": "view_submission",
        "team": {"id": FakeSlack.TEAM, "domain": "lab"},
        "user": _user(user_id, FakeSlack.TEAM),
        "api_app_id": FakeSlack.APP_ID,
        "token": "verification-token",
        "trigger_id": trigger_id,
        "view": {
            "id": view_id,
            "team_id": FakeSlack.TEAM,
            "type": "modal",
            "blocks": [],
            "private_metadata": private_metadata,
            "callback_id": callback_id,
            "state": {"values": values},
            "hash": "1763370000.fakehash",
            "title": {"type": "plain_text", "text": "Summary Bot"},
            "clear_on_close": False,
            "notify_on_close": False,
            "close": {"type": "plain_text", "text": "Cancel"},
            "submit": {"type": "plain_text", "text": "Submit"},
            "previous_view_id": None,
            "root_view_id": view_id,
            "app_id": FakeSlack.APP_ID,
            "external_id": "",
            "app_installed_team_id": FakeSlack.TEAM,
            "bot_id": FakeSlack.BOT_ID,
        },
        "response_urls": [],
        "is_enterprise_install": False,
        "enterprise": None,
    }
