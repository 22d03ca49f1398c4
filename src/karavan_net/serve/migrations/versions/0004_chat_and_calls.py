"""A table's chat, kept with its game; whether its watchers may chat; each account's web hook
for turn-based play, and the deadlines each seat's player was called about.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "table_chat",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("said_at", WHEN, nullable=False),
    )
    with op.batch_alter_table("tables") as table:
        # A plain default, so that SQLite adds the column where it is rather than making the
        # table anew (which the seats' and chat's references to it would stop).
        table.add_column(sa.Column("watchers_chat", sa.Boolean, nullable=False, server_default="0"))
    with op.batch_alter_table("accounts") as accounts:
        accounts.add_column(sa.Column("notify_url", sa.String(500)))
    with op.batch_alter_table("table_seats") as seats:
        seats.add_column(sa.Column("turn_told", WHEN))
        seats.add_column(sa.Column("turn_reminded", WHEN))


def downgrade() -> None:
    with op.batch_alter_table("table_seats") as seats:
        seats.drop_column("turn_reminded")
        seats.drop_column("turn_told")
    with op.batch_alter_table("accounts") as accounts:
        accounts.drop_column("notify_url")
    with op.batch_alter_table("tables") as table:
        table.drop_column("watchers_chat")
    op.drop_table("table_chat")
