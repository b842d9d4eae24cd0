"""The life of a weekly draft, written once against the `ChatPort`:
draft -> post for review -> edit / regenerate -> approve -> publish (or discard).

State lives in the database; buttons carry the draft or section id in their action id, so
everything keeps working after a restart. Nothing is published without an editor's approval.
The transaction rule: database work runs in `Database` units on the database thread, and
every platform call is awaited between them, never inside one.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass, replace
from datetime import date, datetime
from functools import partial
from typing import TypeVar

from sqlalchemy.orm import Session, sessionmaker

from bot.config import Config
from bot.core import metrics
from bot.core.access import Action, Granted, SectionRef, authorize
from bot.core.chunking import chunk
from bot.core.clock import Clock, utcnow
from bot.core.database import Database
from bot.core.draft_locks import DraftLocks
from bot.core.port import CANCEL, Button, Caller, ChatPort, Posted, Reply
from bot.core.review_links import PageLinks
from bot.core.review_page import DraftPage, DraftState, draft_page, draft_state
from bot.core.review_text import (
    header_buttons,
    header_text,
    page_button,
    published_markdown,
    quiet_week_text,
    section_label,
    section_messages,
)
from bot.core.settings import week_of, workspace_settings
from bot.core.wording import counted
from bot.drafting.compose import DraftingError
from bot.drafting.service import Drafted, DraftingService
from bot.drafting.week import Week
from storage.drafts import (
    add_revision,
    delivered,
    get_draft,
    get_draft_by_id,
    list_drafts,
    load_draft,
    load_section,
    move_status,
    record_delivery,
)
from storage.messages import count_messages
from storage.models import EDITABLE, LOCKED, DraftRow, DraftSection, DraftStatus, Workspace
from storage.privacy import blocking_flags

T = TypeVar("T")
log = logging.getLogger(__name__)
MAX_SECTION_CHARS = 40_000  # a weekly summary's section is a few thousand at most

NO_PUBLISH_CHANNEL = (
    "No publish channel is set; an admin can add one with `/summary publish add #channel`."
)
GONE = "_(This section is gone from the regenerated draft.)_"
BUSY = "Another process of the bot is {doing} this draft; it finishes there."
CONTINUED = "_(continued above)_"
Messages = list[tuple[str, list[Button]]]


@dataclass(slots=True)
class _SectionView:
    """A section as its thread shows it: the messages to show and where they are now."""

    section_id: int
    messages: Messages
    ids: list[str]


@dataclass(slots=True)
class _ReviewPlan:
    """What posting a draft for review has to do, read in one transaction."""

    channel: str
    week: date
    quiet: bool
    header_text: str
    header_buttons: list[Button]
    header: Posted | None  # posted already (an interrupted run)
    pending: list[int]  # sections not posted yet


@dataclass(slots=True)
class _ThreadView:
    """What a draft's review thread should show, read in one transaction."""

    header: Posted | None
    header_text: str
    header_buttons: list[Button]
    sections: list[_SectionView]
    gone: list[str]  # messages of sections the draft no longer has


class ReviewWorkflow:
    """Drafting, reviewing and publishing a workspace's weekly summary. `drafting` is the
    drafting service (default: one without GitHub or the LLM); `database` the core's;
    `page` hands out review-page links (None: the page is not enabled)."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        config: Config,
        port: ChatPort,
        clock: Clock = utcnow,
        *,
        drafting: DraftingService | None = None,
        database: Database | None = None,
        page: PageLinks | None = None,
    ) -> None:
        self.sessions = sessions
        self.page_links = page
        self.config = config
        self.port = port
        self.clock = clock
        self.db = database or Database(sessions)
        self.drafting = drafting or DraftingService(sessions, config, clock)
        self.locks = DraftLocks(self.db)

    # --- drafting -----------------------------------------------------------------------------

    async def draft_and_post(
        self,
        workspace_id: int,
        day: date,
        *,
        post_stored: bool = False,
        open_week: bool = False,
    ) -> Reply:
        """Draft the week holding `day` (once: a week already drafted is left alone, unless
        it was quiet and has messages now) and post it for review. Safe to run from two
        processes at once: one draft results.

        `post_stored` (an editor asking) also posts the week's draft when it is stored but
        not yet up for review; the scheduler leaves it to the process that drafted it. A
        week that has not ended is drafted only when `open_week` confirms it (an editor who
        was told); otherwise the answer says so and how to confirm."""
        week = await self.db.run(lambda session: self._week(session, workspace_id, day))
        if not open_week and week.end > self.clock():
            stored = await self.db.run(
                lambda session: get_draft(session, workspace_id, week.monday)
            )
            if stored is None:
                return Reply.refuse(_still_open(week))
        try:
            drafted = await self.drafting.draft(week, new_only=True)
        except DraftingError as error:
            return Reply.refuse(str(error))
        if drafted.draft_id is None:
            quiet = await self.db.run(lambda session: _quiet_but_logged(session, week))
            if quiet is not None:
                return await self._draft_quiet_again(week, *quiet)
            stored = await self.db.run(
                lambda session: get_draft(session, workspace_id, week.monday)
            )
            waiting = post_stored and _unposted(stored)
            if not waiting:
                return Reply(_already_drafted(week.monday, stored))
            return await self.post_for_review(waiting)
        self._count(drafted)
        return await self.post_for_review(drafted.draft_id)

    async def _draft_quiet_again(self, week: Week, draft_id: int, logged: int) -> Reply:
        """Draft again a week stored as quiet (nothing to review, so nobody reviewed it)
        that has messages now: what a first start drafted before any channel was logged.
        Its quiet note, if posted, becomes the draft's header."""
        async with self.locks.hold(draft_id) as held:
            if not held:
                return Reply(BUSY.format(doing="drafting"))
            if await self.db.run(lambda session: _quiet_but_logged(session, week)) is not None:
                try:
                    drafted = await self.drafting.draft(week)
                except DraftingError as error:
                    return Reply.refuse(str(error))
                self._count(drafted)
            view = await self.db.run(
                lambda session: self._thread_view(load_draft(session, draft_id))
            )
            if not view.sections:
                return Reply(
                    f"The week of {week.monday} was drafted again from the "
                    f"{counted(logged, 'message')} logged for it: nothing worth summarising."
                )
            if view.header is not None:  # the quiet note becomes the header
                await self.port.update(view.header, view.header_text, view.header_buttons)
        posted = await self.post_for_review(draft_id)
        again = (
            f"The week of {week.monday} was quiet when drafted and now has "
            f"{counted(logged, 'logged message')}, so it was drafted again."
        )
        return replace(posted, text=f"{again} {posted.text}")

    async def post_waiting(self, workspace_id: int) -> list[Reply]:
        """Post the workspace's drafts that are stored but not yet up for review (drafted
        while no review channel was set): what an admin setting one wants to see. A quiet
        one whose week has messages now is drafted again first."""
        waiting = await self.db.run(
            lambda session: [
                d.week_start for d in list_drafts(session, workspace_id) if _unposted(d) is not None
            ]
        )
        return [
            await self.draft_and_post(workspace_id, monday, post_stored=True)
            for monday in reversed(waiting)
        ]

    def _week(self, session: Session, workspace_id: int, day: date) -> Week:
        workspace = session.get_one(Workspace, workspace_id)
        settings = workspace_settings(session, self.config, workspace_id)
        return week_of(settings, workspace_id, workspace.name, day)

    @staticmethod
    def _count(drafted: Drafted) -> None:
        """Metrics and logs of one run of the drafting service."""
        metrics.DRAFTS_MADE.labels(drafted.drafter).inc()
        metrics.LLM_CALLS.inc(drafted.llm_requests)
        metrics.LLM_ERRORS.inc(drafted.llm_misses)
        if drafted.github is not None:
            metrics.GITHUB_CALLS.inc(drafted.github_requests)
            metrics.GITHUB_ERRORS.inc(len(drafted.github.unavailable))
            for (repo, number), problem in drafted.github.unavailable.items():
                log.warning("GitHub: %s#%s: %s", repo, number, problem)

    async def post_for_review(self, draft_id: int) -> Reply:
        """Post the draft's header in the review channel and one thread message per section.

        Each message is recorded as soon as it is posted, so an interrupted run resumes
        without posting anything twice; the draft's lock keeps two processes (or two tasks)
        from posting it at once."""
        return await self._holding(draft_id, "posting", self._post_for_review)

    async def _post_for_review(self, draft_id: int) -> Reply:
        def plan_of(session: Session) -> Reply | _ReviewPlan:
            draft = load_draft(session, draft_id)
            channel = workspace_settings(session, self.config, draft.workspace_id).review_channel
            if channel is None:
                return Reply.refuse(
                    "No review channel is set; an admin can set one with "
                    "`/summary review-channel #channel`. The draft is stored."
                )
            quiet = not draft.sections
            text, buttons = (
                (quiet_week_text(draft), [])
                if quiet
                else (header_text(draft), self._header_buttons(draft))
            )
            header = _header_of(draft)
            pending = [s.id for s in draft.sections if not s.review_message_ids]
            return _ReviewPlan(channel, draft.week_start, quiet, text, buttons, header, pending)

        plan = await self.db.run(plan_of)
        if isinstance(plan, Reply):
            return plan
        week, quiet, header = plan.week, plan.quiet, plan.header
        if header is None:
            header = await self.port.post(plan.channel, plan.header_text, plan.header_buttons)
            await self.db.run(lambda session: self._save_header(session, draft_id, header))
        pending = plan.pending
        if quiet:
            return Reply(f"The week of {week} was quiet: nothing to review.")
        for section_id in pending:
            messages = await self.db.run(partial(self._stored_messages, section_id=section_id))
            posted = [await self.port.reply(header, text, b) for text, b in messages]
            ids = [p.message_id for p in posted]
            await self.db.run(partial(self._save_ids, section_id=section_id, ids=ids))
        await self.db.run(
            lambda session: move_status(
                session, draft_id, {DraftStatus.DRAFTED}, DraftStatus.IN_REVIEW
            )
        )
        return Reply(f"The draft of the week of {week} is up for review.")

    # --- editing ------------------------------------------------------------------------------

    async def open_editor(
        self, workspace_id: int, caller: Caller, section_id: int, trigger_id: str
    ) -> Reply | None:
        """Open the platform's editor prefilled with the section's current text."""

        def read(session: Session) -> Reply | tuple[str, str]:
            granted = self._authorize(session, workspace_id, caller, section_id, Action.EDIT)
            if isinstance(granted, Reply):
                return granted
            section = granted.section
            assert section is not None  # a section action is granted with its section
            return section.title, section.markdown

        found = await self.db.run(read)
        if isinstance(found, Reply):
            return found
        title, text = found
        await self.port.open_editor(trigger_id, section_id, title, text)
        return None

    async def edit_section(
        self,
        workspace_id: int,
        caller: Caller,
        section_id: int | SectionRef,
        text: str,
        *,
        revision: int | None = None,
    ) -> Reply:
        """Replace a section's text: a new revision, and the thread message updated. The
        section is given by row id (buttons, modals, the page) or as an editor names it;
        `revision` as for `edit_draft_section`."""

        def edit(session: Session) -> Reply | tuple[str, int, _ThreadView]:
            section = edit_draft_section(
                session,
                self.config,
                workspace_id,
                caller,
                section_id,
                text,
                self.clock(),
                revision=revision,
            )
            if isinstance(section, Reply):
                return section
            view = self._thread_view(section.draft, only=section.id)
            return section_label(section), len(section.revisions), view

        done = await self.db.run(edit)
        if isinstance(done, Reply):
            return done
        named, count, view = done
        await self._show(view)
        return Reply(f"{named} updated (revision {count}).")

    def _authorize(
        self,
        session: Session,
        workspace_id: int,
        caller: Caller,
        target_id: int | SectionRef,
        action: Action,
    ) -> Granted | Reply:
        return authorize(session, self.config, workspace_id, caller, target_id, action)

    async def history(
        self, workspace_id: int, caller: Caller, section_id: int | SectionRef
    ) -> Reply:
        """The section's revisions, newest last (editors only); `section_id` as for
        `edit_section`."""

        def read(session: Session) -> Reply:
            granted = self._authorize(session, workspace_id, caller, section_id, Action.HISTORY)
            if isinstance(granted, Reply):
                return granted
            section = granted.section
            assert section is not None  # a section action is granted with its section
            if not section.revisions:
                return Reply(
                    f"{section_label(section)} has not been edited; it is the drafted text."
                )
            lines = [f"History of {section_label(section)}:"]
            for number, revision in enumerate(section.revisions, start=1):
                when = revision.created_at.strftime("%Y-%m-%d %H:%M UTC")
                lines.append(f"{number}. {revision.editor_name}, {when}: {revision.markdown}")
            return Reply("\n".join(lines))

        return await self.db.run(read)

    async def regenerate(self, workspace_id: int, caller: Caller, draft_id: int) -> Reply:
        """Draft the week again with late messages, keeping every section an editor touched,
        with the workspace's drafter (the LLM when it is set to `summarizer llm`)."""

        def check(session: Session) -> Reply | tuple[Week, dict[str, list[str]]]:
            granted = self._authorize(session, workspace_id, caller, draft_id, Action.REGENERATE)
            if isinstance(granted, Reply):
                return granted
            draft = granted.draft
            old = {s.topic: list(s.review_message_ids) for s in draft.sections}
            return self._week(session, draft.workspace_id, draft.week_start), old

        found = await self.db.run(check)
        if isinstance(found, Reply):
            return found
        week, old_messages = found

        def keep_thread(session: Session, draft: DraftRow) -> None:
            """New sections of topics the thread showed take over their messages."""
            if draft.review_message_id is None:
                return
            for section in draft.sections:
                if not section.review_message_ids and section.topic in old_messages:
                    section.review_message_ids = old_messages[section.topic]

        try:
            drafted = await self.drafting.draft(week, on_stored=keep_thread)
        except DraftingError as error:
            return Reply.refuse(str(error))
        self._count(drafted)

        def read(session: Session) -> tuple[int, _ThreadView]:
            draft = load_draft(session, draft_id)
            view = self._thread_view(draft)
            topics = {s.topic for s in draft.sections}
            view.gone = [m for t, ids in old_messages.items() if t not in topics for m in ids]
            return sum(1 for s in draft.sections if s.revisions), view

        kept, view = await self.db.run(read)
        done = (
            f"Draft regenerated; {counted(kept, 'edited section')} kept as the editors left "
            f"{'it' if kept == 1 else 'them'}."
        )
        if view.header is None:  # never posted (no review channel then): post it now
            posted = await self.post_for_review(draft_id)
            return replace(posted, text=f"{done} {posted.text}")
        await self._show(view, header_too=True)
        return Reply(done)

    # --- the review page ----------------------------------------------------------------------

    async def page_link(self, workspace_id: int, caller: Caller, draft_id: int) -> Reply:
        """A fresh signed link to the draft's review page, for the caller's eyes only."""
        if self.page_links is None:
            return Reply.refuse("The review page is not enabled on this bot.")
        links = self.page_links
        refusal = await self.may_view(workspace_id, caller, draft_id)
        if refusal is not None:
            return refusal
        url = links.url(caller.user_id, workspace_id, draft_id, self.clock())
        return Reply(
            f"Your review page for this draft (only for you; it opens once, within 24 hours): {url}"
        )

    async def may_view(self, workspace_id: int, caller: Caller, draft_id: int) -> Reply | None:
        """None when the caller may see the draft's page now, else the refusal."""
        granted = await self.db.run(
            lambda session: self._authorize(session, workspace_id, caller, draft_id, Action.VIEW)
        )
        return granted if isinstance(granted, Reply) else None

    async def page(self, workspace_id: int, caller: Caller, draft_id: int) -> DraftPage | Reply:
        """What the review page shows of the draft, if the caller may see it now."""
        return await self._viewed(
            workspace_id, caller, draft_id, lambda s, d: draft_page(s, self.config, d)
        )

    async def page_state(
        self, workspace_id: int, caller: Caller, draft_id: int
    ) -> DraftState | Reply:
        """The draft's status and section revisions, if the caller may see the page now: an
        open page polls it to show what was edited elsewhere (in the thread, say)."""
        return await self._viewed(workspace_id, caller, draft_id, draft_state)

    async def _viewed(
        self,
        workspace_id: int,
        caller: Caller,
        draft_id: int,
        show: Callable[[Session, DraftRow], T],
    ) -> T | Reply:
        def read(session: Session) -> T | Reply:
            granted = self._authorize(session, workspace_id, caller, draft_id, Action.VIEW)
            if isinstance(granted, Reply):
                return granted
            return show(session, granted.draft)

        return await self.db.run(read)

    # --- the thread ---------------------------------------------------------------------------

    async def show_drafts(self, draft_ids: Collection[int]) -> None:
        """Bring the review threads of `draft_ids` up to date with what is stored: after text
        was taken out of their sections (a member opted out, a message was deleted), so the
        thread no longer shows it. A thread the platform refuses to update is logged and the
        others are still done: the stored draft is what gets approved and published."""
        for draft_id in sorted(draft_ids):
            view = await self.db.run(partial(self._stored_view, draft_id=draft_id))
            try:
                await self._show(view, header_too=True)
            except Exception:
                log.exception("the review thread of draft %s could not be updated", draft_id)

    def _thread_view(self, draft: DraftRow, only: int | None = None) -> _ThreadView:
        """What the thread should show of `draft` (of section `only`, when given)."""
        header = _header_of(draft)
        sections = [
            _SectionView(s.id, self._messages(s), list(s.review_message_ids))
            for s in draft.sections
            if only is None or s.id == only
        ]
        return _ThreadView(header, header_text(draft), self._header_buttons(draft), sections, [])

    def _header_buttons(self, draft: DraftRow) -> list[Button]:
        buttons = header_buttons(draft)
        return buttons + [page_button(draft)] if self.page_links is not None else buttons

    async def _show(self, view: _ThreadView, *, header_too: bool = False) -> None:
        """Bring the thread up to date: update the header (`header_too`), each section's
        messages (adding or blanking chunks when the text grew or shrank) and blank the
        messages of sections that are gone; then record where each section now is."""
        header = view.header
        if header is None:
            return
        if header_too:
            await self.port.update(header, view.header_text, view.header_buttons)
        placed: dict[int, list[str]] = {}
        for section in view.sections:
            ids = list(section.ids)
            for index, (text, buttons) in enumerate(section.messages):
                if index < len(ids):
                    here = Posted(header.channel_id, ids[index], header.message_id)
                    await self.port.update(here, text, buttons)
                else:
                    ids.append((await self.port.reply(header, text, buttons)).message_id)
            for stale in ids[len(section.messages) :]:
                await self.port.update(
                    Posted(header.channel_id, stale, header.message_id), CONTINUED
                )
            if ids != section.ids:
                placed[section.section_id] = ids
        for message_id in view.gone:
            await self.port.update(Posted(header.channel_id, message_id, header.message_id), GONE)
        if placed:

            def record(session: Session) -> None:
                for section_id, ids in placed.items():
                    self._save_ids(session, section_id, ids)

            await self.db.run(record)

    def _messages(self, section: DraftSection) -> Messages:
        return section_messages(section, self.port.max_message_chars)

    def _stored_messages(self, session: Session, section_id: int) -> Messages:
        return self._messages(load_section(session, section_id))

    def _stored_view(self, session: Session, draft_id: int) -> _ThreadView:
        return self._thread_view(load_draft(session, draft_id))

    @staticmethod
    def _save_header(session: Session, draft_id: int, header: Posted) -> None:
        draft = load_draft(session, draft_id)
        draft.review_channel_id = header.channel_id
        draft.review_message_id = header.message_id

    @staticmethod
    def _save_ids(session: Session, section_id: int, ids: list[str]) -> None:
        load_section(session, section_id).review_message_ids = ids

    # --- approval and publishing --------------------------------------------------------------

    async def approve(self, workspace_id: int, caller: Caller, draft_id: int) -> Reply:
        """An editor's approval, then publishing."""

        def approve(session: Session) -> Reply | tuple[Posted | None, str]:
            draft = approve_draft(
                session, self.config, workspace_id, draft_id, caller, self.clock()
            )
            if isinstance(draft, Reply):
                return draft
            return _header_of(draft), header_text(draft)

        done = await self.db.run(approve)
        if isinstance(done, Reply):
            return done
        header, text = done
        if header is not None:
            await self.port.update(header, text)
        return await self.publish(draft_id)

    async def ask(self, workspace_id: int, caller: Caller, action_id: str) -> Reply:
        """What a header button that cannot be undone (Approve, Discard) asks before its
        press counts, with Confirm and Cancel: for platforms without a confirm dialog. Asked
        only of someone who may press it now."""
        action, _, raw_id = action_id.partition(":")
        if action not in (Action.APPROVE, Action.DISCARD) or not raw_id.isdigit():
            return Reply.refuse("That button is not one of mine.")

        def read(session: Session) -> Reply | Button:
            granted = self._authorize(session, workspace_id, caller, int(raw_id), Action(action))
            if isinstance(granted, Reply):
                return granted
            buttons = self._header_buttons(granted.draft)
            return next(b for b in buttons if b.action_id == action_id)

        button = await self.db.run(read)
        if isinstance(button, Reply):
            return button
        assert button.confirm is not None
        answers = (Button("Confirm", action_id), Button("Cancel", f"{CANCEL}:{raw_id}"))
        return Reply(button.confirm, buttons=answers)

    async def publish_as(self, workspace_id: int, caller: Caller, draft_id: int) -> Reply:
        """Publish (or finish publishing) an approved summary when an editor asks."""
        granted = await self.db.run(
            lambda session: self._authorize(session, workspace_id, caller, draft_id, Action.PUBLISH)
        )
        if isinstance(granted, Reply):
            return granted
        return await self.publish(draft_id)

    async def publish(self, draft_id: int) -> Reply:
        """Post the approved summary to every publish channel, in order, exactly once.

        Each delivered chunk is recorded as it goes, so after a crash this resumes with the
        first chunk not yet delivered; the draft's lock keeps two processes (or two tasks)
        from publishing it at once."""
        return await self._holding(draft_id, "publishing", self._publish)

    async def _holding(
        self, draft_id: int, doing: str, work: Callable[[int], Awaitable[Reply]]
    ) -> Reply:
        """`work(draft_id)` under the draft's lock; told so when another process holds it."""
        async with self.locks.hold(draft_id) as held:
            return await work(draft_id) if held else Reply(BUSY.format(doing=doing))

    async def _publish(self, draft_id: int) -> Reply:
        def read(session: Session) -> Reply | tuple[str, list[str]]:
            draft = get_draft_by_id(session, draft_id)
            if draft is None or draft.status not in LOCKED:
                return Reply.refuse("Only an approved summary is published.")
            if blocking_flags(draft):  # flagged after approval: never publish removed text
                return Reply.refuse(_blocked(blocking_flags(draft)))
            settings = workspace_settings(session, self.config, draft.workspace_id)
            if not settings.publish_channels:
                return Reply.refuse(NO_PUBLISH_CHANNEL + " The summary stays approved.")
            return published_markdown(draft), list(settings.publish_channels)

        found = await self.db.run(read)
        if isinstance(found, Reply):
            return found
        markdown, channels = found
        chunks = chunk(markdown, self.port.max_message_chars)
        for channel_id in channels:
            done = await self.db.run(partial(delivered, draft_id=draft_id, channel_id=channel_id))
            for position, text in enumerate(chunks):
                if position in done:
                    continue
                try:
                    posted = await self.port.post(channel_id, text)
                except Exception:
                    metrics.PUBLISH_FAILURES.inc()
                    raise
                await self.db.run(
                    partial(
                        record_delivery,
                        draft_id=draft_id,
                        channel_id=channel_id,
                        position=position,
                        platform_message_id=posted.message_id,
                        at=self.clock(),
                    )
                )

        def finish(session: Session) -> tuple[Posted | None, str]:
            draft = load_draft(session, draft_id)
            mark_published(draft, markdown, self.clock())
            return _header_of(draft), header_text(draft)

        header, text = await self.db.run(finish)
        if header is not None:
            await self.port.update(header, text)
        return Reply(
            f"Published to {counted(len(channels), 'channel')} in "
            f"{counted(len(chunks), 'message')}."
        )

    async def discard(self, workspace_id: int, caller: Caller, draft_id: int) -> Reply:
        """Drop a draft that will not be published (editors only)."""

        def discard(session: Session) -> Reply | tuple[Reply, Posted | None, str]:
            granted = self._authorize(session, workspace_id, caller, draft_id, Action.DISCARD)
            if isinstance(granted, Reply):
                return granted
            draft = granted.draft
            if not move_status(session, draft.id, EDITABLE, DraftStatus.DISCARDED):
                session.refresh(draft)  # approved meanwhile, in another process
                return Reply.refuse(
                    f"The summary of the week of {draft.week_start} is already "
                    f"{draft.status.words}."
                )
            session.refresh(draft)
            header = None
            if draft.review_message_id is not None and draft.review_channel_id is not None:
                header = Posted(draft.review_channel_id, draft.review_message_id)
            done = Reply(f"The draft of the week of {draft.week_start} was discarded.")
            return done, header, header_text(draft)

        discarded = await self.db.run(discard)
        if isinstance(discarded, Reply):
            return discarded
        done, header, text = discarded
        if header is not None:  # the header says so, and offers no buttons any more
            await self.port.update(header, text)
        return done


def edit_draft_section(
    session: Session,
    config: Config,
    workspace_id: int,
    caller: Caller,
    section_id: int | SectionRef,
    text: str,
    at: datetime,
    *,
    revision: int | None = None,
) -> DraftSection | Reply:
    """Replace a section's text with a new revision by `caller` (every edit, from chat, the
    review page or the CLI, is made here), or say why not and change nothing. `revision`,
    when given, is the number of edits the editor saw: if someone edited the section since,
    nothing changes and the editor is told."""
    text = text.strip()
    if not text:
        return Reply.refuse("The new text is empty; the section was not changed.")
    if len(text) > MAX_SECTION_CHARS:
        return Reply.refuse(
            f"The new text is {len(text):,} characters; a section holds at most "
            f"{MAX_SECTION_CHARS:,}. The section was not changed."
        )
    granted = authorize(session, config, workspace_id, caller, section_id, Action.EDIT)
    if isinstance(granted, Reply):
        return granted
    section = granted.section
    assert section is not None  # a section action is granted with its section
    if revision is not None and revision != len(section.revisions):
        return Reply.refuse(
            f"{section.title} was edited by {section.revisions[-1].editor_name} while "
            f"you were editing it (it is now at revision {len(section.revisions)}); "
            "your text was not saved. It is kept below: merge it and save again."
        )
    add_revision(
        session,
        section,
        editor_id=caller.user_id,
        editor_name=caller.display_name,
        at=at,
        markdown=text,
    )
    return section


def approve_draft(
    session: Session,
    config: Config,
    workspace_id: int,
    draft_id: int,
    caller: Caller,
    at: datetime,
    *,
    needs_channel: bool = True,
) -> DraftRow | Reply:
    """Mark a draft of workspace `workspace_id` approved by `caller` (the draft), or say why
    not and change nothing (the refusal). A draft that will be published to a file
    (`needs_channel` False) is approved without a publish channel."""
    granted = authorize(session, config, workspace_id, caller, draft_id, Action.APPROVE)
    if isinstance(granted, Reply):
        return granted
    if blocking_flags(granted.draft):
        return Reply.refuse(_blocked(blocking_flags(granted.draft)))
    if needs_channel and not granted.settings.publish_channels:
        return Reply.refuse(NO_PUBLISH_CHANNEL + " The draft was not approved.")
    draft = granted.draft
    approved = move_status(
        session,
        draft.id,
        EDITABLE,
        DraftStatus.APPROVED,
        approved_by=caller.display_name,
        approved_at=at,
    )
    if not approved:  # another editor's approval committed first
        session.refresh(draft)
        return Reply.refuse(
            f"The summary of the week of {draft.week_start} is already {draft.status.words}."
        )
    return draft


def _header_of(draft: DraftRow) -> Posted | None:
    """The draft's header message in the review thread; None before it is posted."""
    if draft.review_channel_id is None or not draft.review_message_id:
        return None
    return Posted(draft.review_channel_id, draft.review_message_id)


def mark_published(draft: DraftRow, markdown: str, at: datetime) -> None:
    """Record that `draft` was published as `markdown` (the first time counts)."""
    draft.status = DraftStatus.PUBLISHED
    draft.published_at = draft.published_at or at
    draft.published_markdown = markdown


def _quiet_but_logged(session: Session, week: Week) -> tuple[int, int] | None:
    """(draft id, messages logged) when the week's draft is quiet (no sections), may still
    change, and messages of the week are stored now."""
    draft = get_draft(session, week.workspace_id, week.monday)
    if draft is None or draft.sections or draft.status not in EDITABLE:
        return None
    logged = count_messages(session, week.workspace_id, (week.start, week.end))
    return (draft.id, logged) if logged else None


def _still_open(week: Week) -> str:
    """What `/summary draft` says of a week that has not ended, and how to draft it anyway."""
    return (
        f"The week of {week.monday} has not ended: it runs until {week.end:%Y-%m-%d %H:%M} "
        f"({week.end.tzname()}), and a draft now leaves out what is said until then. To draft "
        f"it anyway: `/summary draft {week.monday} --open`. Nothing was drafted."
    )


def _already_drafted(monday: date, draft: DraftRow | None) -> str:
    """What `/summary draft` says of a week it leaves alone, and what would draft it again."""
    if draft is None:  # purged since: too old to draft
        return f"The week of {monday} is already drafted."
    said = f"The week of {monday} is already drafted (draft {draft.id}, "
    if draft.status not in EDITABLE:
        return said + f"{draft.status.words})."
    return (
        said + f"{draft.status.words}); `/summary regenerate` drafts it again with the messages "
        "logged since, keeping edited sections."
    )


def _unposted(draft: DraftRow | None) -> int | None:
    """The draft's id if it is stored but not yet up for review."""
    return draft.id if draft is not None and draft.status == DraftStatus.DRAFTED else None


def _blocked(flags: list[str]) -> str:
    return (
        "Not approved: edit these flagged sections first (or Regenerate the draft): "
        + "; ".join(flags)
    )
