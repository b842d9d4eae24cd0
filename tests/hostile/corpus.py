"""A corpus of hostile export files, written on demand (nothing large is kept in the repo).

Each case is one file an attacker or a broken tool could hand to `summarybot import`:
DiscordChatExporter JSON with one hostile field, broken JSON, and Slack export ZIPs with a
hostile ts, count or user, or a ZIP bomb. Every hostile message text holds `SECRET`, so a
test can check that no error ever prints message text.

`python -m tests.hostile.corpus FOLDER` writes the corpus into FOLDER to try it by hand.
"""

from __future__ import annotations

import json
import sys
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SECRET = "SECRET-7f3a"
GUILD = {"id": "500", "name": "Lab"}
HOSTILE_CHANNEL = {
    "id": "666",
    "type": "GuildTextChat",
    "categoryId": None,
    "category": None,
    "name": "hostile",
}
BOMB_BYTES = 20 * 1024 * 1024  # unpacked; packs to ~20 KB (1000:1)


@dataclass(frozen=True, slots=True)
class Case:
    """One hostile file: its name, and how to write it into a folder (returns its path)."""

    name: str
    write: Callable[[Path], Path]


def dce_message(mid: Any = "9001", text: Any = f"hello {SECRET}", **fields: Any) -> dict:
    """A DCE message; `fields` replace or add top-level fields."""
    message = {
        "id": mid,
        "type": "Default",
        "timestamp": "2026-11-17T10:00:00+00:00",
        "timestampEdited": None,
        "content": text,
        "author": {"id": "701", "name": "mallory", "nickname": "Mallory", "isBot": False},
        "reactions": [],
        "embeds": [],
        "mentions": [],
    }
    message.update(fields)
    return message


def dce_document(
    messages: list[dict], *, guild: dict | None = None, channel: dict | None = None
) -> dict:
    return {
        "guild": guild or GUILD,
        "channel": channel or HOSTILE_CHANNEL,
        "messages": messages,
    }


def _dce(name: str, document: Any) -> Case:
    def write(folder: Path) -> Path:
        path = folder / f"{name}.json"
        path.write_text(json.dumps(document), encoding="ascii")  # \u escapes keep surrogates
        return path

    return Case(name, write)


def _raw(name: str, data: bytes) -> Case:
    def write(folder: Path) -> Path:
        path = folder / f"{name}.json"
        path.write_bytes(data)
        return path

    return Case(name, write)


def _author(**fields: Any) -> dict:
    return {"id": "701", "name": "mallory", "nickname": "Mallory", "isBot": False} | fields


def slack_message(ts: Any = "1763373600.000100", **fields: Any) -> dict:
    return {"type": "message", "user": "U1", "text": f"hi {SECRET}", "ts": ts} | fields


def _slack(
    name: str,
    messages: list[dict] | None = None,
    *,
    users: list[dict] | None = None,
    day: bytes | None = None,
    compression: int = zipfile.ZIP_DEFLATED,
) -> Case:
    def write(folder: Path) -> Path:
        path = folder / f"{name}.zip"
        users_list = users or [{"id": "U1", "team_id": "T1", "name": "m", "real_name": "Mal"}]
        with zipfile.ZipFile(path, "w", compression) as archive:
            archive.writestr("users.json", json.dumps(users_list))
            archive.writestr("channels.json", json.dumps([{"id": "C1", "name": "general"}]))
            body = day if day is not None else json.dumps(messages or []).encode()
            archive.writestr("general/2026-11-17.json", body)
        return path

    return Case(name, write)


def _zip_bomb(name: str, member: str) -> Case:
    def write(folder: Path) -> Path:
        path = folder / f"{name}.zip"
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
            for other in ("users.json", "channels.json", "general/2026-11-17.json"):
                if other != member:
                    archive.writestr(other, "[]")
            archive.writestr(member, b"[" + b" " * BOMB_BYTES + b"]")
        return path

    return Case(name, write)


def _not_a_zip(name: str) -> Case:
    def write(folder: Path) -> Path:
        path = folder / f"{name}.zip"
        path.write_bytes(b"PK\x03\x04" + b"\x00" * 200)
        return path

    return Case(name, write)


def cases() -> list[Case]:
    """The 44 hostile cases."""
    long_id = "9" * 65
    return [
        _dce("nul-in-text", dce_document([dce_message(text=f"a\x00b {SECRET}")])),
        _dce("nul-in-author-name", dce_document([dce_message(author=_author(nickname="M\x00"))])),
        _dce(
            "nul-in-channel-name",
            dce_document([dce_message()], channel=HOSTILE_CHANNEL | {"name": "h\x00"}),
        ),
        _dce("nul-in-message-id", dce_document([dce_message(mid="90\x0001")])),
        _dce("message-id-65-chars", dce_document([dce_message(mid=long_id)])),
        _dce("message-id-10k-chars", dce_document([dce_message(mid="9" * 10_000)])),
        _dce("message-id-huge-number", dce_document([dce_message(mid=10**100)])),
        _dce("author-id-100-chars", dce_document([dce_message(author=_author(id="7" * 100))])),
        _dce(
            "guild-id-100-chars",
            dce_document([dce_message()], guild={"id": "5" * 100, "name": "L"}),
        ),
        _dce(
            "channel-id-100-chars",
            dce_document([dce_message()], channel=HOSTILE_CHANNEL | {"id": "6" * 100}),
        ),
        _dce(
            "author-name-201-chars", dce_document([dce_message(author=_author(nickname="n" * 201))])
        ),
        _dce(
            "author-name-10k-chars",
            dce_document([dce_message(author=_author(nickname="n" * 10_000))]),
        ),
        _dce(
            "channel-name-5k-chars",
            dce_document([dce_message()], channel=HOSTILE_CHANNEL | {"name": "c" * 5000}),
        ),
        _dce(
            "guild-name-5k-chars",
            dce_document([dce_message()], guild={"id": "500", "name": "g" * 5000}),
        ),
        _dce("reactions-over-int32", dce_document([dce_message(reactions=[{"count": 2**31}])])),
        _dce("reactions-over-int64", dce_document([dce_message(reactions=[{"count": 2**64}])])),
        _dce("reactions-10e30", dce_document([dce_message(reactions=[{"count": 10**30}] * 3)])),
        _dce("reactions-negative", dce_document([dce_message(reactions=[{"count": -5}])])),
        _dce(
            "reactions-float-1e308", dce_document([dce_message(reactions=[{"count": 1e308}] * 2)])
        ),
        _dce("reactions-as-text", dce_document([dce_message(reactions=[{"count": "many"}])])),
        _dce("lone-surrogate-in-text", dce_document([dce_message(text=f"x\ud800y {SECRET}")])),
        _dce(
            "lone-surrogate-in-name", dce_document([dce_message(author=_author(nickname="\udfff"))])
        ),
        _dce(
            "timestamp-year-1", dce_document([dce_message(timestamp="0001-01-01T00:00:00+00:00")])
        ),
        _dce(
            "timestamp-year-9999",
            dce_document([dce_message(timestamp="9999-12-31T23:59:59+00:00")]),
        ),
        _dce(
            "timestamp-without-offset", dce_document([dce_message(timestamp="2026-11-17T10:00:00")])
        ),
        _dce(
            "edited-year-1",
            dce_document([dce_message(timestampEdited="0001-01-01T00:00:00+00:00")]),
        ),
        _dce("content-is-a-number", dce_document([dce_message(text=12)])),
        _dce("one-megabyte-message", dce_document([dce_message(text=SECRET + "x" * 1_000_000)])),
        _dce(
            "pr-ref-overflows",
            dce_document([dce_message(text=f"{'a' * 250}/{'b' * 250}#1 and #9999999 {SECRET}")]),
        ),
        _dce("messages-not-a-list", {"guild": GUILD, "channel": HOSTILE_CHANNEL, "messages": {}}),
        _dce("top-level-list", [dce_message()]),
        _raw("truncated-json", json.dumps(dce_document([dce_message()])).encode()[:150]),
        _raw(
            "not-utf8",
            b'{"guild": {"id": "500", "name": "\xff\xfe"}, "channel": {}, "messages": []}',
        ),
        _raw("empty-file", b""),
        _raw("deeply-nested", b'{"guild": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"),
        _raw(
            "number-5000-digits",
            b'{"guild": {"id": ' + b"9" * 5000 + b', "name": "x"}, "channel": {}, "messages": []}',
        ),
        _slack("slack-ts-5000-digits", [slack_message(ts="1" * 5000)]),
        _slack("slack-ts-year-1970", [slack_message(ts="1.000001")]),
        _slack("slack-ts-year-33000", [slack_message(ts="999999999999.0")]),
        _slack("slack-ts-negative", [slack_message(ts="-5")]),
        _slack(
            "slack-counts-over-int64",
            [slack_message(reply_count=2**70, reactions=[{"name": "x", "count": 2**40}])],
        ),
        _slack("slack-thread-ts-long", [slack_message(thread_ts="1" * 80)]),
        _slack(
            "slack-user-nul-and-long",
            [slack_message()],
            users=[{"id": "U1", "team_id": "T1", "real_name": "M\x00" + "m" * 300}],
        ),
        _slack(
            "slack-user-id-100-chars",
            [slack_message(user="U" * 100)],
            users=[{"id": "U" * 100, "team_id": "T1"}],
        ),
        _slack("slack-day-bad-json", day=b'[{"ts": "1.0", "text": "' + SECRET.encode() + b'"'),
        _zip_bomb("zip-bomb-day-file", "general/2026-11-17.json"),
        _zip_bomb("zip-bomb-users", "users.json"),
        _not_a_zip("zip-not-a-zip"),
    ]


def write_all(folder: Path) -> list[Path]:
    """Write every case into `folder`; their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    return [case.write(folder) for case in cases()]


if __name__ == "__main__":
    for written in write_all(Path(sys.argv[1])):
        print(written)
