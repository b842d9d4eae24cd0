"""Tests for the Slack workspace export importer (bot.slack.export)."""

from __future__ import annotations

import json
import re
import zipfile
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core.ingest import ImportFileError
from bot.ops.formats import detect_format
from bot.ops.formats import open_sources as open_any
from bot.slack.export import looks_like, open_sources
from storage.records import ImportBatch, MessageRecord, PersonRecord, WorkspaceRecord
from tests.support.realdata import REAL_DATA

TESTARCHIVE = REAL_DATA / "slack-hfaran-slack-export-viewer" / "testarchive.zip"
HOUSTON = REAL_DATA / "slack-houstondatavis"
ZULIP_THREAD = REAL_DATA / "slack-zulip-fixtures" / "thread_with_broadcast_reply.json"

SYSTEM_SUBTYPES_IN_DATA = {
    "channel_join",
    "channel_topic",
    "channel_name",
    "channel_purpose",
    "pinned_item",
    "bot_add",
    "channel_archive",
}

USERS = [
    {
        "id": "U1",
        "team_id": "T1",
        "name": "ada",
        "real_name": "Ada L.",
        "is_bot": False,
        "profile": {"real_name": "Ada Lovelace", "display_name": "ada"},
    },
    {
        "id": "U2",
        "team_id": "T1",
        "name": "grace",
        "profile": {"real_name": "", "display_name": ""},
    },
    {"id": "U3", "team_id": "T1", "name": "ci", "is_bot": True, "profile": {"real_name": "CI"}},
]
CHANNELS = [{"id": "C1", "name": "general"}, {"id": "C2", "name": "random"}]


# --- helpers ---


def require(path: Path) -> Path:
    if not REAL_DATA.is_dir():
        pytest.skip("../shared/data/real is not present (a fresh clone has no shared data)")
    if not path.exists():
        pytest.skip(f"{path} is not present in ../shared/data/real")
    return path


def write_json(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def make_export(
    root: Path,
    days: dict[str, Any],
    *,
    users: Any = USERS,
    channels: Any = CHANNELS,
) -> Path:
    """An unpacked export at `root`; `days` maps "general/2016-01-16.json" to its content."""
    root.mkdir(parents=True, exist_ok=True)
    if users is not None:
        write_json(root / "users.json", users)
    if channels is not None:
        write_json(root / "channels.json", channels)
    for member, content in days.items():
        target = root / member
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            target.write_text(content, encoding="utf-8")
        else:
            write_json(target, content)
    return root


def zip_folder(folder: Path, zip_path: Path, *, prefix: str = "", stored: bool = False) -> Path:
    compression = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
    with zipfile.ZipFile(zip_path, "w", compression) as archive:
        for file in sorted(folder.rglob("*")):
            if file.is_file():
                archive.write(file, prefix + file.relative_to(folder).as_posix())
    return zip_path


def read_all(path: Path) -> list[ImportBatch]:
    return [source.read() for source in open_sources(path)]


def messages_of(batches: list[ImportBatch]) -> list[MessageRecord]:
    return [message for batch in batches for message in batch.messages]


def by_id(batches: list[ImportBatch]) -> dict[str, MessageRecord]:
    return {message.platform_id: message for message in messages_of(batches)}


def msg(ts: str, text: str = "hello", user: str | None = "U1", **extra: Any) -> dict[str, Any]:
    message: dict[str, Any] = {"type": "message", "ts": ts, "text": text, **extra}
    if user is not None:
        message["user"] = user
    return message


def read_one_day(tmp_path: Path, messages: list[dict[str, Any]], **kwargs: Any) -> ImportBatch:
    root = make_export(tmp_path / "export", {"general/2016-01-16.json": messages}, **kwargs)
    [source] = open_sources(root)
    return source.read()


# --- real data: hfaran/slack-export-viewer testarchive.zip ---


@pytest.fixture(scope="module")
def testarchive() -> list[ImportBatch]:
    return read_all(require(TESTARCHIVE))


def test_testarchive_sources_are_channel_days_in_order() -> None:
    sources = open_sources(require(TESTARCHIVE))
    names = [source.name for source in sources]
    assert len(sources) == 17
    assert names == sorted(names)
    assert names[0] == f"{TESTARCHIVE}:enrique/2016-01-14.json"
    assert Counter(name.split(":")[-1].split("/")[0] for name in names) == {
        "enrique": 9,
        "traveling-sailor": 8,
    }


def test_testarchive_counts(testarchive: list[ImportBatch]) -> None:
    # 158 messages in the day files: 8 channel_join and 3 bot_add are left out.
    per_channel = Counter()
    for batch in testarchive:
        per_channel[batch.channel.name] += len(batch.messages)
    assert per_channel == {"enrique": 96, "traveling-sailor": 51}
    messages = messages_of(testarchive)
    assert len({m.platform_id for m in messages}) == 147
    assert sum(m.author.is_bot for m in messages) == 94  # GitHub integration bot_messages
    ids = {m.platform_id for m in messages}
    assert "C0JGLMMNX:1452837318.000002" not in ids  # channel_join
    assert "C0JGLMMNX:1452988746.000017" not in ids  # bot_add
    assert "C0JL6CGQ2:1452988903.000006" not in ids  # bot_add


def test_testarchive_workspace_and_channels(testarchive: list[ImportBatch]) -> None:
    assert {batch.workspace for batch in testarchive} == {
        WorkspaceRecord(platform="slack", platform_id="T0BMHLSRH", name="testarchive")
    }
    assert {(b.channel.platform_id, b.channel.name) for b in testarchive} == {
        ("C0JGLMMNX", "enrique"),
        ("C0JL6CGQ2", "traveling-sailor"),
    }


def test_testarchive_github_bot_message_carries_pr_number(testarchive: list[ImportBatch]) -> None:
    message = by_id(testarchive)["C0JGLMMNX:1454895097.000011"]
    assert message.author == PersonRecord("B0JL6RASU", "bot", is_bot=True)
    # The message text is empty; everything comes from attachments[].pretext and .text.
    assert message.text.startswith("[enrique:master] 2 new commits by hfaran and 1 other:\n")
    assert "708e78a: Merge pull request #3 from mesos-magellan/hfaran_problem" in message.text
    merged = [
        int(number)
        for m in messages_of(testarchive)
        for number in re.findall(r"Merge pull request #(\d+)", m.text)
    ]
    assert sorted(merged) == [3, 3, 5, 5, 9, 21]


def test_testarchive_details(testarchive: list[ImportBatch]) -> None:
    messages = by_id(testarchive)
    first = messages["C0JGLMMNX:1452837352.000006"]
    assert first.created_at == datetime(2016, 1, 15, 5, 55, 52, 6, tzinfo=UTC)
    assert first.text.startswith("@Harry Potter: Created an issue for a setup.py")
    assert first.author == PersonRecord("U0BMQB6JE", "Hamza Faran", is_bot=False)

    edited = messages["C0JL6CGQ2:1458972985.000010"]
    assert edited.edited_at == datetime(2016, 3, 26, 8, 32, 14, tzinfo=UTC)
    assert sum(m.edited_at is not None for m in messages.values()) == 1

    assert messages["C0JGLMMNX:1459154014.000018"].reaction_count == 1
    assert sum(m.reaction_count for m in messages.values()) == 1

    # <url|label> markup resolves to the label; a bare GitHub PR link stays a URL.
    share = messages["C0JL6CGQ2:1459052866.000012"]
    assert share.text == "@Hermione Granger uploaded a file: 100 cities"
    # A member's link unfurl (the PR page's title) is the preview, not the member's words.
    shared_pr = messages["C0JGLMMNX:1454894941.000009"]
    assert shared_pr.text == "@Harry Potter: https://github.com/mesos-magellan/enrique/pull/3"
    assert shared_pr.preview.startswith(
        "Add Problem abstract base class by hfaran · Pull Request #3"
    )
    # file_comment has no `user`: the commenter is comment.user, the text the comment.
    comment = messages["C0JL6CGQ2:1459106048.000018"]
    assert comment.author.display_name == "Hermione Granger"
    assert comment.text.startswith("```'cities': {")

    humans = {m.author.display_name for m in messages.values() if not m.author.is_bot}
    assert humans == {"Hamza Faran", "Hermione Granger", "Harry Potter", "heroeshannibal"}
    assert all(m.thread_id is None and m.permalink is None for m in messages.values())


# --- real data: houstondatavis/slack-export (an unpacked folder) ---


@pytest.fixture(scope="module")
def houston() -> list[ImportBatch]:
    return read_all(require(HOUSTON))


def raw_houston_messages() -> list[tuple[str, dict[str, Any]]]:
    channel_ids = {c["name"]: c["id"] for c in json.loads((HOUSTON / "channels.json").read_text())}
    return [
        (channel_ids[day.parent.name], message)
        for day in sorted(HOUSTON.glob("*/*.json"))
        for message in json.loads(day.read_text(encoding="utf-8"))
    ]


def test_houston_sources(houston: list[ImportBatch]) -> None:
    assert len(houston) == 228
    assert Counter(batch.channel.name for batch in houston) == {
        "general": 124,
        "meetup-": 51,
        "datajam": 41,
        "tutorials": 12,
    }
    assert houston[0].source == str(HOUSTON / "datajam" / "2015-06-05.json")


def test_houston_channels_listed_without_folder_have_no_sources(
    houston: list[ImportBatch],
) -> None:
    listed = json.loads((HOUSTON / "channels.json").read_text())
    assert len(listed) == 16
    imported = {(b.channel.platform_id, b.channel.name) for b in houston}
    # meetup- was renamed from "random"; the folder carries the current name.
    assert imported == {
        ("C061A0WJG", "datajam"),
        ("C061A2UGJ", "general"),
        ("C061A3E0Y", "meetup-"),
        ("C064FP6US", "tutorials"),  # archived, but it has a folder
    }
    assert {b.workspace for b in houston} == {
        WorkspaceRecord(platform="slack", platform_id="T061A2UFL", name="slack-houstondatavis")
    }


def test_houston_counts_and_no_system_messages(houston: list[ImportBatch]) -> None:
    raw = raw_houston_messages()
    assert len(raw) == 823
    system_ids = {
        f"{channel_id}:{m['ts']}"
        for channel_id, m in raw
        if m.get("subtype") in SYSTEM_SUBTYPES_IN_DATA
    }
    assert len(system_ids) == 195  # 186 channel_join and 9 other system messages
    messages = by_id(houston)
    assert len(messages) == 628  # 597 plain, 25 file_share, 6 file_comment
    assert not system_ids & messages.keys()
    per_channel = Counter()
    for batch in houston:
        per_channel[batch.channel.name] += len(batch.messages)
    assert per_channel == {"general": 403, "datajam": 146, "meetup-": 74, "tutorials": 5}
    # 145 reactions in the data, one of them on a channel_join that is left out.
    assert sum(m.reaction_count for m in messages.values()) == 144
    assert sum(m.edited_at is not None for m in messages.values()) == 22


def test_houston_message_details(houston: list[ImportBatch]) -> None:
    messages = by_id(houston)
    edited = messages["C061A2UGJ:1455992796.000004"]
    assert edited.edited_at == datetime(2016, 2, 20, 18, 27, 25, tzinfo=UTC)
    assert edited.text.startswith("Hey @everyone : there’s a community organized GitHub workshop")

    unfurled = messages["C061A2UGJ:1433866058.000003"]
    assert unfurled.text == (
        "working with census data?  http://opendata.stackexchange.com/ is a great place to ask "
        "questions"
    )
    assert unfurled.preview == (
        "Open Data Stack Exchange\nQ&A for developers and researchers interested in open data"
    )
    assert messages["C061A2UGJ:1438645480.000002"].text.startswith("@channel the next data jam")

    comment = messages["C061A0WJG:1434772752.000007"]
    assert comment.author == PersonRecord("U061A5N1G", "Neeraj Tandon", is_bot=False)
    assert comment.created_at == datetime(2015, 6, 20, 3, 59, 12, 7, tzinfo=UTC)
    assert comment.text == "Tim, this looks fantastic"
    # A user without a real name is named by the handle.
    assert messages["C061A0WJG:1433562832.000005"].text == "@javier uploaded a file: Fritz.jpg"


# --- real data: zulip's thread_with_broadcast_reply.json inside an export of our own ---


def test_zulip_thread_with_broadcast_reply(tmp_path: Path) -> None:
    day = json.loads(require(ZULIP_THREAD).read_text(encoding="utf-8"))
    users = [
        {"id": "U061A5N1G", "team_id": "T061A2UFL", "name": "neerajt", "real_name": "Neeraj"},
        {"id": "U061A1R2R", "team_id": "T061A2UFL", "name": "micahstubbs", "real_name": "Micah"},
    ]
    root = make_export(
        tmp_path / "zulip",
        {"random/2015-06-12.json": day},
        users=users,
        channels=[{"id": "C061A0XYZ", "name": "random"}],
    )
    [batch] = read_all(root)
    messages = batch.messages
    assert [m.text for m in messages] == [
        "thread message",
        "first reply",
        "everyone should see this",
    ]
    thread_root = messages[0]
    assert thread_root.platform_id == "C061A0XYZ:1434139102.000002"
    assert all(m.thread_id == thread_root.platform_id for m in messages)
    assert [m.author.display_name for m in messages] == ["Neeraj", "Micah", "Micah"]
    assert len({m.platform_id for m in messages}) == 3


# --- markup ---

MARKUP_CASES = [
    ("<@U1>", "@Ada Lovelace"),
    ("<@U1|ada>", "@Ada Lovelace"),
    ("<@U2>", "@grace"),
    ("<@U9|ghost>", "@ghost"),
    ("<@U9>", "@unknown-user"),
    ("<#C2|random>", "#random"),
    ("<#C2>", "#random"),
    ("<#C9>", "#unknown-channel"),
    ("<!here>", "@here"),
    ("<!here|here>", "@here"),
    ("<!channel>", "@channel"),
    ("<!everyone>", "@everyone"),
    ("<!subteam^S123|@team>", "@team"),
    ("<!date^1392734382^{date_pretty}|Feb 18, 2014>", "Feb 18, 2014"),
    ("<https://example.com|the site>", "[the site](https://example.com)"),
    ("<https://example.com>", "https://example.com"),
    ("<mailto:a@example.invalid|a@example.invalid>", "a@example.invalid"),
    ("<https://github.com/o/r/pull/12|#12>", "[#12](https://github.com/o/r/pull/12)"),
    ("<https://github.com/o/r/issues/7|issue 7>", "[issue 7](https://github.com/o/r/issues/7)"),
    ("<https://github.com/o/r/pull/12>", "https://github.com/o/r/pull/12"),
    (
        "<https://github.com/o/r/commit/abc1234|abc1234>",
        "[abc1234](https://github.com/o/r/commit/abc1234)",
    ),
    ("<https://gitlab.com/o/r/pull/12|!12>", "[!12](https://gitlab.com/o/r/pull/12)"),
    ("<https://ws.slack.com/files/U1/F1/plot.png|plot>", "plot"),  # a file needs a login
    ("see <http://meetup.com|meetup.com>", "see meetup.com"),  # a domain linked as typed
    ("a &lt;b&gt; &amp; c", "a <b> & c"),
    ("&amp;lt;", "&lt;"),
    ("<https://example.com/?a=1&amp;b=2|x &amp; y>", "[x & y](https://example.com/?a=1&b=2)"),
    ("<https://example.com/?a=1&amp;b=2>", "https://example.com/?a=1&b=2"),
    (
        "fixed in <https://github.com/o/r/pull/3|#3>, thanks <@U1>!",
        "fixed in [#3](https://github.com/o/r/pull/3), thanks @Ada Lovelace!",
    ),
    # Slack's bold is Markdown's; code, arithmetic and Markdown's own bold are left alone
    ("*kachel 0.19.1 is out!* Upgrade", "**kachel 0.19.1 is out!** Upgrade"),
    (
        "moves to *Tue Feb 24*, `a*b*c` stays, 2 * 3 * 4",
        "moves to **Tue Feb 24**, `a*b*c` stays, 2 * 3 * 4",
    ),
    ("already **bold** and _italic_", "already **bold** and _italic_"),
]


@pytest.mark.parametrize(("markup", "expected"), MARKUP_CASES)
def test_markup_resolution(tmp_path: Path, markup: str, expected: str) -> None:
    [message] = read_one_day(tmp_path, [msg("1453000000.000100", markup)]).messages
    assert message.text == expected


def integration_post(*attachments: object) -> dict[str, Any]:
    """An integration's post: no user, its news in its attachments."""
    return msg(
        "1453000000.000100",
        "",
        user=None,
        subtype="bot_message",
        bot_id="B1",
        attachments=list(attachments),
    )


def test_markup_in_attachments_and_fallback(tmp_path: Path) -> None:
    [message] = read_one_day(
        tmp_path,
        [
            integration_post(
                {"pretext": "[r:main] <https://x.invalid/c|1 new commit>", "fallback": "no"},
                {"text": "Merge <https://github.com/o/r/pull/3|#3> by <@U1>"},
                {"fallback": "only the fallback &amp; nothing else"},
                "not an attachment",
            )
        ],
    ).messages
    assert message.text == (
        "[r:main] 1 new commit\n"
        "Merge [#3](https://github.com/o/r/pull/3) by @Ada Lovelace\n"
        "only the fallback & nothing else"
    )


# GitHub's Slack app reporting a merge: who merged it in the pretext, the PR in the title.
MERGED_BY_BO = {
    "pretext": "Pull request merged by bo",
    "title": "#12 Uploader: retry on 503",
    "title_link": "https://github.com/acme/tools/pull/12",
}


def test_the_github_app_s_post_names_the_repository_its_link_is_in(tmp_path: Path) -> None:
    [message] = read_one_day(
        tmp_path,
        [
            integration_post(
                MERGED_BY_BO,
                {
                    "title": "[acme/db] Pull request opened: #40 Faster scans",
                    "title_link": "https://github.com/acme/db/pull/40",
                },
            )
        ],
    ).messages
    assert message.text == (
        "[acme/tools] Pull request merged by bo\n#12 Uploader: retry on 503\n"
        "[acme/db] Pull request opened: #40 Faster scans"
    )


def test_the_github_app_s_pr_author_is_said_apart_from_who_merged_it(tmp_path: Path) -> None:
    [message] = read_one_day(
        tmp_path,
        [
            integration_post(
                {**MERGED_BY_BO, "author_name": "ana"},
                {  # a page's preview names its page's author
                    "title": "Retries, explained",
                    "author_name": "cy",
                    "from_url": "https://blog.example/retries",
                },
            )
        ],
    ).messages
    assert message.text.splitlines()[:2] == [
        "[acme/tools] Pull request merged by bo",
        "#12 Uploader: retry on 503 (by ana)",
    ]
    assert "(by cy)" not in message.text


# --- authors ---


def test_authors(tmp_path: Path) -> None:
    batch = read_one_day(
        tmp_path,
        [
            msg("1.000001", user="U3"),
            msg("2.000001", user=None, subtype="bot_message", bot_id="B7", username="deploy"),
            msg("3.000001", user=None, subtype="bot_message", username="jenkins"),
            msg("4.000001", user=None, subtype="bot_message", bot_profile={"name": "GitHub"}),
            msg("5.000001", user="U404", user_profile={"real_name": "Visitor From Afar"}),
            msg("6.000001", user="U405"),
            msg("7.000001", user="U2"),
            msg("8.000001", user="USLACKBOT", text="Reminder: book the room."),
        ],
    )
    assert [m.author for m in batch.messages] == [
        PersonRecord("U3", "CI", is_bot=True),
        PersonRecord("B7", "deploy", is_bot=True),
        PersonRecord("bot:jenkins", "jenkins", is_bot=True),
        PersonRecord("bot:unknown", "GitHub", is_bot=True),
        PersonRecord("U404", "Visitor From Afar", is_bot=False),
        PersonRecord("U405", "U405", is_bot=False),
        PersonRecord("U2", "grace", is_bot=False),
        PersonRecord("USLACKBOT", "Slackbot", is_bot=True),
    ]


# --- message fields and filtering ---


def test_threads_reactions_and_edits(tmp_path: Path) -> None:
    batch = read_one_day(
        tmp_path,
        [
            msg(
                "1453000000.000100",
                "root",
                thread_ts="1453000000.000100",
                reply_count=2,
                reactions=[{"name": "+1", "count": 2, "users": ["U1", "U2"]}, {"users": ["U3"]}],
            ),
            msg(
                "1453000001.000200",
                "reply",
                thread_ts="1453000000.000100",
                edited={"user": "U1", "ts": "1453000099.000000"},
            ),
            msg("1453000002.5", "old-style root", replies=[{"user": "U2", "ts": "1"}]),
            msg("1453000003", "no fraction", reactions="broken", edited={"ts": "garbage"}),
        ],
    )
    root, reply, old_root, plain = batch.messages
    assert root.thread_id == root.platform_id == "C1:1453000000.000100"
    assert (root.reply_count, root.reaction_count) == (2, 3)
    assert reply.thread_id == "C1:1453000000.000100"
    assert reply.reply_count == 0 and reply.reply_to_id is None
    assert reply.created_at == datetime(2016, 1, 17, 3, 6, 41, 200, tzinfo=UTC)
    assert reply.edited_at == datetime(2016, 1, 17, 3, 8, 19, tzinfo=UTC)
    assert old_root.reply_count == 1 and old_root.thread_id is None
    assert old_root.created_at.microsecond == 500000
    assert plain.created_at.tzinfo is UTC and plain.edited_at is None
    assert plain.reaction_count == 0


def test_system_and_empty_messages_are_skipped(tmp_path: Path) -> None:
    batch = read_one_day(
        tmp_path,
        [
            msg("1.000001", "<@U1> has joined the channel", subtype="channel_join"),
            msg("2.000001", "set the topic", subtype="channel_topic"),
            msg("3.000001", "pinned", subtype="pinned_item"),
            msg("4.000001", "huddle", subtype="huddle_thread"),
            msg("5.000001", "This message was deleted.", subtype="tombstone"),
            msg("6.000001", "", subtype="file_share", files=[{"title": "x.png"}]),
            msg("7.000001", "   "),
            msg("8.000001", "kept share", subtype="file_share"),
            msg("9.000001", "shrugs", subtype="me_message"),
            msg("10.000001", "broadcast", subtype="thread_broadcast", thread_ts="9.000001"),
            msg("10.000001", "broadcast", subtype="thread_broadcast", thread_ts="9.000001"),
        ],
    )
    assert [m.text for m in batch.messages] == ["kept share", "shrugs", "broadcast"]


# --- export layouts ---


def test_zip_with_top_level_folder_matches_folder(tmp_path: Path) -> None:
    days = {
        "general/2016-01-16.json": [msg("1453000000.000100", "hi <#C2>")],
        "general/2016-01-17.json": [msg("1453086400.000100", "again")],
        "random/2016-01-16.json": [msg("1453000000.000100", "same ts, other channel")],
    }
    folder = make_export(tmp_path / "Acme Slack export Jan 1 2016 - Jan 31 2016", days)
    zipped = zip_folder(folder, tmp_path / "acme.zip", prefix="Acme export/")
    assert looks_like(zipped) and looks_like(folder)

    from_zip = read_all(zipped)
    from_folder = read_all(folder)
    assert [b.source for b in from_zip] == [
        f"{zipped}:Acme export/general/2016-01-16.json",
        f"{zipped}:Acme export/general/2016-01-17.json",
        f"{zipped}:Acme export/random/2016-01-16.json",
    ]
    assert [b.messages for b in from_zip] == [b.messages for b in from_folder]
    assert from_zip[0].messages[0].text == "hi #random"
    assert from_zip[2].messages[0].platform_id == "C2:1453000000.000100"
    assert from_zip[0].workspace == WorkspaceRecord("slack", "T1", "acme")
    assert from_folder[0].workspace == WorkspaceRecord("slack", "T1", "Acme")


def test_zip_at_root_and_nested_folder(tmp_path: Path) -> None:
    folder = make_export(tmp_path / "outer" / "inner", {"general/2016-01-16.json": [msg("1.1")]})
    zipped = zip_folder(folder, tmp_path / "export.zip")
    [source] = open_sources(zipped)
    assert source.name == f"{zipped}:general/2016-01-16.json"
    # An unpacked ZIP whose files sit in one folder one level down.
    assert looks_like(tmp_path / "outer")
    assert [s.name for s in open_sources(tmp_path / "outer")] == [
        str(folder / "general" / "2016-01-16.json")
    ]


def test_folders_and_channels_that_do_not_match(tmp_path: Path) -> None:
    root = make_export(
        tmp_path / "export",
        {"secret-plans/2016-01-16.json": [msg("1.1", "psst")], "general/notes.txt": "x"},
        channels=[*CHANNELS, {"name": "no-id"}, "junk"],
    )
    write_json(root / "groups.json", [{"id": "G1", "name": "private-team"}])
    write_json(root / "private-team" / "2016-01-16.json", [msg("2.1", "in private")])
    write_json(root / "integration_logs.json", {"logs": []})
    batches = read_all(root)
    assert [(b.channel.platform_id, b.channel.name) for b in batches] == [
        ("G1", "private-team"),
        ("name:secret-plans", "secret-plans"),
    ]


def test_workspace_id_fallbacks(tmp_path: Path) -> None:
    users_without_team = [{"id": "U1", "name": "ada"}]
    root = make_export(
        tmp_path / "teamless",
        {
            "general/2016-01-16.json": [msg("1.1"), msg("2.1", team="T9"), msg("3.1", team="T9")],
            "random/2016-01-16.json": [msg("4.1", team="T8")],
        },
        users=users_without_team,
    )
    assert {b.workspace for b in read_all(root)} == {WorkspaceRecord("slack", "T9", "teamless")}

    bare = make_export(
        tmp_path / "bare", {"general/2016-01-16.json": [msg("1.1")]}, users=users_without_team
    )
    assert read_all(bare)[0].workspace == WorkspaceRecord("slack", "bare", "bare")


# --- broken input ---


def test_truncated_zip(tmp_path: Path) -> None:
    folder = make_export(tmp_path / "export", {"general/2016-01-16.json": [msg("1.1")]})
    good = zip_folder(folder, tmp_path / "good.zip").read_bytes()
    truncated = tmp_path / "export.zip"
    truncated.write_bytes(good[: len(good) // 2])
    assert looks_like(truncated)
    with pytest.raises(ImportFileError) as caught:
        open_sources(truncated)
    assert caught.value.source == str(truncated)
    assert caught.value.problem.startswith("not a readable ZIP file (")


def test_bad_crc_in_day_file(tmp_path: Path) -> None:
    folder = make_export(
        tmp_path / "export",
        {
            "general/2016-01-16.json": [msg("1.1", "CORRUPTME")],
            "general/2016-01-17.json": [msg("2.1", "fine")],
        },
    )
    zipped = zip_folder(folder, tmp_path / "export.zip", stored=True)
    data = zipped.read_bytes()
    zipped.write_bytes(data.replace(b"CORRUPTME", b"CORRUPTYU", 1))
    bad, good = open_sources(zipped)
    with pytest.raises(ImportFileError) as caught:
        bad.read()
    assert caught.value.source == f"{zipped}:general/2016-01-16.json"
    assert "Bad CRC-32" in caught.value.problem
    assert good.read().messages[0].text == "fine"


def test_day_file_not_json_fails_alone(tmp_path: Path) -> None:
    root = make_export(
        tmp_path / "export",
        {
            "general/2016-01-16.json": [msg("1.1", "before")],
            "general/2016-01-17.json": '[{"ts": "2.1", "text": "oops",}]',
            "general/2016-01-18.json": [msg("3.1", "after")],
        },
    )
    first, broken, last = open_sources(root)
    with pytest.raises(ImportFileError) as caught:
        broken.read()
    assert caught.value.source == str(root / "general" / "2016-01-17.json")
    assert caught.value.problem.startswith("not valid JSON (line 1, column 31): ")
    assert first.read().messages[0].text == "before"
    assert last.read().messages[0].text == "after"


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ({"messages": []}, "expected a list of messages, found an object"),
        ([msg("1.1"), {"text": "no ts"}], "message 2 has no ts"),
        (["just text"], "message 1 is a string, not an object"),
        ([msg("yesterday")], "message 1 has an invalid ts 'yesterday'"),
    ],
)
def test_day_file_with_bad_shape(tmp_path: Path, content: Any, problem: str) -> None:
    root = make_export(tmp_path / "export", {"general/2016-01-16.json": content})
    [source] = open_sources(root)
    with pytest.raises(ImportFileError) as caught:
        source.read()
    assert caught.value.problem == problem


def test_day_file_not_utf8(tmp_path: Path) -> None:
    root = make_export(tmp_path / "export", {"general/2016-01-16.json": []})
    content = b'[{"ts": "1.1", "text": "caf\xe9"}]'
    (root / "general" / "2016-01-16.json").write_bytes(content)
    [source] = open_sources(root)
    with pytest.raises(ImportFileError) as caught:
        source.read()
    bad_byte = content.index(b"\xe9")
    assert caught.value.problem == f"not UTF-8 text (byte {bad_byte})"


def test_invalid_users_json(tmp_path: Path) -> None:
    root = make_export(tmp_path / "export", {"general/2016-01-16.json": [msg("1.1")]})
    (root / "users.json").write_text('[{"id": }]', encoding="utf-8")
    with pytest.raises(ImportFileError) as caught:
        open_sources(root)
    assert caught.value.source == str(root / "users.json")
    assert caught.value.problem.startswith("not valid JSON (line 1, column 9): Expecting value")

    zipped = zip_folder(root, tmp_path / "export.zip")
    with pytest.raises(ImportFileError) as caught:
        open_sources(zipped)
    assert str(caught.value).startswith(f"{zipped}:users.json: not valid JSON (line 1, column 9)")


@pytest.mark.parametrize(
    ("users", "channels", "member", "problem"),
    [
        (None, CHANNELS, "users.json", "missing from the export"),
        (USERS, None, "channels.json", "missing from the export"),
        ({"U1": {}}, CHANNELS, "users.json", "expected a list, found an object"),
        (USERS, "general", "channels.json", "expected a list, found a string"),
    ],
)
def test_missing_or_wrong_metadata(
    tmp_path: Path, users: Any, channels: Any, member: str, problem: str
) -> None:
    root = make_export(tmp_path / "export", {}, users=users, channels=channels)
    with pytest.raises(ImportFileError) as caught:
        open_sources(root)
    assert (caught.value.source, caught.value.problem) == (str(root / member), problem)


def test_looks_like(tmp_path: Path) -> None:
    folder = make_export(tmp_path / "export", {"general/2016-01-16.json": [msg("1.1")]})
    assert looks_like(folder)
    assert looks_like(zip_folder(folder, tmp_path / "export.bin"))  # a ZIP by content

    discord = write_json(
        tmp_path / "Guild - general [123].json",
        {"guild": {"id": "1", "name": "Guild"}, "channel": {"id": "2"}, "messages": []},
    )
    text = tmp_path / "notes.txt"
    text.write_text("just some notes\n", encoding="utf-8")
    empty = tmp_path / "empty"
    empty.mkdir()
    other_zip = tmp_path / "other.zip"
    with zipfile.ZipFile(other_zip, "w") as archive:
        archive.writestr("readme.txt", "not slack")
    for path in (discord, text, empty, other_zip, tmp_path / "missing.zip"):
        assert not looks_like(path), path
    not_really_zip = tmp_path / "broken.zip"
    not_really_zip.write_text("garbage", encoding="utf-8")
    assert looks_like(not_really_zip)


def test_package_interface_routes_slack_exports(tmp_path: Path) -> None:
    folder = make_export(tmp_path / "export", {"general/2016-01-16.json": [msg("1.1")]})
    good = zip_folder(folder, tmp_path / "good.zip")
    assert detect_format(good) == detect_format(folder) == "slack-export"
    assert [s.name for s in open_any(good)] == [f"{good}:general/2016-01-16.json"]
    truncated = tmp_path / "export.zip"
    truncated.write_bytes(good.read_bytes()[:100])
    # Reported as a broken ZIP, not as an unrecognised format.
    with pytest.raises(ImportFileError, match="not a readable ZIP file"):
        open_any(truncated)


def test_real_discord_exports_are_not_slack() -> None:
    dce = sorted(require(REAL_DATA / "discord-nordscope-dce-2.48-captured").glob("*.json"))
    assert dce
    assert not any(looks_like(path) for path in dce)


# --- robustness: odd message content never escapes as KeyError or TypeError ---

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=12,
)
MESSAGE_KEYS = [
    "user",
    "text",
    "subtype",
    "thread_ts",
    "edited",
    "reactions",
    "attachments",
    "reply_count",
    "replies",
    "bot_id",
    "username",
    "bot_profile",
    "user_profile",
    "comment",
]
MESSAGES = st.fixed_dictionaries(
    {"ts": st.sampled_from(["1453000000.000100", "12", "x", ""])},
    optional={key: JSON_VALUES for key in MESSAGE_KEYS},
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(day=st.lists(MESSAGES, max_size=5) | JSON_VALUES)
def test_any_day_file_reads_or_raises_import_file_error(
    tmp_path_factory: pytest.TempPathFactory, day: Any
) -> None:
    root = tmp_path_factory.getbasetemp() / "fuzz-export"
    make_export(root, {"general/2016-01-16.json": day})
    [source] = open_sources(root)
    try:
        batch = source.read()
    except ImportFileError:
        return
    assert all(isinstance(m.text, str) and m.text for m in batch.messages)


def test_a_github_link_yields_one_pr_ref_with_its_repository(tmp_path: Path) -> None:
    from summarizer.prrefs import PRRef, parse_pr_refs

    markup = "fixed in <https://github.com/o/r/pull/12|#12>"
    [message] = read_one_day(tmp_path, [msg("1453000000.000100", markup)]).messages
    assert parse_pr_refs(message.text) == [
        PRRef("o/r", 12, "[#12](https://github.com/o/r/pull/12)")
    ]
