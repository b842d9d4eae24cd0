"""Tests for the DiscordChatExporter JSON importer.

The first group reads real DCE 2.48 output from ../shared/data/real (absent in a fresh clone);
the rest use small exports written here, in the shapes older and newer DCE versions produce.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from bot.core.ingest import ImportFileError, ImportSource, Skipped, SkippedFile
from bot.discord.export import looks_like, open_sources
from storage.records import ImportBatch
from tests.support.realdata import REAL_DATA


def read_all(source: ImportSource) -> ImportBatch:
    """The source's batch with its streamed messages read into a list."""
    batch = source.read()
    return replace(batch, messages=list(batch.messages))


CAPTURED = REAL_DATA / "discord-nordscope-dce-2.48-captured"
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "discord"

GUILD_ID = "1505988963628879902"
GENERAL_ID = "1543572361285083187"
COOL_THREAD_ID = "1543572368977428611"  # also the id of the general message it was started from
FORUM_ID = "1543572364359372880"  # the forum channel itself is not in the capture
BUG_REPORT_ID = "1543572393384087642"
BOT_ID = "1505990747130953738"
GENERAL_FILE = "Discord Ferry Test - general [1543572361285083187].json"
THREAD_FILE = "Discord Ferry Test - general - Cool Thread [1543572368977428611].json"
FORUM_FILE = "Discord Ferry Test - feedback-forum - Bug Report [1543572393384087642].json"
PLUS_THREE_HOURS = timezone(timedelta(hours=3))


# --- real DCE 2.48 exports ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def captured() -> dict[str, ImportBatch]:
    """The captured exports, read through `open_sources`, by file name."""
    if not CAPTURED.is_dir():
        pytest.skip("../shared/data/real is not present (a fresh clone has no shared data)")
    sources = open_sources(CAPTURED)
    return {
        Path(source.name).name: read_all(source)
        for source in sources
        if not isinstance(source, Skipped)
    }


def _raw_messages(file_name: str) -> dict[str, dict[str, Any]]:
    document = json.loads((CAPTURED / file_name).read_text(encoding="utf-8"))
    return {message["id"]: message for message in document["messages"]}


def test_captured_folder_has_three_exports_and_provenance_is_skipped(
    captured: dict[str, ImportBatch],
) -> None:
    assert looks_like(CAPTURED)
    # Sorted by name; provenance.json (valid JSON, no messages) is not read, but named.
    assert list(captured) == [FORUM_FILE, THREAD_FILE, GENERAL_FILE]
    skipped = [s.name for s in open_sources(CAPTURED) if isinstance(s, Skipped)]
    assert [Path(name).name for name in skipped] == ["provenance.json"]


def test_captured_message_counts(captured: dict[str, ImportBatch]) -> None:
    # general: 11 messages in the file, one of them the "Started a thread." notice.
    assert len(captured[GENERAL_FILE].messages) == 10
    assert len(captured[THREAD_FILE].messages) == 2
    assert len(captured[FORUM_FILE].messages) == 1
    general_ids = {message.platform_id for message in captured[GENERAL_FILE].messages}
    assert "1543572390452133893" not in general_ids  # the ThreadCreated notice


def test_captured_workspace_channels_and_parents(captured: dict[str, ImportBatch]) -> None:
    for batch in captured.values():
        assert batch.workspace.platform == "discord"
        assert batch.workspace.platform_id == GUILD_ID
        assert batch.workspace.name == "Discord Ferry Test"

    general = captured[GENERAL_FILE].channel
    assert (general.platform_id, general.name, general.parent_platform_id) == (
        GENERAL_ID,
        "general",
        None,
    )
    thread = captured[THREAD_FILE].channel
    assert (thread.platform_id, thread.name, thread.parent_platform_id) == (
        COOL_THREAD_ID,
        "Cool Thread",
        GENERAL_ID,
    )
    post = captured[FORUM_FILE].channel
    assert (post.platform_id, post.name, post.parent_platform_id) == (
        BUG_REPORT_ID,
        "Bug Report",
        FORUM_ID,
    )


def test_captured_authors_are_the_bot(captured: dict[str, ImportBatch]) -> None:
    authors = {message.author for batch in captured.values() for message in batch.messages}
    assert [(a.platform_id, a.display_name, a.is_bot) for a in authors] == [
        (BOT_ID, "D-Ferry Test app", True)
    ]


def test_captured_thread_ids(captured: dict[str, ImportBatch]) -> None:
    general = {m.platform_id: m.thread_id for m in captured[GENERAL_FILE].messages}
    assert general.pop(COOL_THREAD_ID) == COOL_THREAD_ID  # the message the thread hangs off
    assert set(general.values()) == {None}

    thread = captured[THREAD_FILE].messages
    assert [m.platform_id for m in thread] == [COOL_THREAD_ID, "1543572392016617563"]
    assert {m.thread_id for m in thread} == {COOL_THREAD_ID}
    assert [m.thread_id for m in captured[FORUM_FILE].messages] == [BUG_REPORT_ID]


def test_captured_embed_text_follows_the_content(captured: dict[str, ImportBatch]) -> None:
    embed_message = next(
        m for m in captured[GENERAL_FILE].messages if m.platform_id == "1543572388984397855"
    )
    assert embed_message.text.splitlines() == [
        "Message with rich embed (inline+non-inline field mix). [ferry:msg-embed]",
        "Embed title",
        "Embed description testing mixed inline fields.",
        "Inline 1: Value 1",
        "Inline 2: Value 2",
        "Inline 3: Value 3",
        "Full-width 1: Value 4",
        "Full-width 2: Value 5",
    ]


def test_captured_timestamps_match_the_files(captured: dict[str, ImportBatch]) -> None:
    for file_name, batch in captured.items():
        raw = _raw_messages(file_name)
        for message in batch.messages:
            written = raw[message.platform_id]["timestamp"]
            assert message.created_at == datetime.fromisoformat(written)
            assert message.created_at.utcoffset() == timedelta(hours=3)
            assert message.edited_at is None
            assert message.reply_to_id is None
            assert message.reaction_count == 0
            assert message.reply_count == 0
    # "13:45:32.04+03:00": two fraction digits in the file
    sixth = captured[GENERAL_FILE].messages[5]
    assert sixth.created_at == datetime(2026, 8, 30, 13, 45, 32, 40000, tzinfo=PLUS_THREE_HOURS)


def test_captured_permalinks(captured: dict[str, ImportBatch]) -> None:
    first = captured[GENERAL_FILE].messages[0]
    assert first.permalink == (
        f"https://discord.com/channels/{GUILD_ID}/{GENERAL_ID}/1543572365714264084"
    )
    for batch in captured.values():
        prefix = f"https://discord.com/channels/{GUILD_ID}/{batch.channel.platform_id}/"
        assert all(m.permalink == prefix + m.platform_id for m in batch.messages)


# --- exports written by the tests -------------------------------------------------------------

ALICE = {"id": "111", "name": "alice", "discriminator": "0000", "nickname": "Alice", "isBot": False}
BOB = {"id": "222", "name": "bob", "discriminator": "0000", "nickname": None, "isBot": False}
GITHUB = {"id": "900", "name": "GitHub", "discriminator": "0000", "nickname": None, "isBot": True}


def _message(message_id: str, content: str = "", kind: str = "Default", **fields: Any) -> dict:
    """A message in DCE 2.4x shape; `fields` override or add keys."""
    message: dict[str, Any] = {
        "id": message_id,
        "type": kind,
        "timestamp": "2026-09-01T10:00:00.000+00:00",
        "timestampEdited": None,
        "callEndedTimestamp": None,
        "isPinned": False,
        "content": content,
        "author": ALICE,
        "attachments": [],
        "embeds": [],
        "stickers": [],
        "reactions": [],
        "mentions": [],
        "inlineEmojis": [],
    }
    message.update(fields)
    return message


def _export(messages: list[Any], **header: Any) -> dict[str, Any]:
    document: dict[str, Any] = {
        "guild": {"id": "500", "name": "Marin", "iconUrl": ""},
        "channel": {
            "id": "600",
            "type": "GuildTextChat",
            "categoryId": "650",
            "category": "Engineering",
            "name": "dev",
            "topic": None,
        },
        "dateRange": {"after": None, "before": None},
        "exportedAt": "2026-09-07T12:00:00.000000+00:00",
        "messages": messages,
        "messageCount": len(messages),
    }
    document.update(header)
    return document


def _write(path: Path, document: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=2, ensure_ascii=False), encoding="utf-8")
    return path


def _read(tmp_path: Path, document: Any) -> ImportBatch:
    [source] = open_sources(_write(tmp_path / "export.json", document))
    return read_all(source)


def test_older_dce_export() -> None:
    """No nickname, categoryId, stickers, inlineEmojis or exportedAt; 7-digit fractions."""
    path = FIXTURES / "older-dce-style.json"
    assert looks_like(path)
    batch = read_all(open_sources(path)[0])

    assert batch.source == str(path)
    assert batch.workspace.platform_id == "340000000000000001"
    assert batch.channel.parent_platform_id is None
    assert [m.platform_id for m in batch.messages] == ["762389341222027295", "762389341222027296"]
    green, thanks = batch.messages
    assert green.author.display_name == "Tyrrrz"
    assert green.author.is_bot is False
    assert green.created_at == datetime(2020, 10, 4, 17, 12, 3, 250000, tzinfo=UTC)
    assert green.edited_at == datetime(2020, 10, 4, 17, 13, 10, 500000, tzinfo=UTC)
    assert green.reaction_count == 2
    assert thanks.author.display_name == "newcomer"
    assert thanks.text == "Thanks @Tyrrrz!"
    assert thanks.created_at == datetime(2020, 10, 4, 17, 12, 3, tzinfo=UTC)
    assert thanks.created_at.utcoffset() == timedelta(hours=2)


def test_reply_with_reference(tmp_path: Path) -> None:
    batch = _read(
        tmp_path,
        _export(
            [
                _message("1", "Who owns the tokenizer cache?"),
                _message(
                    "2",
                    "I do.",
                    "Reply",
                    author=BOB,
                    reference={"type": "Default", "messageId": "1", "channelId": "600"},
                ),
                # Older DCE: no reference.type, and a reply typed Default.
                _message("3", "Me too.", reference={"messageId": "1"}),
                _message(
                    "4",
                    "Forwarded from elsewhere",
                    reference={"type": "Forward", "messageId": "77", "channelId": "601"},
                ),
            ]
        ),
    )
    assert [m.reply_to_id for m in batch.messages] == [None, "1", "1", None]
    assert batch.messages[1].author.display_name == "bob"
    assert {m.thread_id for m in batch.messages} == {None}
    # An ordinary channel's categoryId is a category, not a parent channel.
    assert batch.channel.parent_platform_id is None


def test_raw_markup_is_resolved(tmp_path: Path) -> None:
    content = (
        "<@111> and <@!222>: see <#600>, not <#999>. Ping <@&456> and <@333> "
        "<:party:123><a:dance:456> by <t:1700000000:R>, run </deploy:42>. @Carol wrote <3"
    )
    mentions = [
        {"id": "111", "name": "alice", "discriminator": "0000", "nickname": "Alice"},
        {"id": "222", "name": "bob", "discriminator": "0000", "nickname": None},
    ]
    batch = _read(tmp_path, _export([_message("1", content, mentions=mentions)]))
    assert batch.messages[0].text == (
        "@Alice and @bob: see #dev, not #channel. Ping @role and @unknown-user "
        ":party::dance: by 2023-11-14 22:13 UTC, run /deploy. @Carol wrote <3"
    )


def test_integration_post_keeps_pr_number_from_embed(tmp_path: Path) -> None:
    embed = {
        "title": "[marin-community/marin] Pull request opened: #8077 Fix tokenizer cache race",
        "url": "https://github.com/marin-community/marin/pull/8077",
        "timestamp": None,
        "description": "Closes #8070. Adds a lock around the cache write.",
        "color": "#009800",
        "author": {"name": "dlwh", "url": "https://github.com/dlwh"},
        "images": [],
        "fields": [],
        "inlineEmojis": [],
    }
    batch = _read(tmp_path, _export([_message("1", "", author=GITHUB, embeds=[embed])]))
    [post] = batch.messages
    assert post.author.is_bot is True
    assert post.text == (
        "[marin-community/marin] Pull request opened: #8077 Fix tokenizer cache race\n"
        "Closes #8070. Adds a lock around the cache write."
    )


def test_reactions_are_summed_and_edits_kept(tmp_path: Path) -> None:
    reactions = [
        {"emoji": {"id": "", "name": "👍", "code": "thumbsup", "isAnimated": False}, "count": 3},
        {"emoji": {"id": "123", "name": "party", "code": "party", "isAnimated": True}, "count": 2},
    ]
    batch = _read(
        tmp_path,
        _export(
            [
                _message(
                    "1",
                    "Shipped.",
                    reactions=reactions,
                    timestampEdited="2026-09-01T12:30:00.5+02:00",
                )
            ]
        ),
    )
    [shipped] = batch.messages
    assert shipped.reaction_count == 5
    assert shipped.edited_at == datetime(2026, 9, 1, 10, 30, 0, 500000, tzinfo=UTC)
    assert shipped.edited_at.utcoffset() == timedelta(hours=2)


def test_system_and_empty_messages_are_skipped(tmp_path: Path) -> None:
    attachment = {"id": "9", "url": "cat.png", "fileName": "cat.png", "fileSizeBytes": 20480}
    sticker = {"id": "8", "name": "wave", "format": "Png", "sourceUrl": "wave.png"}
    batch = _read(
        tmp_path,
        _export(
            [
                _message("1", "Joined the server.", "GuildMemberJoin"),
                _message("2", "Pinned a message.", "ChannelPinnedMessage"),
                _message("3", "", "ThreadStarterMessage"),
                _message("4", "Started a thread.", "ThreadCreated"),
                _message("5", "Boosted the server!", "GuildBoost"),
                _message("6", "Something new", "SomeFutureType"),
                _message("7", "", attachments=[attachment]),
                _message("8", "   ", stickers=[sticker]),
                _message("9", "/deploy ran", "ChatInputCommand"),
                _message("10", "the real message", attachments=[attachment]),
            ]
        ),
    )
    assert [(m.platform_id, m.text) for m in batch.messages] == [
        ("9", "/deploy ran"),
        ("10", "the real message"),
    ]


def test_direct_messages_export(tmp_path: Path) -> None:
    document = _export(
        [_message("1", "hey"), _message("2", "hi", author=BOB)],
        guild={"id": "0", "name": "Direct Messages", "iconUrl": ""},
        channel={
            "id": "700",
            "type": "DirectTextChat",
            "categoryId": None,
            "category": None,
            "name": "bob",
            "topic": None,
        },
    )
    batch = _read(tmp_path, document)
    assert (batch.workspace.platform_id, batch.workspace.name) == ("0", "Direct Messages")
    assert batch.channel.platform_id == "700"
    assert batch.channel.parent_platform_id is None
    # Discord links DMs as /channels/@me/…; a guild id of 0 would lead nowhere.
    assert batch.messages[0].permalink == "https://discord.com/channels/@me/700/1"


def test_private_thread_without_parent_still_sets_thread_id(tmp_path: Path) -> None:
    document = _export(
        [_message("801", "first"), _message("802", "second")],
        channel={
            "id": "800",
            "type": "GuildPrivateThread",
            "categoryId": None,
            "category": None,
            "name": "secret",
            "topic": None,
        },
    )
    batch = _read(tmp_path, document)
    assert batch.channel.parent_platform_id is None
    assert [m.thread_id for m in batch.messages] == ["800", "800"]


# --- bad input ---------------------------------------------------------------------------------


def _problem(tmp_path: Path, text: str, name: str = "export.json") -> ImportFileError:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    [source] = open_sources(path)
    with pytest.raises(ImportFileError) as caught:
        read_all(source)
    assert caught.value.source == str(path)
    assert str(path) in str(caught.value)
    return caught.value


def test_truncated_file_names_line_and_column(tmp_path: Path) -> None:
    whole = json.dumps(_export([_message("1", "one"), _message("2", "two")]), indent=2)
    error = _problem(tmp_path, whole[: len(whole) // 2])
    assert error.problem.startswith("not valid JSON (line ")
    assert ", column " in error.problem


def test_json_error_position_is_reported(tmp_path: Path) -> None:
    error = _problem(tmp_path, '{\n  "guild": {}\n  "messages": []\n}')
    assert error.problem == "not valid JSON (line 3, column 3): Expecting ',' delimiter"


@pytest.mark.parametrize(
    ("document", "problem"),
    [
        ([1, 2, 3], "not a DiscordChatExporter export: the top level is not an object"),
        ({"guild": {}, "channel": {}}, "not a DiscordChatExporter export: no 'messages' list"),
        ({"messages": []}, "not a DiscordChatExporter export: no 'guild' object"),
        (_export([], channel={"name": "dev"}), "channel has no 'id'"),
        (_export([_message("1", "ok"), _message("", "no id")]), "message 2 has no 'id'"),
        (_export([{"type": "Default", "content": "hi"}]), "message 1 has no 'id'"),
        (
            _export([_message("1", "hi", timestamp="yesterday")]),
            "message 1 has a bad 'timestamp': 'yesterday'",
        ),
        (_export([_message("1", "hi", timestamp=None)]), "message 1 has no 'timestamp'"),
        (
            _export([_message("1", "hi", timestamp="2026-09-01T10:00:00")]),
            "message 1 has a 'timestamp' without a UTC offset: '2026-09-01T10:00:00'",
        ),
        (_export([_message("1", "hi", author=None)]), "message 1 has no 'author'"),
        (_export(["just a string"]), "message 1 is not an object"),
    ],
)
def test_wrong_shapes(tmp_path: Path, document: Any, problem: str) -> None:
    assert _problem(tmp_path, json.dumps(document)).problem == problem


@pytest.mark.parametrize(
    "message",
    [
        _message("1", "hi", reactions=[{"count": "many"}]),
        _message("1", "hi", reactions=["👍"]),
        _message("1", "hi", embeds=[{"title": "t", "fields": ["not a field"]}]),
        _message("1", "hi", author={"id": ["5"], "name": "x"}),
        _message("1", {"text": "hi"}),
    ],
)
def test_odd_fields_raise_import_errors_only(tmp_path: Path, message: dict) -> None:
    error = _problem(tmp_path, json.dumps(_export([message])))
    assert error.problem.startswith("message 1 ")


def test_folder_with_good_and_truncated_file(tmp_path: Path) -> None:
    good = _write(tmp_path / "a-good.json", _export([_message("1", "fine")]))
    bad = tmp_path / "b-truncated.json"
    bad.write_text(good.read_text(encoding="utf-8")[:300], encoding="utf-8")
    _write(tmp_path / "provenance.json", {"dceVersion": "2.48", "guildId": "500"})
    (tmp_path / "notes.txt").write_text("not json at all", encoding="utf-8")

    sources = open_sources(tmp_path)
    provenance = str(tmp_path / "provenance.json")
    assert [source.name for source in sources] == [str(good), str(bad), provenance]
    with pytest.raises(SkippedFile, match="not a DiscordChatExporter export; skipped"):
        sources[2].read()
    assert [m.text for m in read_all(sources[0]).messages] == ["fine"]
    with pytest.raises(ImportFileError) as caught:
        read_all(sources[1])
    assert caught.value.source == str(bad)
    assert caught.value.problem.startswith("not valid JSON (line ")


def test_folder_keeps_a_json_file_that_is_not_json(tmp_path: Path) -> None:
    _write(tmp_path / "a.json", _export([_message("1", "fine")]))
    empty = tmp_path / "b.json"
    empty.write_bytes(b"")
    sources = open_sources(tmp_path)
    assert [source.name for source in sources] == [str(tmp_path / "a.json"), str(empty)]
    with pytest.raises(ImportFileError, match=r"not valid JSON \(line 1, column 1\)"):
        read_all(sources[1])


def test_nested_folders_are_searched_but_asset_folders_are_not(tmp_path: Path) -> None:
    inner = _write(tmp_path / "2026" / "september" / "dev.json", _export([_message("1", "hi")]))
    _write(tmp_path / "2026" / "september" / "dev.json_Files" / "meta.json", _export([]))
    assert looks_like(tmp_path)
    assert [source.name for source in open_sources(tmp_path)] == [str(inner)]


def test_folder_without_exports_is_an_error(tmp_path: Path) -> None:
    _write(tmp_path / "provenance.json", {"dceVersion": "2.48"})
    with pytest.raises(ImportFileError, match="no DiscordChatExporter JSON files"):
        open_sources(tmp_path)


def test_looks_like_rejects_other_things(tmp_path: Path) -> None:
    slack = tmp_path / "slack-export"
    _write(slack / "channels.json", [{"id": "C1", "name": "general", "members": ["U1"]}])
    _write(slack / "users.json", [{"id": "U1", "name": "alice"}])
    _write(slack / "general" / "2016-01-16.json", [{"type": "message", "text": "hi", "ts": "1"}])
    text_file = tmp_path / "notes.txt"
    text_file.write_text('{"guild": {}, "channel": {}, "messages": []}', encoding="utf-8")
    garbage = tmp_path / "garbage.json"
    garbage.write_bytes(bytes(range(256)) * 64)

    assert not looks_like(slack)
    assert not looks_like(text_file)  # right content, but not a .json file
    assert not looks_like(garbage)
    assert not looks_like(tmp_path / "missing.json")


def test_looks_like_accepts_an_export_file_and_its_folder(tmp_path: Path) -> None:
    path = _write(tmp_path / "dev.json", _export([_message("1", "hi")]))
    assert looks_like(path)
    assert looks_like(tmp_path)


def test_package_detects_the_format(tmp_path: Path) -> None:
    pytest.importorskip("bot.slack.export", reason="the Slack importer is not written yet")
    from bot.ops.formats import detect_format

    _write(tmp_path / "dev.json", _export([_message("1", "hi")]))
    assert detect_format(tmp_path) == "discord-export"
