"""The Bolt app: Slack events, the `/summary` command, buttons and the edit modal, translated
into the core's neutral events; plus history backfill."""

from __future__ import annotations

import dataclasses
import logging
import re
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from aiohttp import web
from slack_bolt.async_app import AsyncApp, AsyncBoltContext
from slack_bolt.response import BoltResponse
from slack_sdk.web.async_client import AsyncWebClient

from bot.core import metrics
from bot.core.history import Progress
from bot.core.mrkdwn import to_mrkdwn
from bot.core.port import (
    ButtonPress,
    Caller,
    CommandEvent,
    DeleteEvent,
    EditEvent,
    EditorSubmit,
    MessageEvent,
    Reply,
)
from bot.core.router import Core
from bot.slack.directory import Directory
from bot.slack.events import EventsEndpoint
from bot.slack.messages import SlackConverter, parse_ts, pinned_message_id
from bot.slack.port import CHANNEL_ID_RE, EDIT_BLOCK, EDIT_CALLBACK, submitted_text
from storage.records import ChannelRecord, MessageRecord, WorkspaceRecord

log = logging.getLogger(__name__)

COMMAND = "/summary"
BUTTON_RE = re.compile(r"^(approve|regenerate|discard|page|edit|history):\d+$")
PAGE_SIZE = 200
# Threads whose root is at most this much older than what is fetched are looked at: their
# `latest_reply` says whether they have replies to fetch.
ROOT_LOOKBACK = timedelta(days=30)


class SlackBot:
    """Wires a Bolt `AsyncApp` to the core. `signing_secret` is needed for the HTTP Events
    API; Socket Mode needs none.

    Every request, over HTTP or Socket Mode, first passes `_own_installation`: one for
    another workspace or app than this bot's token (a distributed app installed elsewhere,
    the same request URL shared by apps) is acknowledged, counted
    (`summarybot_foreign_events`) and otherwise ignored."""

    def __init__(
        self,
        core: Core,
        client: AsyncWebClient,
        signing_secret: str | None,
        directory: Directory | None = None,
    ) -> None:
        self.core = core
        self.client = client
        self.signing_secret = signing_secret
        self.directory = directory or Directory(client)
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
        self.app.event("user_change")(self.on_user_change)
        self.app.event("subteam_members_changed")(self.on_group_change)
        self.app.event("subteam_updated")(self.on_group_change)
        self.app.command(COMMAND)(ack=_ack, lazy=[self.on_command])
        self.app.action(BUTTON_RE)(ack=_ack, lazy=[self.on_button])
        self.app.view(EDIT_CALLBACK)(self.on_edit_submit)
        core.backfill = self.backfill
        core.member = self.page_caller

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
        channel, records = await self._translate(channel_id, [raw])
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

    async def _translate(
        self, channel_id: str, raws: list[dict[str, Any]]
    ) -> tuple[ChannelRecord, list[MessageRecord]]:
        """Raw Slack messages of one channel as neutral records (system messages dropped)."""
        channel = ChannelRecord(channel_id, await self.directory.channel_name(channel_id))
        converter = SlackConverter(await self.directory.people(raws), {})
        records = []
        for raw in raws:
            ts = str(raw.get("ts", ""))
            created_at = parse_ts(ts)
            if created_at is None:
                continue
            record = converter.convert(raw, ts, created_at, channel)
            if record is not None:
                link = await self.directory.permalink(channel_id, ts, raw.get("thread_ts"))
                records.append(dataclasses.replace(record, permalink=link))
        return channel, records

    async def backfill(
        self, workspace: WorkspaceRecord, channel: str, progress: Progress | None = None
    ) -> None:
        """Fetch a channel's history since its newest stored message (or, for a channel just
        enabled, since the start of last week), threads included."""
        if not CHANNEL_ID_RE.match(channel):
            log.warning("cannot backfill %r: not a channel id (set it again by name)", channel)
            return
        await self._read(
            workspace, channel, await self.core.backfill_since(workspace, channel), progress
        )

    async def reconcile(self, workspace: WorkspaceRecord, channel: str) -> None:
        """After downtime: read the channel from the start of the open week (or its newest
        stored message, if older), so edits, reactions, late thread replies and deletes
        made while the bot was away are caught up."""
        if not CHANNEL_ID_RE.match(channel):
            return
        since = min(await self.core.backfill_since(workspace, channel), self.core.open_week_start())
        read_at = self.core.clock()
        seen, threads = await self._read(workspace, channel, since)
        await self.core.reconcile(workspace, channel, since, seen, threads, read_at=read_at)

    async def _read(
        self,
        workspace: WorkspaceRecord,
        channel: str,
        since: datetime,
        progress: Progress | None = None,
    ) -> tuple[set[str], set[str]]:
        """Store the channel's messages sent since `since`, and the replies since then in
        every thread whose root is younger than `ROOT_LOOKBACK` before it (`latest_reply`
        says which threads have any). Returns the ids read and the threads read."""
        oldest = f"{since.timestamp():.6f}"
        await self.client.conversations_join(channel=channel)
        if progress is not None:
            await progress.begin(await self.directory.channel_name(channel), since)
        seen: set[str] = set()
        roots: list[str] = []
        async for page in await self.client.conversations_history(
            channel=channel, oldest=f"{(since - ROOT_LOOKBACK).timestamp():.6f}", limit=PAGE_SIZE
        ):
            raws = page["messages"]
            roots += [m["ts"] for m in raws if _has_replies_since(m, oldest)]
            recent = [m for m in raws if Decimal(str(m.get("ts", "0"))) > Decimal(oldest)]
            seen |= await self._store(workspace, *await self._translate(channel, recent), progress)
        for root in roots:
            async for page in await self.client.conversations_replies(
                channel=channel, ts=root, oldest=oldest, limit=PAGE_SIZE
            ):
                translated = await self._translate(channel, page["messages"])
                seen |= await self._store(workspace, *translated, progress)
        return seen, {f"{channel}:{root}" for root in roots}

    async def _store(
        self,
        workspace: WorkspaceRecord,
        channel: ChannelRecord,
        records: list[MessageRecord],
        progress: Progress | None,
    ) -> set[str]:
        """Store a batch; the ids it holds."""
        if records:
            counts = await self.core.store(workspace, channel, records)
            if progress is not None and counts is not None:
                await progress.add(record.platform_id for record in records)
        return {record.platform_id for record in records}

    async def catch_up(self) -> None:
        """After downtime: re-read every logged channel's open week (and anything newer
        than its last stored message)."""
        workspace = await self.directory.workspace()
        for channel in await self.core.logged_channels(workspace):
            await self.reconcile(workspace, channel)

    # --- commands, buttons, the edit modal ----------------------------------------------------

    async def _caller(self, workspace: WorkspaceRecord, user_id: str) -> Caller:
        """Who acts, with the user groups they belong to among those the workspace's
        editors and admins name."""
        user = await self.directory.member(user_id)
        name = (user.get("profile") or {}).get("real_name") or user.get("real_name") or user_id
        groups = await self.directory.groups_of(user_id, await self.core.role_ids(workspace))
        is_admin = bool(user.get("is_admin") or user.get("is_owner"))
        return Caller(user_id, name, is_admin, groups)

    async def page_caller(self, team_id: str, user_id: str) -> Caller | None:
        """Who a review-page user is now in this workspace (None in another team, or once
        deactivated); asked on every request of the page."""
        workspace = await self.directory.workspace()
        if team_id != workspace.platform_id:
            return None
        if (await self.directory.member(user_id)).get("deleted"):
            return None
        return await self._caller(workspace, user_id)

    async def on_command(self, command: dict[str, Any], respond) -> None:  # noqa: ANN001
        workspace = await self.directory.workspace()
        event = CommandEvent(
            workspace,
            await self._caller(workspace, command["user_id"]),
            command.get("text", ""),
            command.get("channel_id", ""),
        )
        await _answer(respond, await self.core.on_command(event))

    async def on_button(self, body: dict[str, Any], action: dict[str, Any], respond) -> None:  # noqa: ANN001
        workspace = await self.directory.workspace()
        press = ButtonPress(
            workspace,
            await self._caller(workspace, body["user"]["id"]),
            action["action_id"],
            trigger_id=body.get("trigger_id", ""),
            channel_id=(body.get("channel") or {}).get("id", ""),
        )
        reply = await self.core.on_button(press)
        if reply is not None:
            await _answer(respond, reply)

    async def on_edit_submit(self, ack, body: dict[str, Any], view: dict[str, Any]) -> None:  # noqa: ANN001
        """Saving the modal: refused edits keep the modal open with the reason."""
        workspace = await self.directory.workspace()
        submit = EditorSubmit(
            workspace,
            await self._caller(workspace, body["user"]["id"]),
            int(view["private_metadata"]),
            submitted_text(view),
        )
        reply = await self.core.on_editor_submit(submit)
        if reply.ok:
            await ack()
        else:
            await ack(response_action="errors", errors={f"{EDIT_BLOCK}_0": reply.text[:150]})


async def _ack(ack) -> None:  # noqa: ANN001 (Bolt's ack)
    await ack()


async def _answer(respond, reply: Reply) -> None:  # noqa: ANN001 (Bolt's respond)
    await respond(
        text=to_mrkdwn(reply.text),
        response_type="ephemeral" if reply.private else "in_channel",
        replace_original=False,
    )


def _has_replies_since(raw: dict[str, Any], oldest: str) -> bool:
    """A thread root with replies after `oldest` (a Slack ts); without `latest_reply`, any
    root in the window."""
    if not raw.get("reply_count"):
        return False
    latest = raw.get("latest_reply") or raw.get("ts", "0")
    return Decimal(str(latest)) > Decimal(oldest)
