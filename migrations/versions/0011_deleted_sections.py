"""Sections an editor deleted stay stored, with who deleted them and when

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-02 17:00:00.000000

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0011"
down_revision: str | Sequence[str] | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema: every stored section is in its draft."""
    with op.batch_alter_table("draft_sections", schema=None) as batch_op:
        batch_op.add_column(sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("deleted_by", sa.String(length=200), nullable=True))


def downgrade() -> None:
    """Downgrade schema: deleted sections go (their drafts never showed them)."""
    op.execute("DELETE FROM draft_sections WHERE deleted_at IS NOT NULL")
    with op.batch_alter_table("draft_sections", schema=None) as batch_op:
        batch_op.drop_column("deleted_by")
        batch_op.drop_column("deleted_at")
