"""Private tables: a table created with no open seat (or asked to be) is not listed in
the lobby.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``tables.private`` (existing tables stay listed)."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("private", sa.Boolean, nullable=False,
                                   server_default=sa.false()))


def downgrade() -> None:
    """Drop ``tables.private``."""
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("private")
