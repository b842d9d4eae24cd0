"""Reader for official Slack workspace exports, as a ZIP file or an unpacked folder.

An export holds `users.json`, `channels.json` (and `groups.json` for private channels in
newer exports) and one folder per channel with one `YYYY-MM-DD.json` message list per day,
possibly all under a single top-level folder. Each day file becomes one source; the user and
channel lists are read once by `open_sources` and shared by all of them.
"""

from __future__ import annotations

import json
import re
import zipfile
import zlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import cached_property
from pathlib import Path, PurePosixPath
from typing import Any, Protocol

from bot.core.ingest import ExportFormat, ImportFileError, ImportSource, json_problem
from bot.core.json_depth import in_chunks, refuse_too_deep
from bot.slack.messages import (
    SlackConverter,
    parse_ts,
    person_from_user,
)
from storage.records import (
    ChannelRecord,
    ImportBatch,
    MessageRecord,
    PersonRecord,
    WorkspaceRecord,
)

PLATFORM = "slack"
USERS_FILE = "users.json"
CHANNELS_FILE = "channels.json"
# Private channels and group DMs use the same {id, name} shape as channels.json.
OPTIONAL_CHANNEL_FILES = ("groups.json", "mpims.json")
MARKER_FILES = (CHANNELS_FILE, USERS_FILE)

DAY_FILE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}\.json$")
EXPORT_SUFFIX_RE = re.compile(r"\s+Slack export\b.*$", re.IGNORECASE)

_ZIP_ERRORS = (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError)

# Limits on one file of an export (a day file, users.json, channels.json), so a small
# hostile ZIP cannot make the import unpack gigabytes (a ZIP bomb): its size, and, for a
# member over `RATIO_FLOOR_BYTES`, how far it was compressed (JSON rarely passes 20:1).
MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_RATIO = 100
RATIO_FLOOR_BYTES = 1024 * 1024


# --- public interface ---


def looks_like(path: Path) -> bool:
    """Whether `path` is a Slack export: a ZIP or folder holding channels.json or users.json.

    A `.zip` file that cannot be opened counts as a Slack export, so that `open_sources`
    reports it as an unreadable ZIP rather than as an unknown format.
    """
    if path.is_dir():
        return _folder_root(path) is not None
    if not path.is_file():
        return False
    if not zipfile.is_zipfile(path):
        return path.suffix.lower() == ".zip"
    try:
        with zipfile.ZipFile(path) as archive:
            return _zip_prefix(archive.namelist()) is not None
    except _ZIP_ERRORS:
        return path.suffix.lower() == ".zip"


def open_sources(path: Path) -> list[ImportSource]:
    """One source per channel-day file of the export at `path`, sorted by channel then day.

    Reads users.json and channels.json (and groups.json/mpims.json when present) right away and
    raises `ImportFileError` when they are missing or invalid, or when the ZIP cannot be read.
    """
    files = _open_files(path)
    channels, pins = _load_channels(files)
    export = _Export(
        files=files,
        stem=_export_stem(path),
        users=_load_users(files),
        channels=channels,
        pins=pins,
    )
    return [
        SlackDaySource(name=files.display_name(member), export=export, member=member)
        for member in files.day_files()
    ]


@dataclass
class SlackDaySource:
    """One `<channel>/<day>.json` file of a Slack export."""

    name: str
    export: _Export = field(repr=False)
    member: str  # path relative to the export root: "general/2016-01-16.json"

    @property
    def folder(self) -> str:
        return self.member.split("/", 1)[0]

    def read(self) -> ImportBatch:
        """Parse the day file into an `ImportBatch`, or raise `ImportFileError` naming it."""
        data = _parse_json(self.name, self.export.files.read(self.member))
        if not isinstance(data, list):
            raise ImportFileError(self.name, f"expected a list of messages, found {_kind(data)}")
        channel = self.export.channel_for_folder(self.folder)
        messages: dict[str, MessageRecord] = {}
        for index, raw in enumerate(data, start=1):
            message = self._message(index, raw, channel)
            # A ts is unique within a channel: a repeated one is the same message listed twice.
            if message is not None:
                messages.setdefault(message.platform_id, message)
        return ImportBatch(self.name, self.export.workspace, channel, list(messages.values()))

    def _message(self, index: int, raw: Any, channel: ChannelRecord) -> MessageRecord | None:
        if not isinstance(raw, dict):
            raise ImportFileError(self.name, f"message {index} is {_kind(raw)}, not an object")
        ts = raw.get("ts")
        if ts is None:
            raise ImportFileError(self.name, f"message {index} has no ts")
        created_at = parse_ts(ts)
        if created_at is None:
            shown = repr(ts) if len(repr(ts)) <= 40 else f"{repr(ts)[:30]}… ({len(repr(ts))} chars)"
            raise ImportFileError(self.name, f"message {index} has an invalid ts {shown}")
        return self.export.convert(raw, str(ts), created_at, channel)


# --- the export as a whole ---


@dataclass
class _Export:
    """What all day files of one export share: the files, users, channels and workspace."""

    files: _ExportFiles
    stem: str
    users: dict[str, dict[str, Any]]
    channels: dict[str, ChannelRecord]  # by channel name, which is also the folder name
    pins: frozenset[str]  # platform ids of the messages channels.json lists as pinned

    @cached_property
    def people(self) -> dict[str, PersonRecord]:
        return {uid: person_from_user(uid, user) for uid, user in self.users.items()}

    @cached_property
    def channel_names(self) -> dict[str, str]:
        return {channel.platform_id: channel.name for channel in self.channels.values()}

    @cached_property
    def workspace(self) -> WorkspaceRecord:
        team_id = (
            _most_common(user.get("team_id") for user in self.users.values())
            or self._team_from_messages()
            or self.stem
        )
        return WorkspaceRecord(platform=PLATFORM, platform_id=team_id, name=self.stem)

    def _team_from_messages(self) -> str | None:
        # Only reached when users.json names no team; stops at the first day file that does,
        # so a normal export is not read twice.
        for member in self.files.day_files():
            try:
                data = json.loads(self.files.read(member))
            except (ImportFileError, ValueError, RecursionError):
                continue
            if isinstance(data, list):
                team = _most_common(m.get("team") for m in data if isinstance(m, dict))
                if team:
                    return team
        return None

    def channel_for_folder(self, folder: str) -> ChannelRecord:
        return self.channels.get(folder) or ChannelRecord(platform_id=f"name:{folder}", name=folder)

    @cached_property
    def converter(self) -> SlackConverter:
        return SlackConverter(self.people, self.channel_names)

    def convert(
        self, raw: dict[str, Any], ts: str, created_at: datetime, channel: ChannelRecord
    ) -> MessageRecord | None:
        record = self.converter.convert(raw, ts, created_at, channel)
        if record is not None and not record.pinned and record.platform_id in self.pins:
            return replace(record, pinned=True)
        return record


# --- reading the files of a ZIP or a folder ---


class _ExportFiles(Protocol):
    def display_name(self, member: str) -> str: ...

    def exists(self, member: str) -> bool: ...

    def read(self, member: str) -> bytes: ...

    def day_files(self) -> list[str]: ...


def _open_files(path: Path) -> _ExportFiles:
    if path.is_dir():
        root = _folder_root(path)
        if root is None:
            raise ImportFileError(str(path), f"no {CHANNELS_FILE} or {USERS_FILE} in this folder")
        return _FolderFiles(root)
    try:
        archive = zipfile.ZipFile(path)
    except _ZIP_ERRORS as error:
        raise ImportFileError(str(path), f"not a readable ZIP file ({error})") from error
    prefix = _zip_prefix(archive.namelist())
    if prefix is None:
        archive.close()
        raise ImportFileError(str(path), f"no {CHANNELS_FILE} or {USERS_FILE} in this ZIP file")
    return _ZipFiles(path, archive, prefix)


@dataclass
class _ZipFiles:
    """An export ZIP, kept open so each day file is read without re-reading the directory."""

    path: Path
    archive: zipfile.ZipFile
    prefix: str  # "" or the single top-level folder, with its trailing "/"

    def display_name(self, member: str) -> str:
        return f"{self.path}:{self.prefix}{member}"

    def exists(self, member: str) -> bool:
        return f"{self.prefix}{member}" in self._names

    def read(self, member: str) -> bytes:
        name = f"{self.prefix}{member}"
        try:
            _check_size(self.display_name(member), self.archive.getinfo(name))
            with self.archive.open(name) as stream:
                # The header's sizes may lie: never unpack more than the limit.
                data = stream.read(MAX_FILE_BYTES + 1)
        except _ZIP_ERRORS as error:
            if "/" not in member:
                # Without its user or channel list the whole export is unusable.
                raise ImportFileError(
                    str(self.path), f"not a readable ZIP file ({error})"
                ) from error
            problem = f"cannot be read from the ZIP file ({error})"
            raise ImportFileError(self.display_name(member), problem) from error
        if len(data) > MAX_FILE_BYTES:
            raise ImportFileError(self.display_name(member), _too_large())
        return data

    def day_files(self) -> list[str]:
        return self._day_files

    @cached_property
    def _names(self) -> frozenset[str]:
        return frozenset(self.archive.namelist())

    @cached_property
    def _day_files(self) -> list[str]:
        members = []
        for name in self._names:
            if not name.startswith(self.prefix):
                continue
            parts = name[len(self.prefix) :].split("/")
            if len(parts) == 2 and parts[0] and DAY_FILE_RE.match(parts[1]):
                members.append(tuple(parts))
        return [f"{folder}/{day}" for folder, day in sorted(members)]


@dataclass
class _FolderFiles:
    """An unpacked export folder."""

    root: Path

    def display_name(self, member: str) -> str:
        return str(self.root / member)

    def exists(self, member: str) -> bool:
        return (self.root / member).is_file()

    def read(self, member: str) -> bytes:
        try:
            with (self.root / member).open("rb") as stream:
                data = stream.read(MAX_FILE_BYTES + 1)
        except OSError as error:
            problem = f"cannot be read ({error.strerror or error})"
            raise ImportFileError(self.display_name(member), problem) from error
        if len(data) > MAX_FILE_BYTES:
            raise ImportFileError(self.display_name(member), _too_large())
        return data

    def day_files(self) -> list[str]:
        return self._day_files

    @cached_property
    def _day_files(self) -> list[str]:
        try:
            members = [
                (folder.name, day.name)
                for folder in self.root.iterdir()
                if folder.is_dir()
                for day in folder.iterdir()
                if DAY_FILE_RE.match(day.name) and day.is_file()
            ]
        except OSError as error:
            problem = f"cannot be listed ({error.strerror or error})"
            raise ImportFileError(str(error.filename or self.root), problem) from error
        return [f"{folder}/{day}" for folder, day in sorted(members)]


def _check_size(name: str, info: zipfile.ZipInfo) -> None:
    """Refuse a ZIP member that would unpack too large, or that is packed like a ZIP bomb."""
    if info.file_size > MAX_FILE_BYTES:
        raise ImportFileError(name, _too_large(info.file_size))
    ratio = info.file_size / max(info.compress_size, 1)
    if info.file_size > RATIO_FLOOR_BYTES and ratio > MAX_RATIO:
        raise ImportFileError(
            name,
            f"compressed {ratio:,.0f}:1 (at most {MAX_RATIO}:1 is accepted): "
            "not imported, as it looks like a ZIP bomb",
        )


def _too_large(size: int | None = None) -> str:
    mib = MAX_FILE_BYTES // (1024 * 1024)
    what = f"{size / 1024 / 1024:,.0f} MiB" if size is not None else "over the limit"
    return f"too large to import ({what}; at most {mib} MiB per file)"


def _zip_prefix(names: list[str]) -> str | None:
    """Where the export starts inside a ZIP: "" at the root, "folder/" one level down."""
    if any(name in MARKER_FILES for name in names):
        return ""
    for name in sorted(names):
        parts = PurePosixPath(name).parts
        if len(parts) == 2 and parts[1] in MARKER_FILES and parts[0] != "__MACOSX":
            return f"{parts[0]}/"
    return None


def _folder_root(path: Path) -> Path | None:
    """The export folder: `path` itself, or its only subfolder when that holds the export."""
    if any((path / marker).is_file() for marker in MARKER_FILES):
        return path
    try:
        subfolders = [child for child in path.iterdir() if child.is_dir()]
    except OSError:
        return None
    if len(subfolders) == 1 and any((subfolders[0] / m).is_file() for m in MARKER_FILES):
        return subfolders[0]
    return None


def _export_stem(path: Path) -> str:
    name = path.name if path.is_dir() else path.stem
    name = name or path.resolve().name
    return EXPORT_SUFFIX_RE.sub("", name) or name


# --- users.json and channels.json ---


def _load_users(files: _ExportFiles) -> dict[str, dict[str, Any]]:
    return {user["id"]: user for user in _load_list(files, USERS_FILE, required=True)}


def _load_channels(files: _ExportFiles) -> tuple[dict[str, ChannelRecord], frozenset[str]]:
    """The channels by name, and the platform ids of the messages they list as pinned."""
    channels: dict[str, ChannelRecord] = {}
    pins: set[str] = set()
    for filename in (CHANNELS_FILE, *OPTIONAL_CHANNEL_FILES):
        for entry in _load_list(files, filename, required=filename == CHANNELS_FILE):
            name = entry.get("name")
            if isinstance(name, str) and name:
                channels.setdefault(name, ChannelRecord(platform_id=entry["id"], name=name))
            pins.update(_pinned_ids(entry))
    return channels, frozenset(pins)


def _pinned_ids(channel: dict[str, Any]) -> Iterator[str]:
    """Older exports list a channel's pinned messages in channels.json (`pins`, each with
    the message's ts as its `id`) rather than marking the messages (`pinned_to`); pinned
    files have ids that are not timestamps, and are left out."""
    pins = channel.get("pins")
    if not isinstance(pins, list):
        return
    for pin in pins:
        ts = pin.get("id") if isinstance(pin, dict) else None
        if isinstance(ts, str) and parse_ts(ts) is not None:
            yield f"{channel['id']}:{ts}"


def _load_list(files: _ExportFiles, filename: str, *, required: bool) -> list[dict[str, Any]]:
    """The entries with a string `id` of a metadata file that holds a JSON list."""
    name = files.display_name(filename)
    if not files.exists(filename):
        if required:
            raise ImportFileError(name, "missing from the export")
        return []
    data = _parse_json(name, files.read(filename))
    if not isinstance(data, list):
        raise ImportFileError(name, f"expected a list, found {_kind(data)}")
    return [e for e in data if isinstance(e, dict) and isinstance(e.get("id"), str) and e["id"]]


# --- small helpers ---


def _parse_json(name: str, data: bytes) -> Any:
    refuse_too_deep(name, in_chunks(data))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ImportFileError(name, f"not UTF-8 text (byte {error.start})") from error
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        problem = json_problem(error)
        raise ImportFileError(name, problem) from error
    except RecursionError as error:
        raise ImportFileError(name, "not valid JSON (nested too deeply)") from error


def _most_common(values: Iterator[Any]) -> str | None:
    counts = Counter(value for value in values if isinstance(value, str) and value)
    return counts.most_common(1)[0][0] if counts else None


def _kind(value: Any) -> str:
    kinds = {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    return kinds.get(type(value), "a number")


FORMAT = ExportFormat(
    "slack-export",
    looks_like,
    open_sources,
    expects="it expects a ZIP file or a folder",
    reads="a Slack export ZIP or folder with channels.json",
)
