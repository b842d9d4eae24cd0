"""The `/summary` text grammar, verb by verb, and the typed builders it shares with native
commands (Discord's options): `bot.core.command_registry` ties each verb to its parser.
Errors are one sentence; the registry adds the usage line.

Arguments follow shell quoting rules (POSIX `shlex`): `topics add rl "Reinforcement learning"`.
Channels may be written `#name`, `name`, Discord `<#123>` or Slack `<#C123|name>`; people
Discord `<@123>`/`<@!123>`, Slack `<@U123|name>`, or as a bare platform id; roles Discord
`<@&456>`, Slack user groups `<!subteam^S1|@team>`, or `role:Name`. `edit N text` keeps the
rest of the message as written (newlines included): it is the editor for platforms without
modals.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Iterable, Sequence
from datetime import date
from functools import cache
from zoneinfo import available_timezones

from bot.core.commands import (
    ChannelsAdd,
    ChannelsList,
    ChannelsRemove,
    Command,
    CommandError,
    Edit,
    History,
    MemberNewsSet,
    NewsSubmit,
    Publish,
    PublishChannels,
    RepoSet,
    RetentionSet,
    ReviewChannelSet,
    ScheduleSet,
    ScheduleShow,
    StartDraft,
    SummarizerSet,
    TopicsAdd,
    TopicsList,
    TopicsRemove,
)

# --- tokens -------------------------------------------------------------------------------

# `<#C1|general>`, `<@U1|ana>`, `<!subteam^S1|@team>`: the label after `|` is free text that
# could upset shell quoting, and only the id matters, so it is dropped before tokenising.
_LABELLED_MARKUP_RE = re.compile(r"<([#@!][^<>|\s]*)\|[^<>]*>")
_CHANNEL_MENTION_RE = re.compile(r"<#([A-Za-z0-9]+)>")
_CHANNEL_NAME_RE = re.compile(r"#?([^\s<>#@,|`'\"]+)")
_USER_MENTION_RE = re.compile(r"<@!?([A-Za-z0-9]+)>")
_ROLE_MENTION_RE = re.compile(r"<@&([0-9]+)>|<!subteam\^([A-Za-z0-9]+)>")
_USER_ID_RE = re.compile(r"[0-9]{5,}|[UW][A-Z0-9]{4,}")  # a Discord snowflake or Slack user id
_TOPIC_ID_RE = re.compile(r"[a-z0-9][a-z0-9-]*")
_INT_RE = re.compile(r"[0-9]{1,18}")  # fits a BIGINT
_SIGNED_INT_RE = re.compile(r"-?[0-9]{1,18}")
_DATE_RE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_TOPIC_OPTIONS = ("keywords", "channels", "patterns")
_FIRST_WORD_RE = re.compile(r"(\S+)(.*)", re.DOTALL)
DRAFT_OPTION = "--draft"  # `edit 2 --draft 7 text`: section 2 of draft 7
OPEN_OPTION = "--open"  # `draft 2026-11-23 --open`: draft a week that has not ended
_DRAFT_OPTION_RE = re.compile(r"\s*--draft(?:\s+|=|$)(\S*)")


TextParser = Callable[[str, list[str]], Command]
"""A verb's parser: the verb and its arguments (shell-split) to the command."""


def tokens(rest: str) -> list[str]:
    """The arguments, split with shell quoting rules."""
    try:
        return shlex.split(_LABELLED_MARKUP_RE.sub(r"<\1>", rest))
    except ValueError:
        raise CommandError("The quotes in this command are not balanced.") from None


def _channel(token: str) -> str:
    """A channel id (from a mention) or name (without "#")."""
    if match := _CHANNEL_MENTION_RE.fullmatch(token):
        return match[1]
    if match := _CHANNEL_NAME_RE.fullmatch(token):
        return match[1]
    raise CommandError(f"{token!r} is not a channel; write #name or pick it from the list.")


def channels(verb: str, tokens: Sequence[str], *, at_least_one: bool = True) -> tuple[str, ...]:
    """Channels from tokens (commas also separate them), without repeats."""
    parts = [part for token in tokens for part in token.split(",") if part]
    if at_least_one and not parts:
        raise CommandError(f"{verb} needs at least one channel.")
    return _unique(_channel(part) for part in parts)


def _entry(token: str) -> str:
    """A user id, or "role:NAME" for a role or user group."""
    if match := _USER_MENTION_RE.fullmatch(token):
        return match[1]
    if match := _ROLE_MENTION_RE.fullmatch(token):
        return f"role:{match[1] or match[2]}"
    if token.lower().startswith("role:") and token[5:].strip():
        return f"role:{token[5:].strip()}"
    if _USER_ID_RE.fullmatch(token):
        return token
    raise CommandError(
        f"{token!r} is not a person or role the bot can recognise; mention them"
        " (pick from the list so it becomes a mention) or write role:Name."
    )


def entries(verb: str, tokens: Sequence[str]) -> tuple[str, ...]:
    """People and roles (user ids, "role:NAME"), at least one, without repeats."""
    if not tokens:
        raise CommandError(f"{verb} needs at least one person or role.")
    return _unique(_entry(token) for token in tokens)


def _unique(items: Iterable[str]) -> tuple[str, ...]:
    """The items in order, without repeats."""
    return tuple(dict.fromkeys(items))


def split_list(value: str) -> list[str]:
    """Comma-separated items, ignoring commas inside brackets or escaped (so a regex such as
    `a{1,3}` stays whole); items are stripped and empty ones dropped."""
    items: list[str] = []
    current: list[str] = []
    depth, escaped = 0, False
    for char in value:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(depth - 1, 0)
        elif char == "," and depth == 0:
            items.append("".join(current))
            current = []
            continue
        current.append(char)
    items.append("".join(current))
    return [item.strip() for item in items if item.strip()]


def _positive_int(token: str, what: str) -> int:
    number = token.removeprefix("#")
    if not _INT_RE.fullmatch(number) or int(number) == 0:
        raise CommandError(f"{what} must be a positive whole number, not {token!r}.")
    return int(number)


def draft_number(token: str | None) -> int | None:
    """A draft id as written or picked (`7`, `#7`); None when none was given."""
    return None if token is None else _positive_int(token, "The draft number")


def _at_most(verb: str, tokens: list[str], count: int) -> None:
    if len(tokens) > count:
        extra = " ".join(tokens[count:])
        raise CommandError(f"Unexpected {extra!r} after {verb}.")


def _action(verb: str, tokens: list[str], actions: tuple[str, ...]) -> tuple[str, list[str]]:
    """The sub-action (`list` when there is none) and its arguments."""
    if not tokens:
        return "list", []
    action = tokens[0].lower()
    if action not in actions:
        raise CommandError(f"Unknown {verb} action {tokens[0]!r}; use {', '.join(actions)}.")
    return action, tokens[1:]


# --- typed builders (the text grammar's and native options' shared checks) ----------------


def topic_id(token: str) -> str:
    """A topic id: lower-case letters, digits and dashes."""
    if not _TOPIC_ID_RE.fullmatch(token):
        raise CommandError(
            f"Topic id {token!r} must be lower-case letters, digits and dashes (e.g. rl)."
        )
    return token


def _topic_title(title: str) -> str:
    if not title.strip():
        raise CommandError("The topic title cannot be empty.")
    return title.strip()


def topics_add(
    id: str,
    title: str,
    keywords: Sequence[str] = (),
    channel_names: Sequence[str] = (),
    patterns: Sequence[str] = (),
) -> TopicsAdd:
    """Add or replace topic `id`; the lists are already split at commas."""
    return TopicsAdd(
        id=topic_id(id),
        title=_topic_title(title),
        keywords=_unique(keywords),
        channels=channels("topics", channel_names, at_least_one=False),
        patterns=_unique(patterns),
    )


def schedule_set(when: str, timezone: str | None = None) -> ScheduleSet:
    """A new schedule, and its timezone if given."""
    if not when.strip():
        raise CommandError("The schedule cannot be empty.")
    return ScheduleSet(when.strip(), timezone)


def member_news(on: bool | None, reaction: str | None) -> MemberNewsSet:
    """Turn members' news on or off, change its reaction, or both."""
    if on is None and reaction is None:
        raise CommandError("member-news takes on, off, or reaction and one emoji.")
    return MemberNewsSet(on, reaction)


def news(text: str) -> NewsSubmit:
    """A member's news, as written (newlines and quotes kept)."""
    if not text.strip():
        raise CommandError("news needs the news itself, e.g. /summary news We released v2.")
    return NewsSubmit(text.strip())


def start_draft(week: str | None, open_week: bool = False) -> StartDraft:
    """Draft the week containing the day `week` (YYYY-MM-DD), or the last one."""
    if week is None:
        return StartDraft(open_week=open_week)
    try:
        if not _DATE_RE.fullmatch(week):
            raise ValueError
        return StartDraft(date.fromisoformat(week), open_week)
    except ValueError:
        raise CommandError(f"{week!r} is not a date; write it as YYYY-MM-DD.") from None


def _section(token: str) -> int | str:
    """A section number, or a topic id or title (matched in the current draft later)."""
    if token.removeprefix("#").isdigit() or token.startswith("-"):
        return _positive_int(token, "The section number")
    return token


def edit(section: str, text: str, draft: str | None = None) -> Edit:
    """Replace a section's text (kept as written, only the outer whitespace goes)."""
    where = _section(section.strip())
    draft_id = draft_number(draft)
    if not text.strip():
        raise CommandError(f"edit needs the new text after the section {where}.")
    return Edit(where, text.strip(), draft_id)


def history(section: str, draft: str | None = None) -> History:
    """A section's earlier versions."""
    return History(_section(section), draft_number(draft))


# --- the text grammar, verb by verb --------------------------------------------------------


def no_arguments(command: Command) -> TextParser:
    """A verb that takes nothing."""

    def parse_bare(verb: str, tokens: list[str]) -> Command:
        if tokens:
            raise CommandError(f"{verb} takes no arguments.")
        return command

    return parse_bare


def parse_channels(verb: str, tokens: list[str]) -> Command:
    action, args = _action(verb, tokens, ("add", "remove", "list"))
    if action == "list":
        _at_most(verb, args, 0)
        return ChannelsList()
    found = channels(f"channels {action}", args)
    return ChannelsAdd(found) if action == "add" else ChannelsRemove(found)


def parse_topics(verb: str, tokens: list[str]) -> Command:
    action, args = _action(verb, tokens, ("add", "remove", "list"))
    if action == "list":
        _at_most(verb, args, 0)
        return TopicsList()
    if not args:
        raise CommandError(f"topics {action} needs a topic id.")
    id = topic_id(args[0])
    if action == "remove":
        _at_most(verb, args, 1)
        return TopicsRemove(id)
    return _parse_topic_add(id, args[1:])


def _is_topic_option(token: str) -> bool:
    name, equals, _ = token.partition("=")
    return bool(equals) and name.lower() in _TOPIC_OPTIONS


def _parse_topic_add(id: str, args: list[str]) -> TopicsAdd:
    if not args or _is_topic_option(args[0]):
        example = f'topics add {id} "Title"'
        raise CommandError(f"topics add needs a title after the id, e.g. {example}.")
    title = _topic_title(args[0])
    lists: dict[str, list[str]] = {name: [] for name in _TOPIC_OPTIONS}
    for option in args[1:]:
        if not _is_topic_option(option):
            known = ", ".join(f"{name}=" for name in _TOPIC_OPTIONS)
            raise CommandError(f"Unknown option {option!r}; topics add takes {known}.")
        name, _, value = option.partition("=")
        lists[name.lower()] += split_list(value)
    return topics_add(id, title, lists["keywords"], lists["channels"], lists["patterns"])


@cache
def _timezone_names() -> frozenset[str]:
    return frozenset(available_timezones())


def _looks_like_timezone(token: str) -> bool:
    """Whether the last word of a schedule names its timezone ("Europe/Amsterdam", "UTC")."""
    return "/" in token or token in _timezone_names()


def parse_schedule(verb: str, tokens: list[str]) -> Command:
    if not tokens or [t.lower() for t in tokens] == ["show"]:
        return ScheduleShow()
    timezone = None
    if len(tokens) > 1 and _looks_like_timezone(tokens[-1]):
        timezone, tokens = tokens[-1], tokens[:-1]
    return schedule_set(" ".join(tokens), timezone)


def parse_review_channel(verb: str, tokens: list[str]) -> Command:
    if len(tokens) != 1:
        raise CommandError("review-channel needs exactly one channel.")
    return ReviewChannelSet(_channel(tokens[0]))


def parse_publish(verb: str, tokens: list[str]) -> Command:
    """`publish [DRAFT]` publishes; `publish add|remove|list ...` manages where it goes."""
    action = tokens[0].lower() if tokens else ""
    if action == "list":
        _at_most(verb, tokens, 1)
        return PublishChannels("list")
    if action in ("add", "remove"):
        found = channels(f"publish {action}", tokens[1:])
        return PublishChannels("add" if action == "add" else "remove", found)
    _at_most(verb, tokens, 1)
    return Publish(draft_number(tokens[0] if tokens else None))


def parse_people(
    list_type: Callable[[], Command],
    add_type: Callable[[tuple[str, ...]], Command],
    remove_type: Callable[[tuple[str, ...]], Command],
) -> TextParser:
    """`editors` or `admins`: list, add or remove people and roles."""

    def parse(verb: str, tokens: list[str]) -> Command:
        action, args = _action(verb, tokens, ("add", "remove", "list"))
        if action == "list":
            _at_most(verb, args, 0)
            return list_type()
        found = entries(f"{verb} {action}", args)
        return add_type(found) if action == "add" else remove_type(found)

    return parse


def parse_repo(verb: str, tokens: list[str]) -> Command:
    if len(tokens) != 1:
        raise CommandError(
            'repo needs one repository, e.g. marin-community/marin (or "" to clear).'
        )
    return RepoSet(tokens[0].strip())


def parse_summarizer(verb: str, tokens: list[str]) -> Command:
    if len(tokens) != 1 or tokens[0].lower() not in ("extractive", "llm"):
        raise CommandError("summarizer is either extractive or llm.")
    return SummarizerSet(tokens[0].lower())


def parse_retention(verb: str, tokens: list[str]) -> Command:
    if len(tokens) != 1:
        raise CommandError("retention needs a number of days.")
    if not _SIGNED_INT_RE.fullmatch(tokens[0]):
        raise CommandError(f"Retention must be a whole number of days, not {tokens[0]!r}.")
    return RetentionSet(int(tokens[0]))


def parse_member_news(verb: str, tokens: list[str]) -> Command:
    """`member-news on|off`, `member-news reaction EMOJI`, or both."""
    words = [t.lower() for t in tokens]
    on = None
    if words[:1] in (["on"], ["off"]):
        on, tokens, words = words[0] == "on", tokens[1:], words[1:]
    reaction = None
    if words[:1] == ["reaction"] and len(tokens) == 2:
        reaction, tokens = tokens[1], []
    if tokens:
        raise CommandError("member-news takes on, off, or reaction and one emoji.")
    return member_news(on, reaction)


def parse_draft(verb: str, tokens: list[str]) -> Command:
    open_week = OPEN_OPTION in tokens
    tokens = [t for t in tokens if t != OPEN_OPTION]
    _at_most(verb, tokens, 1)
    return start_draft(tokens[0] if tokens else None, open_week)


def parse_history(verb: str, tokens: list[str]) -> Command:
    draft = None
    if DRAFT_OPTION in tokens:
        at = tokens.index(DRAFT_OPTION)
        if at + 1 == len(tokens):
            raise CommandError(f"{DRAFT_OPTION} needs a draft number.")
        draft = tokens[at + 1]
        draft_number(draft)  # a wrong draft number is named before a missing section
        tokens = tokens[:at] + tokens[at + 2 :]
    if not tokens:
        raise CommandError("history needs a section number, topic or title.")
    return history(" ".join(tokens), draft)


def draft_id_command(command_type: Callable[[int | None], Command]) -> TextParser:
    """`approve`, `regenerate`, `discard`: an optional draft id."""

    def parse(verb: str, tokens: list[str]) -> Command:
        _at_most(verb, tokens, 1)
        return command_type(draft_number(tokens[0] if tokens else None))

    return parse


def parse_edit(rest: str) -> Edit:
    """`edit SECTION [--draft DRAFT] text`: SECTION is one word, or a title in quotes
    ("Hero run"); the text is kept as written (only the outer whitespace goes)."""
    rest = rest.strip()
    if not rest:
        raise CommandError("edit needs a section number, topic or title and the new text.")
    quote = rest[0]
    if quote in "\"'" and (end := rest.find(quote, 1)) > 1:
        first, text = rest[1:end], rest[end + 1 :]
    else:
        first, text = _FIRST_WORD_RE.fullmatch(rest).groups()  # type: ignore[union-attr]
    draft = None
    if option := _DRAFT_OPTION_RE.match(text):
        if not option[1]:
            _section(first.strip())  # a wrong section is named before the draft
            raise CommandError(f"{DRAFT_OPTION} needs a draft number.")
        draft, text = option[1], text[option.end() :]
    return edit(first, text, draft)
