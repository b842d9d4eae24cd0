"""Fields from the platforms made fit to store: the one check every record passes through.

Exports and live events both reach the database through `bot.core.ingest.store_batch`, which
sends each record through here first. What can be repaired is repaired the same way every
time (NUL bytes stripped, lone surrogates replaced, counts clamped, names and over-long
message text truncated); what cannot (an id longer than its column, a timestamp outside
`EARLIEST`..`LATEST`) is refused with a `RecordError` that never quotes message text.
"""

from __future__ import annotations

import math
import re
from dataclasses import replace
from datetime import UTC, datetime

from sqlalchemy import String
from sqlalchemy.orm import InstrumentedAttribute

from storage.models import Message, Person, PRRefRow
from storage.records import ChannelRecord, MessageRecord, PersonRecord, WorkspaceRecord


def _length(column: InstrumentedAttribute[str] | InstrumentedAttribute[str | None]) -> int:
    """The length a string column is declared with."""
    kind = column.type
    if not isinstance(kind, String) or kind.length is None:
        raise TypeError(f"{column} is not a string column of bounded length")
    return kind.length


ID_MAX = _length(Message.platform_id)  # 64, as every platform id column
NAME_MAX = _length(Person.display_name)  # 200, as channel and workspace names
PERMALINK_MAX = _length(Message.permalink)  # 500
REPO_MAX = _length(PRRefRow.repo)
REF_RAW_MAX = _length(PRRefRow.raw)
INT32_MAX = 2**31 - 1  # reaction and reply counts are INTEGER columns
# A week's text is drafted from every message; one 100 MB message once took drafting 52 s.
TEXT_MAX = 40_000
TRUNCATED = " […message truncated]"
# Slack started in 2013 and Discord in 2015; anything outside is a broken export. A fixed
# window needs no clock and keeps every week's arithmetic (Monday + 7 days) in range.
EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)
LATEST = datetime(2100, 1, 1, tzinfo=UTC)

_SURROGATE = re.compile("[\ud800-\udfff]")


class RecordError(ValueError):
    """A record that cannot be stored; the text says which field and why, never its text."""


def clean_text(value: str) -> str:
    """`value` without NUL bytes and with lone surrogates (unencodable) replaced by U+FFFD."""
    if "\x00" in value:
        value = value.replace("\x00", "")
    if not value.isascii():
        value = _SURROGATE.sub("\ufffd", value)
    return value


def clean_name(value: str) -> str:
    """A display, channel or workspace name: cleaned and cut to its column's size."""
    return clean_text(value)[:NAME_MAX]


def clean_id(value: str, what: str) -> str:
    """A platform id, cleaned; refused when empty or longer than its column."""
    cleaned = clean_text(value).strip()
    if not cleaned:
        raise RecordError(f"{what} is empty")
    if len(cleaned) > ID_MAX:
        raise RecordError(f"{what} is {len(cleaned)} characters long (at most {ID_MAX})")
    return cleaned


def clean_count(value: object) -> int:
    """A reaction or reply count as a non-negative int32 (non-numbers count as 0)."""
    if type(value) is int and 0 <= value <= INT32_MAX:
        return value
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0
    if isinstance(value, float) and not math.isfinite(value):
        return 0 if math.isnan(value) or value < 0 else INT32_MAX
    return max(0, min(INT32_MAX, int(value)))


def clean_message_text(value: str) -> str:
    """Message text, cleaned and cut to `TEXT_MAX` characters with a marker."""
    value = clean_text(value)
    if len(value) > TEXT_MAX:
        value = value[: TEXT_MAX - len(TRUNCATED)] + TRUNCATED
    return value


def check_time(value: datetime, what: str) -> datetime:
    """A timezone-aware moment between `EARLIEST` and `LATEST`, else `RecordError`."""
    if value.tzinfo is None:
        raise RecordError(f"{what} has no timezone")
    if not EARLIEST <= value < LATEST:
        raise RecordError(
            f"{what} is in the year {value.year} (accepted: {EARLIEST.year} to {LATEST.year - 1})"
        )
    return value


def workspace_record(record: WorkspaceRecord) -> WorkspaceRecord:
    return replace(
        record,
        platform_id=clean_id(record.platform_id, "the workspace id"),
        name=clean_name(record.name),
    )


def channel_record(record: ChannelRecord) -> ChannelRecord:
    parent = record.parent_platform_id
    return replace(
        record,
        platform_id=clean_id(record.platform_id, "the channel id"),
        name=clean_name(record.name),
        parent_platform_id=None if parent is None else clean_id(parent, "the parent channel id"),
        parent_name=None if record.parent_name is None else clean_name(record.parent_name),
    )


def person_record(record: PersonRecord) -> PersonRecord:
    return replace(
        record,
        platform_id=clean_id(record.platform_id, "the author id"),
        display_name=clean_name(record.display_name),
    )


def message_record(
    record: MessageRecord, people: dict[PersonRecord, PersonRecord] | None = None
) -> MessageRecord:
    """The message fit to store, or `RecordError` naming the field that cannot be.

    `people`, when given, holds authors already normalised (a batch repeats a few authors
    many times); new ones are added to it. A record that needs no repair is returned as it
    is, which is what almost every message is."""
    platform_id = clean_id(record.platform_id, "the message id")
    author = people.get(record.author) if people is not None else None
    if author is None:
        author = person_record(record.author)
        if people is not None:
            people[record.author] = author
    created_at = check_time(record.created_at, "the timestamp")
    edited_at = record.edited_at
    if edited_at is not None:
        check_time(edited_at, "the edit timestamp")
    text = clean_message_text(record.text)
    preview = clean_message_text(record.preview) if record.preview else record.preview
    thread_id = record.thread_id
    if thread_id is not None:
        thread_id = clean_id(thread_id, "the thread id")
    reply_to_id = record.reply_to_id
    if reply_to_id is not None:
        reply_to_id = clean_id(reply_to_id, "the reply's target id")
    reactions = clean_count(record.reaction_count)
    replies = clean_count(record.reply_count)
    link = record.permalink
    if link is not None:
        link = None if len(link) > PERMALINK_MAX else clean_text(link)
    pinned = bool(record.pinned)
    # Each cleaning function returns its argument itself when it had nothing to repair.
    if (
        platform_id is record.platform_id
        and author is record.author
        and text is record.text
        and preview is record.preview
        and thread_id is record.thread_id
        and reply_to_id is record.reply_to_id
        and reactions is record.reaction_count
        and replies is record.reply_count
        and link is record.permalink
        and pinned is record.pinned
    ):
        return record
    return MessageRecord(
        platform_id=platform_id,
        author=author,
        created_at=created_at,
        text=text,
        thread_id=thread_id,
        reply_to_id=reply_to_id,
        edited_at=edited_at,
        reaction_count=reactions,
        reply_count=replies,
        permalink=link,
        pinned=pinned,
        reactions=record.reactions,
        preview=preview,
    )


def fits_ref(repo: str | None, number: int, raw: str) -> bool:
    """Whether a parsed PR reference fits its columns (longer ones are not stored)."""
    return (
        (repo is None or len(repo) <= REPO_MAX)
        and 0 < number <= INT32_MAX
        and len(raw) <= REF_RAW_MAX
    )
