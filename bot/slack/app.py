"""The Bolt app: Slack events, the `/summary` command, buttons and the edit modal, translated
into the core's neutral events; plus history backfill."""

from __future__ import annotations

import dataclasses
import logging
import re
from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

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
from bot.slack.messages import SlackConverter, parse_ts
from bot.slack.mrkdwn import to_mrkdwn
from bot.slack.port import EDIT_BLOCK, EDIT_CALLBACK, submitted_text
from storage.records import ChannelRecord, MessageRecord, WorkspaceRecord

log = logging.getLogger(__name__)

COMMAND = "/summary"
BUTTON_RE = re.compile(r"^(approve|regenerate|page|edit|history):\d+$")
CHANNEL_ID_RE = re.compile(r"^[CG][A-Z0-9]{2,}$")
PAGE_SIZE = 200


class SlackBot:
    """Wires a Bolt `AsyncApp` to the core. `signing_secret` is needed for the HTTP Events
    API; Socket Mode needs none."""

    def __init__(self, core: Core, client: AsyncWebClient, signing_secret: str | None) -> None:
        self.core = core
        self.client = client
        self.directory = Directory(client)
        self.app = AsyncApp(
            client=client,
            signing_secret=signing_secret,
            request_verification_enabled=signing_secret is not None,
            # Acknowledge an event only once it is stored: if storing fails, Slack delivers
            # it again. Slow work (commands, buttons) runs in lazy listeners after the ack.
            process_before_response=True,
        )
        self.app.event("message")(self.on_message)
        self.app.command(COMMAND)(ack=_ack, lazy=[self.on_command])
        self.app.action(BUTTON_RE)(ack=_ack, lazy=[self.on_button])
        self.app.view(EDIT_CALLBACK)(self.on_edit_submit)
        core.backfill = self.backfill

    # --- logging ------------------------------------------------------------------------------

    async def on_message(self, event: dict[str, Any]) -> None:
        """New messages, edits and deletes; system subtypes (joins, topics...) are ignored.
        Bolt drops the bot's own messages before they get here."""
        workspace = await self.directory.workspace()
        channel_id = event.get("channel", "")
        subtype = event.get("subtype")
        if subtype == "message_deleted":
            await self.core.on_delete(DeleteEvent(workspace, f"{channel_id}:{event['deleted_ts']}"))
            return
        raw = event.get("message", {}) if subtype == "message_changed" else event
        channel, records = await self._translate(channel_id, [raw])
        for record in records:
            if subtype == "message_changed":
                await self.core.on_message(EditEvent(workspace, channel, record))
            else:
                await self.core.on_message(MessageEvent(workspace, channel, record))

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

    async def backfill(self, workspace: WorkspaceRecord, channel: str) -> None:
        """Fetch a channel's history since its newest stored message (or, for a channel just
        enabled, since the start of last week), threads included."""
        if not CHANNEL_ID_RE.match(channel):
            log.warning("cannot backfill %r: not a channel id (mention the channel)", channel)
            return
        since = await self.core.backfill_since(workspace, channel)
        oldest = f"{since.timestamp():.6f}"
        await self.client.conversations_join(channel=channel)
        roots = []
        async for page in await self.client.conversations_history(
            channel=channel, oldest=oldest, limit=PAGE_SIZE
        ):
            raws = page["messages"]
            roots += [m for m in raws if m.get("reply_count")]
            await self._store(workspace, *await self._translate(channel, raws))
        for root in roots:
            async for page in await self.client.conversations_replies(
                channel=channel, ts=root["ts"], oldest=oldest, limit=PAGE_SIZE
            ):
                await self._store(workspace, *await self._translate(channel, page["messages"]))

    async def _store(
        self, workspace: WorkspaceRecord, channel: ChannelRecord, records: list[MessageRecord]
    ) -> None:
        if records:
            await self.core.store(workspace, channel, records)

    async def catch_up(self) -> None:
        """After downtime: backfill every logged channel from its last stored message."""
        workspace = await self.directory.workspace()
        for channel in await self.core.logged_channels(workspace):
            await self.backfill(workspace, channel)

    # --- commands, buttons, the edit modal ----------------------------------------------------

    async def _caller(self, workspace: WorkspaceRecord, user_id: str) -> Caller:
        """Who acts, with the user groups they belong to among those the workspace's
        editors and admins name."""
        user = await self.directory.user(user_id)
        name = (user.get("profile") or {}).get("real_name") or user.get("real_name") or user_id
        groups = await self.directory.groups_of(user_id, await self.core.role_ids(workspace))
        return Caller(user_id, name, await self.directory.is_admin(user_id), groups)

    async def page_caller(self, user_id: str) -> Caller | None:
        """Who a review-page user is now in this workspace (None once deactivated); asked on
        every request of the page."""
        if (await self.directory.user(user_id)).get("deleted"):
            return None
        return await self._caller(await self.directory.workspace(), user_id)

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
