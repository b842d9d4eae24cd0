"""Build the development weeks: three chat-export shapes and a truth file per week.

Each week lives in its own folder under `benchmarks/devset/` with three hand-written files:

- `week.txt`: the canonical source, one entry per message (format below);
- `config.toml`: the workspace config to draft it with (name, default repo, short repo names,
  topics);
- `reference.md`: a summary of the week written by hand, standing for the published text.

`build_week(folder, out)` writes into `out`:

- `by-channel/`: DiscordChatExporter JSON, one file per channel and one per thread;
- `one-channel/`: the same messages all in #general (threads kept as threads), DCE JSON;
- `slack-export/`: an unpacked official Slack workspace export (users.json, channels.json,
  one JSON file per channel and day; Discord threads become Slack threads);
- `truth.json`: the annotations with every message's id in each shape (see `truth`).

`week.txt` format. `== section` lines start a section: `meta` (`key: value` lines: name,
week = the Monday, guild), `people` (`handle | Display Name [| bot] [| newcomer]`), `prs`
(`topic: ref ref ...`, the week's real PRs with the topic each belongs to), `not-prs` (one
string a line that looks like a ref and is not one), `channel NAME` and
`thread CHANNEL STARTER-KEY Title` (the messages that follow are in that channel or thread).
A message is a header line `[key] DAY HH:MM handle flags...` and its text on the lines after.
DAY is mon..sun of the week, `-fri` in the week before, `+mon` in the week after. Flags:
`^key` replies to that message, `noise` (chit-chat, acknowledgement, unanswered question,
bot chatter), `stale` (a status a later message supersedes), `intro` (a newcomer introducing
themselves), `embed` (a bot post whose text is only in an embed: first line title, rest
description), `file=NAME` (an attached file), `+emoji:N` (a reaction). In the text, `<@handle>`
mentions a person, `<!channel>` notifies the channel, `:code:` is an emoji.

Run `python benchmarks/devset/devweeks.py OUT` to write every week's shapes under OUT, and with
`--update-truth` to refresh the checked-in `truth.json` files.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tomllib
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any

DEVSET = Path(__file__).resolve().parent
SHAPES = ("by-channel", "one-channel", "slack-export")
DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
DISCORD_EPOCH_MS = 1420070400000
HEADER = re.compile(
    r"^\[(?P<key>[\w-]+)\] (?P<day>[-+]?\w{3}) (?P<hm>\d\d:\d\d) (?P<who>\S+)(?P<flags>.*)$"
)
MARKUP = re.compile(r"<@(?P<user>[\w.-]+)>|<!channel>|:(?P<emoji>[\w+-]+):|(?P<url>https?://\S+)")
EMOJI = {
    "eyes": "\U0001f440",
    "tada": "\U0001f389",
    "fire": "\U0001f525",
    "raised_hands": "\U0001f64c",
    "pray": "\U0001f64f",
    "+1": "\U0001f44d",
    "thumbsup": "\U0001f44d",
    "rocket": "\U0001f680",
    "wave": "\U0001f44b",
    "joy": "\U0001f602",
    "beers": "\U0001f37b",
    "sweat_smile": "\U0001f605",
}


@dataclass
class Person:
    """A member (or integration) of the workspace."""

    handle: str
    name: str
    index: int
    bot: bool = False
    newcomer: bool = False


@dataclass
class Message:
    """One message of `week.txt`, with its truth annotations."""

    key: str
    channel: str
    thread: str | None  # the key of the thread's starter message
    author: str
    at: datetime
    text: str = ""
    reply_to: str | None = None
    noise: bool = False
    stale: bool = False
    intro: bool = False
    embed: bool = False
    file: str | None = None
    reactions: list[tuple[str, int]] = field(default_factory=list)


@dataclass
class Week:
    """A parsed `week.txt`."""

    meta: dict[str, str]
    people: dict[str, Person]
    prs: dict[str, str]  # ref as written in week.txt -> topic id
    not_prs: list[str]
    channels: list[str]
    threads: dict[str, tuple[str, str]]  # starter key -> (channel, title)
    messages: list[Message]

    @property
    def monday(self) -> date:
        return date.fromisoformat(self.meta["week"])


# --- parsing -------------------------------------------------------------------------------


def parse(path: Path) -> Week:
    """Read a `week.txt` file (see the module docstring) and check it is consistent."""
    week = Week({}, {}, {}, [], [], {}, [])
    section, channel, thread = "", "", None
    current: Message | None = None
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("== "):
            current = None
            words = line[3:].split(maxsplit=3)
            section = words[0]
            if section == "channel":
                channel, thread = words[1], None
                if channel not in week.channels:  # a channel may have several sections
                    week.channels.append(channel)
            elif section == "thread":
                channel, thread = words[1], words[2]
                week.threads[thread] = (channel, words[3])
            continue
        if section in ("channel", "thread"):
            header = HEADER.match(line)
            if header:
                current = _message(week, header, channel, thread)
                week.messages.append(current)
            elif current is not None:
                current.text = f"{current.text}\n{line}" if current.text else line
        elif line.startswith("#") and section != "not-prs" or not line.strip():
            continue
        elif section == "meta":
            key, _, value = line.partition(":")
            week.meta[key.strip()] = value.strip()
        elif section == "people":
            handle, name, *flags = (part.strip() for part in line.split("|"))
            week.people[handle] = Person(
                handle, name, len(week.people), "bot" in flags, "newcomer" in flags
            )
        elif section == "prs":
            topic, _, refs = line.partition(":")
            week.prs.update({ref: topic.strip() for ref in refs.split()})
        elif section == "not-prs":
            week.not_prs.append(line.strip())
    _check(week)
    return week


def _message(week: Week, header: re.Match[str], channel: str, thread: str | None) -> Message:
    day = header["day"]
    offset = DAYS.index(day.lstrip("-+")) + (-7 if day[0] == "-" else 7 if day[0] == "+" else 0)
    hour, minute = map(int, header["hm"].split(":"))
    at = datetime.combine(week.monday + timedelta(days=offset), time(hour, minute), UTC)
    message = Message(header["key"], channel, thread, header["who"], at)
    for flag in header["flags"].split():
        if flag.startswith("^"):
            message.reply_to = flag[1:]
        elif flag.startswith("+"):
            code, _, count = flag[1:].rpartition(":")
            message.reactions.append((code, int(count)))
        elif flag.startswith("file="):
            message.file = flag[5:]
        else:
            setattr(message, flag, True)  # noise, stale, intro, embed
    return message


def _check(week: Week) -> None:
    keys = {m.key for m in week.messages}
    assert len(keys) == len(week.messages), "duplicate message keys"
    text = "\n".join(m.text for m in week.messages)
    for m in week.messages:
        assert m.author in week.people, f"{m.key}: unknown author {m.author}"
        assert m.reply_to is None or m.reply_to in keys, f"{m.key}: bad reply {m.reply_to}"
    for starter in week.threads:
        assert starter in keys, f"thread starter {starter} is not a message"
    for ref in week.prs:
        number = ref.rpartition("#")[2]
        assert re.search(rf"(?<!\d){number}(?!\d)", text), f"PR {ref} is never mentioned"
    for string in week.not_prs:
        assert string in text, f"not-PR {string!r} is never written"


def in_week(week: Week, message: Message) -> bool:
    start = datetime.combine(week.monday, time(), UTC)
    return start <= message.at < start + timedelta(days=7)


# --- ids -----------------------------------------------------------------------------------


def snowflake(at: datetime, sequence: int) -> str:
    """A Discord id for a message sent at `at` (the sequence keeps ids distinct)."""
    ms = int(at.timestamp() * 1000) + sequence % 1000
    return str(((ms - DISCORD_EPOCH_MS) << 22) | (sequence & 0xFFF))


def discord_ids(week: Week) -> dict[str, str]:
    return {m.key: snowflake(m.at, i) for i, m in enumerate(week.messages)}


def slack_ts(week: Week) -> dict[str, str]:
    return {m.key: f"{int(m.at.timestamp())}.{i + 1:06d}" for i, m in enumerate(week.messages)}


def channel_id(week: Week, name: str) -> str:
    return str(1100000000000000700 + 10 * week.channels.index(name))


def slack_channel_id(week: Week, name: str) -> str:
    return f"C0{week.channels.index(name) + 1:07d}"


def user_id(person: Person) -> str:
    return str(1100000000000000100 + person.index)


def slack_user_id(person: Person) -> str:
    return f"U0{person.index + 1:07d}"


# --- DiscordChatExporter -------------------------------------------------------------------


def _discord_text(week: Week, text: str) -> tuple[str, list[dict[str, Any]]]:
    """The text as Discord shows it in an export, and the people it mentions."""
    mentioned: list[dict[str, Any]] = []

    def replace(match: re.Match[str]) -> str:
        if handle := match["user"]:
            person = week.people[handle]
            mentioned.append(_discord_author(person))
            return f"<@{user_id(person)}>"
        if match["emoji"]:
            return EMOJI.get(match["emoji"], match[0])
        return "@everyone" if match[0] == "<!channel>" else match[0]

    return MARKUP.sub(replace, text), mentioned


def _discord_author(person: Person) -> dict[str, Any]:
    uid = user_id(person)
    return {
        "id": uid,
        "name": person.handle,
        "discriminator": "0000",
        "nickname": person.name,
        "color": "#95A5A6" if person.bot else "#3498DB",
        "isBot": person.bot,
        "roles": [],
        "avatarUrl": f"https://cdn.discordapp.com/embed/avatars/{person.index % 5}.png",
    }


def _discord_message(
    week: Week, m: Message, ids: dict[str, str], channel: str, *, starts_thread: bool
) -> list[dict[str, Any]]:
    person = week.people[m.author]
    text, mentions = _discord_text(week, m.text)
    embeds: list[dict[str, Any]] = []
    if m.embed:
        title, _, description = text.partition("\n")
        number = re.search(r"#(\d+)", title)
        repo = re.match(r"\[([\w.-]+/[\w.-]+)\]", title)  # "[owner/repo] Pull request ..."
        embeds.append(
            {
                "title": title,
                "url": f"https://github.com/{repo[1] if repo else week.meta.get('repo', '')}"
                f"/pull/{number[1] if number else ''}",
                "timestamp": None,
                "description": description,
                "color": "#6F42C1",
                "author": {"name": person.name, "url": "https://github.com"},
                "images": [],
                "fields": [],
            }
        )
        text = ""
    raw: dict[str, Any] = {
        "id": ids[m.key],
        "type": "Reply" if m.reply_to else "Default",
        "timestamp": m.at.isoformat(timespec="milliseconds"),
        "timestampEdited": None,
        "callEndedTimestamp": None,
        "isPinned": False,
        "content": text,
        "author": _discord_author(person),
        "attachments": [
            {
                "id": str(int(ids[m.key]) + 1),
                "url": f"https://cdn.discordapp.com/attachments/{channel}/{ids[m.key]}/{m.file}",
                "fileName": m.file,
                "fileSizeBytes": 48213,
            }
        ]
        if m.file
        else [],
        "embeds": embeds,
        "stickers": [],
        "reactions": [
            {
                "emoji": {"id": "", "name": EMOJI.get(code, code), "code": code},
                "count": count,
                "users": [],
            }
            for code, count in m.reactions
        ],
        "mentions": mentions,
        "inlineEmojis": [],
    }
    if m.reply_to:
        raw["reference"] = {
            "type": "Default",
            "messageId": ids[m.reply_to],
            "channelId": channel,
            "guildId": week.meta["guild"],
        }
    out = [raw]
    if starts_thread:
        notice = dict(raw, id=str(int(ids[m.key]) + 7), type="ThreadCreated")
        notice.update(content="Started a thread.", embeds=[], attachments=[], reactions=[])
        notice["reference"] = {
            "type": "Default",
            "messageId": None,
            "channelId": ids[m.key],
            "guildId": week.meta["guild"],
        }
        out.append(notice)
    return out


def _dce_file(
    week: Week, folder: Path, channel: dict[str, Any], messages: list[dict[str, Any]]
) -> None:
    category = channel.get("category", "Text Channels")
    name = f"{week.meta['name']} - {category} - {channel['name']} [{channel['id']}].json"
    document = {
        "guild": {"id": week.meta["guild"], "name": week.meta["name"], "iconUrl": ""},
        "channel": channel,
        "dateRange": {"after": None, "before": None},
        "exportedAt": (datetime.combine(week.monday, time(9), UTC) + timedelta(days=8)).isoformat(),
        "messages": messages,
        "messageCount": len(messages),
    }
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name.replace("/", "_")).write_text(
        json.dumps(document, ensure_ascii=False, indent=1), encoding="utf-8"
    )


def write_discord(week: Week, folder: Path, *, one_channel: bool) -> None:
    """DCE JSON files: per channel and thread, or everything in #general."""
    ids = discord_ids(week)
    by_file: dict[str, list[dict[str, Any]]] = {}
    for m in sorted(week.messages, key=lambda m: m.at):
        parent = "general" if one_channel else m.channel
        where = ids[m.thread] if m.thread else channel_id(week, parent)
        by_file.setdefault(where, []).extend(
            _discord_message(week, m, ids, where, starts_thread=m.key in week.threads)
        )
    names = ["general"] if one_channel else week.channels
    for name in names:
        channel = {
            "id": channel_id(week, name),
            "type": "GuildTextChat",
            "categoryId": "1100000000000000600",
            "category": "Text Channels",
            "name": name,
            "topic": None,
        }
        _dce_file(week, folder, channel, by_file.get(channel["id"], []))
    for starter, (parent, title) in week.threads.items():
        parent = "general" if one_channel else parent
        channel = {
            "id": ids[starter],
            "type": "GuildPublicThread",
            "categoryId": channel_id(week, parent),
            "category": parent,
            "name": title,
            "topic": None,
        }
        _dce_file(week, folder, channel, by_file.get(ids[starter], []))


# --- Slack export --------------------------------------------------------------------------


def _slack_text(week: Week, text: str) -> str:
    """Slack's stored text: entities escaped, mentions by user id, links in angle brackets."""
    out, last = [], 0
    for match in MARKUP.finditer(text):
        out.append(_escape(text[last : match.start()]))
        if handle := match["user"]:
            out.append(f"<@{slack_user_id(week.people[handle])}>")
        elif match["url"]:
            url = match["url"].rstrip(".,)")
            out.append(f"<{url}>{_escape(match['url'][len(url) :])}")
        else:
            out.append(match[0])  # <!channel> and :emoji: codes stay as Slack writes them
        last = match.end()
    out.append(_escape(text[last:]))
    return "".join(out)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def write_slack(week: Week, folder: Path) -> None:
    """An unpacked Slack workspace export of the week's channels."""
    ts = slack_ts(week)
    team = "T0" + week.meta["name"].upper()[:7]
    people = [p for p in week.people.values() if not p.bot]
    users = [
        {
            "id": slack_user_id(p),
            "team_id": team,
            "name": p.handle,
            "deleted": False,
            "real_name": p.name,
            "is_bot": False,
            "profile": {"real_name": p.name, "display_name": p.handle.split(".")[0]},
        }
        for p in people
    ]
    channels = [
        {
            "id": slack_channel_id(week, name),
            "name": name,
            "created": int(datetime.combine(week.monday, time(), UTC).timestamp()) - 86400 * 300,
            "creator": slack_user_id(people[0]),
            "is_archived": False,
            "is_general": name == "general",
            "members": [slack_user_id(p) for p in people],
            "topic": {"value": "", "creator": "", "last_set": 0},
            "purpose": {"value": f"#{name}", "creator": "", "last_set": 0},
        }
        for name in week.channels
    ]
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "users.json").write_text(json.dumps(users, ensure_ascii=False, indent=1))
    (folder / "channels.json").write_text(json.dumps(channels, ensure_ascii=False, indent=1))
    replies: dict[str, list[Message]] = {}
    for m in week.messages:
        if m.thread:
            replies.setdefault(m.thread, []).append(m)
    days: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for m in sorted(week.messages, key=lambda m: m.at):
        raw = _slack_message(week, m, ts, team, replies.get(m.key, []))
        channel = week.threads[m.thread][0] if m.thread else m.channel
        days.setdefault((channel, m.at.date().isoformat()), []).append(raw)
    for (channel, day), messages in days.items():
        (folder / channel).mkdir(exist_ok=True)
        (folder / channel / f"{day}.json").write_text(
            json.dumps(messages, ensure_ascii=False, indent=1), encoding="utf-8"
        )


def _slack_message(
    week: Week, m: Message, ts: dict[str, str], team: str, replies: list[Message]
) -> dict[str, Any]:
    person = week.people[m.author]
    text = _slack_text(week, m.text)
    raw: dict[str, Any] = {"type": "message", "ts": ts[m.key]}
    if person.bot:
        raw.update(subtype="bot_message", bot_id=f"B0{person.index:07d}", username=person.name)
        if m.embed:
            title, _, description = text.partition("\n")
            raw["text"] = ""
            raw["attachments"] = [
                {"fallback": title, "title": title, "text": description, "color": "6f42c1"}
            ]
        else:
            raw["text"] = text
    else:
        uid = slack_user_id(person)
        raw.update(user=uid, team=team, text=text)
        raw["user_profile"] = {"real_name": person.name, "display_name": person.handle}
        if m.file:
            file_url = f"https://files.slack.com/files-pri/{team}-F{ts[m.key][-6:]}/{m.file}"
            if not m.text:
                raw["text"] = f"<@{uid}|{person.handle}> uploaded a file: <{file_url}|{m.file}>"
            raw["subtype"] = "file_share"
            raw["files"] = [{"id": f"F{ts[m.key][-6:]}", "name": m.file, "url_private": file_url}]
    if m.reactions:
        raw["reactions"] = [{"name": c, "users": [], "count": n} for c, n in m.reactions]
    if m.thread:
        raw["thread_ts"] = ts[m.thread]
        raw["parent_user_id"] = slack_user_id(week.people[_starter(week, m.thread).author])
    elif replies:
        raw.update(thread_ts=ts[m.key], reply_count=len(replies))
        raw["replies"] = [
            {"user": slack_user_id(week.people[r.author]), "ts": ts[r.key]} for r in replies
        ]
    return raw


def _starter(week: Week, key: str) -> Message:
    return next(m for m in week.messages if m.key == key)


# --- truth ---------------------------------------------------------------------------------


def normalise(ref: str, config: dict[str, Any]) -> str:
    """`owner/repo#N` for a ref written as `N`, `#N`, `Short#N` or `owner/repo#N`."""
    repo, _, number = ref.rpartition("#")
    repo = config.get("repos", {}).get(repo, repo) or config.get("default_repo", "")
    return f"{repo}#{number}" if repo else f"#{number}"


def truth(week: Week, config: dict[str, Any]) -> dict[str, Any]:
    """The week's annotations, with every message's id in each shape.

    A message that a shape does not store (a Discord post with only an attachment) has
    no id there. `noise`/`stale` map each shape to the ids of those messages in the week.
    """
    ids, ts = discord_ids(week), slack_ts(week)
    messages: dict[str, dict[str, Any]] = {}
    for m in week.messages:
        channel = week.threads[m.thread][0] if m.thread else m.channel
        discord = ids[m.key] if (m.text or m.embed) else None
        messages[m.key] = {
            "by-channel": discord,
            "one-channel": discord,
            "slack-export": f"{slack_channel_id(week, channel)}:{ts[m.key]}",
            "author": week.people[m.author].name,
            "in_week": in_week(week, m),
            "noise": m.noise,
            "stale": m.stale,
            "text": _discord_text(week, m.text)[0],
        }
    flagged = {
        flag: {
            shape: [
                ids[shape]
                for m, ids in ((m, messages[m.key]) for m in week.messages)
                if getattr(m, flag) and ids["in_week"] and ids[shape]
            ]
            for shape in SHAPES
        }
        for flag in ("noise", "stale")
    }
    return {
        "week": week.meta["week"],
        "name": week.meta["name"],
        "prs": {normalise(ref, config): topic for ref, topic in week.prs.items()},
        "newcomers": [p.name for p in week.people.values() if p.newcomer],
        "bots": [p.name for p in week.people.values() if p.bot],
        "not_prs": [
            {"text": s, "ref": normalise(n[0], config) if (n := re.findall(r"^#\d+", s)) else None}
            for s in week.not_prs
        ],
        **flagged,
        "messages": messages,
    }


# --- entry points --------------------------------------------------------------------------


def weeks() -> list[Path]:
    """The dev-set week folders, in name order."""
    return sorted(p.parent for p in DEVSET.glob("*/week.txt"))


def build_week(folder: Path, out: Path) -> dict[str, Any]:
    """Write the three shapes and truth.json of the week in `folder` under `out`."""
    week = parse(folder / "week.txt")
    config = tomllib.loads((folder / "config.toml").read_text(encoding="utf-8"))
    week.meta.setdefault("repo", config.get("default_repo", ""))
    write_discord(week, out / "by-channel", one_channel=False)
    write_discord(week, out / "one-channel", one_channel=True)
    write_slack(week, out / "slack-export")
    result = truth(week, config)
    (out / "truth.json").write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n")
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="folder to write <week>/<shape>/ into")
    parser.add_argument("--update-truth", action="store_true", help="refresh <week>/truth.json")
    args = parser.parse_args(argv)
    for folder in weeks():
        result = build_week(folder, args.out / folder.name)
        if args.update_truth:
            text = json.dumps(result, ensure_ascii=False, indent=1) + "\n"
            (folder / "truth.json").write_text(text, encoding="utf-8")
        print(f"{folder.name}: {len(result['messages'])} messages -> {args.out / folder.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
