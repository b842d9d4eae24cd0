"""The platform-neutral bot: every event an adapter receives ends up here.

Adapters translate platform events into `bot.core.port` types and call these methods; the replies
they get back are rendered and sent by the adapter. The logic lives in the modules this one
routes to: ingest, admin settings, the review workflow, privacy and the scheduler.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from datetime import date, datetime, timedelta

from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker
from tenacity import Retrying, retry_if_exception_type, stop_after_attempt, wait_exponential

from bot.core import commands as cmd
from bot.core import metrics, privacy
from bot.core.admin import handle_admin, is_admin_command
from bot.core.ingest import store_batch
from bot.core.port import (
    ButtonPress,
    Caller,
    ChatPort,
    CommandEvent,
    DeleteEvent,
    EditEvent,
    EditorSubmit,
    MessageEvent,
    Reply,
)
from bot.core.review import ReviewWorkflow, utcnow
from bot.core.scheduler import WeeklyScheduler
from bot.core.settings import WorkspaceSettings, workspace_settings
from bot.drafting.config import Config
from bot.drafting.github.client import GitHubClient
from bot.drafting.llm.week import MakeClient
from bot.drafting.week import week_start
from storage.drafts import get_draft_by_id, list_drafts
from storage.messages import (
    StoreCounts,
    add_reactions,
    find_workspaces,
    latest_message_time,
    upsert_workspace,
)
from storage.models import UNFINISHED, DraftStatus
from storage.records import ChannelRecord, ImportBatch, MessageRecord, WorkspaceRecord
from summarizer.prrefs import parse_pr_refs

log = logging.getLogger(__name__)

STORE_ATTEMPTS = 4
SETTINGS_TTL_S = 10.0
STORE_BACKOFF_S = 0.1

# Settings whose change moves the weekly run.
_SCHEDULE_COMMANDS = (cmd.ScheduleSet,)


class Core:
    """Routes platform-neutral events to ingest, settings, review, privacy and scheduling."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        config: Config,
        port: ChatPort,
        clock: Callable[[], datetime] = utcnow,
        platform: str | None = None,
        github: Callable[[], GitHubClient] | None = None,
        llm: MakeClient | None = None,
    ) -> None:
        self.sessions = sessions
        self.platform = platform  # the platform whose workspaces this core serves
        self.config = config
        self.clock = clock
        self.review = ReviewWorkflow(sessions, config, port, clock, github, llm)
        self.scheduler = WeeklyScheduler(sessions, config, self.run_week, clock, platform=platform)
        self._workspace_ids: dict[WorkspaceRecord, int] = {}
        self._settings: dict[int, tuple[float, WorkspaceSettings]] = {}
        # Set by a platform adapter: fetches a channel's history since the last stored message.
        self.backfill: Callable[[WorkspaceRecord, str], Awaitable[None]] | None = None

    def workspace_id(self, workspace: WorkspaceRecord) -> int:
        """The stored workspace's id (stored, or renamed, on first sight; then cached)."""
        if workspace not in self._workspace_ids:
            with self.sessions.begin() as session:
                self._workspace_ids[workspace] = upsert_workspace(session, workspace)
        return self._workspace_ids[workspace]

    def settings(self, session: Session, workspace_id: int) -> WorkspaceSettings:
        """The workspace's settings, cached for a few seconds: every live message needs them,
        and another bot process may change them (this process drops its copy at once)."""
        now = time.monotonic()
        cached = self._settings.get(workspace_id)
        if cached is None or now - cached[0] > SETTINGS_TTL_S:
            cached = self._settings[workspace_id] = (
                now,
                workspace_settings(session, self.config, workspace_id),
            )
        return cached[1]

    # --- chat ---------------------------------------------------------------------------------

    def on_message(self, event: MessageEvent | EditEvent) -> bool:
        """Store a new or edited message if its channel is logged; whether it was stored."""
        kind = "edit" if isinstance(event, EditEvent) else "message"
        metrics.EVENTS_RECEIVED.labels(event.workspace.platform, kind).inc()
        counts = self.store(event.workspace, event.channel, [event.message])
        return counts is not None and counts.new + counts.updated > 0

    def store(
        self, workspace: WorkspaceRecord, channel: ChannelRecord, messages: list[MessageRecord]
    ) -> StoreCounts | None:
        """Store messages of a channel (live or backfilled); None if the channel is not logged.

        A transient database error (a restart, a dropped connection, SQLite busy) is retried
        a few times; if it persists it is raised, so the platform delivers the event again."""
        for attempt in Retrying(
            retry=retry_if_exception_type(OperationalError),
            stop=stop_after_attempt(STORE_ATTEMPTS),
            wait=wait_exponential(multiplier=STORE_BACKOFF_S, max=2),
            reraise=True,
        ):
            with attempt:
                with metrics.STORAGE_SECONDS.labels(workspace.platform).time():
                    counts = self._store_once(workspace, channel, messages)
                if counts is not None:
                    stored = counts.new + counts.updated
                    metrics.MESSAGES_STORED.labels(workspace.platform).inc(stored)
                    metrics.DUPLICATES_DROPPED.labels(workspace.platform).inc(counts.unchanged)
                    if stored:
                        metrics.LAST_STORED.set_to_current_time()
                return counts
        raise AssertionError("unreachable: tenacity reraises")

    def _store_once(
        self, workspace: WorkspaceRecord, channel: ChannelRecord, messages: list[MessageRecord]
    ) -> StoreCounts | None:
        workspace_id = self.workspace_id(workspace)
        with self.sessions.begin() as session:
            settings = self.settings(session, workspace_id)
            logged = settings.logs(channel.platform_id, channel.name) or (
                channel.parent_platform_id is not None
                and settings.logs(channel.parent_platform_id, channel.parent_name or "")
            )
            if not logged:
                return None
            # Other bots' chatter is kept only when it carries a PR reference.
            kept = [m for m in messages if not m.author.is_bot or parse_pr_refs(m.text)]
            batch = ImportBatch("live", workspace, channel, kept)
            return store_batch(session, batch, workspace_id=workspace_id)

    def on_reaction(self, workspace: WorkspaceRecord, message_id: str, delta: int) -> None:
        """A reaction added (+1) or removed (-1) on a stored message."""
        with self.sessions.begin() as session:
            add_reactions(session, upsert_workspace(session, workspace), message_id, delta)

    def logged_channels(self, workspace: WorkspaceRecord) -> list[str]:
        """The channels an admin enabled (ids, or names typed without a mention)."""
        with self.sessions.begin() as session:
            workspace_id = upsert_workspace(session, workspace)
            return list(workspace_settings(session, self.config, workspace_id).channels)

    def last_stored_at(self, workspace: WorkspaceRecord, channel_id: str) -> datetime | None:
        """When the newest stored message of a channel was sent: backfill starts there."""
        with self.sessions.begin() as session:
            return latest_message_time(session, upsert_workspace(session, workspace), channel_id)

    def on_delete(self, event: DeleteEvent) -> None:
        metrics.EVENTS_RECEIVED.labels(event.workspace.platform, "delete").inc()
        privacy.on_delete(self.sessions, self.workspace_id(event.workspace), event.message_id)

    # --- commands, buttons, editors -----------------------------------------------------------

    async def on_command(self, event: CommandEvent) -> Reply:
        """`/summary ...` from anyone; refusals are private and change nothing."""
        try:
            command = cmd.parse(event.text)
        except cmd.CommandError as error:
            return Reply.refuse(str(error))
        workspace_id = self.workspace_id(event.workspace)
        if is_admin_command(command):
            with self.sessions.begin() as session:
                reply = handle_admin(session, self.config, workspace_id, event.caller, command)
            self._settings.pop(workspace_id, None)
            if reply.ok and isinstance(command, _SCHEDULE_COMMANDS):
                self.scheduler.reschedule(workspace_id)
            if reply.ok and isinstance(command, cmd.ChannelsAdd) and self.backfill is not None:
                for channel in command.channels:
                    await self.backfill(event.workspace, channel)
            return reply
        return await self._workflow_command(workspace_id, event.caller, command)

    async def _workflow_command(self, workspace_id: int, caller: Caller, command) -> Reply:  # noqa: ANN001 (a cmd.Command)
        match command:
            case cmd.Help():
                return Reply(cmd.USAGE)
            case cmd.Status():
                return self.status(workspace_id)
            case cmd.ForgetMe():
                return privacy.forget_me(self.sessions, workspace_id, caller, self.clock())
            case cmd.StartDraft(day=day):
                if not self._is_editor(workspace_id, caller):
                    return Reply.refuse("Only editors can start a draft.")
                return await self.review.draft_and_post(workspace_id, day or self._last_week())
            case cmd.Edit(section=section, text=text):
                return await self.review.edit_section(caller, section, text)
            case cmd.History(section=section):
                return self.review.history(caller, section)
        draft_id = command.draft_id or self._current_draft(workspace_id)
        if draft_id is None or not self._belongs(draft_id, workspace_id):
            return Reply.refuse("There is no draft to act on; start one with `/summary draft`.")
        match command:
            case cmd.Approve():
                return await self.review.approve(caller, draft_id)
            case cmd.Regenerate():
                return await self.review.regenerate(caller, draft_id)
            case cmd.Discard():
                return await self.review.discard(caller, draft_id)
            case cmd.Publish():
                if not self._is_editor(workspace_id, caller):
                    return Reply.refuse("Only editors can publish.")
                return await self.review.publish(draft_id)
        raise TypeError(f"unhandled command {command!r}")

    async def on_button(self, event: ButtonPress) -> Reply | None:
        """A press of Approve, Regenerate, Edit or History; the id comes from the button."""
        action, _, raw_id = event.action_id.partition(":")
        if not raw_id.isdigit():
            return Reply.refuse("That button is not one of mine.")
        target = int(raw_id)
        workspace_id = self.workspace_id(event.workspace)
        if action in ("approve", "regenerate") and not self._belongs(target, workspace_id):
            return Reply.refuse("That draft belongs to another workspace.")
        match action:
            case "approve":
                return await self.review.approve(event.caller, target)
            case "regenerate":
                return await self.review.regenerate(event.caller, target)
            case "edit":
                return await self.review.open_editor(event.caller, target, event.trigger_id)
            case "history":
                return self.review.history(event.caller, target)
        return Reply.refuse("That button is not one of mine.")

    async def on_editor_submit(self, event: EditorSubmit) -> Reply:
        return await self.review.edit_section(event.caller, event.section_id, event.text)

    # --- scheduling ---------------------------------------------------------------------------

    async def run_week(self, workspace_id: int, monday: date) -> None:
        """The weekly job: draft and post the week, then purge what retention allows."""
        reply = await self.review.draft_and_post(workspace_id, monday)
        log.info("workspace %s, week of %s: %s", workspace_id, monday, reply.text)
        with self.sessions.begin() as session:
            settings = workspace_settings(session, self.config, workspace_id)
        privacy.purge(
            self.sessions,
            workspace_id,
            settings.retention_days,
            self.clock(),
            timezone=settings.timezone,
        )

    async def resume(self) -> None:
        """At start-up, finish what a crash interrupted: drafts stored but not yet (fully)
        posted for review are posted, approved drafts not yet (fully) published are published.
        Both steps skip what was already delivered."""
        with self.sessions.begin() as session:
            mine = {w.id for w in find_workspaces(session, self.platform)}
            unfinished = [
                (d.id, d.status)
                for d in list_drafts(session)
                if d.workspace_id in mine and d.status in UNFINISHED
            ]
        for draft_id, status in unfinished:
            if status == DraftStatus.APPROVED:
                reply = await self.review.publish(draft_id)
            else:
                reply = await self.review.post_for_review(draft_id)
            log.info("resumed draft %s: %s", draft_id, reply.text)

    def status(self, workspace_id: int) -> Reply:
        """Recent drafts and the next scheduled run."""
        with self.sessions.begin() as session:
            drafts = list_drafts(session, workspace_id)[:4]
            settings = workspace_settings(session, self.config, workspace_id)
            lines = [
                f"Logging {len(settings.channels)} channel(s); review channel: "
                f"{settings.review_channel or 'not set'}; publish channels: "
                f"{', '.join(settings.publish_channels) or 'not set'}.",
                f"Schedule: {settings.schedule} ({settings.timezone}).",
            ]
            lines += [
                f"Week of {d.week_start}: draft {d.id}, {d.status.words}" for d in drafts
            ] or ["No drafts yet."]
        upcoming = self.scheduler.jobs().get(workspace_id)
        if upcoming is not None:
            lines.append(f"Next run: {upcoming:%Y-%m-%d %H:%M %Z}.")
        return Reply("\n".join(lines))

    # --- helpers ------------------------------------------------------------------------------

    def _is_editor(self, workspace_id: int, caller: Caller) -> bool:
        with self.sessions.begin() as session:
            return workspace_settings(session, self.config, workspace_id).is_editor(caller)

    def _current_draft(self, workspace_id: int) -> int | None:
        """The newest draft still open for review, if any."""
        with self.sessions.begin() as session:
            for draft in list_drafts(session, workspace_id):
                if draft.status in UNFINISHED:
                    return draft.id
        return None

    def _belongs(self, draft_id: int, workspace_id: int) -> bool:
        with self.sessions.begin() as session:
            draft = get_draft_by_id(session, draft_id)
            return draft is not None and draft.workspace_id == workspace_id

    def _last_week(self) -> date:
        return week_start(self.clock().date()) - timedelta(days=7)
