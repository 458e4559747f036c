"""Guests are pruned: ``players.last_seen`` (when the player was last seen: its session
last used, or it was created, merged or signed in), indexed for the pruning sweep; existing
players start from their latest session, else their creation.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``players.last_seen`` (filled) and its index."""
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("last_seen", sa.Float, nullable=True))
    op.execute("UPDATE players SET last_seen = COALESCE((SELECT MAX(sessions.last_seen) "
               "FROM sessions WHERE sessions.player_id = players.id), created)")
    op.create_index("ix_players_last_seen", "players", ["last_seen"])


def downgrade() -> None:
    """Drop the index and the column."""
    op.drop_index("ix_players_last_seen", table_name="players")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("last_seen")
