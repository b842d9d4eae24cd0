"""The life of a weekly draft, written once against the `ChatPort`:
draft -> post for review -> edit / regenerate -> approve -> publish (or discard).

State lives in the database; buttons carry the draft or section id in their action id, so
everything keeps working after a restart. Nothing is published without an editor's approval.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta

from sqlalchemy.orm import Session, sessionmaker

from bot.core import metrics
from bot.core.chunking import chunk
from bot.core.port import Button, Caller, ChatPort, Posted, Reply
from bot.core.settings import WorkspaceSettings, workspace_settings
from bot.drafting.compose import DraftingError, draft_week
from bot.drafting.config import Config
from bot.drafting.github.client import GitHubClient
from bot.drafting.github.refresh import refresh_week
from bot.drafting.llm.week import MakeClient, draft_week_llm
from storage.drafts import (
    add_revision,
    claim_draft,
    delivered,
    get_draft_by_id,
    get_section,
    record_delivery,
)
from storage.models import EDITABLE, LOCKED, DraftRow, DraftSection, DraftStatus, Workspace
from summarizer.text import defuse_pings

log = logging.getLogger(__name__)

MAX_LINKS_SHOWN = 10


def utcnow() -> datetime:
    return datetime.now(UTC)


class ReviewWorkflow:
    """Drafting, reviewing and publishing a workspace's weekly summary."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        config: Config,
        port: ChatPort,
        clock: Callable[[], datetime] = utcnow,
        github: Callable[[], GitHubClient] | None = None,
        llm: MakeClient | None = None,
    ) -> None:
        self.sessions = sessions
        self.config = config
        self.port = port
        self.clock = clock
        self.github = github  # makes a GitHub client, when PR details are looked up
        self.llm = llm  # makes an LLM client, for workspaces that draft with the LLM

    # --- drafting -----------------------------------------------------------------------------

    async def draft_and_post(self, workspace_id: int, day: date) -> Reply:
        """Draft the week holding `day` (once: a week already drafted is left alone) and post
        it for review. Safe to run from two processes at once: one draft results."""
        monday = day - timedelta(days=day.weekday())
        await self.refresh_github(workspace_id, monday)
        try:
            draft_id = await asyncio.to_thread(self._create_draft, workspace_id, monday)
        except DraftingError as error:
            return Reply.refuse(str(error))
        if draft_id is None:
            return Reply(f"The week of {monday} is already drafted.")
        await self._rewrite_with_llm(workspace_id, monday)
        return await self.post_for_review(draft_id)

    async def _rewrite_with_llm(self, workspace_id: int, monday: date) -> None:
        """When the workspace drafts with the LLM: rewrite the stored extractive draft (edited
        sections are kept); the extractive text stays wherever the model falls short."""
        if self.llm is None:
            return
        with self.sessions() as session:
            if workspace_settings(session, self.config, workspace_id).summarizer != "llm":
                return
        await draft_week_llm(self.sessions, self.config, workspace_id, monday, self.llm)

    def _create_draft(self, workspace_id: int, monday: date) -> int | None:
        """Claim the week, then draft it; None if another run (or process) has it."""
        with self.sessions.begin() as session:
            if claim_draft(session, workspace_id, monday, "", self.clock()) is None:
                return None
            workspace = session.get(Workspace, workspace_id)
            return draft_week(session, self.config, workspace, monday).id

    async def refresh_github(self, workspace_id: int, monday: date) -> None:
        """Update the cached PR details for the week; what GitHub cannot answer stays missing
        (the draft notes it) and never delays the draft beyond the client's timeouts."""
        if not self.config.github.enabled or self.github is None:
            return
        async with self.github() as client:
            report = await refresh_week(
                self.sessions, self.config, client, workspace_id, monday, self.clock()
            )
        metrics.GITHUB_CALLS.inc(client.requests_made)
        metrics.GITHUB_ERRORS.inc(len(report.unavailable))
        for (repo, number), problem in report.unavailable.items():
            log.warning("GitHub: %s#%s: %s", repo, number, problem)

    async def post_for_review(self, draft_id: int) -> Reply:
        """Post the draft's header in the review channel and one thread message per section.

        Each message is recorded as soon as it is posted, so an interrupted run resumes
        without posting anything twice."""
        with self.sessions.begin() as session:
            draft = get_draft_by_id(session, draft_id)
            review_channel = self._settings(session, draft.workspace_id).review_channel
            if review_channel is None:
                return Reply.refuse(
                    "No review channel is set; an admin can set one with "
                    "`/summary review-channel #channel`. The draft is stored."
                )
            week, quiet = draft.week_start, not draft.sections
            header_text, buttons = self._header_text(draft), self._header_buttons(draft)
            if quiet:
                header_text, buttons = self._quiet_week_text(draft), []
            header = draft.review_message_id and Posted(
                draft.review_channel_id, draft.review_message_id
            )
            pending = [s.id for s in draft.sections if not s.review_message_ids]
        if not header:
            header = await self.port.post(review_channel, header_text, buttons)
            with self.sessions.begin() as session:
                draft = get_draft_by_id(session, draft_id)
                draft.review_channel_id = header.channel_id
                draft.review_message_id = header.message_id
        if quiet:
            return Reply(f"The week of {week} was quiet: nothing to review.")
        for section_id in pending:
            with self.sessions.begin() as session:
                messages = self._section_messages(get_section(session, section_id))
            posted = [await self.port.reply(header, text, b) for text, b in messages]
            with self.sessions.begin() as session:
                get_section(session, section_id).review_message_ids = [p.message_id for p in posted]
        with self.sessions.begin() as session:
            get_draft_by_id(session, draft_id).status = DraftStatus.IN_REVIEW
        return Reply(f"The draft of the week of {week} is up for review.")

    @staticmethod
    def _quiet_week_text(draft: DraftRow) -> str:
        end = draft.week_start + timedelta(days=6)
        return (
            f"**{draft.title}**\nA quiet week: nothing worth summarising was logged between "
            f"{draft.week_start} and {end}."
        )

    # --- editing ------------------------------------------------------------------------------

    async def open_editor(self, caller: Caller, section_id: int, trigger_id: str) -> Reply | None:
        """Open the platform's editor prefilled with the section's current text."""
        with self.sessions.begin() as session:
            section, refusal = self._editable_section(session, caller, section_id)
            if refusal:
                return refusal
            title, text = section.title, section.markdown
        await self.port.open_editor(trigger_id, section_id, title, text)
        return None

    async def edit_section(self, caller: Caller, section_id: int, text: str) -> Reply:
        """Replace a section's text: a new revision, and the thread message updated."""
        text = text.strip()
        if not text:
            return Reply.refuse("The new text is empty; the section was not changed.")
        with self.sessions.begin() as session:
            section, refusal = self._editable_section(session, caller, section_id)
            if refusal:
                return refusal
            add_revision(
                session,
                section,
                editor_id=caller.user_id,
                editor_name=caller.display_name,
                at=self.clock(),
                markdown=text,
            )
            await self._refresh_section(session, section)
            count = len(section.revisions)
            title = section.title
        return Reply(f"{title} updated (revision {count}).")

    def _editable_section(
        self, session: Session, caller: Caller, section_id: int
    ) -> tuple[DraftSection | None, Reply | None]:
        section = get_section(session, section_id)
        if section is None:
            return None, Reply.refuse(f"There is no section {section_id}.")
        draft = section.draft
        if not self._settings(session, draft.workspace_id).is_editor(caller):
            return None, Reply.refuse("Only editors can edit the summary.")
        if draft.status not in EDITABLE:
            return None, Reply.refuse(
                f"The summary of the week of {draft.week_start} is already {draft.status}; "
                "it can no longer be edited."
            )
        return section, None

    def history(self, caller: Caller, section_id: int) -> Reply:
        """The section's revisions, newest last (editors only)."""
        with self.sessions.begin() as session:
            section = get_section(session, section_id)
            if section is None:
                return Reply.refuse(f"There is no section {section_id}.")
            if not self._settings(session, section.draft.workspace_id).is_editor(caller):
                return Reply.refuse("Only editors can see a section's history.")
            if not section.revisions:
                return Reply(f"{section.title} has not been edited; it is the drafted text.")
            lines = [f"History of {section.title}:"]
            for number, revision in enumerate(section.revisions, start=1):
                when = revision.created_at.strftime("%Y-%m-%d %H:%M UTC")
                lines.append(f"{number}. {revision.editor_name}, {when}: {revision.markdown}")
        return Reply("\n".join(lines))

    async def regenerate(self, caller: Caller, draft_id: int) -> Reply:
        """Draft the week again with late messages, keeping every section an editor touched."""
        with self.sessions() as session:
            draft = get_draft_by_id(session, draft_id)
            if draft is not None:
                await self.refresh_github(draft.workspace_id, draft.week_start)
        with self.sessions.begin() as session:
            draft, refusal = open_draft(session, self.config, draft_id, caller, "regenerate")
            if refusal:
                return refusal
            old_messages = {s.topic: list(s.review_message_ids) for s in draft.sections}
            workspace = session.get(Workspace, draft.workspace_id)
            draft = draft_week(session, self.config, workspace, draft.week_start)
            posted = draft.review_message_id is not None
            for section in draft.sections:
                if posted and not section.review_message_ids and section.topic in old_messages:
                    section.review_message_ids = old_messages[section.topic]
            if posted:
                header = Posted(draft.review_channel_id, draft.review_message_id)
                await self.port.update(
                    header, self._header_text(draft), self._header_buttons(draft)
                )
                for section in draft.sections:
                    await self._refresh_section(session, section)
                for topic, ids in old_messages.items():
                    if topic not in {s.topic for s in draft.sections}:
                        for message_id in ids:
                            await self.port.update(
                                Posted(draft.review_channel_id, message_id, header.message_id),
                                "_(This section is gone from the regenerated draft.)_",
                            )
            kept = sum(1 for s in draft.sections if s.revisions)
        return Reply(f"Draft regenerated; {kept} edited section(s) kept as the editors left them.")

    async def _refresh_section(self, session: Session, section: DraftSection) -> None:
        """Show the section's current text in its thread message(s), adding or blanking
        chunks when the text grew or shrank."""
        draft = section.draft
        if draft.review_message_id is None:
            return
        header = Posted(draft.review_channel_id, draft.review_message_id)
        messages = self._section_messages(section)
        ids = list(section.review_message_ids)
        for index, (text, buttons) in enumerate(messages):
            if index < len(ids):
                await self.port.update(
                    Posted(draft.review_channel_id, ids[index], header.message_id), text, buttons
                )
            else:
                ids.append((await self.port.reply(header, text, buttons)).message_id)
        for stale in ids[len(messages) :]:
            await self.port.update(
                Posted(draft.review_channel_id, stale, header.message_id), "_(continued above)_"
            )
        section.review_message_ids = ids[: max(len(messages), len(ids))]
        session.flush()

    # --- approval and publishing --------------------------------------------------------------

    async def approve(self, caller: Caller, draft_id: int) -> Reply:
        """An editor's approval, then publishing."""
        with self.sessions.begin() as session:
            draft, refusal = approve_draft(session, self.config, draft_id, caller, self.clock())
            if refusal:
                return refusal
            if draft.review_message_id is not None:
                await self.port.update(
                    Posted(draft.review_channel_id, draft.review_message_id),
                    self._header_text(draft),
                )
        return await self.publish(draft_id)

    async def publish(self, draft_id: int) -> Reply:
        """Post the approved summary to every publish channel, in order, exactly once.

        Each delivered chunk is recorded as it goes, so after a crash this resumes with the
        first chunk not yet delivered."""
        with self.sessions.begin() as session:
            draft = get_draft_by_id(session, draft_id)
            if draft is None or draft.status not in LOCKED:
                return Reply.refuse("Only an approved summary is published.")
            settings = self._settings(session, draft.workspace_id)
            markdown = published_markdown(draft)
            channels = list(settings.publish_channels)
        chunks = chunk(markdown, self.port.max_message_chars)
        for channel_id in channels:
            with self.sessions.begin() as session:
                done = delivered(session, draft_id, channel_id)
            for position, text in enumerate(chunks):
                if position in done:
                    continue
                try:
                    posted = await self.port.post(channel_id, text)
                except Exception:
                    metrics.PUBLISH_FAILURES.inc()
                    raise
                with self.sessions.begin() as session:
                    record_delivery(
                        session,
                        draft_id=draft_id,
                        channel_id=channel_id,
                        position=position,
                        platform_message_id=posted.message_id,
                        at=self.clock(),
                    )
        with self.sessions.begin() as session:
            draft = get_draft_by_id(session, draft_id)
            draft.status = DraftStatus.PUBLISHED
            draft.published_at = draft.published_at or self.clock()
            draft.published_markdown = markdown
        return Reply(f"Published to {len(channels)} channel(s) in {len(chunks)} message(s).")

    async def discard(self, caller: Caller, draft_id: int) -> Reply:
        """Drop a draft that will not be published (editors only)."""
        with self.sessions.begin() as session:
            draft, refusal = open_draft(session, self.config, draft_id, caller, "discard")
            if refusal:
                return refusal
            draft.status = DraftStatus.DISCARDED
        return Reply(f"The draft of the week of {draft.week_start} was discarded.")

    # --- rendering ----------------------------------------------------------------------------

    def _settings(self, session: Session, workspace_id: int) -> WorkspaceSettings:
        return workspace_settings(session, self.config, workspace_id)

    @staticmethod
    def _header_text(draft: DraftRow) -> str:
        prs = {p for s in draft.sections for p in s.prs}
        people = {p for s in draft.sections for p in s.people}
        end = draft.week_start + timedelta(days=6)
        lines = [
            f"**{draft.title}**: draft {draft.id}, {draft.status.words}",
            f"Week {draft.week_start} to {end}: {len(draft.sections)} sections, "
            f"{len(prs)} PRs, {len(people)} people.",
        ]
        if draft.status == DraftStatus.APPROVED:
            lines.append(f"Approved by {draft.approved_by}; publishing.")
        else:
            lines.append(
                "Edit a section with its Edit button (or `/summary edit SECTION text`), then "
                "Approve. Regenerate drafts the week again with late messages and keeps "
                "edited sections."
            )
        lines += [f"Note: {note}" for note in draft.notes]
        flagged = sum(1 for s in draft.sections if s.flags)
        if flagged:
            lines.append(f"{flagged} section(s) need a look: see their notes in the thread.")
        return "\n".join(lines)

    @staticmethod
    def _header_buttons(draft: DraftRow) -> list[Button]:
        return [
            Button("Approve", f"approve:{draft.id}"),
            Button("Regenerate", f"regenerate:{draft.id}"),
        ]

    def _section_messages(self, section: DraftSection) -> list[tuple[str, list[Button]]]:
        """The section as thread messages: its text, then links to its sources, chunked to
        the platform's limit; the buttons go on the last chunk."""
        edited = f", edited {len(section.revisions)}x" if section.revisions else ""
        drafter = f", drafted by the {section.drafter} drafter"
        parts = [f"**{section.title}** (section {section.id}{drafter}{edited})", section.markdown]
        if section.flags:
            parts.append("Needs a look: " + "; ".join(section.flags))
        if section.warnings:
            parts.append("Check: " + "; ".join(section.warnings))
        if section.links:
            shown = section.links[:MAX_LINKS_SHOWN]
            more = len(section.links) - len(shown)
            sources = " ".join(f"[{n}]({url})" for n, url in enumerate(shown, start=1))
            parts.append(f"Sources: {sources}" + (f" and {more} more" if more > 0 else ""))
        texts = chunk(defuse_pings("\n\n".join(parts)), self.port.max_message_chars)
        buttons = [
            Button("Edit", f"edit:{section.id}"),
            Button("History", f"history:{section.id}"),
        ]
        return [(text, buttons if i == len(texts) - 1 else []) for i, text in enumerate(texts)]


def open_draft(
    session: Session, config: Config, draft_id: int, caller: Caller, action: str
) -> tuple[DraftRow | None, Reply | None]:
    """The draft if `caller` may `action` it now, else the refusal to give them."""
    draft = get_draft_by_id(session, draft_id)
    if draft is None:
        return None, Reply.refuse(f"There is no draft {draft_id}.")
    if not workspace_settings(session, config, draft.workspace_id).is_editor(caller):
        noun = "the summary" if action == "approve" else "the draft"
        return None, Reply.refuse(f"Only editors can {action} {noun}.")
    if draft.status not in EDITABLE:
        return None, Reply.refuse(
            f"The summary of the week of {draft.week_start} is already {draft.status}."
        )
    return draft, None


def approve_draft(
    session: Session, config: Config, draft_id: int, caller: Caller, at: datetime
) -> tuple[DraftRow | None, Reply | None]:
    """Mark a draft approved by `caller`, or say why not (and change nothing)."""
    draft, refusal = open_draft(session, config, draft_id, caller, "approve")
    if refusal:
        return None, refusal
    if not workspace_settings(session, config, draft.workspace_id).publish_channels:
        return None, Reply.refuse(
            "No publish channel is set; an admin can add one with "
            "`/summary publish add #channel`. The draft was not approved."
        )
    draft.status = DraftStatus.APPROVED
    draft.approved_by = caller.display_name
    draft.approved_at = at
    return draft, None


def published_markdown(draft: DraftRow) -> str:
    """The summary as published: title, then each section's current text; nobody pinged."""
    parts = [f"# {draft.title}"]
    parts += [f"## {s.title}\n\n{s.markdown}" for s in draft.sections]
    return defuse_pings("\n\n".join(parts)) + "\n"
