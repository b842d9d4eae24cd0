"""Members' news: a member marks a message of a logged channel with the workspace's news
reaction (📰 by default), or sends text with `/summary news`, and it becomes a submission
(`storage.news`) that the draft of its week carries as a line saying who sent it
(`summarizer.news`). Admins turn it off or change the reaction (`member-news`); a member
who opted out sends nothing, and what they sent is deleted with them (`storage.privacy`).
Nothing here commits: the caller owns the transaction."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy.orm import Session

from bot.config import Config
from bot.core.port import Caller, Reply
from bot.core.settings import WorkspaceSettings, workspace_settings
from storage import normalise
from storage.news import add_submission, message_row_ids, person_ids
from storage.privacy import is_forgotten
from storage.records import MessageRecord, PersonRecord
from storage.settings import load_settings

MAX_NEWS_CHARS = 2_000
NEWS_OFF = (
    "Members' news is turned off in this workspace; an admin can turn it on with "
    "/summary member-news on."
)
OPTED_OUT = "You opted out (forget-me), so nothing of yours is stored: news included."


def news_settings(session: Session, workspace_id: int) -> WorkspaceSettings:
    """The workspace's settings as far as news goes (the rest at their built-in defaults):
    all an import needs, which has no config file to hand."""
    stored = load_settings(session, workspace_id)
    keys = ("news", "news_reactions")
    return WorkspaceSettings.model_validate({k: v for k, v in stored.items() if k in keys})


def from_reactions(
    session: Session,
    workspace_id: int,
    messages: Sequence[MessageRecord],
    forgotten: Collection[str],
) -> int:
    """Submissions for the news reactions on stored `messages` (an export or a channel's
    history says who reacted, not when: the message's time stands for it); how many are
    new. Bots and members who opted out send nothing."""
    settings = news_settings(session, workspace_id)
    marked = [
        (message, person)
        for message in messages
        for reaction in message.reactions
        if settings.is_news_reaction(reaction.emoji)
        for person in _people(reaction.people)
        if not person.is_bot and person.platform_id not in forgotten
    ]
    if not marked:
        return 0
    rows = message_row_ids(session, workspace_id, {m.platform_id for m, _ in marked})
    senders = person_ids(session, workspace_id, [p for _, p in marked])
    added = 0
    for message, person in marked:
        if (row := rows.get(message.platform_id)) is None:
            continue
        row_id, text, permalink, created_at = row
        added += add_submission(
            session,
            workspace_id,
            senders[person.platform_id],
            text=text,
            submitted_at=created_at,
            message_id=row_id,
            permalink=permalink,
        )
    return added


def _people(people: Sequence[PersonRecord]) -> list[PersonRecord]:
    """The reactors fit to store (one that cannot be is left out)."""
    kept = []
    for person in people:
        try:
            kept.append(normalise.person_record(person))
        except normalise.RecordError:
            continue
    return kept


def submit_reaction(
    session: Session,
    config: Config,
    workspace_id: int,
    message_platform_id: str,
    emoji: str,
    reactor: PersonRecord,
    at: datetime,
) -> bool:
    """A member added `emoji` to a message: when it is a news reaction and the message is
    stored (its channel is logged), the message is sent in as news `at` that time. Whether
    a new submission was made."""
    settings = workspace_settings(session, config, workspace_id)
    if not settings.is_news_reaction(emoji) or reactor.is_bot:
        return False
    if is_forgotten(session, workspace_id, reactor.platform_id):
        return False
    row = message_row_ids(session, workspace_id, [message_platform_id]).get(message_platform_id)
    people = _people([reactor])
    if row is None or not people:
        return False
    row_id, text, permalink, _created_at = row
    sender = person_ids(session, workspace_id, people)[reactor.platform_id]
    return add_submission(
        session,
        workspace_id,
        sender,
        text=text,
        submitted_at=at,
        message_id=row_id,
        permalink=permalink,
    )


def submit_text(
    session: Session, config: Config, workspace_id: int, caller: Caller, text: str, at: datetime
) -> Reply:
    """`/summary news TEXT`: the caller sends `text` in as news for this week's draft."""
    settings = workspace_settings(session, config, workspace_id)
    if not settings.news:
        return Reply.refuse(NEWS_OFF)
    text = normalise.clean_text(text.strip())
    if len(text) > MAX_NEWS_CHARS:
        return Reply.refuse(
            f"Your news is {len(text):,} characters; send at most {MAX_NEWS_CHARS:,} (a "
            "link says the rest). Nothing was stored."
        )
    if is_forgotten(session, workspace_id, caller.user_id):
        return Reply.refuse(OPTED_OUT)
    people = _people([PersonRecord(caller.user_id, caller.display_name)])
    if not people:
        return Reply.refuse("Your name cannot be stored, so your news cannot be; nothing was.")
    sender = person_ids(session, workspace_id, people)[caller.user_id]
    add_submission(session, workspace_id, sender, text=text, submitted_at=at)
    day = at.astimezone(ZoneInfo(settings.timezone)).date()
    monday = day - timedelta(days=day.weekday())
    return Reply(f"Thanks: your news goes to the editors with the draft of the week of {monday}.")
