"""Every `/summary` command, declared once: its verb with the text grammar's usage line and
parser (Slack's `/summary`, the CLI), and its native subcommands with typed options, who may
run them, and the command they build (Discord's `/summary` and `/summary-admin`, generated
from `VERBS` by `bot.discord.commands`). `parse` and `USAGE` are built from the same table, and
`HANDLERS` gives each command class the handler the core runs (`bot.core.command_handlers`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from sqlalchemy.orm import Session

from bot.config import Config
from bot.core import admin
from bot.core import command_handlers as run
from bot.core import command_text as text
from bot.core.command_handlers import CommandCore, Handler, Setting
from bot.core.commands import (
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
from bot.core.port import Caller, CommandEvent, Reply
from bot.core.review import ReviewWorkflow
from bot.core.suggest import Kind


class Who(StrEnum):
    """Who may run a command. Platforms that can hide commands show `ADMINS` ones to
    admins only (Discord's `/summary-admin`); the core checks again whatever the platform."""

    ANYONE = "anyone"
    EDITORS = "editors"
    ADMINS = "admins"


class OptionType(StrEnum):
    """What a native option holds; pickers hand the core ids (a role as "role:ID")."""

    TEXT = "text"
    INTEGER = "integer"
    BOOLEAN = "boolean"
    CHANNEL = "channel"
    MEMBER = "member"
    ROLE = "role"


@dataclass(frozen=True, slots=True)
class Option:
    """A native subcommand's option; `label` is its name where it differs from the builder's
    parameter, `suggest` what autocomplete offers, `range` an integer's bounds."""

    name: str
    help: str = ""
    type: OptionType = OptionType.TEXT
    required: bool = False
    choices: tuple[str, ...] = ()
    suggest: Kind | None = None
    range: tuple[int, int] | None = None
    label: str | None = None


Value = str | int | bool | None


@dataclass(frozen=True, slots=True)
class Native:
    """A subcommand with typed options: `build` takes them by name and returns the command."""

    path: tuple[str, ...]
    description: str
    who: Who
    build: Callable[..., Command]
    options: tuple[Option, ...] = ()


@dataclass(frozen=True, slots=True)
class Verb:
    """A verb of the text grammar, its usage line, and its native subcommands."""

    name: str
    syntax: str
    purpose: str
    parse: Callable[[str], Command]  # the text after the verb
    natives: tuple[Native, ...] = ()
    heading: str | None = None  # its native subcommands' group, where not `purpose`
    setting: bool = False  # a workspace setting (`summarybot settings set` takes these)

    @property
    def description(self) -> str:
        """What its group of native subcommands is for, as a sentence."""
        return self.heading or self.purpose[:1].upper() + self.purpose[1:]


def _tokenized(name: str, parser: text.TextParser) -> Callable[[str], Command]:
    return lambda rest: parser(name, text.tokens(rest))


def _verb(
    name: str,
    syntax: str,
    purpose: str,
    parser: text.TextParser,
    *natives: Native,
    heading: str | None = None,
    setting: bool = False,
) -> Verb:
    return Verb(name, syntax, purpose, _tokenized(name, parser), natives, heading, setting)


_DRAFT = Option("draft", "Another draft's id (default: the draft under review)", suggest="draft")
_CHANNEL = Option("channel", type=OptionType.CHANNEL, required=True)
_PEOPLE = (Option("member", type=OptionType.MEMBER), Option("role", type=OptionType.ROLE))
_TOPIC = Option("id", "Short id, e.g. rl", required=True, suggest="topic")


def _people(verb: str) -> Callable[..., tuple[str, ...]]:
    def build(action: str, member: str | None = None, role: str | None = None) -> tuple[str, ...]:
        return text.entries(f"{verb} {action}", [w for w in (member, role) if w])

    return build


def _draft_native(name: str, description: str, command: Callable[[int | None], Command]) -> Native:
    return Native(
        (name,),
        description,
        Who.EDITORS,
        lambda draft=None: command(text.draft_number(draft)),
        (Option("draft", suggest="draft"),),
    )


def _channel_natives(
    name: str,
    purpose: str,
    list_: Command,
    add: Callable[..., Command],
    remove: Callable[..., Command],
) -> tuple[Native, ...]:
    return (
        Native((name, "list"), purpose, Who.ANYONE, lambda: list_),
        Native(
            (name, "add"), "Add a channel", Who.ADMINS, lambda channel: add((channel,)), (_CHANNEL,)
        ),
        Native(
            (name, "remove"),
            "Remove a channel",
            Who.ADMINS,
            lambda channel: remove((channel,)),
            (_CHANNEL,),
        ),
    )


def _people_natives(
    name: str,
    purpose: str,
    list_: Command,
    add: Callable[..., Command],
    remove: Callable[..., Command],
) -> tuple[Native, ...]:
    entries = _people(name)
    return (
        Native((name, "list"), purpose, Who.ANYONE, lambda: list_),
        Native(
            (name, "add"),
            "Add a member or a role",
            Who.ADMINS,
            lambda **who: add(entries("add", **who)),
            _PEOPLE,
        ),
        Native(
            (name, "remove"),
            "Remove a member or a role",
            Who.ADMINS,
            lambda **who: remove(entries("remove", **who)),
            _PEOPLE,
        ),
    )


VERBS: tuple[Verb, ...] = (
    _verb(
        "help",
        "/summary help",
        "this list",
        text.no_arguments(Help()),
        Native(("help",), "What the commands do", Who.ANYONE, Help),
    ),
    _verb(
        "status",
        "/summary status",
        "the current draft and the settings",
        text.no_arguments(Status()),
        Native(("status",), "The current draft and the settings", Who.ANYONE, Status),
    ),
    _verb(
        "channels",
        "/summary channels [add|remove #channel ...]",
        "which channels are logged",
        text.parse_channels,
        *_channel_natives(
            "channels", "Which channels are logged", ChannelsList(), ChannelsAdd, ChannelsRemove
        ),
        setting=True,
    ),
    _verb(
        "topics",
        '/summary topics [add ID "Title" keywords=a,b channels=#c patterns="re" | remove ID]',
        "the summary's sections",
        text.parse_topics,
        Native(
            ("topics", "list"), "The topics, in section order", Who.ANYONE, lambda: TopicsList()
        ),
        Native(
            ("topics", "add"),
            "Add or replace a topic",
            Who.ADMINS,
            lambda id, title, keywords=None, channels=None, patterns=None: text.topics_add(
                id, title, *(text.split_list(v or "") for v in (keywords, channels, patterns))
            ),
            (
                _TOPIC,
                Option("title", "Section title", required=True),
                Option("keywords", "Comma-separated keywords"),
                Option("channels", "Comma-separated channel names"),
                Option("patterns", "Comma-separated regular expressions"),
            ),
        ),
        Native(
            ("topics", "remove"),
            "Remove a topic",
            Who.ADMINS,
            lambda id: TopicsRemove(text.topic_id(id)),
            (_TOPIC,),
        ),
        setting=True,
    ),
    _verb(
        "schedule",
        '/summary schedule ["mon 09:00" | "0 9 * * mon"] [Europe/Amsterdam]',
        "when the weekly draft is made",
        text.parse_schedule,
        Native(
            ("schedule", "show"),
            "When the weekly draft is made",
            Who.ANYONE,
            lambda: ScheduleShow(),
        ),
        Native(
            ("schedule", "set"),
            "Change when the weekly draft is made",
            Who.ADMINS,
            text.schedule_set,
            (
                Option("when", '"mon 09:00" or a cron line', required=True),
                Option("timezone", "e.g. Europe/Amsterdam"),
            ),
        ),
        setting=True,
    ),
    _verb(
        "review-channel",
        "/summary review-channel #channel",
        "where drafts are posted for review",
        text.parse_review_channel,
        Native(
            ("review-channel",),
            "Where drafts are posted for review",
            Who.ADMINS,
            ReviewChannelSet,
            (_CHANNEL,),
        ),
        setting=True,
    ),
    _verb(
        "publish",
        "/summary publish [DRAFT] | /summary publish add|remove|list [#channel ...]",
        "publish a draft; where approved summaries are posted",
        text.parse_publish,
        _draft_native("publish", "Publish an approved draft (editors)", Publish),
        *_channel_natives(
            "publish",
            "Where approved summaries are posted",
            PublishChannels("list"),
            lambda found: PublishChannels("add", found),
            lambda found: PublishChannels("remove", found),
        ),
        heading="Where approved summaries are posted",
        setting=True,
    ),
    _verb(
        "editors",
        "/summary editors [add|remove @person role:Name ...]",
        "who edits and approves drafts",
        text.parse_people(EditorsList, EditorsAdd, EditorsRemove),
        *_people_natives(
            "editors", "Who edits and approves drafts", EditorsList(), EditorsAdd, EditorsRemove
        ),
        setting=True,
    ),
    _verb(
        "admins",
        "/summary admins [add|remove @person role:Name ...]",
        "who changes settings",
        text.parse_people(AdminsList, AdminsAdd, AdminsRemove),
        *_people_natives("admins", "Who changes settings", AdminsList(), AdminsAdd, AdminsRemove),
        setting=True,
    ),
    _verb(
        "repo",
        "/summary repo owner/name",
        "the repository a bare #123 refers to",
        text.parse_repo,
        Native(
            ("repo",),
            "The repository a bare #123 refers to",
            Who.ADMINS,
            lambda name: RepoSet(name.strip()),
            (Option("name", "owner/name", required=True),),
        ),
        setting=True,
    ),
    _verb(
        "retention",
        "/summary retention DAYS",
        "how long logged messages are kept",
        text.parse_retention,
        Native(
            ("retention",),
            "How long logged messages are kept",
            Who.ADMINS,
            RetentionSet,
            (Option("days", type=OptionType.INTEGER, required=True, range=(1, 36500)),),
        ),
        setting=True,
    ),
    _verb(
        "summarizer",
        "/summary summarizer extractive|llm",
        "which drafter writes the draft",
        text.parse_summarizer,
        Native(
            ("summarizer",),
            "Which drafter writes the draft",
            Who.ADMINS,
            SummarizerSet,
            (Option("name", required=True, choices=("extractive", "llm")),),
        ),
        setting=True,
    ),
    _verb(
        "member-news",
        "/summary member-news [on|off] [reaction EMOJI]",
        "whether members send news, and the reaction that does (📰)",
        text.parse_member_news,
        Native(
            ("member-news",),
            "Whether members send news, and how",
            Who.ADMINS,
            lambda turn=None, reaction=None: text.member_news(
                None if turn is None else turn == "on", reaction
            ),
            (
                Option("turn", "On or off", choices=("on", "off")),
                Option("reaction", "The reaction that sends a message in (default 📰)"),
            ),
        ),
        setting=True,
    ),
    Verb(
        "news",
        "/summary news TEXT",
        "send news in for this week's summary",
        text.news,
        (
            Native(
                ("news",),
                "Send news in for this week's summary",
                Who.ANYONE,
                text.news,
                (Option("text", "Your news, as it should read", required=True),),
            ),
        ),
    ),
    _verb(
        "draft",
        "/summary draft [YYYY-MM-DD] [--open]",
        "draft a week's summary now (--open: a week that has not ended)",
        text.parse_draft,
        Native(
            ("draft",),
            "Draft a week's summary now (editors)",
            Who.EDITORS,
            text.start_draft,
            (
                Option("week", "Any day of the week, YYYY-MM-DD (default: last week)"),
                Option(
                    "open_week",
                    "Draft it even though the week has not ended",
                    type=OptionType.BOOLEAN,
                    label="open",
                ),
            ),
        ),
    ),
    _verb(
        "approve",
        "/summary approve [DRAFT]",
        "approve a draft",
        text.draft_id_command(Approve),
        _draft_native("approve", "Approve a draft (editors)", Approve),
    ),
    _verb(
        "regenerate",
        "/summary regenerate [DRAFT]",
        "draft again from the logged messages",
        text.draft_id_command(Regenerate),
        _draft_native("regenerate", "Draft again from the logged messages (editors)", Regenerate),
    ),
    Verb(
        "edit",
        "/summary edit SECTION [--draft DRAFT] new text",
        "replace a section's text (SECTION: its number in the draft, or its topic)",
        text.parse_edit,
        (
            Native(
                ("edit",),
                "Replace a section's text (editors)",
                Who.EDITORS,
                text.edit,
                (
                    Option("section", "The section (pick one)", required=True, suggest="section"),
                    Option("text", "Its new text", required=True),
                    _DRAFT,
                ),
            ),
        ),
    ),
    _verb(
        "history",
        "/summary history SECTION [--draft DRAFT]",
        "a section's earlier versions",
        text.parse_history,
        Native(
            ("history",),
            "A section's earlier versions",
            Who.EDITORS,
            text.history,
            (Option("section", required=True, suggest="section"), _DRAFT),
        ),
    ),
    _verb(
        "discard",
        "/summary discard [DRAFT]",
        "throw a draft away",
        text.draft_id_command(Discard),
        _draft_native("discard", "Throw a draft away (editors)", Discard),
    ),
    _verb(
        "forget-me",
        "/summary forget-me",
        "delete your logged messages",
        text.no_arguments(ForgetMe()),
        Native(("forget-me",), "Delete your logged messages", Who.ANYONE, ForgetMe),
    ),
    _verb(
        "audit",
        "/summary audit",
        "recent settings changes (admins only)",
        text.no_arguments(Audit()),
        Native(("audit",), "Recent settings changes", Who.ADMINS, Audit),
    ),
)


async def _help(_core: CommandCore, _event: CommandEvent, _workspace_id: int, _: Help) -> Reply:
    return Reply(USAGE)


def _list(setting: admin.ListSetting) -> Setting:
    return Setting(lambda request, _command: admin.list_items(request, setting))


def _add(setting: admin.ListSetting, field: str) -> Setting:
    return Setting(
        lambda request, command: admin.add_items(request, setting, getattr(command, field))
    )


def _remove(setting: admin.ListSetting, field: str) -> Setting:
    return Setting(
        lambda request, command: admin.remove_items(request, setting, getattr(command, field))
    )


HANDLERS: Mapping[type[Command], Handler] = {
    Help: _help,
    Status: run.status,
    ChannelsList: _list(admin.CHANNELS),
    ChannelsAdd: _add(admin.CHANNELS, "channels"),
    ChannelsRemove: _remove(admin.CHANNELS, "channels"),
    TopicsList: Setting(admin.list_topics),
    TopicsAdd: Setting(admin.add_topic),
    TopicsRemove: Setting(admin.remove_topic),
    ScheduleShow: Setting(admin.show_schedule),
    ScheduleSet: Setting(admin.set_schedule),
    ReviewChannelSet: Setting(admin.set_review_channel),
    PublishChannels: Setting(admin.publish_channels),
    EditorsList: _list(admin.EDITORS),
    EditorsAdd: _add(admin.EDITORS, "entries"),
    EditorsRemove: _remove(admin.EDITORS, "entries"),
    AdminsList: _list(admin.ADMINS),
    AdminsAdd: _add(admin.ADMINS, "entries"),
    AdminsRemove: _remove(admin.ADMINS, "entries"),
    RepoSet: Setting(admin.set_repo),
    RetentionSet: Setting(admin.set_retention),
    SummarizerSet: Setting(admin.set_summarizer),
    MemberNewsSet: Setting(admin.set_member_news),
    NewsSubmit: run.submit_news,
    StartDraft: run.start_draft,
    Approve: run.on_draft(ReviewWorkflow.approve),
    Regenerate: run.on_draft(ReviewWorkflow.regenerate),
    Edit: run.edit,
    History: run.history,
    Discard: run.on_draft(ReviewWorkflow.discard),
    Publish: run.on_draft(ReviewWorkflow.publish_as),
    ForgetMe: run.forget_me,
    Audit: Setting(admin.audit),
}
"""Each command class's handler, run by the core (`bot.core.router.Core.on_command`)."""

_BY_NAME = {verb.name: verb for verb in VERBS}

SETTING_VERBS = tuple(verb.name for verb in VERBS if verb.setting)
"""The verbs that change a workspace setting."""

USAGE_LINES: dict[str, tuple[str, str]] = {v.name: (v.syntax, v.purpose) for v in VERBS}
"""Each verb's syntax and what it is for, in the order `help` lists them."""

USAGE = "Commands:\n" + "\n".join(
    f"{syntax} - {purpose}" for syntax, purpose in USAGE_LINES.values()
)

_VERB_RE = re.compile(r"(\S*)(.*)", re.DOTALL)


def _with_usage(verb: Verb, build: Callable[[], Command]) -> Command:
    try:
        return build()
    except CommandError as error:
        raise CommandError(f"{error} Usage: {verb.syntax}") from None


def parse(line: str) -> Command:
    """The command in the text after `/summary`; `CommandError` (one sentence on what is
    wrong, then the verb's usage line) if it is not one."""
    name, rest = _VERB_RE.fullmatch(line.strip()).groups()  # type: ignore[union-attr]
    name = name.lower()
    if name == "":
        return Help()
    verb = _BY_NAME.get(name)
    if verb is None:
        known = ", ".join(v for v in USAGE_LINES if v != "help")
        shown = name if len(name) <= 40 else name[:39] + "…"
        raise CommandError(f"Unknown command {shown!r}. Try: {known}, or help.")
    return _with_usage(verb, lambda: verb.parse(rest))


def verb(name: str) -> Verb:
    """The verb `name` (as `USAGE_LINES` names it)."""
    return _BY_NAME[name]


def build(native: Native, values: Mapping[str, Value]) -> Command:
    """The command a native subcommand's options (by option name) make; `CommandError` as
    for `parse` when a value is wrong."""
    verb = _BY_NAME[native.path[0]]
    return _with_usage(verb, lambda: native.build(**values))


def natives() -> list[Native]:
    """Every native subcommand, in the order `help` lists their verbs."""
    return [native for verb in VERBS for native in verb.natives]


def handler(command: Command) -> Handler:
    """The handler of `command` (`HANDLERS`); `TypeError` for a command that has none."""
    found = HANDLERS.get(type(command))
    if found is None:
        raise TypeError(f"unhandled command {command!r}")
    return found


def is_admin_command(command: Command) -> bool:
    """Whether `command` is a settings command (its handler a `Setting`)."""
    return isinstance(HANDLERS.get(type(command)), Setting)


def handle_admin(
    session: Session,
    config: Config,
    workspace_id: int,
    caller: Caller,
    command: Command,
    now: datetime,
) -> Reply:
    """Run a settings command for `caller` (`bot.core.admin.run_setting`) and say what
    happened (privately). Raises `TypeError` for commands that are not settings commands."""
    found = HANDLERS.get(type(command))
    if not isinstance(found, Setting):
        raise TypeError(f"{type(command).__name__} is not a settings command")
    return admin.run_setting(session, config, workspace_id, caller, command, now, found.change)
