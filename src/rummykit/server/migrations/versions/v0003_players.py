"""Players: an identity per browser (anonymous, or an account), its sessions, its
statistics and rating; a seat knows its player and whether that player resigned.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``players``, ``sessions``, ``player_stats``; ``seats.player_id`` and
    ``seats.left``."""
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("account", sa.String(40), nullable=True, unique=True),
        sa.Column("password_hash", sa.Text, nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("rated", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_index("ix_players_rated", "players", ["rated"])
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False,
                  index=True),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "player_stats",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"),
                  primary_key=True),
        sa.Column("rules", sa.String(32), primary_key=True),
        sa.Column("played", sa.Integer, nullable=False),
        sa.Column("won", sa.Integer, nullable=False),
        sa.Column("lost", sa.Integer, nullable=False),
    )
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("player_id", sa.String(32), nullable=True))
        batch.add_column(sa.Column("left", sa.String(8), nullable=True))


def downgrade() -> None:
    """Drop what :func:`upgrade` added."""
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("left")
        batch.drop_column("player_id")
    op.drop_table("player_stats")
    op.drop_table("sessions")
    op.drop_index("ix_players_rated", "players")
    op.drop_table("players")
