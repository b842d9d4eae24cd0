"""Members' news submissions (a news reaction, or `/summary news TEXT`)

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-02 17:30:00.000000

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0012"
down_revision: str | Sequence[str] | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema: the table of members' news submissions."""
    op.create_table(
        "news_submissions",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column(
            "workspace_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False
        ),
        sa.Column(
            "sender_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False
        ),
        sa.Column(
            "message_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=True
        ),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("permalink", sa.String(length=500), nullable=True),
        sa.Column("submitted_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("dropped_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("dropped_by", sa.String(length=200), nullable=True),
        sa.ForeignKeyConstraint(
            ["message_id"],
            ["messages.id"],
            name=op.f("fk_news_submissions_message_id_messages"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["sender_id"],
            ["people.id"],
            name=op.f("fk_news_submissions_sender_id_people"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["workspace_id"],
            ["workspaces.id"],
            name=op.f("fk_news_submissions_workspace_id_workspaces"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_news_submissions")),
        sa.UniqueConstraint(
            "sender_id", "message_id", name=op.f("uq_news_submissions_sender_id_message_id")
        ),
    )
    op.create_index(
        "ix_news_submissions_workspace_submitted",
        "news_submissions",
        ["workspace_id", "submitted_at"],
        unique=False,
    )
    op.create_index(
        op.f("ix_news_submissions_message_id"), "news_submissions", ["message_id"], unique=False
    )


def downgrade() -> None:
    """Downgrade schema: members' news submissions go."""
    op.drop_index(op.f("ix_news_submissions_message_id"), table_name="news_submissions")
    op.drop_index("ix_news_submissions_workspace_submitted", table_name="news_submissions")
    op.drop_table("news_submissions")
