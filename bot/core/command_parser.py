"""Parsing the text after `/summary` into a command of `bot.core.commands`.

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
    USAGE_LINES,
    AdminsAdd,
    AdminsList,
    AdminsRemove,
    Approve,
    Audit,
    ChannelsAdd,
    ChannelsList,
    ChannelsRemove,
    Command,
    CommandError,
    Discard,
    Edit,
    EditorsAdd,
    EditorsList,
    EditorsRemove,
    ForgetMe,
    Help,
    History,
    MemberNewsSet,
    NewsSubmit,
    Publish,
    PublishChannels,
    Regenerate,
    RepoSet,
    RetentionSet,
    ReviewChannelSet,
    ScheduleSet,
    ScheduleShow,
    StartDraft,
    Status,
    SummarizerSet,
    TopicsAdd,
    TopicsList,
    TopicsRemove,
)


def _fail(verb: str, sentence: str) -> CommandError:
    """The error for `verb` ("channels" or "channels add"): the sentence, then the usage."""
    syntax, _ = USAGE_LINES[verb.split()[0]]
    return CommandError(f"{sentence} Usage: {syntax}")


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
_VERB_RE = re.compile(r"(\S*)(.*)", re.DOTALL)
_FIRST_WORD_RE = re.compile(r"(\S+)(.*)", re.DOTALL)
DRAFT_OPTION = "--draft"  # `edit 2 --draft 7 text`: section 2 of draft 7
OPEN_OPTION = "--open"  # `draft 2026-11-23 --open`: draft a week that has not ended
_DRAFT_OPTION_RE = re.compile(r"\s*--draft(?:\s+|=|$)(\S*)")


def _tokens(verb: str, rest: str) -> list[str]:
    """The arguments, split with shell quoting rules."""
    try:
        return shlex.split(_LABELLED_MARKUP_RE.sub(r"<\1>", rest))
    except ValueError:
        raise _fail(verb, "The quotes in this command are not balanced.") from None


def _channel(verb: str, token: str) -> str:
    """A channel id (from a mention) or name (without "#")."""
    if match := _CHANNEL_MENTION_RE.fullmatch(token):
        return match[1]
    if match := _CHANNEL_NAME_RE.fullmatch(token):
        return match[1]
    raise _fail(verb, f"{token!r} is not a channel; write #name or pick it from the list.")


def _channels(verb: str, tokens: Sequence[str], *, at_least_one: bool = True) -> tuple[str, ...]:
    """Channels from tokens (commas also separate them), without repeats."""
    parts = [part for token in tokens for part in token.split(",") if part]
    if at_least_one and not parts:
        raise _fail(verb, f"{verb} needs at least one channel.")
    return _unique(_channel(verb, part) for part in parts)


def _entry(verb: str, token: str) -> str:
    """A user id, or "role:NAME" for a role or user group."""
    if match := _USER_MENTION_RE.fullmatch(token):
        return match[1]
    if match := _ROLE_MENTION_RE.fullmatch(token):
        return f"role:{match[1] or match[2]}"
    if token.lower().startswith("role:") and token[5:].strip():
        return f"role:{token[5:].strip()}"
    if _USER_ID_RE.fullmatch(token):
        return token
    raise _fail(
        verb,
        f"{token!r} is not a person or role the bot can recognise; mention them"
        " (pick from the list so it becomes a mention) or write role:Name.",
    )


def _entries(verb: str, tokens: Sequence[str]) -> tuple[str, ...]:
    if not tokens:
        raise _fail(verb, f"{verb} needs at least one person or role.")
    return _unique(_entry(verb, token) for token in tokens)


def _unique(items: Iterable[str]) -> tuple[str, ...]:
    """The items in order, without repeats."""
    return tuple(dict.fromkeys(items))


def _split_list(value: str) -> list[str]:
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


def _positive_int(verb: str, token: str, what: str) -> int:
    number = token.removeprefix("#")
    if not _INT_RE.fullmatch(number) or int(number) == 0:
        raise _fail(verb, f"{what} must be a positive whole number, not {token!r}.")
    return int(number)


def _optional_draft_id(verb: str, tokens: list[str]) -> int | None:
    _at_most(verb, tokens, 1)
    return _positive_int(verb, tokens[0], "The draft number") if tokens else None


def _at_most(verb: str, tokens: list[str], count: int) -> None:
    if len(tokens) > count:
        extra = " ".join(tokens[count:])
        raise _fail(verb, f"Unexpected {extra!r} after {verb}.")


def _action(verb: str, tokens: list[str], actions: tuple[str, ...]) -> tuple[str, list[str]]:
    """The sub-action (`list` when there is none) and its arguments."""
    if not tokens:
        return "list", []
    action = tokens[0].lower()
    if action not in actions:
        raise _fail(verb, f"Unknown {verb} action {tokens[0]!r}; use {', '.join(actions)}.")
    return action, tokens[1:]


# --- per-command parsers ------------------------------------------------------------------


def _no_arguments(command: Command) -> Callable[[str, list[str]], Command]:
    def parse_bare(verb: str, tokens: list[str]) -> Command:
        if tokens:
            raise _fail(verb, f"{verb} takes no arguments.")
        return command

    return parse_bare


def _parse_channels(verb: str, tokens: list[str]) -> Command:
    action, args = _action(verb, tokens, ("add", "remove", "list"))
    if action == "list":
        _at_most(verb, args, 0)
        return ChannelsList()
    channels = _channels(f"channels {action}", args)
    return ChannelsAdd(channels) if action == "add" else ChannelsRemove(channels)


def _parse_topics(verb: str, tokens: list[str]) -> Command:
    action, args = _action(verb, tokens, ("add", "remove", "list"))
    if action == "list":
        _at_most(verb, args, 0)
        return TopicsList()
    if not args:
        raise _fail(verb, f"topics {action} needs a topic id.")
    topic_id = args[0]
    if not _TOPIC_ID_RE.fullmatch(topic_id):
        raise _fail(
            verb,
            f"Topic id {topic_id!r} must be lower-case letters, digits and dashes (e.g. rl).",
        )
    if action == "remove":
        _at_most(verb, args, 1)
        return TopicsRemove(topic_id)
    return _parse_topic_add(verb, topic_id, args[1:])


def _is_topic_option(token: str) -> bool:
    name, equals, _ = token.partition("=")
    return bool(equals) and name.lower() in _TOPIC_OPTIONS


def _parse_topic_add(verb: str, topic_id: str, args: list[str]) -> TopicsAdd:
    if not args or _is_topic_option(args[0]):
        example = f'topics add {topic_id} "Title"'
        raise _fail(verb, f"topics add needs a title after the id, e.g. {example}.")
    title, options = args[0].strip(), args[1:]
    if not title:
        raise _fail(verb, "The topic title cannot be empty.")
    lists: dict[str, list[str]] = {name: [] for name in _TOPIC_OPTIONS}
    for option in options:
        if not _is_topic_option(option):
            known = ", ".join(f"{name}=" for name in _TOPIC_OPTIONS)
            raise _fail(verb, f"Unknown option {option!r}; topics add takes {known}.")
        name, _, value = option.partition("=")
        lists[name.lower()] += _split_list(value)
    return TopicsAdd(
        id=topic_id,
        title=title,
        keywords=_unique(lists["keywords"]),
        channels=_channels(verb, lists["channels"], at_least_one=False),
        patterns=_unique(lists["patterns"]),
    )


@cache
def _timezone_names() -> frozenset[str]:
    return frozenset(available_timezones())


def _looks_like_timezone(token: str) -> bool:
    """Whether the last word of a schedule names its timezone ("Europe/Amsterdam", "UTC")."""
    return "/" in token or token in _timezone_names()


def _parse_schedule(verb: str, tokens: list[str]) -> Command:
    if not tokens or [t.lower() for t in tokens] == ["show"]:
        return ScheduleShow()
    timezone = None
    if len(tokens) > 1 and _looks_like_timezone(tokens[-1]):
        timezone, tokens = tokens[-1], tokens[:-1]
    schedule = " ".join(tokens).strip()
    if not schedule:
        raise _fail(verb, "The schedule cannot be empty.")
    return ScheduleSet(schedule, timezone)


def _parse_review_channel(verb: str, tokens: list[str]) -> Command:
    if len(tokens) != 1:
        raise _fail(verb, "review-channel needs exactly one channel.")
    return ReviewChannelSet(_channel(verb, tokens[0]))


def _parse_publish(verb: str, tokens: list[str]) -> Command:
    """`publish [DRAFT]` publishes; `publish add|remove|list ...` manages where it goes."""
    action = tokens[0].lower() if tokens else ""
    if action == "list":
        _at_most(verb, tokens, 1)
        return PublishChannels("list")
    if action in ("add", "remove"):
        channels = _channels(f"publish {action}", tokens[1:])
        return PublishChannels("add" if action == "add" else "remove", channels)
    return Publish(_optional_draft_id(verb, tokens))


def _parse_people(
    list_type: Callable[[], Command],
    add_type: Callable[[tuple[str, ...]], Command],
    remove_type: Callable[[tuple[str, ...]], Command],
) -> Callable[[str, list[str]], Command]:
    def parse_people(verb: str, tokens: list[str]) -> Command:
        action, args = _action(verb, tokens, ("add", "remove", "list"))
        if action == "list":
            _at_most(verb, args, 0)
            return list_type()
        entries = _entries(f"{verb} {action}", args)
        return add_type(entries) if action == "add" else remove_type(entries)

    return parse_people


def _parse_repo(verb: str, tokens: list[str]) -> Command:
    if len(tokens) != 1:
        raise _fail(verb, 'repo needs one repository, e.g. marin-community/marin (or "" to clear).')
    return RepoSet(tokens[0].strip())


def _parse_summarizer(verb: str, tokens: list[str]) -> Command:
    if len(tokens) != 1 or tokens[0].lower() not in ("extractive", "llm"):
        raise _fail(verb, "summarizer is either extractive or llm.")
    return SummarizerSet(tokens[0].lower())


def _parse_retention(verb: str, tokens: list[str]) -> Command:
    if len(tokens) != 1:
        raise _fail(verb, "retention needs a number of days.")
    if not _SIGNED_INT_RE.fullmatch(tokens[0]):
        raise _fail(verb, f"Retention must be a whole number of days, not {tokens[0]!r}.")
    return RetentionSet(int(tokens[0]))


def _parse_member_news(verb: str, tokens: list[str]) -> Command:
    """`member-news on|off`, `member-news reaction EMOJI`, or both."""
    words = [t.lower() for t in tokens]
    on = None
    if words[:1] in (["on"], ["off"]):
        on, tokens, words = words[0] == "on", tokens[1:], words[1:]
    reaction = None
    if words[:1] == ["reaction"] and len(tokens) == 2:
        reaction, tokens = tokens[1], []
    if tokens or (on is None and reaction is None):
        raise _fail(verb, "member-news takes on, off, or reaction and one emoji.")
    return MemberNewsSet(on, reaction)


def _parse_news(rest: str) -> NewsSubmit:
    """`news TEXT`: the text as written (newlines and quotes kept)."""
    if not rest.strip():
        raise _fail("news", "news needs the news itself, e.g. /summary news We released v2.")
    return NewsSubmit(rest.strip())


def _parse_draft(verb: str, tokens: list[str]) -> Command:
    open_week = OPEN_OPTION in tokens
    tokens = [t for t in tokens if t != OPEN_OPTION]
    _at_most(verb, tokens, 1)
    if not tokens:
        return StartDraft(open_week=open_week)
    try:
        if not _DATE_RE.fullmatch(tokens[0]):
            raise ValueError
        return StartDraft(date.fromisoformat(tokens[0]), open_week)
    except ValueError:
        raise _fail(verb, f"{tokens[0]!r} is not a date; write it as YYYY-MM-DD.") from None


def _section(verb: str, token: str) -> int | str:
    """A section number, or a topic id or title (matched in the current draft later)."""
    if token.removeprefix("#").isdigit() or token.startswith("-"):
        return _positive_int(verb, token, "The section number")
    return token


def _parse_history(verb: str, tokens: list[str]) -> Command:
    draft_id = None
    if DRAFT_OPTION in tokens:
        at = tokens.index(DRAFT_OPTION)
        if at + 1 == len(tokens):
            raise _fail(verb, f"{DRAFT_OPTION} needs a draft number.")
        draft_id = _positive_int(verb, tokens[at + 1], "The draft number")
        tokens = tokens[:at] + tokens[at + 2 :]
    if not tokens:
        raise _fail(verb, "history needs a section number, topic or title.")
    return History(_section(verb, " ".join(tokens)), draft_id)


def _draft_id_command(
    command_type: Callable[[int | None], Command],
) -> Callable[[str, list[str]], Command]:
    def parse_draft_id(verb: str, tokens: list[str]) -> Command:
        return command_type(_optional_draft_id(verb, tokens))

    return parse_draft_id


def _parse_edit(rest: str) -> Edit:
    """`edit SECTION [--draft DRAFT] text`: SECTION is one word, or a title in quotes
    ("Hero run"); the text is kept as written (only the outer whitespace goes)."""
    rest = rest.strip()
    if not rest:
        raise _fail("edit", "edit needs a section number, topic or title and the new text.")
    quote = rest[0]
    if quote in "\"'" and (end := rest.find(quote, 1)) > 1:
        first, text = rest[1:end], rest[end + 1 :]
    else:
        first, text = _FIRST_WORD_RE.fullmatch(rest).groups()  # type: ignore[union-attr]
    section = _section("edit", first.strip())
    draft_id = None
    if option := _DRAFT_OPTION_RE.match(text):
        if not option[1]:
            raise _fail("edit", f"{DRAFT_OPTION} needs a draft number.")
        draft_id = _positive_int("edit", option[1], "The draft number")
        text = text[option.end() :]
    if not text.strip():
        raise _fail("edit", f"edit needs the new text after the section {section}.")
    return Edit(section, text.strip(), draft_id)


_PARSERS: dict[str, Callable[[str, list[str]], Command]] = {
    "help": _no_arguments(Help()),
    "status": _no_arguments(Status()),
    "channels": _parse_channels,
    "topics": _parse_topics,
    "schedule": _parse_schedule,
    "review-channel": _parse_review_channel,
    "publish": _parse_publish,
    "editors": _parse_people(EditorsList, EditorsAdd, EditorsRemove),
    "admins": _parse_people(AdminsList, AdminsAdd, AdminsRemove),
    "repo": _parse_repo,
    "retention": _parse_retention,
    "summarizer": _parse_summarizer,
    "member-news": _parse_member_news,
    "draft": _parse_draft,
    "approve": _draft_id_command(Approve),
    "regenerate": _draft_id_command(Regenerate),
    "history": _parse_history,
    "discard": _draft_id_command(Discard),
    "forget-me": _no_arguments(ForgetMe()),
    "audit": _no_arguments(Audit()),
}


def parse(text: str) -> Command:
    """The command in the text after `/summary`; `CommandError` if it is not one."""
    verb, rest = _VERB_RE.fullmatch(text.strip()).groups()  # type: ignore[union-attr]
    verb = verb.lower()
    if verb == "":
        return Help()
    if verb == "edit":
        return _parse_edit(rest)
    if verb == "news":
        return _parse_news(rest)
    parser = _PARSERS.get(verb)
    if parser is None:
        known = ", ".join(v for v in USAGE_LINES if v != "help")
        shown = verb if len(verb) <= 40 else verb[:39] + "…"
        raise CommandError(f"Unknown command {shown!r}. Try: {known}, or help.")
    return parser(verb, _tokens(verb, rest))
