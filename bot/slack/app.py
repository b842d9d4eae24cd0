"""The Bolt app: Slack events, the `/summary` command, buttons and the edit modal, translated
into the core's neutral events."""

from __future__ import annotations

import logging
import re
from typing import Any

from aiohttp import web
from slack_bolt.async_app import AsyncApp, AsyncBoltContext
from slack_bolt.logger.messages import warning_client_prioritized_and_token_skipped
from slack_bolt.response import BoltResponse
from slack_sdk.web.async_client import AsyncWebClient

from bot.core import metrics
from bot.core.failures import failed
from bot.core.mrkdwn import to_mrkdwn
from bot.core.port import (
    ButtonPress,
    Caller,
    CommandEvent,
    DeleteEvent,
    EditEvent,
    EditorSubmit,
    MakeCore,
    MessageEvent,
    Outbound,
    Reply,
)
from bot.slack.directory import Directory
from bot.slack.events import EventsEndpoint
from bot.slack.history import SlackHistory, translate
from bot.slack.members import SlackMembers
from bot.slack.messages import pinned_message_id, reacted_message_id
from bot.slack.port import EDIT_BLOCK, EDIT_CALLBACK, SlackPort, submitted_text
from storage.records import WorkspaceRecord

log = logging.getLogger(__name__)

COMMAND = "/summary"
BUTTON_RE = re.compile(r"^(approve|regenerate|discard|page|edit|history):\d+$")


class SlackBot:
    """Wires a Bolt `AsyncApp` to the core, which `make_core` makes from this connection's
    port, history and members. `signing_secret` is needed for the HTTP Events API; Socket
    Mode needs none.

    Every request, over HTTP or Socket Mode, first passes `_own_installation`: one for
    another workspace or app than this bot's token (a distributed app installed elsewhere,
    the same request URL shared by apps) is acknowledged, counted
    (`summarybot_foreign_events`) and otherwise ignored."""

    def __init__(
        self,
        make_core: MakeCore,
        client: AsyncWebClient,
        signing_secret: str | None,
        directory: Directory | None = None,
    ) -> None:
        self.client = client
        self.signing_secret = signing_secret
        self.directory = directory or Directory(client)
        self.members = SlackMembers(self.directory)
        _quiet_token_warning()
        self.core = make_core(
            Outbound(
                SlackPort(client, self.directory),
                SlackHistory(client, self.directory),
                self.members,
            )
        )
        self.app = AsyncApp(
            client=client,
            signing_secret=signing_secret,
            request_verification_enabled=signing_secret is not None,
            # Acknowledge an event only once it is stored: if storing fails, Slack delivers
            # it again. Slow work (commands, buttons) runs in lazy listeners after the ack.
            process_before_response=True,
        )
        self.app.middleware(self._own_installation)
        self.app.event("message")(self.on_message)
        self.app.event("pin_added")(self.on_pin)
        self.app.event("pin_removed")(self.on_pin)
        self.app.event("reaction_added")(self.on_reaction)
        self.app.event("reaction_removed")(self.on_reaction)
        self.app.event("user_change")(self.on_user_change)
        self.app.event("subteam_members_changed")(self.on_group_change)
        self.app.event("subteam_updated")(self.on_group_change)
        self.app.command(COMMAND)(ack=_ack, lazy=[self.on_command])
        self.app.action(BUTTON_RE)(ack=_ack, lazy=[self.on_button])
        self.app.view(EDIT_CALLBACK)(self.on_edit_submit)
        # Anything else that fails in a listener (a message event that cannot be stored) is
        # logged with an id and answered 500, so Slack delivers it again.
        self.app.error(_log_failure)

    def web_app(self, path: str) -> web.Application:
        """The aiohttp app serving the HTTP Events API at `path` (`bot.slack.events`)."""
        if self.signing_secret is None:
            raise ValueError("the HTTP Events API needs the signing secret")
        endpoint = EventsEndpoint(
            self.app, self.signing_secret, self.on_message, self.directory.installation
        )
        return endpoint.web_app(path)

    async def _own_installation(
        self,
        context: AsyncBoltContext,
        body: dict[str, Any],
        next,  # noqa: A002, ANN001 (Bolt's name for the rest of the chain)
    ) -> BoltResponse | None:
        """Bolt's global middleware: pass on a request for this installation (the team Bolt
        reads from it, its authorizations first, and the app where the request names one);
        acknowledge and count any other."""
        installation = await self.directory.installation()
        app_id = body.get("api_app_id")
        if context.team_id == installation.team_id and (
            app_id is None or installation.app_id is None or app_id == installation.app_id
        ):
            await next()
            return None
        metrics.FOREIGN_EVENTS.labels("slack").inc()
        log.info(
            "Slack: ignored a request for team %s, app %s (this bot is team %s, app %s)",
            context.team_id,
            app_id,
            installation.team_id,
            installation.app_id,
        )
        return BoltResponse(status=200, body="")

    # --- logging ------------------------------------------------------------------------------

    async def on_message(self, event: dict[str, Any], body: dict[str, Any]) -> None:
        """New messages, edits and deletes; system subtypes (joins, topics...) are ignored.
        Bolt drops the bot's own messages before they get here. The envelope's `event_id`
        names the delivery: a retry carries the same one."""
        workspace = await self.directory.workspace()
        delivery = body.get("event_id")
        channel_id = event.get("channel", "")
        subtype = event.get("subtype")
        if subtype == "message_deleted":
            message_id = f"{channel_id}:{event['deleted_ts']}"
            await self.core.on_delete(DeleteEvent(workspace, message_id, delivery))
            return
        raw = event.get("message", {}) if subtype == "message_changed" else event
        channel, records = await translate(self.directory, channel_id, [raw])
        for record in records:
            if subtype == "message_changed":
                await self.core.on_message(EditEvent(workspace, channel, record, delivery))
            else:
                await self.core.on_message(MessageEvent(workspace, channel, record, delivery))

    async def on_user_change(self, event: dict[str, Any]) -> None:
        """A user's profile, admin flag or deactivation changed: read them again when next
        needed, so a demoted or deactivated admin loses access at once."""
        user = event.get("user")
        if isinstance(user, dict) and isinstance(user.get("id"), str):
            self.directory.forget_user(user["id"])

    async def on_group_change(self, event: dict[str, Any]) -> None:
        """A user group's members (`subteam_members_changed`) or the group itself
        (`subteam_updated`) changed: read its members again when next needed."""
        subteam = event.get("subteam")
        group_id = event.get("subteam_id") or (
            subteam.get("id") if isinstance(subteam, dict) else None
        )
        if isinstance(group_id, str):
            self.directory.forget_group(group_id)

    async def on_pin(self, event: dict[str, Any]) -> None:
        """A message pinned (`pin_added`) or unpinned (`pin_removed`) in a channel."""
        message_id = pinned_message_id(event)
        if message_id is None:
            return
        workspace = await self.directory.workspace()
        if event.get("type") == "pin_added":
            await self.core.on_pin(workspace, message_id)
        else:
            await self.core.on_unpin(workspace, message_id)

    async def on_reaction(self, event: dict[str, Any]) -> None:
        """A reaction added to (`reaction_added`) or removed from a message: it counts, and
        the news reaction sends the message in as news."""
        message_id = reacted_message_id(event)
        user = event.get("user")
        if message_id is None or not isinstance(user, str) or not user:
            return
        workspace = await self.directory.workspace()
        if event.get("type") != "reaction_added":
            await self.core.on_reaction(workspace, message_id, -1)
            return
        people = await self.directory.people([{"user": user}])
        emoji = str(event.get("reaction", ""))
        await self.core.on_reaction(workspace, message_id, +1, emoji, people.get(user))

    # --- commands, buttons, the edit modal ----------------------------------------------------

    async def _caller(self, workspace: WorkspaceRecord, user_id: str) -> Caller:
        """Who acts, with the user groups they belong to among those the workspace's
        editors and admins name."""
        return await self.members.caller(user_id, await self.core.role_ids(workspace))

    async def on_command(self, command: dict[str, Any], respond) -> None:  # noqa: ANN001
        """`/summary ...` (a lazy listener: it runs after the ack, so a failure is answered
        here, privately, or the person would never hear back)."""
        try:
            workspace = await self.directory.workspace()
            event = CommandEvent(
                workspace,
                await self._caller(workspace, command["user_id"]),
                command.get("text", ""),
                command.get("channel_id", ""),
            )
            reply = await self.core.on_command(event)
        except Exception as error:  # noqa: BLE001 (the boundary: any failure is answered)
            reply = failed(error, "Slack: /summary")
        await _answer(respond, reply)

    async def on_button(self, body: dict[str, Any], action: dict[str, Any], respond) -> None:  # noqa: ANN001
        """A review button (a lazy listener, answered as `on_command` is)."""
        try:
            reply = await self._press(body, action)
        except Exception as error:  # noqa: BLE001 (the boundary: any failure is answered)
            reply = failed(error, f"Slack: the {action.get('action_id')} button")
        if reply is not None:
            await _answer(respond, reply)

    async def _press(self, body: dict[str, Any], action: dict[str, Any]) -> Reply | None:
        workspace = await self.directory.workspace()
        press = ButtonPress(
            workspace,
            await self._caller(workspace, body["user"]["id"]),
            action["action_id"],
            trigger_id=body.get("trigger_id", ""),
            channel_id=(body.get("channel") or {}).get("id", ""),
        )
        return await self.core.on_button(press)

    async def on_edit_submit(self, ack, body: dict[str, Any], view: dict[str, Any]) -> None:  # noqa: ANN001
        """Saving the modal: refused edits, and a save that failed, keep the modal open with
        the reason."""
        try:
            workspace = await self.directory.workspace()
            submit = EditorSubmit(
                workspace,
                await self._caller(workspace, body["user"]["id"]),
                int(view["private_metadata"]),
                submitted_text(view),
            )
            reply = await self.core.on_editor_submit(submit)
        except Exception as error:  # noqa: BLE001 (the boundary: any failure is answered)
            reply = failed(error, "Slack: saving the edit modal")
        if reply.ok:
            await ack()
        else:
            await ack(response_action="errors", errors={f"{EDIT_BLOCK}_0": reply.text[:150]})


class _TokenFromTheEnvironment(logging.Filter):
    """Bolt reads SLACK_BOT_TOKEN from the environment itself even when given a client
    (which carries that token), then warns at every start that it will not use it."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.getMessage() != warning_client_prioritized_and_token_skipped()


_TOKEN_FILTER = _TokenFromTheEnvironment()


def _quiet_token_warning() -> None:
    logging.getLogger(f"slack_bolt.{AsyncApp.__name__}").addFilter(_TOKEN_FILTER)


async def _log_failure(error: Exception, body: dict[str, Any]) -> None:
    """Bolt's error handler: the request is answered 500 (Slack delivers an event again)."""
    failed(error, f"Slack: a {body.get('type', 'request')}")


async def _ack(ack) -> None:  # noqa: ANN001 (Bolt's ack)
    await ack()


async def _answer(respond, reply: Reply) -> None:  # noqa: ANN001 (Bolt's respond)
    await respond(
        text=to_mrkdwn(reply.text),
        response_type="ephemeral" if reply.private else "in_channel",
        replace_original=False,
    )
