"""Challenges and resignations: a table made for the players its seats are kept for is marked
a challenge, and a seat whose player resigned a game that goes on (a bot plays it) keeps the
order in which they did.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-08
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ALTER TABLE ... ADD COLUMN on both databases: SQLite's batch mode would copy the
    # tables table, which the seats' foreign keys forbid dropping.
    challenge = sa.Column("challenge", sa.Boolean, nullable=False, server_default=sa.false())
    op.add_column("tables", challenge)
    op.add_column("table_seats", sa.Column("resigned", sa.Integer))


def downgrade() -> None:
    with op.batch_alter_table("table_seats") as seats:
        seats.drop_column("resigned")
    with op.batch_alter_table("tables") as table:
        table.drop_column("challenge")
