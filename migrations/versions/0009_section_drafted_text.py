"""A section's text as drafted, before any edit (the review page's diff from the first draft)

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01 17:40:00.000000

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0009"
down_revision: str | Sequence[str] | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema: a section never edited is still as drafted; an edited one's drafted
    text was not kept, so it stays unknown (NULL)."""
    with op.batch_alter_table("draft_sections", schema=None) as batch_op:
        batch_op.add_column(sa.Column("drafted_markdown", sa.Text(), nullable=True))
    op.execute(
        "UPDATE draft_sections SET drafted_markdown = markdown WHERE id NOT IN "
        "(SELECT section_id FROM section_revisions)"
    )


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table("draft_sections", schema=None) as batch_op:
        batch_op.drop_column("drafted_markdown")
