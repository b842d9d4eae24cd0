"""The core's `ChatPort` on Slack's Web API, with Block Kit messages and modals."""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.core.chunking import chunk
from bot.core.mrkdwn import to_mrkdwn
from bot.core.names import RefKind
from bot.core.port import Button, Posted
from bot.slack.directory import Directory
from storage.records import WorkspaceRecord

log = logging.getLogger(__name__)

# A section block's text holds at most 3,000 characters; the core splits longer text.
SECTION_LIMIT = 3000
# A plain-text input holds at most 3,000 characters too.
INPUT_LIMIT = 3000
EDIT_CALLBACK = "edit_section"
EDIT_BLOCK = "section_text"
EDIT_ACTION = "text"
_GROUP_ID_RE = re.compile(r"S[A-Z0-9]+")
CHANNEL_ID_RE = re.compile(r"^[CG][A-Z0-9]{2,}$")


class SlackPort:
    """Posts, replies in threads, updates, opens the edit modal, and tells one person."""

    max_message_chars = SECTION_LIMIT
    workspace_noun = "workspace"

    def __init__(self, client: AsyncWebClient, directory: Directory | None = None) -> None:
        self.client = client
        self.directory = directory or Directory(client)

    async def find_channel(self, workspace: WorkspaceRecord, ref: str) -> str | None:
        """A channel id (from a mention) as given: the bot token sees its own workspace only.
        A name typed as plain text ("#introductions") is looked up in `conversations.list`."""
        if CHANNEL_ID_RE.match(ref):
            return ref
        return await self.directory.channel_id(ref)

    async def find_role(self, workspace: WorkspaceRecord, ref: str) -> str | None:
        """A user group of this workspace by id, handle (with or without "@") or name."""
        try:
            groups = (await self.client.usergroups_list())["usergroups"]
        except SlackApiError as error:
            log.warning("Slack: cannot list user groups (%s)", error.response.get("error"))
            # A group mention's id is still good: Slack renders only this workspace's groups.
            return ref if _GROUP_ID_RE.fullmatch(ref) else None
        wanted = ref.lstrip("@").lower()
        for group in groups:
            if ref == group["id"] or wanted in (
                str(group.get("handle", "")).lower(),
                str(group.get("name", "")).lower(),
            ):
                return group["id"]
        return None

    async def name_of(self, workspace: WorkspaceRecord, kind: RefKind, ref_id: str) -> str | None:
        """A channel's name, a person's real name or a user group's handle, for replies."""
        try:
            if kind == "channel":
                return (await self.client.conversations_info(channel=ref_id))["channel"]["name"]
            if kind == "person":
                user = (await self.client.users_info(user=ref_id))["user"]
                return (user.get("profile") or {}).get("real_name") or user.get("name")
            groups = (await self.client.usergroups_list())["usergroups"]
        except SlackApiError:
            return None
        return next((g.get("handle") or g["name"] for g in groups if g["id"] == ref_id), None)

    async def post(self, channel_id: str, text: str, buttons: Sequence[Button] = ()) -> Posted:
        response = await self.client.chat_postMessage(
            channel=channel_id, **_message(text, buttons), unfurl_links=False, unfurl_media=False
        )
        return Posted(response["channel"], response["ts"])

    async def reply(self, parent: Posted, text: str, buttons: Sequence[Button] = ()) -> Posted:
        thread = parent.thread_id or parent.message_id
        response = await self.client.chat_postMessage(
            channel=parent.channel_id,
            thread_ts=thread,
            **_message(text, buttons),
            unfurl_links=False,
            unfurl_media=False,
        )
        return Posted(response["channel"], response["ts"], thread)

    async def update(self, message: Posted, text: str, buttons: Sequence[Button] = ()) -> None:
        await self.client.chat_update(
            channel=message.channel_id, ts=message.message_id, **_message(text, buttons)
        )

    async def open_editor(self, trigger_id: str, section_id: int, title: str, text: str) -> None:
        await self.client.views_open(
            trigger_id=trigger_id, view=edit_modal(section_id, title, text)
        )

    async def tell(self, user_id: str, text: str, channel_id: str | None = None) -> None:
        if channel_id:
            await self.client.chat_postEphemeral(
                channel=channel_id, user=user_id, **_message(text, ())
            )
        else:
            await self.client.chat_postMessage(channel=user_id, **_message(text, ()))


def _message(text: str, buttons: Sequence[Button]) -> dict[str, Any]:
    """Blocks for a message: its text as mrkdwn, then its buttons. `text` is the fallback
    for notifications, escaped the same way."""
    mrkdwn = to_mrkdwn(text)
    blocks: list[dict[str, Any]] = [{"type": "section", "text": {"type": "mrkdwn", "text": mrkdwn}}]
    if buttons:
        blocks.append(
            {
                "type": "actions",
                "elements": [_button(b) for b in buttons],
            }
        )
    return {"text": mrkdwn, "blocks": blocks}


_STYLES = {"Approve": "primary", "Discard": "danger"}


def _button(button: Button) -> dict[str, Any]:
    """A Block Kit button; one that cannot be undone carries a confirm dialog, so Slack
    asks before it sends the press."""
    element: dict[str, Any] = {
        "type": "button",
        "text": {"type": "plain_text", "text": button.label},
        "action_id": button.action_id,
        "value": button.action_id,
    }
    style = _STYLES.get(button.label)
    if style:
        element["style"] = style
    if button.confirm:
        element["confirm"] = {
            "title": {"type": "plain_text", "text": f"{button.label}?"},
            "text": {"type": "plain_text", "text": button.confirm},
            "confirm": {"type": "plain_text", "text": button.label},
            "deny": {"type": "plain_text", "text": "Cancel"},
            **({"style": style} if style else {}),
        }
    return element


def edit_modal(section_id: int, title: str, text: str) -> dict[str, Any]:
    """The modal that edits one section, prefilled with its text; a text longer than one
    input holds is split across several inputs (at paragraph, line or sentence breaks)."""
    parts = chunk(text, INPUT_LIMIT) or [""]
    return {
        "type": "modal",
        "callback_id": EDIT_CALLBACK,
        "private_metadata": str(section_id),
        "title": {"type": "plain_text", "text": "Edit section"},
        "submit": {"type": "plain_text", "text": "Save"},
        "close": {"type": "plain_text", "text": "Cancel"},
        "blocks": [
            {
                "type": "input",
                "block_id": f"{EDIT_BLOCK}_{index}",
                "optional": index > 0,
                "label": {
                    "type": "plain_text",
                    "text": title if len(parts) == 1 else f"{title} ({index + 1}/{len(parts)})",
                },
                "element": {
                    "type": "plain_text_input",
                    "action_id": EDIT_ACTION,
                    "multiline": True,
                    "max_length": INPUT_LIMIT,
                    "initial_value": part,
                },
            }
            for index, part in enumerate(parts)
        ],
    }


def submitted_text(view: dict[str, Any]) -> str:
    """The edited text of a submitted edit modal, its inputs joined in order."""
    values = view["state"]["values"]
    parts = [
        values[block_id][EDIT_ACTION].get("value") or ""
        for block_id in sorted(values, key=lambda b: int(b.rsplit("_", 1)[1]))
        if block_id.startswith(EDIT_BLOCK)
    ]
    return "\n\n".join(p.strip() for p in parts if p.strip())
