"""Reader for DiscordChatExporter (DCE) JSON exports: one file per channel, thread or forum post.

Each file becomes one `ImportBatch`. System messages (joins, pins, "started a thread", boosts)
are left out, and the readable text of a message is its content followed by the text of its
embeds (a member's embeds, the link previews, kept apart), with any raw Discord markup
(`<@123>`, `<#456>`, `<:emoji:789>`, `<t:…>`) turned into words.

A file up to `WHOLE_FILE_BYTES` is parsed at once with `json`, the fastest way to read it.
Larger files are streamed (`ijson`): the header first, then one quick pass for the threads
started from messages, then the messages one at a time as they are stored, so a 1 GB export
needs no more memory than a small one. A file the fast path refuses (broken, a number too
long) is streamed too, which reads what it can and says what is wrong. Before either, one
flat pass over the bytes refuses a file nested deeper than any export
(`bot.core.json_depth`): streaming one nested 20,000 deep took 1 GB.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import ijson

from bot.core.ingest import REPARSE_BYTES, ExportFormat, ImportFileError, Skipped, json_file_problem
from bot.core.json_depth import file_chunks, refuse_too_deep
from storage.records import (
    ChannelRecord,
    ImportBatch,
    MessageRecord,
    PersonRecord,
    ReactionRecord,
    WorkspaceRecord,
)

# Message types that carry something a person (or an integration) said. Everything else is a
# system notice. ThreadStarterMessage is left out too: it repeats a message of the parent channel.
KEPT_TYPES = frozenset({"Default", "Reply", "ChatInputCommand", "ContextMenuCommand"})
# A reference on these types means "this answers that message"; on command messages it does not.
REPLY_TYPES = frozenset({"Default", "Reply"})
NOT_AN_EXPORT = "not a DiscordChatExporter export"
THREAD_TYPES = frozenset({"GuildPublicThread", "GuildPrivateThread", "GuildNewsThread"})

# DCE writes "guild", "channel" and "messages" within the first few hundred bytes.
PEEK_BYTES = 8192
ASSET_FOLDER_SUFFIX = "_Files"  # DCE's "export.json_Files" folders hold downloaded media
# Files up to this size are parsed whole: a few hundred MB of objects at most, in exchange for
# parsing at `json`'s speed, which is several times `ijson`'s.
WHOLE_FILE_BYTES = 32 * 1024 * 1024
# JSON files in a folder up to this size are parsed to see whether they are exports at all.
PROBE_BYTES = 1024 * 1024
_CONTAINERS = {"start_map": 1, "start_array": 1, "end_map": -1, "end_array": -1}
_BACKENDS = (ijson, ijson.get_backend("python"))  # the fastest available, then pure Python

# Raw Discord markup, in one pass: user, role and channel mentions, custom emoji, timestamps and
# slash-command mentions. Newer DCE versions already render most of these as plain text.
MARKUP = re.compile(
    r"<@!?(?P<user>\d+)>"
    r"|<@&(?P<role>\d+)>"
    r"|<#(?P<channel>\d+)>"
    r"|<a?:(?P<emoji>\w+):\d+>"
    r"|<t:(?P<epoch>-?\d+)(?::[tTdDfFR])?>"
    r"|</(?P<command>[\w -]+):\d+>"
)
DISCRIMINATOR = re.compile(r"#(?:\d{4}|0)\Z")


class _BadMessage(Exception):
    """A message that cannot be read; the text completes "message N …"."""


@dataclass(slots=True)
class DiscordExportSource:
    """One DCE JSON file; `read()` parses its header and streams its messages."""

    name: str
    path: Path

    def read(self) -> ImportBatch:
        """The file's batch, or `ImportFileError` saying why not. Its messages are read as
        they are iterated (once), and raise `ImportFileError` when one is broken."""
        try:
            refuse_too_deep(self.name, file_chunks(self.path))
        except OSError as error:
            problem = f"cannot read the file: {error.strerror or error}"
            raise ImportFileError(self.name, problem) from error
        whole = _load_whole(self.path)
        if whole is not None:
            return _whole_batch(self.name, self.path, whole)
        header = _with_json_errors(self.name, self.path, _read_header, self.name)
        return _read_batch(self.name, self.path, header)


def looks_like(path: Path) -> bool:
    """True when `path` is a DCE JSON file, or a folder holding one (at any depth)."""
    if path.is_file():
        return path.suffix.lower() == ".json" and _head_looks_like_export(path)
    if path.is_dir():
        return any(_head_looks_like_export(file) for file in _json_files(path))
    return False


def open_sources(path: Path) -> list[DiscordExportSource | Skipped]:
    """One source per DCE JSON file at `path`: the file itself, or the folder's files by name.

    In a folder, a file that is valid JSON of another shape (such as a `provenance.json`) is
    left out and named as skipped. A file that is not valid JSON is kept, so reading it tells
    the user it is broken.
    """
    if path.is_file():
        return [DiscordExportSource(str(path), path)]
    if not path.is_dir():
        raise ImportFileError(str(path), "no such file or folder")
    files = sorted(_json_files(path), key=str)
    exports = [file for file in files if _may_be_export(file)]
    if not exports:
        raise ImportFileError(str(path), "no DiscordChatExporter JSON files in this folder")
    return [
        DiscordExportSource(str(file), file)
        if file in exports
        else Skipped(str(file), "valid JSON, but not a DiscordChatExporter export; skipped")
        for file in files
    ]


# --- finding files ---------------------------------------------------------------------------


def _json_files(folder: Path) -> Iterator[Path]:
    """The `.json` files under `folder`, skipping DCE asset folders and hidden folders."""
    try:
        entries = list(folder.iterdir())
    except OSError:
        return
    for entry in entries:
        if entry.is_dir():
            # Symlinked folders are not followed: a link back up the tree would loop forever.
            if entry.is_symlink() or entry.name.startswith("."):
                continue
            if entry.name.endswith(ASSET_FOLDER_SUFFIX):
                continue
            yield from _json_files(entry)
        elif entry.suffix.lower() == ".json" and entry.is_file():
            yield entry


def _read_head(path: Path) -> str:
    try:
        with path.open("rb") as stream:
            head = stream.read(PEEK_BYTES)
    except OSError:
        return ""
    return head.decode("utf-8", errors="ignore").lstrip("\ufeff \t\r\n")


def _head_looks_like_export(path: Path) -> bool:
    head = _read_head(path)
    return head.startswith("{") and all(
        key in head for key in ('"guild"', '"channel"', '"messages"')
    )


def _may_be_export(path: Path) -> bool:
    """Whether a folder's JSON file should become a source (see `open_sources`)."""
    if _head_looks_like_export(path):
        return True
    try:
        if path.stat().st_size > PROBE_BYTES:
            return True  # too big to probe: read() tells whether it is an export
        data = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        return True  # broken or unreadable: keep it, so that read() reports the problem
    return isinstance(data, dict) and "messages" in data


# --- parsing ---------------------------------------------------------------------------------


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")  # json accepts NaN and Infinity; ijson does not


def _load_whole(path: Path) -> Any | None:
    """The parsed file when it is small enough and `json` reads it; None to stream it instead
    (streaming says what is wrong with a file `json` refuses, as before)."""
    try:
        if path.stat().st_size > WHOLE_FILE_BYTES:
            return None
        with path.open("rb") as stream:
            return json.loads(stream.read(), parse_constant=_refuse_constant)
    except (OSError, ValueError, RecursionError):
        return None


def _whole_batch(source: str, path: Path, data: Any) -> ImportBatch:
    """The batch of a file parsed whole; the same checks and records as a streamed one."""
    if not isinstance(data, dict):
        raise ImportFileError(source, f"{NOT_AN_EXPORT}: the top level is not an object")
    messages = data.get("messages")
    header = {key: value for key, value in data.items() if key != "messages"}
    if "messages" in data:
        header["messages"] = isinstance(messages, list)
    return _read_batch(source, path, header, messages if isinstance(messages, list) else None)


def _with_json_errors(name: str, path: Path, parse: Any, *args: Any) -> Any:
    """`parse(stream, backend, *args)` on the open file, its failures as `ImportFileError`.

    The fast C parser refuses some valid JSON (integers past 64 bits, lone surrogates); the
    pure-Python one, slower, reads those, so a file the first refuses gets the second try.
    """
    for backend in _BACKENDS:
        try:
            with path.open("rb") as stream:
                return parse(stream, backend, *args)
        except OSError as error:
            problem = f"cannot read the file: {error.strerror or error}"
            raise ImportFileError(name, problem) from error
        except (ijson.JSONError, ValueError) as error:  # ValueError: bad UTF-8, a number
            if backend is _BACKENDS[-1]:
                raise ImportFileError(name, _json_problem(path)) from error
    raise AssertionError("unreachable: the last backend raises")


def _json_problem(path: Path) -> str:
    """Where a file that ijson could not parse breaks, in words that quote none of it (the
    parser's own message shows the text around the break)."""
    if path.stat().st_size > REPARSE_BYTES:
        return "not valid JSON (a large file; the first error is not located)"
    return json_file_problem(path) or "not valid JSON"


def _read_header(stream: Any, backend: Any, name: str) -> dict[str, Any]:
    """The top-level values but "messages" (guild, channel, ...), with "messages" itself
    replaced by True when it is a list. Stops at the messages once guild and channel are
    read, as DCE writes them first, so only a hand-made file is read to its end here."""
    events = backend.parse(stream, use_float=True)
    first = next(events, None)
    if first is None:
        raise ijson.IncompleteJSONError("empty")
    if first[1] != "start_map":
        raise ImportFileError(name, f"{NOT_AN_EXPORT}: the top level is not an object")
    header: dict[str, Any] = {}
    for prefix, event, value in events:
        if prefix != "" or event != "map_key":
            break  # the end of the top-level object
        _, event, first_value = next(events)
        if value == "messages":
            header["messages"] = event == "start_array"
            if header["messages"] and {"guild", "channel"} <= header.keys():
                return header
            _skip(events, event)
        else:
            header[value] = _build(events, event, first_value)
    return header


def _build(events: Iterator[tuple[str, str, Any]], event: str, value: Any) -> Any:
    """The JSON value starting with (`event`, `value`), built from the following events."""
    builder = ijson.ObjectBuilder()
    builder.event(event, value)
    depth = _CONTAINERS.get(event, 0)
    while depth > 0:
        _, event, value = next(events)
        builder.event(event, value)
        depth += _CONTAINERS.get(event, 0)
    return builder.value


def _skip(events: Iterator[tuple[str, str, Any]], event: str) -> None:
    depth = max(_CONTAINERS.get(event, 0), 0)
    while depth > 0:
        depth += _CONTAINERS.get(next(events)[1], 0)


def _referenced_channels(stream: Any, backend: Any) -> set[str]:
    """The channel ids the file's message references point at (one streamed pass)."""
    found = backend.items(stream, "messages.item.reference.channelId")
    return {value for value in found if isinstance(value, str)}


def _read_batch(
    source: str, path: Path, data: dict[str, Any], messages: list[Any] | None = None
) -> ImportBatch:
    """Check the file's header, then pass its messages (`messages` when the file was parsed
    whole, else streamed from `path`) through the converter."""
    if data.get("messages") is not True:
        raise ImportFileError(source, f"{NOT_AN_EXPORT}: no 'messages' list")
    guild = _section(source, data, "guild")
    channel = _section(source, data, "channel")
    workspace = WorkspaceRecord(
        platform="discord",
        platform_id=_header_id(source, guild, "guild"),
        name=_header_name(source, guild, "guild"),
    )
    is_thread = channel.get("type") in THREAD_TYPES
    # For an ordinary channel DCE's categoryId is a category, not a channel; only a thread's
    # (or forum post's) categoryId names the channel it lives under.
    parent_id = _snowflake(channel.get("categoryId")) if is_thread else None
    parent_name = channel.get("category") if parent_id is not None else None
    channel_record = ChannelRecord(
        platform_id=_header_id(source, channel, "channel"),
        name=_header_name(source, channel, "channel"),
        parent_platform_id=parent_id,
        parent_name=parent_name if isinstance(parent_name, str) else None,
    )
    # A thread started from a message has that message's id; the channel's "started a
    # thread" notice references it (other references name this channel or a message
    # elsewhere, whose ids no message here has).
    anchors = set()
    if not is_thread:
        if messages is None:
            anchors = _with_json_errors(source, path, _referenced_channels)
        else:
            anchors = _channels_referenced_in(messages)
        anchors.discard(channel_record.platform_id)
    converter = _MessageConverter(
        workspace, channel_record, is_thread, channel.get("category"), anchors
    )
    if messages is None:
        records = _records(source, path, converter)
    else:
        records = _converted(source, messages, converter)
    return ImportBatch(source, workspace, channel_record, records)


def _channels_referenced_in(messages: list[Any]) -> set[str]:
    """`_referenced_channels` of messages already parsed."""
    found = set()
    for message in messages:
        reference = message.get("reference") if isinstance(message, dict) else None
        if isinstance(reference, dict) and isinstance(reference.get("channelId"), str):
            found.add(reference["channelId"])
    return found


def _converted(
    source: str, messages: list[Any], converter: _MessageConverter
) -> Iterator[MessageRecord]:
    """The records of messages already parsed."""
    for number, raw in enumerate(messages, start=1):
        record = _convert(source, number, converter, raw)
        if record is not None:
            yield record


def _records(source: str, path: Path, converter: _MessageConverter) -> Iterator[MessageRecord]:
    """The file's message records, read as they are asked for; when the fast parser refuses
    the file partway, the second one goes on from there (see `_with_json_errors`)."""
    done = 0  # messages converted so far
    for backend in _BACKENDS:
        try:
            with path.open("rb") as stream:
                found = backend.items(stream, "messages.item", use_float=True)
                for number, raw in enumerate(found, start=1):
                    if number > done:
                        record = _convert(source, number, converter, raw)
                        done = number
                        if record is not None:
                            yield record
            return
        except OSError as error:
            problem = f"cannot read the file: {error.strerror or error}"
            raise ImportFileError(source, problem) from error
        except (ijson.JSONError, ValueError) as error:
            if backend is _BACKENDS[-1]:
                raise ImportFileError(source, _json_problem(path)) from error


def _convert(
    source: str, number: int, converter: _MessageConverter, raw: Any
) -> MessageRecord | None:
    try:
        return converter.convert(raw)
    except _BadMessage as error:
        raise ImportFileError(source, f"message {number} {error}") from error
    except (KeyError, TypeError, AttributeError, ValueError) as error:
        problem = f"message {number} has an unexpected shape ({type(error).__name__})"
        raise ImportFileError(source, problem) from error


def _section(source: str, data: dict[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key)
    if not isinstance(value, dict):
        raise ImportFileError(source, f"{NOT_AN_EXPORT}: no '{key}' object")
    return value


def _header_id(source: str, obj: dict[str, Any], where: str) -> str:
    snowflake = _snowflake(obj.get("id"))
    if snowflake is None:
        raise ImportFileError(source, f"{where} has no 'id'")
    return snowflake


def _header_name(source: str, obj: dict[str, Any], where: str) -> str:
    name = obj.get("name")
    if not isinstance(name, str):
        raise ImportFileError(source, f"{where} has no 'name'")
    return name


def _snowflake(value: Any) -> str | None:
    """A Discord id as text. DCE writes strings; hand-made or converted files may use numbers."""
    if isinstance(value, str) and value:
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return None


class _MessageConverter:
    """Turns the messages of one file into records, with what the file's header says."""

    def __init__(
        self,
        workspace: WorkspaceRecord,
        channel: ChannelRecord,
        is_thread: bool,
        parent_name: Any,
        thread_anchors: set[str],
    ) -> None:
        self.channel_id = channel.platform_id
        self.thread_id = channel.platform_id if is_thread else None
        self.thread_anchors = thread_anchors
        self.known_channels = {channel.platform_id: channel.name}
        # A thread's "category" is its parent channel, so that channel's name is known too.
        if channel.parent_platform_id and isinstance(parent_name, str):
            self.known_channels[channel.parent_platform_id] = parent_name
        # Discord links to DMs use "@me" where a guild link has the id; DCE writes guild "0".
        guild_part = "@me" if workspace.platform_id == "0" else workspace.platform_id
        self.link_prefix = f"https://discord.com/channels/{guild_part}/{channel.platform_id}/"
        self.people: dict[tuple[Any, ...], PersonRecord] = {}

    def convert(self, raw: Any) -> MessageRecord | None:
        """The record for one message, or None for a system message or one without text or
        preview."""
        if not isinstance(raw, dict):
            raise _BadMessage("is not an object")
        kind = raw.get("type", "Default")
        if kind not in KEPT_TYPES:
            return None
        message_id = _snowflake(raw.get("id"))
        if message_id is None:
            raise _BadMessage("has no 'id'")
        author = self.person(raw.get("author"))
        text, preview = self.text_and_preview(raw, not author.is_bot)
        if not text and not preview:
            return None  # attachments or stickers only
        return MessageRecord(
            platform_id=message_id,
            author=author,
            created_at=_timestamp(raw.get("timestamp"), "timestamp"),
            text=text,
            preview=preview,
            thread_id=self.thread_of(message_id),
            reply_to_id=self.reply_target(raw) if kind in REPLY_TYPES else None,
            edited_at=_optional_timestamp(raw.get("timestampEdited"), "timestampEdited"),
            reaction_count=_reaction_count(raw.get("reactions")),
            permalink=self.link_prefix + message_id,
            pinned=raw.get("isPinned") is True,
            reactions=self.reactions(raw.get("reactions")),
        )

    def reactions(self, reactions: Any) -> tuple[ReactionRecord, ...]:
        """Each emoji with the people DCE lists as adding it (a user it cannot name is
        left out)."""
        found = []
        for reaction in reactions if isinstance(reactions, list) else ():
            emoji = reaction.get("emoji") if isinstance(reaction, dict) else None
            name = emoji.get("name") if isinstance(emoji, dict) else None
            users = reaction.get("users") if isinstance(reaction, dict) else None
            if not isinstance(name, str) or not name or not isinstance(users, list):
                continue
            people = []
            for user in users:
                try:
                    people.append(self.person(user))
                except _BadMessage:
                    continue
            found.append(ReactionRecord(name, tuple(people)))
        return tuple(found)

    def thread_of(self, message_id: str) -> str | None:
        if self.thread_id is not None:
            return self.thread_id
        # A thread started from a message has that message's id as its channel id.
        return message_id if message_id in self.thread_anchors else None

    def reply_target(self, raw: dict[str, Any]) -> str | None:
        reference = raw.get("reference")
        if not isinstance(reference, dict):
            return None
        target = _snowflake(reference.get("messageId"))
        # Forwards and crossposts carry a reference too, to a message elsewhere: not a reply.
        if target is None or reference.get("type", "Default") != "Default":
            return None
        channel_id = _snowflake(reference.get("channelId"))
        return target if channel_id in (None, self.channel_id) else None

    def person(self, author: Any) -> PersonRecord:
        if not isinstance(author, dict):
            raise _BadMessage("has no 'author'")
        author_id = _snowflake(author.get("id"))
        if author_id is None:
            raise _BadMessage("has an author without an 'id'")
        # One record per distinct author, not one per message: big files repeat a few authors.
        key = (author_id, author.get("name"), author.get("nickname"), author.get("isBot"))
        person = self.people.get(key)
        if person is None:
            person = PersonRecord(
                platform_id=author_id,
                display_name=_display_name(author) or author_id,
                is_bot=bool(author.get("isBot", False)),
            )
            self.people[key] = person
        return person

    def text_and_preview(self, raw: dict[str, Any], by_a_member: bool) -> tuple[str, str]:
        """The message's readable text and, apart, its link previews (`embed_texts`)."""
        content = raw.get("content") or ""
        if not isinstance(content, str):
            raise _BadMessage("has a 'content' that is not text")
        parts = [content] if content.strip() else []
        own, previews = embed_texts(raw.get("embeds") or (), by_a_member)
        mentions = raw.get("mentions") or ()
        return self.readable(parts + own, mentions), self.readable(previews, mentions)

    def readable(self, lines: list[str], mentions: Any) -> str:
        """Lines joined, with their raw Discord markup turned into words."""
        text = "\n".join(lines).strip()
        if "<" in text:
            text = self.resolve_markup(text, mentions)
        return text

    def resolve_markup(self, text: str, mentions: Any) -> str:
        names = {
            str(person.get("id")): person.get("nickname") or person.get("name")
            for person in mentions
            if isinstance(person, dict)
        }

        def replace(match: re.Match[str]) -> str:
            if user := match["user"]:
                name = names.get(user)
                return f"@{name}" if name else "@unknown-user"
            if match["role"]:
                return "@role"  # DCE's mentions list has users only, no role names
            if channel := match["channel"]:
                return f"#{self.known_channels.get(channel, 'channel')}"
            return _markup_words(match)

        return MARKUP.sub(replace, text)


def plain_markup(text: str) -> str:
    """A live message's text after discord.py's `clean_content` (which names mentions) with
    the markup it leaves turned into words as an export's is: custom emoji (":party:"),
    timestamps ("2026-08-19 16:00 UTC"), slash commands ("/deploy"); and "@everyone" and
    "@here" as written, not escaped (they mark an announcement; a draft never pings)."""
    text = text.replace("@\u200beveryone", "@everyone").replace("@\u200bhere", "@here")
    if "<" not in text:
        return text
    return MARKUP.sub(
        lambda m: m[0] if m["user"] or m["role"] or m["channel"] else _markup_words(m), text
    )


def _markup_words(match: re.Match[str]) -> str:
    """A custom emoji, timestamp or slash command of `MARKUP` as words."""
    if emoji := match["emoji"]:
        return f":{emoji}:"
    if epoch := match["epoch"]:
        return _epoch_text(epoch) or match[0]
    return f"/{match['command']}"


def _reaction_count(reactions: Any) -> Any:
    """The sum of the reactions' counts (normalising makes it a count that fits)."""
    if not reactions:
        return 0
    return sum([reaction.get("count", 0) for reaction in reactions])


def _display_name(author: dict[str, Any]) -> str:
    nickname = author.get("nickname")
    if isinstance(nickname, str) and nickname.strip():
        return nickname
    name = author.get("name")
    if not isinstance(name, str):
        return ""
    return DISCRIMINATOR.sub("", name)


def embed_lines(embed: Any) -> list[str]:
    """The readable lines of a Discord embed (API or export shape): title, description and
    fields; integration posts carry their PR numbers there."""
    if not isinstance(embed, dict):
        return []
    lines = [embed[key] for key in ("title", "description") if _has_text(embed.get(key))]
    for field in embed.get("fields") or ():
        name, value = field.get("name"), field.get("value")
        if _has_text(name) and _has_text(value):
            lines.append(f"{name}: {value}")
        elif _has_text(name) or _has_text(value):
            lines.append(name if _has_text(name) else value)
    return lines


def embed_texts(embeds: Iterable[Any], by_a_member: bool) -> tuple[list[str], list[str]]:
    """The lines of a message's embeds (`embed_lines`), as those of its text and those of
    its link previews. A member's embeds are the previews Discord unfurled under their links,
    words they did not write; a bot's or a webhook's are its own post (integration posts
    carry their PR numbers only there)."""
    lines = [line for embed in embeds for line in embed_lines(embed)]
    return ([], lines) if by_a_member else (lines, [])


def _has_text(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _timestamp(value: Any, field: str) -> datetime:
    if not isinstance(value, str) or not value:
        raise _BadMessage(f"has no '{field}'")
    # Since 3.11 fromisoformat takes any number of fraction digits (older DCE writes seven).
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise _BadMessage(f"has a bad '{field}': {value!r}") from None
    if moment.tzinfo is None:
        raise _BadMessage(f"has a '{field}' without a UTC offset: {value!r}")
    return moment


def _optional_timestamp(value: Any, field: str) -> datetime | None:
    return None if value is None else _timestamp(value, field)


def _epoch_text(epoch: str) -> str | None:
    try:
        moment = datetime.fromtimestamp(int(epoch), UTC)
    except (OverflowError, OSError, ValueError):
        return None
    return moment.strftime("%Y-%m-%d %H:%M UTC")


FORMAT = ExportFormat(
    "discord-export",
    looks_like,
    open_sources,
    reads="DiscordChatExporter JSON (files or folders)",
)
