"""What the review page shows of a draft: every section beside its source messages and PRs,
its revisions with diffs, and the editor notes; and the draft's state (status, each
section's revision number), which an open page polls to show edits made elsewhere. Plain
values read in one transaction, so the web layer renders them without touching the
database."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from zoneinfo import ZoneInfo

from sqlalchemy.orm import Session

from bot.config import Config
from bot.core.left_out import Candidates, left_out
from bot.core.news_desk import NewsEntry, week_news
from bot.core.review_text import post_text
from bot.core.settings import workspace_settings
from bot.core.word_diff import DiffPart, word_diff
from storage.github import cached_items
from storage.messages import messages_by_ids
from storage.models import EDITABLE, DraftRow, DraftSection
from summarizer.prrefs import github_url, parse_pr_refs


@dataclass(frozen=True, slots=True)
class SourceView:
    """A message a section was drawn from."""

    author: str
    at: datetime
    text: str
    permalink: str | None


@dataclass(frozen=True, slots=True)
class LeftOutView:
    """A message of the section's topic that no section draws on, which an editor may pull
    in (by its platform id)."""

    id: str
    author: str
    at: datetime
    text: str
    permalink: str | None


MAX_LEFT_OUT_SHOWN = 20


@dataclass(frozen=True, slots=True)
class PRView:
    """A PR a section cites, with what GitHub said about it (when it was asked)."""

    ref: str
    title: str | None
    url: str | None


@dataclass(frozen=True, slots=True)
class RevisionView:
    """One edit: who, when, the text, and how it differs word by word from the text before
    it (empty when that text is not known)."""

    number: int
    editor: str
    at: datetime
    markdown: str
    diff: list[DiffPart]


@dataclass(frozen=True, slots=True)
class SectionPage:
    """A section as the page shows it. `revision` is the number of edits so far: a save
    carries it back, so an edit made meanwhile is noticed."""

    id: int
    title: str
    markdown: str
    revision: int
    drafter: str
    flags: list[str]
    warnings: list[str]
    sources: list[SourceView]
    prs: list[PRView]
    revisions: list[RevisionView]
    # the word diff from the drafted text to the current one, once edited
    since_draft: list[DiffPart] | None
    left_out: list[LeftOutView]  # the first `MAX_LEFT_OUT_SHOWN`
    more_left_out: int  # how many more there are


@dataclass(frozen=True, slots=True)
class DeletedView:
    """A section an editor deleted: who, when, and its text then."""

    title: str
    by: str
    at: datetime
    markdown: str
    revisions: int


@dataclass(frozen=True, slots=True)
class DraftPage:
    """A draft as the page shows it: its times in the workspace's `timezone`, and `repo` the
    repository a bare `#N` is in (empty when none is configured)."""

    id: int
    title: str
    week_start: str
    status: str
    editable: bool
    notes: list[str]
    sections: list[SectionPage]
    timezone: str
    repo: str
    post: str  # the whole summary as Approve would publish it now, before `published_section`
    deleted: list[DeletedView]
    news: list[NewsEntry]  # what members sent in during the week, times in `timezone`


@dataclass(frozen=True, slots=True)
class SectionState:
    """A section's current text, its number of edits, who made the last one, and whether
    text was taken out of it (a member opted out, or a message it drew on was deleted: the
    only causes of a flag, `storage.privacy`); an open page then stops showing the section."""

    id: int
    revision: int
    markdown: str
    editor: str | None
    removed: bool


@dataclass(frozen=True, slots=True)
class DraftState:
    """What an open page compares with what it shows: the status and each section's state."""

    status: str
    editable: bool
    sections: list[SectionState]


def draft_state(session: Session, draft: DraftRow) -> DraftState:
    """The state of a draft the caller was authorized to see."""
    return DraftState(
        draft.status.words,
        draft.status in EDITABLE,
        [
            SectionState(
                s.id,
                len(s.revisions),
                s.markdown,
                s.revisions[-1].editor_name if s.revisions else None,
                bool(s.flags),
            )
            for s in draft.sections
        ],
    )


def draft_page(session: Session, config: Config, draft: DraftRow) -> DraftPage:
    """The page of a draft the caller was authorized to see."""
    settings = workspace_settings(session, config, draft.workspace_id)
    zone = ZoneInfo(settings.timezone)
    repo = settings.default_repo
    candidates = left_out(session, config, draft)
    return DraftPage(
        draft.id,
        draft.title,
        str(draft.week_start),
        draft.status.words,
        draft.status in EDITABLE,
        list(draft.notes),
        [_section(session, draft.workspace_id, s, zone, repo, candidates) for s in draft.sections],
        settings.timezone,
        repo,
        post_text(draft.title, ((s.title, s.markdown) for s in draft.sections)),
        [
            DeletedView(
                s.title,
                s.deleted_by or "",
                s.deleted_at.astimezone(zone),
                s.markdown,
                len(s.revisions),
            )
            for s in draft.deleted_sections
            if s.deleted_at is not None
        ],
        [replace(n, at=n.at.astimezone(zone)) for n in week_news(session, config, draft)],
    )


def _section(
    session: Session,
    workspace_id: int,
    section: DraftSection,
    zone: ZoneInfo,
    repo: str,
    candidates: Candidates,
) -> SectionPage:
    sources = [
        SourceView(
            person.display_name,
            message.created_at.astimezone(zone),
            message.text,
            message.permalink,
        )
        for message, person in messages_by_ids(session, workspace_id, section.sources)
    ]
    return SectionPage(
        section.id,
        section.title,
        section.markdown,
        len(section.revisions),
        section.drafter,
        list(section.flags),
        list(section.warnings),
        sources,
        _prs(session, section.prs, repo),
        _revisions(section, zone),
        _since_draft(section),
        [
            LeftOutView(m.id, m.author, m.created_at.astimezone(zone), m.text, m.permalink)
            for m in candidates.of(section.topic)[:MAX_LEFT_OUT_SHOWN]
        ],
        max(0, len(candidates.of(section.topic)) - MAX_LEFT_OUT_SHOWN),
    )


def _prs(session: Session, refs: list[str], repo: str) -> list[PRView]:
    """The section's PRs with their cached GitHub titles; a bare `#N` links to `repo`
    (when one is configured)."""
    keys = {}
    for ref in refs:
        parsed = parse_pr_refs(ref)
        if parsed and parsed[0].repo:
            keys[ref] = (parsed[0].repo, parsed[0].number)
    cached = cached_items(session, keys.values())
    views = []
    for ref in refs:
        item = cached.get(keys[ref]) if ref in keys else None
        url = item.url if item else None
        if url is None and repo and ref.startswith("#"):
            url = github_url(f"{repo}{ref}", "issues")  # GitHub redirects it to the PR
        views.append(PRView(ref, item.title if item else None, url))
    return views


def _revisions(section: DraftSection, zone: ZoneInfo) -> list[RevisionView]:
    """Each edit with its diff from the text before it (for the first edit, the drafted text
    when it is known)."""
    views = []
    before = section.drafted_markdown
    for number, revision in enumerate(section.revisions, start=1):
        diff = word_diff(before, revision.markdown) if before is not None else []
        views.append(
            RevisionView(
                number,
                revision.editor_name,
                revision.created_at.astimezone(zone),
                revision.markdown,
                diff,
            )
        )
        before = revision.markdown
    return views


def _since_draft(section: DraftSection) -> list[DiffPart] | None:
    """How the section's text now differs from the text as drafted: None when it was not
    edited, or the drafted text is not known."""
    if not section.revisions or section.drafted_markdown is None:
        return None
    return word_diff(section.drafted_markdown, section.markdown)
