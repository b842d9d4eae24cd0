"""A short path for the bulk of Slack's Events API traffic: a person's plain new message.

Bolt runs every request through its whole middleware chain, builds a Web API client and the
listener's keyword arguments, and matches it against every listener; for a busy channel's
messages that cost more CPU than storing them. `MessagePath` is an aiohttp middleware in
front of Bolt's handler that takes only requests it can answer as Bolt would: correctly
signed (slack_sdk's `SignatureVerifier`), an `event_callback` carrying a `message` event
with no subtype and no `bot_id`, from someone other than this bot. Those go straight to the
adapter's message listener, and the answer follows the store (200 once stored, 500 if it
failed, as Bolt answers with `process_before_response`). Everything else (edits, deletes,
bot posts, commands, buttons, URL verification, a bad signature) goes to Bolt unchanged.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web
from slack_sdk.signature import SignatureVerifier

log = logging.getLogger(__name__)

Listener = Callable[[dict[str, Any]], Awaitable[None]]
BotUserId = Callable[[], Awaitable[str | None]]


class MessagePath:
    """The aiohttp middleware (`middleware`) that stores plain messages without Bolt."""

    def __init__(
        self, path: str, signing_secret: str, on_message: Listener, bot_user_id: BotUserId
    ) -> None:
        self.path = path
        self._verifier = SignatureVerifier(signing_secret)
        self._on_message = on_message
        self._bot_user_id = bot_user_id

    @web.middleware
    async def middleware(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """Answer a plain message here; hand anything else to `handler` (Bolt)."""
        if request.method != "POST" or request.path != self.path:
            return await handler(request)
        body = await request.text()  # aiohttp keeps it for Bolt to read again
        event = await self._plain_message(body, request)
        if event is None:
            return await handler(request)
        try:
            await self._on_message(event)
        except Exception:
            log.exception("Slack: a message event could not be handled; Slack will retry it")
            return web.Response(status=500)
        return web.Response(status=200)

    async def _plain_message(self, body: str, request: web.Request) -> dict[str, Any] | None:
        """The message event this request carries, if it is one `MessagePath` answers."""
        if '"event_callback"' not in body or not self._verifier.is_valid(
            body,
            request.headers.get("X-Slack-Request-Timestamp", ""),
            request.headers.get("X-Slack-Signature", ""),
        ):
            return None
        try:
            payload = json.loads(body)
        except ValueError:
            return None
        event = payload.get("event") if isinstance(payload, dict) else None
        if (
            payload.get("type") != "event_callback"
            or not isinstance(event, dict)
            or event.get("type") != "message"
            or "subtype" in event
            or "bot_id" in event
            or not isinstance(event.get("user"), str)
        ):
            return None
        if event["user"] == await self._bot_user_id():
            return None  # Bolt drops the bot's own messages
        return event
