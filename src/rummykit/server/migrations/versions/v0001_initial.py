"""The first schema: tables, seats, events, matches, stats, replays.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create every table."""
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("rules", sa.String(32), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False, index=True),
        sa.Column("match_no", sa.Integer, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=True),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "seats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("level", sa.String(16), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True, unique=True),
        sa.Column("controller", sa.String(8), nullable=False),
    )
    op.create_table(
        "events",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True),
        sa.Column("match_no", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
    )
    op.create_table(
        "matches",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("match_no", sa.Integer, primary_key=True),
        sa.Column("record", sa.Text, nullable=False),
        sa.Column("finished", sa.Float, nullable=False),
    )
    op.create_table(
        "stats",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("rules", sa.String(32), primary_key=True),
        sa.Column("played", sa.Integer, nullable=False),
        sa.Column("won", sa.Integer, nullable=False),
        sa.Column("lost", sa.Integer, nullable=False),
    )
    op.create_table(
        "replays",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("record", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Drop every table."""
    for name in ("replays", "stats", "matches", "events", "seats", "tables"):
        op.drop_table(name)
