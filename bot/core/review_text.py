"""What the review thread and the publish channels show: the header, a section's messages,
the quiet-week note and the published summary. Pure functions of a stored draft."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta

from bot.core.access import section_number
from bot.core.chunking import chunk
from bot.core.links import disclose
from bot.core.port import Button
from bot.core.wording import counted
from storage.models import DraftRow, DraftSection, DraftStatus
from storage.sections import ADDED_BY_EDITOR
from summarizer.text import defuse_pings

MAX_LINKS_SHOWN = 10


def header_text(draft: DraftRow) -> str:
    """The review thread's first message: the week, its size, what to do, notes."""
    prs = {p for s in draft.sections for p in s.prs}
    people = {p for s in draft.sections for p in s.people}
    end = draft.week_start + timedelta(days=6)
    lines = [
        f"**{draft.title}**: draft {draft.id}, {draft.status.words}",
        f"Week {draft.week_start} to {end}: {counted(len(draft.sections), 'section')}, "
        f"{counted(len(prs), 'PR')}, {counted(len(people), 'person', 'people')}.",
    ]
    if draft.status == DraftStatus.APPROVED:
        lines.append(f"Approved by {draft.approved_by}; publishing.")
    elif draft.status == DraftStatus.PUBLISHED:
        lines.append(f"Approved by {draft.approved_by}; published {draft.published_at:%Y-%m-%d}.")
    elif draft.status == DraftStatus.DISCARDED:
        lines.append("Discarded: it will not be published.")
    else:
        lines.append(
            "Edit a section with its Edit button (or `/summary edit N text` for section N), then "
            "Approve (you are asked to confirm: it publishes). Regenerate drafts the week "
            "again with late messages and keeps edited sections."
        )
    lines += [f"Note: {note}" for note in draft.notes]
    flagged = sum(1 for s in draft.sections if s.flags)
    if flagged:
        need = "needs" if flagged == 1 else "need"
        lines.append(f"{counted(flagged, 'section')} {need} a look: see their notes in the thread.")
    return "\n".join(lines)


def header_buttons(draft: DraftRow) -> list[Button]:
    """Approve, Regenerate and Discard; what cannot be undone asks to be confirmed."""
    week = f"the week of {draft.week_start}"
    return [
        Button(
            "Approve",
            f"approve:{draft.id}",
            confirm=f"Approve the draft of {week} and publish it now? Published posts "
            "cannot be taken back.",
        ),
        Button("Regenerate", f"regenerate:{draft.id}"),
        Button(
            "Discard",
            f"discard:{draft.id}",
            confirm=f"Discard the draft of {week}? A discarded draft cannot be approved "
            "or published.",
        ),
    ]


def page_button(draft: DraftRow) -> Button:
    """The header's button that sends the presser a link to the review page."""
    return Button("Open review page", f"page:{draft.id}")


def quiet_week_text(draft: DraftRow) -> str:
    end = draft.week_start + timedelta(days=6)
    return (
        f"**{draft.title}**\nA quiet week: nothing worth summarising was logged between "
        f"{draft.week_start} and {end}."
    )


def section_label(section: DraftSection) -> str:
    """A section in a reply, with the number the review thread shows: "Hero run (section 2
    of draft 7)"."""
    return f"{section.title} (section {section_number(section)} of draft {section.draft_id})"


def section_messages(section: DraftSection, limit: int) -> list[tuple[str, list[Button]]]:
    """The section as thread messages: its text, then links to its sources, chunked to
    `limit` characters; the buttons go on the last chunk."""
    edited = f", edited {len(section.revisions)}x" if section.revisions else ""
    drafter = (
        ", added by an editor"
        if section.drafter == ADDED_BY_EDITOR
        else f", drafted by the {section.drafter} drafter"
    )
    parts = [
        f"**{section.title}** (section {section_number(section)}{drafter}{edited})",
        disclose(section.markdown),
    ]
    if section.flags:
        parts.append("Needs a look: " + "; ".join(section.flags))
    if section.warnings:
        parts.append("Check: " + "; ".join(section.warnings))
    if section.links:
        shown = section.links[:MAX_LINKS_SHOWN]
        more = len(section.links) - len(shown)
        sources = " ".join(f"[{n}]({url})" for n, url in enumerate(shown, start=1))
        parts.append(f"Sources: {sources}" + (f" and {more} more" if more > 0 else ""))
    texts = chunk(defuse_pings("\n\n".join(parts)), limit)
    buttons = [
        Button("Edit", f"edit:{section.id}"),
        Button("History", f"history:{section.id}"),
    ]
    return [(text, buttons if i == len(texts) - 1 else []) for i, text in enumerate(texts)]


def published_section(markdown: str) -> str:
    """A section's text as it is published: every link shows where it goes, nobody is
    pinged."""
    return defuse_pings(disclose(markdown))


def post_text(title: str, sections: Iterable[tuple[str, str]]) -> str:
    """The summary as its editors wrote it: the title, then each (title, text) section."""
    return "\n\n".join([f"# {title}", *(f"## {name}\n\n{text}" for name, text in sections)])


def published_markdown(draft: DraftRow) -> str:
    """The summary as published: title, then each section's current text, in their order;
    nobody pinged, and every link shows where it goes."""
    return (
        published_section(post_text(draft.title, ((s.title, s.markdown) for s in draft.sections)))
        + "\n"
    )
