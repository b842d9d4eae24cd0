"""Slack messages in neutral terms: shared by the export reader and the live Slack adapter.

`SlackConverter` turns one raw Slack message (as exported, or as the Events API and
`conversations.history` deliver it) into a `MessageRecord`: markup resolved to names and
labels, attachment text kept (a member's link previews apart), system messages left out.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from storage.records import ChannelRecord, MessageRecord, PersonRecord, ReactionRecord

# Joins, topic changes, pins and the like: nothing anybody said.
SYSTEM_SUBTYPES = frozenset(
    {
        "channel_join",
        "channel_leave",
        "channel_topic",
        "channel_purpose",
        "channel_name",
        "channel_archive",
        "channel_unarchive",
        "channel_convert_to_private",
        "channel_convert_to_public",
        "group_join",
        "group_leave",
        "group_topic",
        "group_purpose",
        "group_name",
        "group_archive",
        "group_unarchive",
        "pinned_item",
        "unpinned_item",
        "bot_add",
        "bot_remove",
        "bot_enable",
        "bot_disable",
        "reminder_add",
        "tombstone",
        "message_deleted",
        "message_changed",
        "joiner_notification",
        "sh_room_created",
        "huddle_thread",
    }
)

BROADCASTS = {"here": "@here", "channel": "@channel", "everyone": "@everyone"}
# `<!group>` is the legacy private-channel spelling of `<!channel>`; rendering it as @channel
# lets the drafter neutralise it like the others.
BROADCASTS["group"] = "@channel"

# Seconds since 1970 (at most 11 digits: up to the year 5138, within what datetime holds)
# and a fraction; a longer number is refused before int() would choke on it.
TS_RE = re.compile(r"^(\d{1,11})(?:\.(\d{0,9}))?$")
TS_MAX_SECONDS = 10**11
# Either a `<...>` markup span or an HTML entity that Slack escapes in message text; one pass
# over both keeps "&amp;lt;" as "&lt;" and leaves resolved names untouched.
MARKUP_RE = re.compile(r"<([^<>]*)>|&(lt|gt|amp);")
ENTITY_RE = re.compile(r"&(lt|gt|amp);")
# Slack's own links (a file, which needs a login) are read by their labels.
_SLACK_FILE_RE = re.compile(r"https?://[\w-]+\.slack\.com/", re.IGNORECASE)
GITHUB_PR_URL_RE = re.compile(
    r"^https?://(?:www\.)?github\.com/[^/\s]+/[^/\s]+/(?:pull|issues)/\d+(?:[/?#]\S*)?$",
    re.IGNORECASE,
)
ENTITIES = {"lt": "<", "gt": ">", "amp": "&"}


@dataclass
class SlackConverter:
    """Translates raw Slack messages, knowing the workspace's people and channel names."""

    people: Mapping[str, PersonRecord]
    channel_names: Mapping[str, str]

    def convert(
        self, raw: dict[str, Any], ts: str, created_at: datetime, channel: ChannelRecord
    ) -> MessageRecord | None:
        """The neutral record for one raw message, or None for system messages and empty ones."""
        subtype = raw.get("subtype")
        if isinstance(subtype, str) and subtype in SYSTEM_SUBTYPES:
            return None
        author = self._author(raw)
        text, preview = self._text_and_preview(raw, _by_a_member(raw, author))
        if not text and not preview:
            return None
        thread_ts = raw.get("thread_ts")
        is_root = thread_ts is None or str(thread_ts) == ts
        return MessageRecord(
            platform_id=f"{channel.platform_id}:{ts}",
            author=author,
            created_at=created_at,
            text=text,
            preview=preview,
            thread_id=f"{channel.platform_id}:{thread_ts}" if thread_ts is not None else None,
            reply_to_id=None,
            edited_at=_edited_at(raw),
            reaction_count=_reaction_count(raw.get("reactions")),
            reply_count=_reply_count(raw) if is_root else 0,
            permalink=None,
            pinned=_is_pinned(raw),
            reactions=self._reactions(raw.get("reactions")),
        )

    def _reactions(self, reactions: Any) -> tuple[ReactionRecord, ...]:
        """Each emoji (by its Slack name) with the people who added it, as far as Slack
        lists them (a `count` can be higher than its `users`)."""
        found = []
        for reaction in reactions if isinstance(reactions, list) else ():
            if not isinstance(reaction, dict) or not isinstance(reaction.get("name"), str):
                continue
            users = reaction.get("users")
            people = tuple(
                self.people.get(user) or PersonRecord(user, user)
                for user in (users if isinstance(users, list) else ())
                if isinstance(user, str) and user
            )
            found.append(ReactionRecord(reaction["name"], people))
        return tuple(found)

    def _author(self, raw: dict[str, Any]) -> PersonRecord:
        user_id = raw.get("user")
        comment = raw.get("comment")
        if not user_id and isinstance(comment, dict):
            user_id = comment.get("user")  # file_comment messages name the commenter there
        if isinstance(user_id, str) and user_id:
            return self.people.get(user_id) or _unknown_person(user_id, raw)
        return _bot_person(raw)

    def _text_and_preview(self, raw: dict[str, Any], by_a_member: bool) -> tuple[str, str]:
        """The message's text (its body and attachments) and, apart, the link previews
        Slack unfurled under a member's message."""
        text = [as_markdown(self.resolve(_message_body(raw), linked=by_a_member))]
        preview: list[str] = []
        attachments = raw.get("attachments")
        for attachment in attachments if isinstance(attachments, list) else ():
            if isinstance(attachment, dict):
                unfurled = _is_link_unfurl(attachment)
                parts = preview if by_a_member and unfurled else text
                said = [as_markdown(self.resolve(part)) for part in _attachment_parts(attachment)]
                parts.extend(said if by_a_member or unfurled else _in_repository(said, attachment))
        return _joined(text), _joined(preview)

    def resolve(self, text: str, *, linked: bool = False) -> str:
        """Slack markup resolved to readable text and the HTML entities Slack escapes undone.
        A labelled link is its label, or with `linked` (what a member wrote) a Markdown link,
        so that the summary can link what the label names ("the recording")."""
        if "<" not in text and "&" not in text:
            return text
        return MARKUP_RE.sub(lambda match: self._replace_markup(match, linked), text)

    def _replace_markup(self, match: re.Match[str], linked: bool) -> str:
        entity = match.group(2)
        if entity is not None:
            return ENTITIES[entity]
        target, _, label = match.group(1).partition("|")
        label = _unescape(label)
        if target.startswith("@"):
            return self._user_mention(target[1:], label)
        if target.startswith("#"):
            name = label or self.channel_names.get(target[1:]) or "unknown-channel"
            return f"#{name}"
        if target.startswith("!"):
            return _special_mention(target[1:], label)
        return _link(_unescape(target), label, linked)

    def _user_mention(self, user_id: str, label: str) -> str:
        person = self.people.get(user_id)
        if person is not None:
            return f"@{person.display_name}"
        return f"@{label.lstrip('@')}" if label else "@unknown-user"


# Slack's bold, "*word*" (Markdown's italics), outside code: what is stored is Markdown, as a
# Discord message's is, so "*kachel 0.19.1 is out!*" reads as the headline its author set.
_SLACK_BOLD_RE = re.compile(r"(?<![\w*~`\\])\*(?=[^\s*])([^*\n]*?[^\s*])\*(?![\w*])")
_CODE_RE = re.compile(r"```.*?```|`[^`\n]*`", re.DOTALL)


def as_markdown(text: str) -> str:
    """Slack's mrkdwn emphasis as Markdown: "*bold*" becomes "**bold**" (code left as it is;
    "_italics_" and links are written alike in both)."""
    if "*" not in text:
        return text  # (most messages)
    parts, start = [], 0
    for code in _CODE_RE.finditer(text):
        parts += [_SLACK_BOLD_RE.sub(r"**\1**", text[start : code.start()]), code[0]]
        start = code.end()
    return "".join([*parts, _SLACK_BOLD_RE.sub(r"**\1**", text[start:])])


SLACKBOT = "USLACKBOT"  # Slack's own bot: reminders, "joined" notices


def person_from_user(user_id: str, user: dict[str, Any]) -> PersonRecord:
    profile = user.get("profile")
    if not isinstance(profile, dict):
        profile = {}
    # The summaries name people by their real names; the handle is the last resort.
    display_name = first_text(
        profile.get("real_name"),
        user.get("real_name"),
        profile.get("display_name"),
        user.get("name"),
    )
    is_bot = bool(user.get("is_bot")) or user_id == SLACKBOT
    return PersonRecord(platform_id=user_id, display_name=display_name or user_id, is_bot=is_bot)


# --- one message ---


def _message_body(raw: dict[str, Any]) -> str:
    comment = raw.get("comment")
    if raw.get("subtype") == "file_comment" and isinstance(comment, dict):
        text = comment.get("comment")
        if isinstance(text, str):
            return text
    text = raw.get("text")
    return text if isinstance(text, str) else ""


def _by_a_member(raw: dict[str, Any], author: PersonRecord) -> bool:
    """Whether a person wrote the message: an integration's post (a bot author, a `bot_id`)
    carries its own news, PR numbers included, in its attachments."""
    return not author.is_bot and not raw.get("bot_id")


def _is_link_unfurl(attachment: dict[str, Any]) -> bool:
    """Whether Slack made the attachment from a link in the message: a page's preview, not
    a quoted Slack message (`is_msg_unfurl`)."""
    from_link = bool(attachment.get("from_url") or attachment.get("original_url"))
    return from_link and not attachment.get("is_msg_unfurl")


def _joined(parts: list[str]) -> str:
    return "\n".join(part.strip() for part in parts if part.strip())


def _in_repository(parts: list[str], attachment: dict[str, Any]) -> list[str]:
    """An integration's attachment opened with the repository its link is in, as GitHub's
    other integrations write it ("[acme/tools] Pull request merged by bo" over "#12 Retry
    on 503"): a bare "#12" there is that repository's, not the workspace's default one."""
    link = attachment.get("title_link")
    found = _GITHUB_REPO_RE.match(link) if isinstance(link, str) else None
    if found is None or not parts or parts[0].startswith("["):
        return parts
    return [f"[{found['repo']}] {parts[0]}", *parts[1:]]


_GITHUB_REPO_RE = re.compile(r"https://github\.com/(?P<repo>[\w.-]+/[\w.-]+)/")


def _attachment_parts(attachment: dict[str, Any]) -> Iterator[str]:
    parts = [attachment.get(key) for key in ("pretext", "title", "text")]
    author = attachment.get("author_name")
    if parts[0] and isinstance(parts[1], str) and isinstance(author, str) and author.strip():
        # GitHub's app names who merged under its pretext and the PR's author apart: "Pull
        # request merged by bo" over "#12 Retry on 503", by ana (a page's preview, which has
        # no pretext, names its page's author, not the one who did it).
        parts[1] = f"{parts[1]} (by {author.strip()})"
    texts = [part for part in parts if isinstance(part, str) and part.strip()]
    if not texts:
        fallback = attachment.get("fallback")
        texts = [fallback] if isinstance(fallback, str) else []
    yield from texts


def _unknown_person(user_id: str, raw: dict[str, Any]) -> PersonRecord:
    """An author the export's users.json does not list: Slackbot (its reminders) is never
    there, a departed member may be."""
    if user_id == SLACKBOT:
        return PersonRecord(platform_id=user_id, display_name="Slackbot", is_bot=True)
    profile = raw.get("user_profile")
    real_name = profile.get("real_name") if isinstance(profile, dict) else None
    is_bot = raw.get("subtype") == "bot_message"
    return PersonRecord(
        platform_id=user_id, display_name=first_text(real_name) or user_id, is_bot=is_bot
    )


def _bot_person(raw: dict[str, Any]) -> PersonRecord:
    username = first_text(raw.get("username"))
    bot_profile = raw.get("bot_profile")
    profile_name = bot_profile.get("name") if isinstance(bot_profile, dict) else None
    bot_id = first_text(raw.get("bot_id"))
    return PersonRecord(
        platform_id=bot_id or f"bot:{username or 'unknown'}",
        display_name=username or first_text(profile_name) or "bot",
        is_bot=True,
    )


def _edited_at(raw: dict[str, Any]) -> datetime | None:
    edited = raw.get("edited")
    return parse_ts(edited.get("ts")) if isinstance(edited, dict) else None


def _reaction_count(reactions: Any) -> int:
    if not isinstance(reactions, list):
        return 0
    total = 0
    for reaction in reactions:
        if not isinstance(reaction, dict):
            continue
        count = reaction.get("count")
        if isinstance(count, int) and not isinstance(count, bool):
            total += count
        elif isinstance(reaction.get("users"), list):
            total += len(reaction["users"])
    return total


def _is_pinned(raw: dict[str, Any]) -> bool:
    """Slack lists the channels a message is pinned to in `pinned_to`, and omits it when
    the message is pinned nowhere."""
    pinned_to = raw.get("pinned_to")
    return isinstance(pinned_to, list) and any(isinstance(c, str) and c for c in pinned_to)


def pinned_message_id(event: dict[str, Any]) -> str | None:
    """The platform id of the message a `pin_added` or `pin_removed` event is about; None
    when the pinned item is not a message (a file, in older workspaces)."""
    item = event.get("item")
    if not isinstance(item, dict) or item.get("type") != "message":
        return None
    message = item.get("message")
    ts = message.get("ts") if isinstance(message, dict) else None
    channel = event.get("channel_id") or item.get("channel")
    if not isinstance(ts, str) or not isinstance(channel, str) or not channel:
        return None
    return f"{channel}:{ts}"


def reacted_message_id(event: dict[str, Any]) -> str | None:
    """The platform id of the message a `reaction_added` or `reaction_removed` event is
    about; None when the item is not a message (a file)."""
    item = event.get("item")
    if not isinstance(item, dict) or item.get("type") != "message":
        return None
    channel, ts = item.get("channel"), item.get("ts")
    if not isinstance(channel, str) or not channel or not isinstance(ts, str):
        return None
    return f"{channel}:{ts}"


def _reply_count(raw: dict[str, Any]) -> int:
    count = raw.get("reply_count")
    if isinstance(count, int) and not isinstance(count, bool):
        return count
    replies = raw.get("replies")
    return len(replies) if isinstance(replies, list) else 0


def parse_ts(ts: Any) -> datetime | None:
    """A Slack timestamp ("1452837318.000002") as an aware UTC datetime, keeping microseconds;
    None when it is not one."""
    if isinstance(ts, int | float) and not isinstance(ts, bool):
        if not 0 <= ts < TS_MAX_SECONDS:  # also NaN
            return None
        ts = f"{ts:.6f}"
    if not isinstance(ts, str):
        return None
    match = TS_RE.match(ts.strip())
    if match is None:
        return None
    seconds, fraction = match.groups()
    micros = int((fraction or "0")[:6].ljust(6, "0"))
    return datetime(1970, 1, 1, tzinfo=UTC) + timedelta(seconds=int(seconds), microseconds=micros)


# --- markup ---


def _special_mention(target: str, label: str) -> str:
    """`<!here>`, `<!subteam^S123|@team>`, `<!date^…|fallback>` and the like."""
    keyword = target.split("^", 1)[0]
    if keyword in BROADCASTS:
        return BROADCASTS[keyword]
    if keyword == "subteam":
        return f"@{label.lstrip('@')}" if label else "@unknown-group"
    if keyword == "date":
        return label
    return label or f"@{keyword}"


def _link(url: str, label: str, linked: bool) -> str:
    if url.lower().startswith("mailto:"):
        return label or url[len("mailto:") :]
    if not label or label == url:
        return url
    if label == url.partition("://")[2].rstrip("/"):
        return label  # a name Slack linked as typed ("meetup.com"): no link was meant
    # Keep PR and issue links as Markdown links: the PR parser reads the repository from the
    # URL and counts the link once, where "#12 (url)" would read as two different PRs. A
    # member's other links too, so that the summary links what they name; a bot's are read
    # by their labels ("[repo:main] 1 new commit by ana").
    if GITHUB_PR_URL_RE.match(url) or linked and not _SLACK_FILE_RE.match(url):
        return f"[{label}]({url})"
    return label


def _unescape(text: str) -> str:
    if "&" not in text:
        return text
    return ENTITY_RE.sub(lambda match: ENTITIES[match.group(1)], text)


def first_text(*values: Any) -> str:
    for value in values:
        if isinstance(value, str) and value.strip():
            return value.strip()
    return ""
