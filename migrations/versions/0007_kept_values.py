"""Kept values: the Discord command hash, GitHub list ETags

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-08 10:00:00.000000

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table(
        "kept_values",
        sa.Column("key", sa.String(length=300), nullable=False),
        sa.Column("value", sa.String(length=500), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_kept_values")),
    )


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_table("kept_values")
