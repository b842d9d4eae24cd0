"""What a platform can offer while an admin or editor types a command argument (Discord's
autocomplete): the workspace's topics, the sections of its open draft, its drafts. Each
suggestion is (label, value): the value is what the command grammar takes."""

from __future__ import annotations

from typing import Literal

from sqlalchemy.orm import Session

from bot.config import Config
from bot.core.access import current_draft
from bot.core.settings import workspace_settings
from storage.drafts import list_drafts

Kind = Literal["topic", "section", "draft"]
MAX_SUGGESTIONS = 25  # Discord shows at most 25 choices


def suggestions(
    session: Session, config: Config, workspace_id: int, kind: Kind, typed: str
) -> list[tuple[str, str]]:
    """Up to 25 (label, value) pairs of `kind` whose label or value contains `typed`."""
    match kind:
        case "topic":
            topics = workspace_settings(session, config, workspace_id).topic_list
            found = [(f"{t.title} ({t.id})", t.id) for t in topics]
        case "section":
            draft = current_draft(session, workspace_id)
            sections = draft.sections if draft is not None else []
            found = [(f"{s.title} (section {n})", str(n)) for n, s in enumerate(sections, 1)]
        case "draft":
            found = [
                (f"Week of {d.week_start}: draft {d.id}, {d.status.words}", str(d.id))
                for d in list_drafts(session, workspace_id)[:MAX_SUGGESTIONS]
            ]
    wanted = typed.strip().lower()
    return [(label, value) for label, value in found if wanted in label.lower()][:MAX_SUGGESTIONS]
