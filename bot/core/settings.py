"""Per-workspace admin settings: stored in the database, defaults from the config file.

Keys: `channels` (logged channels; nothing is logged until an admin enables one), `topics`,
`schedule` and `timezone`, `review_channel`, `publish_channels`, `editors` and `admins`
(user ids, or "role:ID" for a role or user group), `default_repo`, `retention_days`,
`news` (whether members may send news) and `news_reactions` (the reactions that send a
message in as news).
"""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any, Literal

from apscheduler.triggers.cron import CronTrigger
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from sqlalchemy.orm import Session

from bot.config import Config, TopicConfig, topic_list, valid_repo, valid_timezone
from bot.core.port import Caller
from bot.drafting.week import Week
from storage.settings import load_settings, save_setting
from summarizer.types import Topic

DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_SIMPLE_SCHEDULE_RE = re.compile(
    r"^(?P<days>(?:mon|tue|wed|thu|fri|sat|sun)(?:[-,](?:mon|tue|wed|thu|fri|sat|sun))*)"
    r"\s+(?P<hour>[01]?\d|2[0-3]):(?P<minute>[0-5]\d)$",
    re.IGNORECASE,
)


class SettingsError(ValueError):
    """A setting value that cannot be used, with the reason in words."""


def cron_trigger(schedule: str, timezone: str) -> CronTrigger:
    """The APScheduler trigger for "mon 09:00" / "mon,thu 18:30" or a 5-field crontab line."""
    match = _SIMPLE_SCHEDULE_RE.match(schedule.strip())
    try:
        if match:
            return CronTrigger(
                day_of_week=match["days"].lower(),
                hour=int(match["hour"]),
                minute=int(match["minute"]),
                timezone=timezone,
            )
        return CronTrigger.from_crontab(schedule.strip(), timezone=timezone)
    except ValueError as error:
        raise SettingsError(
            f'schedule {schedule!r} is not understood ({error}); use e.g. "mon 09:00" '
            'or a crontab line such as "0 9 * * mon"'
        ) from None


class WorkspaceSettings(BaseModel):
    """A workspace's settings, validated."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    channels: list[str] = []
    topics: list[TopicConfig] = Field(default_factory=list)
    schedule: str = "mon 09:00"
    timezone: str = "UTC"
    review_channel: str | None = None
    publish_channels: list[str] = []
    editors: list[str] = []
    admins: list[str] = []
    default_repo: str = ""
    retention_days: int = Field(default=90, ge=1)
    summarizer: Literal["extractive", "llm"] = "extractive"
    news: bool = True
    # The newspaper as Discord sends it and as Slack names it.
    news_reactions: list[str] = ["📰", ":newspaper:"]

    @field_validator("timezone")
    @classmethod
    def _zone(cls, value: str) -> str:
        return valid_timezone(value)

    @field_validator("default_repo")
    @classmethod
    def _repo(cls, value: str) -> str:
        return valid_repo(value)

    @field_validator("news_reactions")
    @classmethod
    def _reactions(cls, value: list[str]) -> list[str]:
        if not value or any(not r.strip(":") or r.split() != [r] for r in value):
            raise ValueError("a news reaction is one emoji, e.g. 📰 or :newspaper:")
        return value

    def is_news_reaction(self, emoji: str) -> bool:
        """Whether members' news is on and `emoji` (as the platform names it: "📰",
        "newspaper", ":newspaper:") is one of the news reactions."""
        return self.news and emoji.strip(":") in {r.strip(":") for r in self.news_reactions}

    @property
    def topic_list(self) -> list[Topic]:
        """The topics in section order, the catch-all last."""
        return topic_list(self.topics)

    def check_schedule(self) -> None:
        cron_trigger(self.schedule, self.timezone)

    def logs(self, channel_id: str, channel_name: str) -> bool:
        """Whether messages of this channel are logged (by id, or by name with or without #)."""
        return channel_id in self.channels or channel_name.lstrip("#") in self.channels

    def is_admin(self, caller: Caller) -> bool:
        """Platform admins and the configured admin list."""
        return caller.is_admin or _listed(caller, self.admins)

    def is_editor(self, caller: Caller) -> bool:
        """Configured editors (people or roles); admins edit too."""
        return self.is_admin(caller) or _listed(caller, self.editors)

    def role_ids(self) -> list[str]:
        """The roles or user groups editors and admins name (by id)."""
        return [e.removeprefix("role:") for e in [*self.editors, *self.admins] if _is_role(e)]


def _is_role(entry: str) -> bool:
    return entry.startswith("role:")


def _listed(caller: Caller, entries: list[str]) -> bool:
    """Whether the caller, or one of their roles (by id, as the platform gave them for the
    workspace they act in), is among `entries`."""
    roles = {f"role:{r}" for r in caller.roles}
    return any(e == caller.user_id or e in roles for e in entries)


def defaults(config: Config) -> dict[str, Any]:
    """The settings a workspace starts with, from the config file."""
    return {
        "timezone": config.timezone,
        "default_repo": config.default_repo,
        "topics": [t.model_dump() for t in config.topics],
    }


def workspace_settings(session: Session, config: Config, workspace_id: int) -> WorkspaceSettings:
    """The workspace's settings: what admins stored, over the config file's defaults."""
    return WorkspaceSettings.model_validate(defaults(config) | load_settings(session, workspace_id))


def week_of(
    settings: WorkspaceSettings,
    workspace_id: int,
    workspace_name: str,
    day: date,
    drafter: str | None = None,
) -> Week:
    """The week holding `day` as the drafting service takes it, with the workspace's settings
    (its drafter unless `drafter` is given)."""
    return Week.holding(
        day,
        workspace_id=workspace_id,
        workspace_name=workspace_name,
        timezone=settings.timezone,
        topics=tuple(settings.topic_list),
        default_repo=settings.default_repo,
        drafter=drafter or settings.summarizer,
    )


def change_setting(
    session: Session,
    config: Config,
    workspace_id: int,
    key: str,
    value: Any,
    caller: Caller,
    at: datetime,
) -> WorkspaceSettings:
    """Validate and store one setting, recording who changed it `at` when; nothing is stored
    if the new value is invalid."""
    current = workspace_settings(session, config, workspace_id)
    if key not in WorkspaceSettings.model_fields:
        raise SettingsError(f"there is no setting {key!r}")
    try:
        updated = WorkspaceSettings.model_validate(current.model_dump() | {key: value})
    except ValidationError as error:
        problem = "; ".join(e["msg"] for e in error.errors())
        raise SettingsError(f"{key}: {problem}") from None
    updated.check_schedule()
    stored = updated.model_dump(mode="json")[key]
    save_setting(
        session,
        workspace_id,
        key,
        stored,
        actor_id=caller.user_id,
        actor_name=caller.display_name,
        at=at,
    )
    return updated
