"""Who may act on which draft or section: the one check every entry point goes through.

Commands (`/summary edit N`, `history N`, `approve`, `regenerate`, `discard`, `publish`), the
review thread's buttons, the edit modal's submit and the review page (on every request)
call `authorize` before touching a draft. A draft or section of another workspace is
answered exactly like one that does not exist, so ids (which are sequential) reveal nothing;
the permission is then checked against the caller's own workspace's settings.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import overload

from sqlalchemy.orm import Session

from bot.config import Config
from bot.core.port import Caller, Reply
from bot.core.settings import WorkspaceSettings, workspace_settings
from bot.core.wording import counted
from storage.drafts import get_draft_by_id, get_section, list_drafts
from storage.models import EDITABLE, LOCKED, UNFINISHED, DraftRow, DraftSection, DraftStatus


class Action(StrEnum):
    """What a caller wants to do; the first two act on a section, the last three on the
    workspace, the others on a draft."""

    EDIT = "edit"
    HISTORY = "history"
    APPROVE = "approve"
    REGENERATE = "regenerate"
    DISCARD = "discard"
    PUBLISH = "publish"
    VIEW = "view"  # open the review page of a draft, whatever its status
    ADD_SECTION = "add section"  # to a draft, on the review page
    DROP_NEWS = "drop news"  # a member's news item, out of a draft, on the review page
    START_DRAFT = "start draft"  # of a week, in the workspace (no draft yet)
    CHANGE_SETTINGS = "change settings"  # of the workspace (admins)
    AUDIT = "audit"  # read the workspace's settings audit trail (admins)

    @property
    def on_section(self) -> bool:
        return self in (Action.EDIT, Action.HISTORY)

    @property
    def for_admins(self) -> bool:
        return self in (Action.CHANGE_SETTINGS, Action.AUDIT)


NOT_ADMIN = (
    "Only workspace admins can change settings. Ask an admin to do it, or to add you with "
    "/summary admins add."
)
NOT_ADMIN_AUDIT = "Only workspace admins can see the settings audit trail."


_REFUSED = {
    Action.EDIT: "Only editors can edit the summary.",
    Action.HISTORY: "Only editors can see a section's history.",
    Action.APPROVE: "Only editors can approve the summary.",
    Action.REGENERATE: "Only editors can regenerate the draft.",
    Action.DISCARD: "Only editors can discard the draft.",
    Action.PUBLISH: "Only editors can publish.",
    Action.VIEW: "Only editors can open the review page.",
    Action.ADD_SECTION: "Only editors can add a section.",
    Action.DROP_NEWS: "Only editors can drop members' news.",
    Action.START_DRAFT: "Only editors can start a draft.",
    Action.CHANGE_SETTINGS: NOT_ADMIN,
    Action.AUDIT: NOT_ADMIN_AUDIT,
}


@dataclass(frozen=True, slots=True)
class SectionRef:
    """A section as an editor names it: its number in its draft (1..n, as the review thread
    shows it) or its topic id or title, in draft `draft_id` (None: the current draft)."""

    section: int | str
    draft_id: int | None = None


@dataclass(frozen=True, slots=True)
class Granted:
    """What the caller may act on: the draft, the section (for section actions) and the
    settings of the workspace both belong to."""

    draft: DraftRow
    section: DraftSection | None
    settings: WorkspaceSettings


MAX_ID = 2**63 - 1  # the largest BIGINT


def no_such(action: Action, target: int) -> Reply:
    """The answer for an id that is not the caller's workspace's (or does not exist)."""
    noun = "section" if action.on_section else "draft"
    return Reply.refuse(f"There is no {noun} {target}.")


def current_draft(session: Session, workspace_id: int) -> DraftRow | None:
    """The draft under review: the newest one not yet published (approved ones included),
    else the newest one not discarded."""
    drafts = [d for d in list_drafts(session, workspace_id) if d.status != DraftStatus.DISCARDED]
    return next((d for d in drafts if d.status in UNFINISHED), drafts[0] if drafts else None)


def section_number(section: DraftSection) -> int:
    """The section's number in its draft (1..n): what the review thread and replies show."""
    return section.draft.sections.index(section) + 1


def find_section(session: Session, workspace_id: int, ref: SectionRef) -> DraftSection | Reply:
    """The section `ref` names in the workspace's draft it names (or the current draft), or
    the refusal saying why there is none. A draft of another workspace is answered like
    one that does not exist."""
    if ref.draft_id is None:
        draft = current_draft(session, workspace_id)
        if draft is None:
            return Reply.refuse("There is no draft yet; start one with `/summary draft`.")
        which = f"The current draft (draft {draft.id}, week of {draft.week_start})"
    else:
        draft = get_draft_by_id(session, ref.draft_id) if ref.draft_id <= MAX_ID else None
        if draft is None or draft.workspace_id != workspace_id:
            return no_such(Action.APPROVE, ref.draft_id)
        which = f"Draft {draft.id}"
    sections = draft.sections
    if isinstance(ref.section, int):
        if ref.section <= len(sections):
            return sections[ref.section - 1]
        return Reply.refuse(
            f"{which} has {counted(len(sections), 'section')}; there is no section {ref.section}."
        )
    wanted = ref.section.strip().casefold()
    found = (s for s in sections if wanted in (s.topic.casefold(), s.title.casefold()))
    return next(found, None) or Reply.refuse(f"{which} has no section {ref.section!r}.")


@overload
def authorize(
    session: Session,
    config: Config,
    workspace_id: int,
    caller: Caller,
    target_id: None,
    action: Action,
) -> WorkspaceSettings | Reply: ...


@overload
def authorize(
    session: Session,
    config: Config,
    workspace_id: int,
    caller: Caller,
    target_id: int | SectionRef,
    action: Action,
) -> Granted | Reply: ...


def authorize(
    session: Session,
    config: Config,
    workspace_id: int,
    caller: Caller,
    target_id: int | SectionRef | None,
    action: Action,
) -> Granted | WorkspaceSettings | Reply:
    """Whether `caller`, acting in workspace `workspace_id`, may do `action` on the section
    (edit, history), the draft (the others) or, with no `target_id`, the workspace
    (`START_DRAFT`, and the admins' `CHANGE_SETTINGS` and `AUDIT`) now: `Granted` (the
    workspace's settings for a workspace action), or the
    private refusal to give them. `target_id` is a row id (what buttons, modals and the
    review page carry) or, for a section, a `SectionRef` (what an editor types). Reads only;
    the caller's transaction changes nothing on refusal."""
    if target_id is None:
        settings = workspace_settings(session, config, workspace_id)
        allowed = settings.is_admin if action.for_admins else settings.is_editor
        return settings if allowed(caller) else Reply.refuse(_REFUSED[action])
    section = None
    if isinstance(target_id, SectionRef):
        found = find_section(session, workspace_id, target_id)
        if isinstance(found, Reply):
            return found
        section = found
    elif not 0 < target_id <= MAX_ID:
        return no_such(action, target_id)  # an id no row can have (a forged button or modal)
    elif action.on_section:
        section = get_section(session, target_id)
    draft = section.draft if section is not None else None
    if not action.on_section and isinstance(target_id, int):
        draft = get_draft_by_id(session, target_id)
    if draft is None or draft.workspace_id != workspace_id:
        assert isinstance(target_id, int)  # a SectionRef's draft was checked above
        return no_such(action, target_id)
    settings = workspace_settings(session, config, workspace_id)
    if not settings.is_editor(caller):
        return Reply.refuse(_REFUSED[action])
    if section is not None and section.deleted_at is not None and action is Action.EDIT:
        return Reply.refuse(
            f"{section.title} was deleted from the draft by {section.deleted_by}; it can no "
            "longer be edited."
        )
    refusal = _state_refusal(draft, action)
    return refusal or Granted(draft, section, settings)


def _state_refusal(draft: DraftRow, action: Action) -> Reply | None:
    """Why the draft's status does not allow `action`, if it does not."""
    match action:
        case Action.HISTORY | Action.VIEW:
            return None
        case Action.PUBLISH:
            if draft.status in LOCKED:
                return None
            return Reply.refuse("Only an approved summary is published.")
        case Action.EDIT if draft.status not in EDITABLE:
            return Reply.refuse(
                f"The summary of the week of {draft.week_start} is already {draft.status}; "
                "it can no longer be edited."
            )
        case _ if draft.status not in EDITABLE:
            return Reply.refuse(
                f"The summary of the week of {draft.week_start} is already {draft.status}."
            )
    return None
