"""Fenced seat updates and checked uploads: ``tables.seats_version`` counts the seat
changes (a seat update is a compare-and-set on it and on ``version``, so a node that
lost a table cannot overwrite a seat); ``replays.status`` says whether an upload is still
being checked (``checking``), accepted (``ok``) or refused (``refused``, with
``replays.error``), and ``replays.frames`` its length once accepted.

Revision ID: 0003_scale
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_scale"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``tables.seats_version`` and ``replays.status``, ``frames``, ``error``
    (existing uploads were checked before they were kept: ``ok``)."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("seats_version", sa.Integer, nullable=False,
                                   server_default="0"))
    with op.batch_alter_table("replays") as batch:
        batch.add_column(sa.Column("status", sa.String(16), nullable=False,
                                   server_default="ok"))
        batch.add_column(sa.Column("frames", sa.Integer, nullable=True))
        batch.add_column(sa.Column("error", sa.Text, nullable=True))


def downgrade() -> None:
    """Drop the columns."""
    with op.batch_alter_table("replays") as batch:
        batch.drop_column("error")
        batch.drop_column("frames")
        batch.drop_column("status")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("seats_version")
