"""Session expiry and guest merges: ``sessions.last_seen`` (when the session was last
used; existing sessions start from their creation) and ``players.merged_into`` (the
account a guest's record was merged into when its browser signed in).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``sessions.last_seen`` (set to ``created``) and ``players.merged_into``."""
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("last_seen", sa.Float, nullable=False,
                                   server_default="0"))
    op.execute("UPDATE sessions SET last_seen = created")
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("merged_into", sa.String(32), nullable=True))


def downgrade() -> None:
    """Drop the columns."""
    with op.batch_alter_table("players") as batch:
        batch.drop_column("merged_into")
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("last_seen")
