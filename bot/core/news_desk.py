"""Members' news on the review page: every item sent in during the draft's week, where its
line is, and an editor dropping one (through `bot.core.access.authorize`): its line leaves
its section as a new revision, like any other edit, and redrafting leaves it out."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy.orm import Session

from bot.config import Config
from bot.core.access import Action, authorize
from bot.core.port import Caller, Reply
from bot.core.settings import week_of, workspace_settings
from bot.drafting.compose import load_news
from bot.drafting.week import Week
from storage.drafts import add_revision
from storage.models import DraftRow, DraftSection, Workspace
from storage.news import drop_submission, get_submission, week_submissions
from storage.privacy import forgotten_names, unnamer
from summarizer.news import lines_by_item

if TYPE_CHECKING:  # the review workflow shows the page this module feeds
    from bot.core.review import ReviewWorkflow


@dataclass(frozen=True, slots=True)
class NewsEntry:
    """A member's news item of the draft's week: who sent it, when, what, and either the
    section whose text holds its line or who dropped it."""

    id: int
    sender: str
    at: datetime
    text: str
    permalink: str | None
    section: str | None  # the title of the section holding its line
    dropped_by: str | None


def _week(session: Session, config: Config, draft: DraftRow) -> Week:
    workspace = session.get_one(Workspace, draft.workspace_id)
    settings = workspace_settings(session, config, draft.workspace_id)
    return week_of(settings, draft.workspace_id, workspace.name, draft.week_start)


def _holding(draft: DraftRow, line: str) -> DraftSection | None:
    """The section whose text has `line` as drafted (None: an editor changed it)."""
    return next((s for s in draft.sections if line in s.markdown.splitlines()), None)


def week_news(session: Session, config: Config, draft: DraftRow) -> list[NewsEntry]:
    """Every news item sent in during the draft's week, dropped ones included (what a
    member who opted out sent is gone already)."""
    week = _week(session, config, draft)
    lines = lines_by_item(load_news(session, week))
    unnamed = unnamer(forgotten_names(session, draft.workspace_id))
    entries = []
    for news in week_submissions(session, draft.workspace_id, week.start, week.end):
        if news.sender_forgotten:
            continue
        line = lines.get(str(news.id))
        section = _holding(draft, line) if line is not None else None
        entries.append(
            NewsEntry(
                news.id,
                news.sender,
                news.submitted_at,
                unnamed(news.text),
                news.permalink,
                section.title if section is not None else None,
                news.dropped_by,
            )
        )
    return entries


async def drop_news(
    review: ReviewWorkflow, workspace_id: int, caller: Caller, draft_id: int, news_id: int
) -> Reply:
    """Drop a member's news item from the draft: its line leaves its section as a new
    revision, and drafting the week again leaves it out."""

    def drop(session: Session) -> Reply:
        granted = authorize(
            session, review.config, workspace_id, caller, draft_id, Action.DROP_NEWS
        )
        if isinstance(granted, Reply):
            return granted
        row = get_submission(session, workspace_id, news_id)
        loaded = load_news(session, _week(session, review.config, granted.draft))
        item = next((i for i in loaded if i.id == str(news_id)), None)
        if row is None or (item is None and row.dropped_at is None):
            return Reply.refuse("That news item is not among this draft's; nothing changed.")
        if item is None:
            return Reply.refuse(f"That news item was already dropped by {row.dropped_by}.")
        drop_submission(session, row, by=caller.display_name, at=review.clock())
        line = lines_by_item(loaded)[item.id]
        section = _holding(granted.draft, line)
        if section is None:
            return Reply(
                f"{item.sender}'s news was dropped. Its line is no longer in the draft as "
                "drafted, so no section changed: take out what is left of it by hand."
            )
        # (a message others marked too keeps its line, sent in by them)
        marked = item.message_id
        others = [i for i in loaded if i is not item and i.message_id == marked] if marked else []
        kept = [lines_by_item(others)[others[0].id]] if others else []
        lines = section.markdown.splitlines()
        add_revision(
            session,
            section,
            editor_id=caller.user_id,
            editor_name=caller.display_name,
            at=review.clock(),
            markdown="\n".join(new for ln in lines for new in (kept if ln == line else [ln])),
        )
        return Reply(
            f"{item.sender}'s news was dropped from {section.title} "
            f"(revision {len(section.revisions)})."
        )

    reply = await review.db.run(drop)
    if reply.ok:
        await review.show_drafts([draft_id])
    return reply
