"""Channels, people and roles shown by name wherever a person reads a reply.

Handlers run inside a database transaction, where no platform call may be awaited, so they
write what they name as neutral references: `<#ID>` for a channel, `<@ID>` for a person and
`<@&ID>` for a role or user group (`channel_ref`, `entry_ref`). Before a reply leaves the
core, `with_names` replaces each reference with the name the platform (or, on the command
line, the database) knows it by: `#hero-run`, `@Carol Diaz`, `@Editors`. A name is plain
text, so nothing a reply shows can ping anyone or appear as escaped markup.
"""

from __future__ import annotations

import re
from typing import Literal, Protocol

from sqlalchemy import select
from sqlalchemy.orm import InstrumentedAttribute, Session

from storage.models import Channel, Person
from storage.records import WorkspaceRecord

RefKind = Literal["channel", "person", "role"]

# A Discord snowflake, or a Slack channel id (upper case, with digits; names are lower case).
_CHANNEL_ID_RE = re.compile(r"[0-9]+|[CGD](?=[A-Z0-9]*[0-9])[A-Z0-9]{6,}")
_REFERENCE_RE = re.compile(r"<(#|@&|@)([A-Za-z0-9_.-]+)>")
_KINDS: dict[str, RefKind] = {"#": "channel", "@&": "role", "@": "person"}


class NameSource(Protocol):
    """Where names come from: the chat platform (`ChatPort`) or the stored rows."""

    async def name_of(self, workspace: WorkspaceRecord, kind: RefKind, ref_id: str) -> str | None:
        """The name of channel, person or role `ref_id` in `workspace`; None if unknown."""
        ...


def channel_ref(channel: str) -> str:
    """How a stored channel is written in a reply: `<#id>` for an id, `#name` for a name."""
    return f"<#{channel}>" if _CHANNEL_ID_RE.fullmatch(channel) else f"#{channel.lstrip('#')}"


def entry_ref(entry: str) -> str:
    """How an editor or admin entry is written in a reply: `<@id>` for a person, `<@&id>`
    for a role or user group (stored as `role:ID`)."""
    if entry.startswith("role:"):
        return f"<@&{entry.removeprefix('role:')}>"
    return f"<@{entry}>"


async def with_names(source: NameSource, workspace: WorkspaceRecord, text: str) -> str:
    """`text` with every channel, person and role reference replaced by its name (`#name`,
    `@name`); one the source does not know is shown by its id, still as plain text."""
    names: dict[str, str] = {}
    for match in _REFERENCE_RE.finditer(text):
        if match[0] not in names:
            sigil, ref_id = match[1], match[2]
            name = await source.name_of(workspace, _KINDS[sigil], ref_id)
            prefix = "#" if sigil == "#" else "@"
            names[match[0]] = prefix + (name or ref_id).lstrip("#@")
    return _REFERENCE_RE.sub(lambda m: names[m[0]], text)


class StoredNames:
    """Names as the database knows them, for the command line (no platform to ask):
    channels and people stored with the workspace's messages."""

    def __init__(self, session: Session, workspace_id: int) -> None:
        self.session = session
        self.workspace_id = workspace_id

    async def name_of(self, workspace: WorkspaceRecord, kind: RefKind, ref_id: str) -> str | None:
        column: InstrumentedAttribute[str]
        model: type[Channel] | type[Person]
        if kind == "channel":
            column, model = Channel.name, Channel
        elif kind == "person":
            column, model = Person.display_name, Person
        else:
            return None
        return self.session.execute(
            select(column).where(
                model.workspace_id == self.workspace_id, model.platform_id == ref_id
            )
        ).scalar_one_or_none()
