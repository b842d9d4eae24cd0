"""Rendering a draft as Markdown or as the JSON object other tools rely on."""

from __future__ import annotations

from typing import Any

from summarizer.types import DraftSummary

QUIET_WEEK = "_Nothing worth summarising was said this week._"


def to_markdown(draft: DraftSummary) -> str:
    """The draft as one Markdown document: title, then a heading and body per section."""
    parts = [f"# {draft.title}"]
    for section in draft.sections:
        parts.append(f"## {section.title}\n\n{section.markdown}")
        parts += [f"> Note for the editor ({section.drafter}): {w}" for w in section.warnings]
    if not draft.sections:
        parts.append(QUIET_WEEK)
    parts += [f"> Note for the editor: {note}" for note in draft.notes]
    return "\n\n".join(parts) + "\n"


def to_json(draft: DraftSummary) -> dict[str, Any]:
    """The draft in the JSON contract of DESIGN.md."""
    return {
        "workspace": draft.workspace,
        "week_start": draft.week_start.isoformat(),
        "week_end": draft.week_end.isoformat(),
        "title": draft.title,
        "sections": [
            {
                "topic": s.topic,
                "title": s.title,
                "markdown": s.markdown,
                "prs": list(s.prs),
                "people": list(s.people),
                "sources": list(s.sources),
            }
            for s in draft.sections
        ],
    }
