"""An editor arranging a draft on the review page: adding a section, deleting one (it stays
stored, with its history), moving one up or down. Each goes through
`bot.core.access.authorize` and then brings the review thread up to date; publishing
follows the draft's order (`DraftRow.sections`)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TypeVar

from sqlalchemy.orm import Session

from bot.core.access import Action, authorize, no_such
from bot.core.left_out import left_out, newsletter_line
from bot.core.port import Caller, Posted, Reply
from bot.core.review import GONE, MAX_SECTION_CHARS, ReviewWorkflow
from storage.drafts import add_revision
from storage.models import DraftSection
from storage.sections import add_section as store_section
from storage.sections import delete_section as drop_section
from storage.sections import move_section as store_move

T = TypeVar("T")
log = logging.getLogger(__name__)
MAX_TITLE_CHARS = 200  # the column's size


async def add_section(
    review: ReviewWorkflow, workspace_id: int, caller: Caller, draft_id: int, title: str, text: str
) -> Reply:
    """Add a last section to the draft, titled `title`, with `text` as its first revision."""
    title, text = " ".join(title.split()), text.strip()
    if not title:
        return Reply.refuse("The new section needs a title; nothing was added.")
    if len(title) > MAX_TITLE_CHARS:
        return Reply.refuse(
            f"The title is {len(title):,} characters, over the {MAX_TITLE_CHARS}; nothing "
            "was added."
        )
    if not text:
        return Reply.refuse(f"The text of {title} is empty; nothing was added.")
    if len(text) > MAX_SECTION_CHARS:
        return Reply.refuse(
            f"The text is {len(text):,} characters; a section holds at most "
            f"{MAX_SECTION_CHARS:,}. Nothing was added."
        )

    def add(session: Session) -> Reply:
        granted = authorize(
            session, review.config, workspace_id, caller, draft_id, Action.ADD_SECTION
        )
        if isinstance(granted, Reply):
            return granted
        store_section(
            session,
            granted.draft,
            title=title,
            markdown=text,
            editor_id=caller.user_id,
            editor_name=caller.display_name,
            at=review.clock(),
        )
        return Reply(f"{title} added as the last section.")

    reply = await review.db.run(add)
    if reply.ok:
        await review.show_drafts([draft_id])
    return reply


async def delete_section(
    review: ReviewWorkflow, workspace_id: int, caller: Caller, draft_id: int, section_id: int
) -> Reply:
    """Take a section out of the draft; its messages in the thread say it is gone."""

    def delete(session: Session, section: DraftSection) -> tuple[Reply, list[Posted]]:
        draft = section.draft
        gone = []
        if draft.review_message_id is not None and draft.review_channel_id is not None:
            gone = [
                Posted(draft.review_channel_id, message_id, draft.review_message_id)
                for message_id in section.review_message_ids
            ]
        drop_section(session, section, by=caller.display_name, at=review.clock())
        return Reply(f"{section.title} was deleted; its text stays in the page's history."), gone

    done = await _on_section(review, workspace_id, caller, draft_id, section_id, delete)
    if isinstance(done, Reply):
        return done
    reply, gone = done
    for message in gone:
        try:
            await review.port.update(message, GONE)
        except Exception:  # the deletion stands; the thread is a view of it
            log.exception("a deleted section's thread message could not be updated")
    await review.show_drafts([draft_id])
    return reply


async def move_section(
    review: ReviewWorkflow,
    workspace_id: int,
    caller: Caller,
    draft_id: int,
    section_id: int,
    offset: int,
) -> Reply:
    """Move a section `offset` places (negative: up) in the draft's order."""

    def move(session: Session, section: DraftSection) -> tuple[Reply, None]:
        if not store_move(session, section, offset):
            return Reply.refuse(f"{section.title} is already {_end(offset)}."), None
        place = section.draft.sections.index(section) + 1
        count = len(section.draft.sections)
        return Reply(f"{section.title} moved {_way(offset)}: now section {place} of {count}."), None

    done = await _on_section(review, workspace_id, caller, draft_id, section_id, move)
    return done if isinstance(done, Reply) else done[0]


async def pull_in(
    review: ReviewWorkflow,
    workspace_id: int,
    caller: Caller,
    draft_id: int,
    section_id: int,
    message_id: str,
    text: str,
    revision: int,
) -> Reply:
    """Add a message the drafter left out of the section's topic to `text` (the section's
    text as the editor has it, unsaved changes included) as a newsletter line, and save
    that as a new revision; the message becomes one of the section's sources. `revision`
    is the number of edits the editor saw: if someone edited the section since, nothing
    changes."""

    def pull(session: Session, section: DraftSection) -> tuple[Reply, None]:
        if revision != len(section.revisions):
            return Reply.refuse(
                f"{section.title} was edited by {section.revisions[-1].editor_name} "
                f"meanwhile (it is now at revision {len(section.revisions)}); nothing was "
                "added. Your text is kept below: merge it and try again."
            ), None
        message = left_out(session, review.config, section.draft).find(section.topic, message_id)
        if message is None:
            return Reply.refuse(
                f"That message is no longer left out of {section.title} (it was added, "
                "deleted, or its author opted out); nothing was added."
            ), None
        body = text.strip()
        gap = "\n" if body.splitlines() and body.splitlines()[-1].startswith("- ") else "\n\n"
        markdown = f"{body}{gap}{newsletter_line(message)}" if body else newsletter_line(message)
        if len(markdown) > MAX_SECTION_CHARS:
            return Reply.refuse(
                f"{section.title} would be over the {MAX_SECTION_CHARS:,} characters a "
                "section holds; nothing was added."
            ), None
        add_revision(
            session,
            section,
            editor_id=caller.user_id,
            editor_name=caller.display_name,
            at=review.clock(),
            markdown=markdown,
        )
        section.sources = [*section.sources, message.id]
        if message.permalink:
            section.links = [*section.links, message.permalink]
        if message.author not in section.people:
            section.people = [*section.people, message.author]
        section.prs = list(dict.fromkeys([*section.prs, *(p.ref for p in message.prs)]))
        return Reply(
            f"{message.author}'s message added to {section.title} "
            f"(revision {len(section.revisions)})."
        ), None

    done = await _on_section(review, workspace_id, caller, draft_id, section_id, pull)
    if isinstance(done, Reply):
        return done
    if done[0].ok:
        await review.show_drafts([draft_id])
    return done[0]


async def _on_section(
    review: ReviewWorkflow,
    workspace_id: int,
    caller: Caller,
    draft_id: int,
    section_id: int,
    work: Callable[[Session, DraftSection], tuple[Reply, T]],
) -> Reply | tuple[Reply, T]:
    """`work` on section `section_id` of draft `draft_id`, when the caller may edit it."""

    def run(session: Session) -> Reply | tuple[Reply, T]:
        granted = authorize(session, review.config, workspace_id, caller, section_id, Action.EDIT)
        if isinstance(granted, Reply):
            return granted
        if granted.draft.id != draft_id or granted.section is None:
            return no_such(Action.EDIT, section_id)  # (a section of another draft)
        return work(session, granted.section)

    return await review.db.run(run)


def _way(offset: int) -> str:
    return "up" if offset < 0 else "down"


def _end(offset: int) -> str:
    return "first" if offset < 0 else "last"
