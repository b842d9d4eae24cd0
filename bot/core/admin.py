"""The settings commands: logged channels, topics, schedule, review and publish channels,
editors, admins, default repository, retention, and the audit trail of changes.

Anyone may list settings; changing them, and reading the audit trail, is for workspace
admins (the platform's admins and the configured `admins`). Every change goes through
`bot.core.settings.change_setting`, which validates it and records who made it. A refused command
writes nothing. Nothing here commits: the caller owns the transaction.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from pydantic import ValidationError
from sqlalchemy.orm import Session

from bot.config import CATCH_ALL, Config, TopicConfig, valid_repo, valid_timezone
from bot.core.access import Action, authorize
from bot.core.commands import (
    AdminsList,
    Audit,
    ChannelsList,
    Command,
    EditorsList,
    MemberNewsSet,
    PublishChannels,
    RepoSet,
    RetentionSet,
    ReviewChannelSet,
    ScheduleSet,
    ScheduleShow,
    SummarizerSet,
    TopicsAdd,
    TopicsList,
    TopicsRemove,
)
from bot.core.names import channel_ref, entry_ref
from bot.core.port import Caller, Reply
from bot.core.settings import (
    SettingsError,
    WorkspaceSettings,
    change_setting,
    cron_trigger,
    defaults,
    workspace_settings,
)
from storage.models import SettingChange
from storage.settings import setting_changes

AUDIT_LIMIT = 15
_AUDIT_VALUE_CHARS = 80

_READ_ONLY = (ChannelsList, TopicsList, ScheduleShow, EditorsList, AdminsList)


def run_setting(
    session: Session,
    config: Config,
    workspace_id: int,
    caller: Caller,
    command: Command,
    now: datetime,
    change: Callable[[Request, Any], Reply],
) -> Reply:
    """Run a settings command for `caller` with its handler `change` (as the command registry
    declares it) and say what happened (privately).

    Non-admins may only list settings; anything else is refused and changes nothing, as is
    any invalid value.
    """
    if is_read_only(command):
        settings = workspace_settings(session, config, workspace_id)
    else:
        action = Action.AUDIT if isinstance(command, Audit) else Action.CHANGE_SETTINGS
        allowed = authorize(session, config, workspace_id, caller, None, action)
        if isinstance(allowed, Reply):
            return allowed
        settings = allowed
    request = Request(session, config, workspace_id, caller, settings, now)
    try:
        return change(request, command)
    except SettingsError as error:
        return Reply.refuse(_sentence(str(error)))


# What a workspace needs before its first summary can be published, and how to set it.
_SET_UP: tuple[tuple[str, str, str], ...] = (
    ("review_channel", "a review channel", "/summary review-channel #channel"),
    ("publish_channels", "a publish channel", "/summary publish add #channel"),
    ("editors", "editors", "/summary editors add @person"),
    ("channels", "channels to log", "/summary channels add #channel"),
)


def missing_setup(settings: WorkspaceSettings) -> list[tuple[str, str]]:
    """What the workspace still needs before its first summary is published, each with the
    command that sets it: (what, command)."""
    return [(what, how) for key, what, how in _SET_UP if not getattr(settings, key)]


def setup_todo(settings: WorkspaceSettings, caller: Caller) -> str | None:
    """For an admin, what is still to set up (None when all is set, or for anyone else)."""
    if not settings.is_admin(caller):
        return None
    missing = [f"{what} ({how})" for what, how in missing_setup(settings)]
    return f"Still to set up: {_join(missing)}." if missing else None


def is_read_only(command: Command) -> bool:
    """Whether a settings command only lists (anyone may run it)."""
    if isinstance(command, PublishChannels):
        return command.action == "list"
    return isinstance(command, _READ_ONLY)


@dataclass(frozen=True, slots=True)
class Request:
    """A settings command's context: where, by whom, and the settings as they were."""

    session: Session
    config: Config
    workspace_id: int
    caller: Caller
    settings: WorkspaceSettings
    now: datetime  # from the bot's clock

    def change(self, key: str, value: Any) -> WorkspaceSettings:
        return change_setting(
            self.session, self.config, self.workspace_id, key, value, self.caller, self.now
        )


# --- display ------------------------------------------------------------------------------


def _join(items: Sequence[str]) -> str:
    """The items in words: `a`, `a and b`, `a, b and c`."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def _be(items: Sequence[str]) -> str:
    return "is" if len(items) == 1 else "are"


def _sentence(text: str) -> str:
    """A validation message as a sentence: pydantic's "Value error, " dropped, a capital
    first letter and a full stop."""
    text = text.replace("Value error, ", "").strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else f"{text}."


# --- list settings: channels, publish channels, editors, admins ---------------------------


@dataclass(frozen=True, slots=True)
class ListSetting:
    """A setting that is a list of channels or people, and how replies talk about it."""

    key: str
    title: str  # "Logged channels"
    show: Callable[[str], str]
    added: str  # "Logging {} from now on."
    removed: str  # "Stopped logging {}."
    empty: str  # what the list says when there is nothing in it

    def current(self, settings: WorkspaceSettings) -> list[str]:
        return list(getattr(settings, self.key))

    def listing(self, items: Sequence[str]) -> str:
        if not items:
            return self.empty
        return f"{self.title}: {', '.join(self.show(i) for i in sorted(items))}."

    def shown(self, items: Sequence[str]) -> str:
        return _join([self.show(i) for i in items])


CHANNELS = ListSetting(
    key="channels",
    title="Logged channels",
    show=channel_ref,
    added="Logging {} from now on.",
    removed="Stopped logging {}.",
    empty="No channels are logged yet; an admin can start with /summary channels add #channel.",
)
PUBLISH_CHANNELS = ListSetting(
    key="publish_channels",
    title="Approved summaries are posted in",
    show=channel_ref,
    added="Approved summaries will be posted in {} from now on.",
    removed="Approved summaries will no longer be posted in {}.",
    empty="Approved summaries are not posted anywhere yet; add a channel with "
    "/summary publish add #channel.",
)
EDITORS = ListSetting(
    key="editors",
    title="Editors",
    show=entry_ref,
    added="{} can now edit and approve drafts.",
    removed="{} can no longer edit or approve drafts.",
    empty="No editors are set; only admins can edit and approve drafts.",
)
ADMINS = ListSetting(
    key="admins",
    title="Admins",
    show=entry_ref,
    added="{} can now change settings.",
    removed="{} can no longer change settings (unless the platform makes them admins).",
    empty="No admins are set; the platform's admins manage the settings.",
)


def list_items(request: Request, setting: ListSetting) -> Reply:
    return Reply(setting.listing(setting.current(request.settings)))


def add_items(request: Request, setting: ListSetting, items: Sequence[str]) -> Reply:
    current = setting.current(request.settings)
    added = [i for i in items if i not in current]
    present = [i for i in items if i in current]
    if not added:
        return Reply(
            f"Nothing changed: {setting.shown(present)} {_be(present)} already in the list. "
            f"{setting.listing(current)}"
        )
    updated = sorted([*current, *added])
    request.change(setting.key, updated)
    parts = [setting.added.format(setting.shown(added))]
    if present:
        parts.append(f"{setting.shown(present)} {_be(present)} already in the list.")
    parts.append(setting.listing(updated))
    return Reply(" ".join(parts))


def remove_items(request: Request, setting: ListSetting, items: Sequence[str]) -> Reply:
    current = setting.current(request.settings)
    removed = [i for i in items if i in current]
    missing = [i for i in items if i not in current]
    if not removed:
        return Reply(
            f"Nothing changed: {setting.shown(missing)} {_be(missing)} not in the list. "
            f"{setting.listing(current)}"
        )
    updated = [i for i in current if i not in removed]
    request.change(setting.key, updated)
    parts = [setting.removed.format(setting.shown(removed))]
    if missing:
        parts.append(f"{setting.shown(missing)} {_be(missing)} not in the list.")
    parts.append(setting.listing(updated))
    return Reply(" ".join(parts))


def publish_channels(request: Request, command: PublishChannels) -> Reply:
    if command.action == "add":
        return add_items(request, PUBLISH_CHANNELS, command.channels)
    if command.action == "remove":
        return remove_items(request, PUBLISH_CHANNELS, command.channels)
    return list_items(request, PUBLISH_CHANNELS)


# --- topics -------------------------------------------------------------------------------


def _topic_line(topic: TopicConfig) -> str:
    """`rl: RL (channels #rl; keywords reward, rollout; patterns \\bGRPO\\b)`."""
    matchers = [
        f"{label} {', '.join(values)}"
        for label, values in (
            ("channels", [channel_ref(c) for c in topic.channels]),
            ("keywords", topic.keywords),
            ("patterns", topic.patterns),
        )
        if values
    ]
    details = f" ({'; '.join(matchers)})" if matchers else ""
    return f"{topic.id}: {topic.title}{details}"


def list_topics(request: Request, _command: TopicsList) -> Reply:
    topics = request.settings.topics
    if not topics:
        return Reply("No topics are set; everything goes under Other updates.")
    return Reply("Topics, in section order:\n" + "\n".join(_topic_line(t) for t in topics))


def _new_topic(command: TopicsAdd) -> TopicConfig:
    """The topic the command describes; `SettingsError` if it is not valid."""
    try:
        return TopicConfig(
            id=command.id,
            title=command.title,
            channels=list(command.channels),
            keywords=list(command.keywords),
            patterns=list(command.patterns),
        )
    except ValidationError as error:
        problems = "; ".join(e["msg"] for e in error.errors())
        raise SettingsError(f"topic {command.id!r}: {problems}") from None


def add_topic(request: Request, command: TopicsAdd) -> Reply:
    topic = _new_topic(command)
    topics = list(request.settings.topics)
    ids = [t.id for t in topics]
    replaced = topic.id in ids
    if replaced:
        topics[ids.index(topic.id)] = topic
    else:
        topics.append(topic)
    request.change("topics", topics)
    verb = "Replaced" if replaced else "Added"
    reply = f"{verb} topic {_topic_line(topic)}."
    if topic.id != CATCH_ALL and not (topic.channels or topic.keywords or topic.patterns):
        reply += " It has no channels, keywords or patterns, so no message will land in it."
    return Reply(reply)


def remove_topic(request: Request, command: TopicsRemove) -> Reply:
    topics = request.settings.topics
    if command.id not in [t.id for t in topics]:
        known = ", ".join(t.id for t in topics) or "none"
        return Reply.refuse(f"There is no topic {command.id!r}. Topics: {known}.")
    remaining = [t for t in topics if t.id != command.id]
    request.change("topics", remaining)
    left = ", ".join(t.id for t in remaining) or "none"
    return Reply(f"Removed topic {command.id}. Topics: {left}.")


# --- schedule -----------------------------------------------------------------------------


def _next_run(schedule: str, timezone: str, now: datetime) -> str:
    zone = ZoneInfo(timezone)
    when = cron_trigger(schedule, timezone).get_next_fire_time(None, now.astimezone(zone))
    return "never" if when is None else f"{when:%a %Y-%m-%d %H:%M} {timezone}"


def _describe_schedule(schedule: str, timezone: str, now: datetime) -> str:
    return (
        f"The weekly draft is made at {schedule} ({timezone}); "
        f"next: {_next_run(schedule, timezone, now)}."
    )


def show_schedule(request: Request, _command: ScheduleShow) -> Reply:
    return Reply(
        _describe_schedule(request.settings.schedule, request.settings.timezone, request.now)
    )


def set_schedule(request: Request, command: ScheduleSet) -> Reply:
    """Both values are checked before either is stored, so a refusal changes nothing."""
    timezone = command.timezone or request.settings.timezone
    try:
        valid_timezone(timezone)
    except ValueError as error:
        return Reply.refuse(_sentence(str(error)))
    cron_trigger(command.schedule, timezone)  # SettingsError if it is not a schedule
    changes = {"schedule": command.schedule, "timezone": timezone}
    changed = {k: v for k, v in changes.items() if getattr(request.settings, k) != v}
    if not changed:
        return Reply(
            f"Nothing changed. {_describe_schedule(command.schedule, timezone, request.now)}"
        )
    for key, value in changed.items():
        request.change(key, value)
    return Reply(_describe_schedule(command.schedule, timezone, request.now))


# --- single values ------------------------------------------------------------------------


def set_review_channel(request: Request, command: ReviewChannelSet) -> Reply:
    shown = channel_ref(command.channel)
    if request.settings.review_channel == command.channel:
        return Reply(f"Nothing changed: drafts are already posted for review in {shown}.")
    request.change("review_channel", command.channel)
    return Reply(f"Drafts will be posted for review in {shown}.")


def set_repo(request: Request, command: RepoSet) -> Reply:
    try:
        valid_repo(command.repo)
    except ValueError as error:
        return Reply.refuse(f"Cannot use that repository: {error}.")
    if command.repo == request.settings.default_repo:
        return Reply(f"Nothing changed: the default repository is already {command.repo!r}.")
    request.change("default_repo", command.repo)
    if not command.repo:
        return Reply("Bare PR numbers such as #123 no longer refer to a default repository.")
    return Reply(f"Bare PR numbers such as #123 now refer to {command.repo}.")


def set_retention(request: Request, command: RetentionSet) -> Reply:
    if command.days < 1:
        return Reply.refuse(f"Retention must be at least 1 day, not {command.days}.")
    kept = f"{command.days} day{'' if command.days == 1 else 's'}"
    if command.days == request.settings.retention_days:
        return Reply(f"Nothing changed: logged messages are already kept for {kept}.")
    request.change("retention_days", command.days)
    return Reply(f"Logged messages will be kept for {kept}.")


def set_summarizer(request: Request, command: SummarizerSet) -> Reply:
    if command.name == request.settings.summarizer:
        return Reply(f"Nothing changed: the {command.name} drafter already writes the drafts.")
    request.change("summarizer", command.name)
    return Reply(f"The {command.name} drafter writes the drafts from now on.")


def set_member_news(request: Request, command: MemberNewsSet) -> Reply:
    settings = request.settings
    if command.reaction is not None and settings.news_reactions != [command.reaction]:
        settings = request.change("news_reactions", [command.reaction])
    if command.on is not None and command.on != settings.news:
        settings = request.change("news", command.on)
    if not settings.news:
        return Reply("Members' news is off: reactions and /summary news send nothing in.")
    reactions = " or ".join(settings.news_reactions)
    return Reply(
        "Members' news is on: members send news with /summary news TEXT, or by reacting to "
        f"a message of a logged channel with {reactions}."
    )


# --- audit --------------------------------------------------------------------------------


def _default_value(config: Config, key: str) -> object:
    """What a setting was before anyone stored it (the config file's value or the built-in
    default), as stored."""
    field = WorkspaceSettings.model_fields.get(key)
    return defaults(config).get(key, None if field is None else field.get_default())


def _audit_value(value: object) -> str:
    if value is None:
        return "none"
    text = json.dumps(value, ensure_ascii=False)
    if len(text) > _AUDIT_VALUE_CHARS:
        return text[: _AUDIT_VALUE_CHARS - 1] + "…"
    return text


def _by_id(value: object) -> dict[str, object] | None:
    """Topics (a list of objects with an `id`) by id; None for any other value."""
    if isinstance(value, list) and all(isinstance(v, dict) and "id" in v for v in value):
        return {str(v["id"]): v for v in value}
    return None


# How the values of list and channel settings are written (names are filled in later).
_SHOWN_AS: dict[str, Callable[[str], str]] = {
    "channels": channel_ref,
    "publish_channels": channel_ref,
    "review_channel": channel_ref,
    "editors": entry_ref,
    "admins": entry_ref,
}


def describe_change(old: object, new: object, show: Callable[[str], str] = str) -> str:
    """A stored change in brief: what a list gained and lost (each item as `show` writes
    it), which topics changed, or the old and new value."""
    old_topics, new_topics = _by_id(old), _by_id(new)
    if old_topics is not None and new_topics is not None:
        parts = [f"+{i}" for i in new_topics if i not in old_topics]
        parts += [f"-{i}" for i in old_topics if i not in new_topics]
        parts += [f"~{i}" for i in new_topics if i in old_topics and new_topics[i] != old_topics[i]]
        return ", ".join(parts) or "no change"
    if isinstance(new, list) and isinstance(old, list):
        parts = [f"+{show(v)}" for v in new if v not in old]
        parts += [f"-{show(v)}" for v in old if v not in new]
        return ", ".join(parts) or "no change"
    if isinstance(new, str) and show is not str:
        before = "none" if old is None else show(str(old))
        return f"{before} -> {show(new)}"
    return f"{_audit_value(old)} -> {_audit_value(new)}"


def _audit_line(config: Config, change: SettingChange) -> str:
    old = _default_value(config, change.key) if change.old_value is None else change.old_value
    described = describe_change(old, change.new_value, _SHOWN_AS.get(change.key, str))
    return f"{change.changed_at:%Y-%m-%d %H:%M} UTC, {change.actor_name}: {change.key} {described}"


def audit(request: Request, _command: Audit) -> Reply:
    changes = setting_changes(request.session, request.workspace_id, limit=AUDIT_LIMIT)
    if not changes:
        return Reply("No settings have been changed yet.")
    lines = [_audit_line(request.config, change) for change in changes]
    return Reply("Recent settings changes, newest first:\n" + "\n".join(lines))
