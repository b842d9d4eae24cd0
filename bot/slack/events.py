"""The HTTP Events API endpoint: every request Slack POSTs to the bot (events, the slash
command, buttons and the edit modal), answered as Bolt's aiohttp adapter answers, except:

* A request is checked before anything reads it. One not correctly signed (slack_sdk's
  `SignatureVerifier`; a missing or empty timestamp included) gets Bolt's 401. A signed body
  Bolt cannot read (not UTF-8, not JSON, JSON that is not an object, an `event_callback` whose
  `event` is not an object) gets 400: Bolt's adapter parses the body before it checks the
  signature, and such a body made it answer 500.
* The bulk of the traffic, a person's plain new message, takes a shorter path. Bolt runs every
  request through its whole middleware chain, builds the listener's keyword arguments and
  matches it against every listener; for a busy channel that costs more CPU than storing the
  messages. An `event_callback` of this installation (its team, its authorizations and its
  app all this bot's) carrying a `message` event with no subtype and no `bot_id`, from
  someone other than this bot, goes straight to the message listener, and the answer follows
  the store (200 once stored, 500 if it failed, as Bolt answers with
  `process_before_response`). Everything else goes to Bolt, where the installation check
  (`bot.slack.app`) refuses another workspace's or app's events.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web
from slack_bolt.adapter.aiohttp import to_aiohttp_response
from slack_bolt.async_app import AsyncApp
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_sdk.signature import SignatureVerifier

from bot.slack.directory import Installation

log = logging.getLogger(__name__)

Listener = Callable[..., Awaitable[None]]  # on_message(event=..., body=...)
InstallationOf = Callable[[], Awaitable[Installation]]
UNREADABLE = (ValueError, TypeError, AttributeError, KeyError)  # what Bolt raises on odd bodies


class EventsEndpoint:
    """The aiohttp handler (`handle`) in front of the Bolt `app`."""

    def __init__(
        self,
        app: AsyncApp,
        signing_secret: str,
        on_message: Listener,
        installation: InstallationOf,
    ) -> None:
        self._app = app
        self._verifier = SignatureVerifier(signing_secret)
        self._on_message = on_message
        self._installation = installation

    def web_app(self, path: str) -> web.Application:
        """An aiohttp application serving the endpoint at `path`."""
        app = web.Application()
        app.router.add_post(path, self.handle)
        return app

    async def handle(self, request: web.Request) -> web.StreamResponse:
        try:
            body = (await request.read()).decode()
        except UnicodeDecodeError:
            return _bad("the body is not UTF-8")
        if not self._signed(body, request):
            return web.json_response({"error": "invalid request"}, status=401)
        try:
            bolt_request = AsyncBoltRequest(
                body=body,
                query=request.query_string,
                headers=request.headers,  # type: ignore[arg-type]
            )
        except UNREADABLE:
            return _bad("the body is not a JSON object or a form")
        payload = bolt_request.body
        if not isinstance(payload, dict) or (
            payload.get("type") == "event_callback" and not isinstance(payload.get("event"), dict)
        ):
            return _bad("the body is not an event Slack sends")
        event = await self._plain_message(payload)
        if event is None:
            return await to_aiohttp_response(await self._app.async_dispatch(bolt_request))
        try:
            await self._on_message(event=event, body=payload)
        except Exception:
            log.exception("Slack: a message event could not be handled; Slack will retry it")
            return web.Response(status=500)
        return web.Response(status=200)

    def _signed(self, body: str, request: web.Request) -> bool:
        try:
            return self._verifier.is_valid(
                body,
                request.headers.get("X-Slack-Request-Timestamp"),
                request.headers.get("X-Slack-Signature"),
            )
        except ValueError:  # a timestamp that is not a number
            return False

    async def _plain_message(self, payload: dict[str, Any]) -> dict[str, Any] | None:
        """The message event this request carries, if it is one the short path answers."""
        event = payload.get("event")
        if (
            payload.get("type") != "event_callback"
            or not isinstance(event, dict)
            or event.get("type") != "message"
            or "subtype" in event
            or "bot_id" in event
            or not isinstance(event.get("user"), str)
        ):
            return None
        installation = await self._installation()
        if not _only_for(payload, installation):
            return None  # Bolt decides (and refuses another installation's)
        if event["user"] == installation.bot_user_id:
            return None  # Bolt drops the bot's own messages
        return event


def _only_for(payload: dict[str, Any], installation: Installation) -> bool:
    """Whether everything in the envelope names this installation: its team, every
    authorization's team, and its app."""
    authorizations = payload.get("authorizations")
    app_id = payload.get("api_app_id")
    return (
        payload.get("team_id") == installation.team_id
        and (installation.app_id is None or app_id == installation.app_id)
        and isinstance(authorizations, list)
        and all(
            isinstance(a, dict) and a.get("team_id") == installation.team_id for a in authorizations
        )
    )


def _bad(reason: str) -> web.Response:
    log.warning("Slack: refused a signed request: %s", reason)
    return web.json_response({"error": reason}, status=400)
