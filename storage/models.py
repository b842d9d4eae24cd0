"""SQLAlchemy 2 typed models: workspaces, channels, people, messages, PR refs, drafts."""

from __future__ import annotations

from datetime import UTC, date, datetime
from enum import StrEnum

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
    false,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

# Stable constraint names, so Alembic can alter them (and SQLite batch mode can find them).
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

# SQLite only auto-increments INTEGER PRIMARY KEY; PostgreSQL gets a BIGINT identity.
Id = BigInteger().with_variant(Integer(), "sqlite")


class UTCDateTime(TypeDecorator[datetime]):
    """Timezone-aware datetimes stored as UTC on every backend.

    SQLite keeps no offset, so values are converted to UTC on the way in and marked UTC on the
    way out; that also keeps SQLite's text comparisons in time order.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"naive datetime {value!r}: timestamps must be timezone-aware")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class DraftStatus(StrEnum):
    """Where a draft is in its life: drafted -> in_review -> approved -> published, or
    discarded. Stored as these strings."""

    DRAFTED = "drafted"
    IN_REVIEW = "in_review"
    APPROVED = "approved"
    PUBLISHED = "published"
    DISCARDED = "discarded"

    @property
    def words(self) -> str:
        """The status for people: "in review"."""
        return self.value.replace("_", " ")


EDITABLE = frozenset({DraftStatus.DRAFTED, DraftStatus.IN_REVIEW})  # sections may change
UNFINISHED = EDITABLE | {DraftStatus.APPROVED}  # still to review or to publish
LOCKED = frozenset({DraftStatus.APPROVED, DraftStatus.PUBLISHED})  # never drafted again
FINISHED = frozenset({DraftStatus.PUBLISHED, DraftStatus.DISCARDED})


class StatusColumn(TypeDecorator[DraftStatus]):
    """A `DraftStatus` in a plain string column (no database enum type to migrate)."""

    impl = String(16)
    cache_ok = True

    def process_result_value(self, value: str | None, dialect: Dialect) -> DraftStatus | None:
        return None if value is None else DraftStatus(value)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map = {datetime: UTCDateTime()}


class Workspace(Base):
    """A Discord guild or a Slack team whose chat is summarised."""

    __tablename__ = "workspaces"
    __table_args__ = (UniqueConstraint("platform", "platform_id"),)

    id: Mapped[int] = mapped_column(Id, primary_key=True)
    platform: Mapped[str] = mapped_column(String(16))
    platform_id: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(200))


class Channel(Base):
    """A channel, or a Discord thread (then `parent_id` is the channel it lives under)."""

    __tablename__ = "channels"
    __table_args__ = (UniqueConstraint("workspace_id", "platform_id"),)

    id: Mapped[int] = mapped_column(Id, primary_key=True)
    workspace_id: Mapped[int] = mapped_column(ForeignKey("workspaces.id", ondelete="CASCADE"))
    platform_id: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(200))
    parent_id: Mapped[int | None] = mapped_column(ForeignKey("channels.id", ondelete="SET NULL"))


class Person(Base):
    """A member (or bot) as the platform names them.

    `forgotten_at` is set when the member opted out: their messages are deleted, nothing new
    of theirs is stored, and drafts never name them.
    """

    __tablename__ = "people"
    __table_args__ = (UniqueConstraint("workspace_id", "platform_id"),)

    id: Mapped[int] = mapped_column(Id, primary_key=True)
    workspace_id: Mapped[int] = mapped_column(ForeignKey("workspaces.id", ondelete="CASCADE"))
    platform_id: Mapped[str] = mapped_column(String(64))
    display_name: Mapped[str] = mapped_column(String(200))
    is_bot: Mapped[bool] = mapped_column(default=False)
    forgotten_at: Mapped[datetime | None]


class Message(Base):
    """One chat message. `thread_id` and `reply_to_id` hold platform message ids; `pinned`
    says whether it is pinned in its channel now (a news signal for the drafter);
    `preview` is the text of the link previews under it (the linked pages' words)."""

    __tablename__ = "messages"
    __table_args__ = (
        UniqueConstraint("workspace_id", "platform_id"),
        Index("ix_messages_workspace_created", "workspace_id", "created_at"),
    )

    id: Mapped[int] = mapped_column(Id, primary_key=True)
    workspace_id: Mapped[int] = mapped_column(ForeignKey("workspaces.id", ondelete="CASCADE"))
    channel_id: Mapped[int] = mapped_column(ForeignKey("channels.id", ondelete="CASCADE"))
    author_id: Mapped[int] = mapped_column(ForeignKey("people.id", ondelete="CASCADE"))
    platform_id: Mapped[str] = mapped_column(String(64))
    thread_id: Mapped[str | None] = mapped_column(String(64))
    reply_to_id: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime]
    edited_at: Mapped[datetime | None]
    text: Mapped[str] = mapped_column(Text)
    reaction_count: Mapped[int] = mapped_column(default=0)
    reply_count: Mapped[int] = mapped_column(default=0)
    permalink: Mapped[str | None] = mapped_column(String(500))
    pinned: Mapped[bool] = mapped_column(default=False, server_default=false())
    preview: Mapped[str] = mapped_column(Text, default="", server_default="")

    pr_refs: Mapped[list[PRRefRow]] = relationship(
        back_populates="message", cascade="all, delete-orphan", passive_deletes=True
    )


class NewsSubmission(Base):
    """A member's news for the summary: a message they reacted to with the workspace's news
    reaction (`message_id` set, `text` its text then), or text they sent with
    `/summary news` (`message_id` None). It belongs to the week holding `submitted_at`; an
    editor may drop it (`dropped_at`, `dropped_by`), and redrafting then leaves it out."""

    __tablename__ = "news_submissions"
    __table_args__ = (
        UniqueConstraint("sender_id", "message_id"),
        Index("ix_news_submissions_workspace_submitted", "workspace_id", "submitted_at"),
    )

    id: Mapped[int] = mapped_column(Id, primary_key=True)
    workspace_id: Mapped[int] = mapped_column(ForeignKey("workspaces.id", ondelete="CASCADE"))
    sender_id: Mapped[int] = mapped_column(ForeignKey("people.id", ondelete="CASCADE"))
    message_id: Mapped[int | None] = mapped_column(
        ForeignKey("messages.id", ondelete="CASCADE"), index=True
    )
    text: Mapped[str] = mapped_column(Text)
    permalink: Mapped[str | None] = mapped_column(String(500))
    submitted_at: Mapped[datetime]
    dropped_at: Mapped[datetime | None] = mapped_column(default=None)
    dropped_by: Mapped[str | None] = mapped_column(String(200), default=None)


class PRRefRow(Base):
    """A PR or issue reference found in a message, with the repo as written (None: bare #N)."""

    __tablename__ = "pr_refs"

    id: Mapped[int] = mapped_column(Id, primary_key=True)
    message_id: Mapped[int] = mapped_column(
        ForeignKey("messages.id", ondelete="CASCADE"), index=True
    )
    repo: Mapped[str | None] = mapped_column(String(200))
    number: Mapped[int]
    raw: Mapped[str] = mapped_column(String(300))

    message: Mapped[Message] = relationship(back_populates="pr_refs")


class DraftRow(Base):
    """The summary of one workspace's week, through its life:
    drafted -> in_review -> approved -> published, or discarded.

    One per (workspace, week), enforced by the database, so two bot processes racing to
    draft the same week end up with one draft. `review_*` locate the review thread's header;
    `published_markdown` is the text as published, kept for export.
    """

    __tablename__ = "drafts"
    __table_args__ = (UniqueConstraint("workspace_id", "week_start"),)

    id: Mapped[int] = mapped_column(Id, primary_key=True)
    workspace_id: Mapped[int] = mapped_column(ForeignKey("workspaces.id", ondelete="CASCADE"))
    week_start: Mapped[date]
    title: Mapped[str] = mapped_column(String(300))
    summarizer: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[datetime]
    status: Mapped[DraftStatus] = mapped_column(
        StatusColumn(), default=DraftStatus.DRAFTED, server_default=DraftStatus.DRAFTED.value
    )
    review_channel_id: Mapped[str | None] = mapped_column(String(64))
    review_message_id: Mapped[str | None] = mapped_column(String(64))
    approved_by: Mapped[str | None] = mapped_column(String(200))
    approved_at: Mapped[datetime | None]
    published_at: Mapped[datetime | None]
    published_markdown: Mapped[str | None] = mapped_column(Text)
    # For the editor, e.g. which cited PRs GitHub told nothing about.
    notes: Mapped[list[str]] = mapped_column(JSON, default=list, server_default="[]")

    # The sections in their order. A section an editor deleted is not among them (nothing
    # shows, counts or publishes it) but stays stored, with its revisions, in
    # `deleted_sections`.
    sections: Mapped[list[DraftSection]] = relationship(
        back_populates="draft",
        primaryjoin="and_(DraftRow.id == DraftSection.draft_id, DraftSection.deleted_at.is_(None))",
        cascade="all, delete-orphan",
        passive_deletes=True,
        order_by="DraftSection.position",
    )
    deleted_sections: Mapped[list[DraftSection]] = relationship(
        primaryjoin=(
            "and_(DraftRow.id == DraftSection.draft_id, DraftSection.deleted_at.is_not(None))"
        ),
        viewonly=True,
        order_by="DraftSection.deleted_at",
    )


class DraftSection(Base):
    """One topic's section of a draft, with the refs, people and messages it came from."""

    __tablename__ = "draft_sections"
    __table_args__ = (UniqueConstraint("draft_id", "position"),)

    id: Mapped[int] = mapped_column(Id, primary_key=True)
    draft_id: Mapped[int] = mapped_column(ForeignKey("drafts.id", ondelete="CASCADE"))
    position: Mapped[int]
    topic: Mapped[str] = mapped_column(String(64))
    title: Mapped[str] = mapped_column(String(200))
    markdown: Mapped[str] = mapped_column(Text)
    prs: Mapped[list[str]] = mapped_column(JSON)
    people: Mapped[list[str]] = mapped_column(JSON)
    sources: Mapped[list[str]] = mapped_column(JSON)
    # Permalinks of the sources, so an editor can check any claim in one click.
    links: Mapped[list[str]] = mapped_column(JSON, default=list, server_default="[]")
    # Platform ids of the review-thread messages showing this section (one per chunk).
    review_message_ids: Mapped[list[str]] = mapped_column(JSON, default=list, server_default="[]")
    # Why an editor should look again, e.g. a source message was deleted.
    flags: Mapped[list[str]] = mapped_column(JSON, default=list, server_default="[]")
    drafter: Mapped[str] = mapped_column(
        String(32), default="extractive", server_default="extractive"
    )
    # What the grounding check removed from a model's text, or why the model was not used.
    warnings: Mapped[list[str]] = mapped_column(JSON, default=list, server_default="[]")
    # The text as drafted, before any edit (the review page diffs from it); None for a
    # section edited before it was kept (migration 0010).
    drafted_markdown: Mapped[str | None] = mapped_column(Text, default=None)
    # Who deleted the section on the review page, and when (None: it is in the draft). A
    # deleted section's position is minus its id, out of the way of the others.
    deleted_at: Mapped[datetime | None] = mapped_column(default=None)
    deleted_by: Mapped[str | None] = mapped_column(String(200), default=None)

    draft: Mapped[DraftRow] = relationship(back_populates="sections")
    revisions: Mapped[list[SectionRevision]] = relationship(
        back_populates="section",
        cascade="all, delete-orphan",
        passive_deletes=True,
        order_by="SectionRevision.id",
    )


class SectionRevision(Base):
    """An editor's replacement of a section's text."""

    __tablename__ = "section_revisions"

    id: Mapped[int] = mapped_column(Id, primary_key=True)
    section_id: Mapped[int] = mapped_column(
        ForeignKey("draft_sections.id", ondelete="CASCADE"), index=True
    )
    editor_id: Mapped[str] = mapped_column(String(64))
    editor_name: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime]
    markdown: Mapped[str] = mapped_column(Text)

    section: Mapped[DraftSection] = relationship(back_populates="revisions")


class Delivery(Base):
    """One chunk of a published summary, delivered to one publish channel.

    Publishing records each chunk as it is delivered, so a publish interrupted midway resumes
    after the last delivered chunk and nothing is posted twice.
    """

    __tablename__ = "deliveries"
    __table_args__ = (UniqueConstraint("draft_id", "channel_id", "position"),)

    id: Mapped[int] = mapped_column(Id, primary_key=True)
    draft_id: Mapped[int] = mapped_column(ForeignKey("drafts.id", ondelete="CASCADE"))
    channel_id: Mapped[str] = mapped_column(String(64))
    position: Mapped[int]
    platform_message_id: Mapped[str] = mapped_column(String(64))
    delivered_at: Mapped[datetime]


class Setting(Base):
    """One admin setting of a workspace, as JSON (see bot/settings.py for the keys)."""

    __tablename__ = "settings"
    __table_args__ = (UniqueConstraint("workspace_id", "key"),)

    id: Mapped[int] = mapped_column(Id, primary_key=True)
    workspace_id: Mapped[int] = mapped_column(ForeignKey("workspaces.id", ondelete="CASCADE"))
    key: Mapped[str] = mapped_column(String(64))
    value: Mapped[object] = mapped_column(JSON)


class SettingChange(Base):
    """The audit trail of settings: who changed what, when, from what to what."""

    __tablename__ = "setting_changes"

    id: Mapped[int] = mapped_column(Id, primary_key=True)
    workspace_id: Mapped[int] = mapped_column(
        ForeignKey("workspaces.id", ondelete="CASCADE"), index=True
    )
    key: Mapped[str] = mapped_column(String(64))
    old_value: Mapped[object | None] = mapped_column(JSON)
    new_value: Mapped[object | None] = mapped_column(JSON)
    actor_id: Mapped[str] = mapped_column(String(64))
    actor_name: Mapped[str] = mapped_column(String(200))
    changed_at: Mapped[datetime]


class GitHubItemRow(Base):
    """What GitHub said about a referenced PR or issue, cached so an unchanged item costs
    nothing (its ETag makes the next request conditional) and a 404 is not asked again
    every run. `kind` is "pr", "issue" or "missing" (GitHub answered 404)."""

    __tablename__ = "github_items"
    __table_args__ = (UniqueConstraint("repo", "number"),)

    id: Mapped[int] = mapped_column(Id, primary_key=True)
    repo: Mapped[str] = mapped_column(String(200))  # as referenced, e.g. "marin-community/marin"
    number: Mapped[int]
    kind: Mapped[str] = mapped_column(String(16))
    canonical_repo: Mapped[str | None] = mapped_column(String(200))  # after a rename
    title: Mapped[str | None] = mapped_column(String(500))
    state: Mapped[str | None] = mapped_column(String(16))
    merged_at: Mapped[datetime | None]
    author: Mapped[str | None] = mapped_column(String(100))
    labels: Mapped[list[str]] = mapped_column(JSON, default=list)
    paths: Mapped[list[str] | None] = mapped_column(JSON)  # None: not fetched
    url: Mapped[str | None] = mapped_column(String(500))
    etag: Mapped[str | None] = mapped_column(String(200))
    fetched_at: Mapped[datetime]


class DeletedMessage(Base):
    """A message deleted on the platform. Kept so that a copy arriving late (an out-of-order
    delivery, a backfill, a re-import) is not stored again."""

    __tablename__ = "deleted_messages"
    __table_args__ = (UniqueConstraint("workspace_id", "platform_id"),)

    id: Mapped[int] = mapped_column(Id, primary_key=True)
    workspace_id: Mapped[int] = mapped_column(ForeignKey("workspaces.id", ondelete="CASCADE"))
    platform_id: Mapped[str] = mapped_column(String(64))
    deleted_at: Mapped[datetime]


class ForgottenName(Base):
    """A name a member who opted out went by (display name, real name, a later rename), so
    drafts replace it with "a member" in everyone's text, even before they ever posted."""

    __tablename__ = "forgotten_names"
    __table_args__ = (UniqueConstraint("workspace_id", "name"),)

    id: Mapped[int] = mapped_column(Id, primary_key=True)
    workspace_id: Mapped[int] = mapped_column(ForeignKey("workspaces.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(200))


class UsedPageLink(Base):
    """A review-page link already exchanged for a session: a replayed link is refused. Kept
    until it would have expired anyway."""

    __tablename__ = "used_page_links"
    __table_args__ = (UniqueConstraint("nonce"),)

    id: Mapped[int] = mapped_column(Id, primary_key=True)
    nonce: Mapped[str] = mapped_column(String(64))
    used_at: Mapped[datetime]
    expires_at: Mapped[datetime]


class KeptValue(Base):
    """A small value the bot keeps between runs that belongs to no workspace: the hash of
    the Discord command definition last synced, the ETag of a GitHub list page."""

    __tablename__ = "kept_values"

    key: Mapped[str] = mapped_column(String(300), primary_key=True)
    value: Mapped[str] = mapped_column(String(500))
