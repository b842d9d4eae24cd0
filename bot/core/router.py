"""The platform-neutral bot: every event an adapter receives ends up here.

Adapters translate platform events into `bot.core.port` types and await these methods; the
replies they get back are rendered and sent by the adapter. The logic lives in the modules
this one routes to: ingest, admin settings, the review workflow, privacy and the scheduler.
Database work runs on the core's database thread (`bot.core.database`), never on the loop.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time as timer
from collections.abc import Callable, Coroutine
from dataclasses import replace
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from bot.config import Config
from bot.core import commands as cmd
from bot.core import metrics, news, privacy
from bot.core.admin import missing_setup, setup_todo
from bot.core.clock import Clock, utcnow
from bot.core.command_registry import handle_admin, handler, parse
from bot.core.database import Database
from bot.core.history import Progress, judged
from bot.core.ingest import store_batch
from bot.core.known_rows import KnownRows
from bot.core.live_store import LiveStore
from bot.core.names import channel_ref, with_names
from bot.core.port import (
    ASK,
    ButtonPress,
    Caller,
    ChannelHistory,
    ChatPort,
    CommandEvent,
    DeleteEvent,
    EditEvent,
    EditorSubmit,
    HistoryChannel,
    HistorySource,
    Members,
    MessageEvent,
    Outbound,
    Reply,
)
from bot.core.references import not_found, resolve_references
from bot.core.review import ReviewWorkflow
from bot.core.review_links import PageLinks
from bot.core.scheduler import WeeklyScheduler
from bot.core.settings import WorkspaceSettings, workspace_settings
from bot.core.suggest import Kind, suggestions
from bot.core.wording import counted
from bot.drafting.service import DraftingService, MakeGitHub, MakeLLM
from bot.drafting.week import week_start
from storage.drafts import list_drafts
from storage.kept import keep_value, kept_value
from storage.messages import (
    StoreCounts,
    add_reactions,
    find_workspaces,
    latest_message_time,
    set_pinned,
    stored_in_channel_after,
    upsert_workspace,
)
from storage.models import UNFINISHED, DraftStatus, Workspace
from storage.normalise import TEXT_MAX
from storage.records import (
    ChannelRecord,
    ImportBatch,
    MessageRecord,
    PersonRecord,
    WorkspaceRecord,
)
from summarizer.prrefs import parse_pr_refs

log = logging.getLogger(__name__)
_BUTTON_ID_RE = re.compile(r"[0-9]{1,18}")
# How far the platform's clock may be behind ours: messages this close to the start of a
# re-read are not judged deleted, since the listing may not have held them yet.
RECONCILE_MARGIN = timedelta(minutes=2)

STORE_ATTEMPTS = 4
SETTINGS_TTL_S = 10.0
STORE_BACKOFF_S = 0.1

# Settings whose change moves the weekly run.
_SCHEDULE_COMMANDS = (cmd.ScheduleSet,)
# The open week is reconciled from its Monday 00:00 UTC, less a day: a workspace's Monday
# starts up to 14 hours before UTC's.
OPEN_WEEK_MARGIN = timedelta(days=1)


class Core:
    """Routes platform-neutral events to ingest, settings, review, privacy and scheduling
    (`bot.core.port.Inbound`); reads channel history through the platform's `history` (backfill,
    reconcile) and asks its `members` who a review-page user is."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        config: Config,
        port: ChatPort,
        clock: Clock = utcnow,
        platform: str | None = None,
        github: MakeGitHub | None = None,
        llm: MakeLLM | None = None,
        page: PageLinks | None = None,
        history: ChannelHistory | None = None,
        members: Members | None = None,
    ) -> None:
        self.sessions = sessions
        self.platform = platform  # the platform whose workspaces this core serves
        self.config = config
        self.clock = clock
        self.db = Database(sessions)
        self.port = port
        drafting = DraftingService(sessions, config, clock, github=github, llm=llm)
        self.review = ReviewWorkflow(
            sessions, config, port, clock, drafting=drafting, database=self.db, page=page
        )
        self.scheduler = WeeklyScheduler(self.db, config, self.run_week, clock, platform=platform)
        self._workspace_ids: dict[WorkspaceRecord, int] = {}
        self._known = KnownRows(sessions)  # channel and people rows live stores need not upsert
        self._settings: dict[int, tuple[float, WorkspaceSettings]] = {}
        self.history = history
        self.members = members
        self._background: set[asyncio.Task[None]] = set()

    async def workspace_id(self, workspace: WorkspaceRecord) -> int:
        """The stored workspace's id (stored, or renamed, on first sight; then cached)."""
        if workspace not in self._workspace_ids:
            self._workspace_ids[workspace] = await self.db.run(
                lambda session: upsert_workspace(session, workspace)
            )
        return self._workspace_ids[workspace]

    def settings(self, session: Session, workspace_id: int) -> WorkspaceSettings:
        """The workspace's settings, cached for a few seconds: every live message needs them,
        and another bot process may change them (this process drops its copy at once)."""
        now = timer.monotonic()
        cached = self._settings.get(workspace_id)
        if cached is None or now - cached[0] > SETTINGS_TTL_S:
            cached = self._settings[workspace_id] = (
                now,
                workspace_settings(session, self.config, workspace_id),
            )
        return cached[1]

    # --- chat ---------------------------------------------------------------------------------

    async def on_message(self, event: MessageEvent | EditEvent) -> bool:
        """Store a new or edited message if its channel is logged; whether it was stored."""
        kind = "edit" if isinstance(event, EditEvent) else "message"
        metrics.count_received(event.workspace.platform, kind, event.delivery)
        counts = await self.store(event.workspace, event.channel, [event.message])
        return counts is not None and counts.new + counts.updated > 0

    async def store(
        self, workspace: WorkspaceRecord, channel: ChannelRecord, messages: list[MessageRecord]
    ) -> StoreCounts | None:
        """Store messages of a channel (live or backfilled); None if the channel is not logged.

        Stores asked for within a few milliseconds share one transaction (group commit,
        `bot.core.group_commit`; a channel's stores share their statements too,
        `bot.core.live_store`); this returns only once it is committed, so an adapter that
        acknowledges after it acknowledges what is stored. A transient database error (a
        restart, a dropped connection, SQLite busy) is retried a few times on the database
        thread (the event loop keeps running); if it persists, or these messages cannot be
        stored, it is raised (the other stores of the batch are kept), so the platform
        delivers the event again."""
        workspace_id = await self.workspace_id(workspace)
        platform = workspace.platform
        unit = LiveStore(self._store_once, workspace_id, workspace, channel, messages)
        counts = await self.db.run_grouped(unit, attempts=STORE_ATTEMPTS, backoff=STORE_BACKOFF_S)
        if counts is not None:
            stored = counts.new + counts.updated
            metrics.MESSAGES_STORED.labels(platform).inc(stored)
            metrics.DUPLICATES_DROPPED.labels(platform).inc(counts.unchanged)
            if stored:
                metrics.LAST_STORED.set_to_current_time()
        return counts

    def _store_once(
        self,
        session: Session,
        workspace_id: int,
        workspace: WorkspaceRecord,
        channel: ChannelRecord,
        messages: list[MessageRecord],
        written: dict[str, bool] | None = None,
    ) -> StoreCounts | None:
        """Store messages in `session` if their channel is logged (`written`: see
        `store_batch`); None if it is not."""
        settings = self.settings(session, workspace_id)
        logged = settings.logs(channel.platform_id, channel.name) or (
            channel.parent_platform_id is not None
            and settings.logs(channel.parent_platform_id, channel.parent_name or "")
        )
        if not logged:
            return None
        # Other bots' chatter is kept only when it carries a PR reference (looked for in the
        # text as it will be stored: cut to the message cap).
        kept = [m for m in messages if not m.author.is_bot or parse_pr_refs(m.text[:TEXT_MAX])]
        batch = ImportBatch("live", workspace, channel, kept)
        return store_batch(
            session, batch, workspace_id=workspace_id, written=written, known=self._known
        )

    async def on_reaction(
        self,
        workspace: WorkspaceRecord,
        message_id: str,
        delta: int,
        emoji: str = "",
        by: PersonRecord | None = None,
    ) -> None:
        """A reaction added (+1) or removed (-1) on a stored message; `emoji` added `by` a
        member may send the message in as news (`bot.core.news`)."""
        now = self.clock()

        def react(session: Session) -> None:
            workspace_id = upsert_workspace(session, workspace)
            add_reactions(session, workspace_id, message_id, delta)
            if delta > 0 and by is not None:
                news.submit_reaction(session, self.config, workspace_id, message_id, emoji, by, now)

        await self.db.run(react)

    async def on_pin(self, workspace: WorkspaceRecord, message_id: str) -> None:
        """A stored message pinned in its channel (a message not stored stays unknown)."""
        await self._pin(workspace, message_id, pinned=True)

    async def on_unpin(self, workspace: WorkspaceRecord, message_id: str) -> None:
        """A stored message no longer pinned."""
        await self._pin(workspace, message_id, pinned=False)

    async def _pin(self, workspace: WorkspaceRecord, message_id: str, *, pinned: bool) -> None:
        metrics.EVENTS_RECEIVED.labels(workspace.platform, "pin" if pinned else "unpin").inc()
        workspace_id = await self.workspace_id(workspace)
        await self.db.run(lambda session: set_pinned(session, workspace_id, message_id, pinned))

    async def logged_channels(self, workspace: WorkspaceRecord) -> list[str]:
        """The channels an admin enabled (ids, or names typed without a mention)."""

        def read(session: Session) -> list[str]:
            workspace_id = upsert_workspace(session, workspace)
            return list(workspace_settings(session, self.config, workspace_id).channels)

        return await self.db.run(read)

    async def page_caller(self, workspace_id: int, user_id: str) -> Caller | None:
        """Who a review-page user is now in the stored workspace `workspace_id`, as the
        platform says (None when the workspace is not this platform's, or they are not a
        member): the page asks on every request, so a change of roles counts at once."""
        if self.members is None:
            return None

        def read(session: Session) -> tuple[str, list[str]] | None:
            workspace = session.get(Workspace, workspace_id)
            if workspace is None or workspace.platform != self.platform:
                return None
            return workspace.platform_id, self.settings(session, workspace_id).role_ids()

        found = await self.db.run(read)
        return None if found is None else await self.members.member(found[0], user_id, found[1])

    async def role_ids(self, workspace: WorkspaceRecord) -> list[str]:
        """The roles or user groups the workspace's editors and admins name, by id: an
        adapter that must ask the platform for membership asks about these only."""
        workspace_id = await self.workspace_id(workspace)
        return await self.db.run(lambda session: self.settings(session, workspace_id).role_ids())

    async def last_stored_at(self, workspace: WorkspaceRecord, channel_id: str) -> datetime | None:
        """When the newest stored message of a channel was sent: backfill starts there."""
        return await self.db.run(
            lambda session: latest_message_time(
                session, upsert_workspace(session, workspace), channel_id
            )
        )

    async def backfill_since(self, workspace: WorkspaceRecord, channel_id: str) -> datetime:
        """Where a channel's backfill starts: its newest stored message or, for a channel
        just enabled, the start of last week (UTC)."""
        since = await self.last_stored_at(workspace, channel_id)
        if since is None:
            monday = week_start(self.clock().date()) - timedelta(days=7)
            since = datetime.combine(monday, time.min, tzinfo=UTC)
        return since

    def open_week_start(self) -> datetime:
        """From when the open week is re-read after downtime (`reconcile`)."""
        monday = week_start(self.clock().date())
        return datetime.combine(monday, time.min, tzinfo=UTC) - OPEN_WEEK_MARGIN

    async def reconcile(
        self,
        workspace: WorkspaceRecord,
        channel_id: str,
        since: datetime,
        seen: set[str],
        threads: set[str] | None = None,
        *,
        read_at: datetime,
    ) -> int:
        """After an adapter re-read a channel after `since` (its messages stored again, so
        edits and reaction counts are current): delete what is stored for the channel since
        then but was not `seen` (deleted while the bot was away). `threads`: the threads
        whose replies were read (None: all of them); replies in other threads are kept.
        `read_at`: when the re-read began. A message sent after that (less a margin for the
        clocks) may have arrived live while the history was read, so it is never judged.
        Returns how many were deleted."""
        workspace_id = await self.workspace_id(workspace)
        until = read_at - RECONCILE_MARGIN
        stored = await self.db.run(
            lambda session: stored_in_channel_after(session, workspace_id, channel_id, since, until)
        )
        gone = [pid for pid, thread in stored if pid not in seen and judged(pid, thread, threads)]
        for message_id in gone:
            await self.on_delete(DeleteEvent(workspace, message_id))
        if gone:
            log.info("#%s: %d message(s) deleted while the bot was away", channel_id, len(gone))
        return len(gone)

    async def backfill(
        self, workspace: WorkspaceRecord, channel_ref: str, progress: Progress | None = None
    ) -> None:
        """Fetch a logged channel's history (its threads included) since its newest stored
        message, or, for a channel just enabled, since the start of last week."""
        channel = await self._history_channel(workspace, channel_ref)
        if channel is None:
            return
        since = await self.backfill_since(workspace, channel.channel_id)
        if progress is not None:
            await progress.begin(channel.name, since)
        for source in await channel.sources():
            await self._read(workspace, source, since, progress)

    async def reconcile_channel(self, workspace: WorkspaceRecord, channel_ref: str) -> None:
        """After downtime: re-read a logged channel and its threads from the start of the
        open week (or its newest stored message, if older) and compare (`reconcile`): edits,
        reactions and late replies made while the bot was away are stored, messages deleted
        meanwhile are deleted."""
        channel = await self._history_channel(workspace, channel_ref)
        if channel is None:
            return
        since = min(
            await self.backfill_since(workspace, channel.channel_id), self.open_week_start()
        )
        for source in await channel.sources():
            read_at = self.clock()
            seen = await self._read(workspace, source, since)
            await self.reconcile(
                workspace, source.channel_id, since, seen, source.threads_read(), read_at=read_at
            )

    async def catch_up(self) -> None:
        """After (re)connecting: reconcile every logged channel of every workspace the
        platform connection serves."""
        if self.history is None:
            return
        for workspace in await self.history.workspaces():
            for ref in await self.logged_channels(workspace):
                await self.reconcile_channel(workspace, ref)

    async def _history_channel(
        self, workspace: WorkspaceRecord, channel_ref: str
    ) -> HistoryChannel | None:
        if self.history is None:
            return None
        return await self.history.channel(workspace, channel_ref)

    async def _read(
        self,
        workspace: WorkspaceRecord,
        source: HistorySource,
        since: datetime,
        progress: Progress | None = None,
    ) -> set[str]:
        """Store a source's messages sent after `since`; the ids of all it read."""
        seen: set[str] = set()
        async for page in source.pages(since):
            seen |= page.seen
            if not page.messages:
                continue
            counts = await self.store(workspace, page.channel, page.messages)
            if progress is not None and counts is not None:
                await progress.add(message.platform_id for message in page.messages)
        return seen

    async def on_delete(self, event: DeleteEvent) -> None:
        metrics.count_received(event.workspace.platform, "delete", event.delivery)
        workspace_id = await self.workspace_id(event.workspace)
        await privacy.on_delete(self.review, workspace_id, event.message_id, self.clock())

    async def _backfill(self, workspace: WorkspaceRecord, channel: str, progress: Progress) -> None:
        try:
            await self.backfill(workspace, channel, progress)
        except Exception as error:
            log.exception("the backfill of %s failed", channel)
            await progress.fail(type(error).__name__)
        else:
            await progress.end()

    def _in_background(self, work: Coroutine[object, object, None]) -> None:
        task = asyncio.create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    # --- commands, buttons, editors -----------------------------------------------------------

    async def on_command(self, event: CommandEvent) -> Reply:
        """`/summary ...` from anyone; refusals are private and change nothing. Channels,
        people and roles in the answer are shown by name."""
        reply = await self._command(event)
        return replace(reply, text=await with_names(self.port, event.workspace, reply.text))

    async def _command(self, event: CommandEvent) -> Reply:
        if isinstance(event.text, str):
            try:
                command = parse(event.text)
            except cmd.CommandError as error:
                return Reply.refuse(str(error))
        else:
            command = event.text
        workspace_id = await self.workspace_id(event.workspace)
        return await handler(command)(self, event, workspace_id, command)

    async def settings_command(
        self,
        event: CommandEvent,
        workspace_id: int,
        command: cmd.Command,
    ) -> Reply:
        """A settings command, then what it sets in motion: the weekly run moved, new
        channels backfilled, a waiting draft posted in a new review channel; an admin is
        told what is still to set up."""
        try:
            command, missing = await resolve_references(self.port, event.workspace, command)
        except cmd.CommandError as error:
            return Reply.refuse(str(error))
        now = self.clock()

        def handle(session: Session) -> tuple[Reply, str | None]:
            reply = handle_admin(session, self.config, workspace_id, event.caller, command, now)
            settings = workspace_settings(session, self.config, workspace_id)
            return reply, setup_todo(settings, event.caller)

        reply, todo = await self.db.run(handle)
        self._settings.pop(workspace_id, None)
        if not reply.ok:
            return reply
        texts = [reply.text]
        if missing:  # the others were added: say what was not
            left_out = "it was" if len(missing) == 1 else "they were"
            texts.append(
                f"{not_found(missing, self.port.workspace_noun)}, so {left_out} not added."
            )
        if isinstance(command, _SCHEDULE_COMMANDS):
            await self.scheduler.reschedule(workspace_id)
        if isinstance(command, cmd.ChannelsAdd) and self.history is not None:
            # Answered at once; the history follows, reported to the admin who asked only.
            for channel in command.channels:
                progress = Progress(self.port, event.caller.user_id, event.channel_id)
                self._in_background(self._backfill(event.workspace, channel, progress))
        if isinstance(command, cmd.ReviewChannelSet):
            texts += [r.text for r in await self.review.post_waiting(workspace_id)]
        texts += [todo] if todo else []
        return replace(reply, text="\n".join(texts))

    async def on_button(self, event: ButtonPress) -> Reply | None:
        """A press of Approve, Regenerate, Discard, Open review page, Edit or History; the
        id comes from the button. A press that asks first (`ASK`, where the platform has no
        confirm dialog) is answered with the question, Confirm and Cancel."""
        action_id = event.action_id.removeprefix(ASK)
        action, _, raw_id = action_id.partition(":")
        if not _BUTTON_ID_RE.fullmatch(raw_id):  # what review_text.py writes: a BIGINT id
            return Reply.refuse("That button is not one of mine.")
        target = int(raw_id)
        workspace_id = await self.workspace_id(event.workspace)
        caller = event.caller
        if action_id != event.action_id:
            return await self.review.ask(workspace_id, caller, action_id)
        match action:
            case "approve":
                return await self.review.approve(workspace_id, caller, target)
            case "discard":
                return await self.review.discard(workspace_id, caller, target)
            case "cancel":
                return Reply("Cancelled: nothing was changed.")
            case "regenerate":
                return await self.review.regenerate(workspace_id, caller, target)
            case "edit":
                return await self.review.open_editor(workspace_id, caller, target, event.trigger_id)
            case "history":
                return await self.review.history(workspace_id, caller, target)
            case "page":
                return await self.review.page_link(workspace_id, caller, target)
        return Reply.refuse("That button is not one of mine.")

    async def on_editor_submit(self, event: EditorSubmit) -> Reply:
        workspace_id = await self.workspace_id(event.workspace)
        return await self.review.edit_section(
            workspace_id, event.caller, event.section_id, event.text
        )

    # --- scheduling ---------------------------------------------------------------------------

    async def run_week(self, workspace_id: int, monday: date) -> None:
        """The weekly job: draft and post the week, then purge what retention allows."""
        reply = await self.review.draft_and_post(workspace_id, monday)
        log.info("workspace %s, week of %s: %s", workspace_id, monday, reply.text)
        settings = await self.db.run(
            lambda session: workspace_settings(session, self.config, workspace_id)
        )
        now = self.clock()
        await self.db.call(
            lambda: privacy.purge(
                self.sessions,
                workspace_id,
                settings.retention_days,
                now,
                timezone=settings.timezone,
            )
        )

    async def resume(self) -> None:
        """At start-up, finish what a crash interrupted: drafts stored but not yet (fully)
        posted for review are posted, approved drafts not yet (fully) published are published.
        Both steps skip what was already delivered."""

        def read(session: Session) -> list[tuple[int, DraftStatus]]:
            mine = {w.id for w in find_workspaces(session, self.platform)}
            return [
                (d.id, d.status)
                for d in list_drafts(session)
                if d.workspace_id in mine and d.status in UNFINISHED
            ]

        for draft_id, status in await self.db.run(read):
            if status == DraftStatus.APPROVED:
                reply = await self.review.publish(draft_id)
            else:
                reply = await self.review.post_for_review(draft_id)
            log.info("resumed draft %s: %s", draft_id, reply.text)

    async def status(self, workspace_id: int) -> Reply:
        """The settings in brief, recent drafts, what is still to set up (each with the
        command that does it) and the next scheduled run."""

        def read(session: Session) -> list[str]:
            drafts = list_drafts(session, workspace_id)[:4]
            settings = workspace_settings(session, self.config, workspace_id)
            lines = [
                f"Logging {counted(len(settings.channels), 'channel')}; review channel: "
                f"{channel_ref(settings.review_channel) if settings.review_channel else 'not set'}"
                "; publish channels: "
                f"{', '.join(map(channel_ref, settings.publish_channels)) or 'not set'}.",
                f"Schedule: {settings.schedule} ({settings.timezone}).",
            ]
            lines += [
                f"Week of {d.week_start}: draft {d.id}, {d.status.words}" for d in drafts
            ] or ["No drafts yet."]
            missing = missing_setup(settings)
            if missing:
                lines.append("Still to set up (by an admin):")
                lines += [f"- {what}: `{how}`" for what, how in missing]
            return lines

        lines = await self.db.run(read)
        upcoming = self.scheduler.jobs().get(workspace_id)
        if upcoming is not None:
            lines.append(f"Next run: {upcoming:%Y-%m-%d %H:%M %Z}.")
        return Reply("\n".join(lines))

    async def suggest(
        self, workspace: WorkspaceRecord, kind: Kind, typed: str
    ) -> list[tuple[str, str]]:
        """(label, value) choices for a command argument being typed (autocomplete)."""
        workspace_id = await self.workspace_id(workspace)
        return await self.db.run(
            lambda session: suggestions(session, self.config, workspace_id, kind, typed)
        )

    async def kept(self, key: str) -> str | None:
        """A value an adapter keeps between runs (e.g. the hash of its command definition)."""
        return await self.db.run(lambda session: kept_value(session, key))

    async def keep(self, key: str, value: str) -> None:
        await self.db.run(lambda session: keep_value(session, key, value))

    def close(self) -> None:
        """Stop background backfills and the database thread (after the work already
        asked for)."""
        for task in self._background:
            task.cancel()
        self.db.close()

    # --- helpers ------------------------------------------------------------------------------

    async def current_draft(self, workspace_id: int) -> int | None:
        """The newest draft still open for review, if any."""

        def read(session: Session) -> int | None:
            for draft in list_drafts(session, workspace_id):
                if draft.status in UNFINISHED:
                    return draft.id
            return None

        return await self.db.run(read)

    def last_week(self) -> date:
        return week_start(self.clock().date()) - timedelta(days=7)


def core_for(
    sessions: sessionmaker[Session], config: Config, **options: Any
) -> Callable[[Outbound], Core]:
    """The `MakeCore` an adapter is given: a `Core` on the adapter's outbound side (its port,
    history and members), with `options` (clock, platform, github, llm, page)."""
    return lambda outbound: Core(
        sessions,
        config,
        outbound.port,
        history=outbound.history,
        members=outbound.members,
        **options,
    )
