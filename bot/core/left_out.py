"""What the drafter left out: per topic, the week's messages it placed there but drew no
section on, recomputed as drafting places them (the stored week, forgotten members' names
taken out, noise and bots' posts dropped, grouped with the same priors). An editor pulls
one into its section as a newsletter line."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from bot.config import Config
from bot.core.settings import week_of, workspace_settings
from bot.drafting.compose import load_week, topic_priors
from storage.models import DraftRow, Workspace
from storage.privacy import forgotten_ids
from summarizer.grouping import group_by_topic
from summarizer.newsletter import voiced
from summarizer.text import defuse_pings
from summarizer.types import SourceMessage


@dataclass(frozen=True, slots=True)
class Candidates:
    """The left-out messages of each topic id, the most answered and reacted-to first."""

    by_topic: dict[str, list[SourceMessage]]

    def of(self, topic: str) -> list[SourceMessage]:
        return self.by_topic.get(topic, [])

    def find(self, topic: str, message_id: str) -> SourceMessage | None:
        return next((m for m in self.of(topic) if m.id == message_id), None)


def left_out(session: Session, config: Config, draft: DraftRow) -> Candidates:
    """The week's messages of each topic that no section of `draft` draws on."""
    workspace = session.get_one(Workspace, draft.workspace_id)
    settings = workspace_settings(session, config, draft.workspace_id)
    week = week_of(settings, draft.workspace_id, workspace.name, draft.week_start)
    messages = load_week(session, config, week)
    if not messages:
        return Candidates({})
    grouped = group_by_topic(messages, week.topics, topic_priors(session, week))
    used = {m for s in draft.sections for m in s.sources}
    forgotten = forgotten_ids(session, draft.workspace_id)
    return Candidates(
        {
            topic: sorted(
                (
                    m
                    for m in found
                    if m.id not in used and not m.is_bot and m.author_id not in forgotten
                ),
                key=lambda m: (-(m.replies + m.reactions), m.created_at),
            )
            for topic, found in grouped.items()
        }
    )


def newsletter_line(message: SourceMessage) -> str:
    """The message as one line of a section: in a newsletter's voice, its author the
    subject or credited, nobody pinged."""
    text, subject = voiced(message.text, message.author)
    text = text or " ".join(message.text.split())
    credit = "" if subject else f" ({message.author})"
    return defuse_pings(f"- {text}{credit}")
