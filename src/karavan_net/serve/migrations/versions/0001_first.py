"""The first schema: accounts and their keys, tables and seats, ratings, the server's marks.

Revision ID: 0001
Revises:
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", WHEN, nullable=False),
    )
    op.create_table(
        "account_keys",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("digest", sa.String(128), nullable=False, unique=True),
        sa.Column("created_at", WHEN, nullable=False),
    )
    op.create_index("ix_account_keys_account_id", "account_keys", ["account_id"])
    op.create_table(
        "tables",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_by", sa.Integer, sa.ForeignKey("accounts.id")),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("updated_at", WHEN, nullable=False),
        sa.Column("clock", sa.String(16), nullable=False),
        sa.Column("move_seconds", sa.Integer, nullable=False),
        sa.Column("bank_seconds", sa.Integer, nullable=False),
        sa.Column("takebacks", sa.String(16), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("stand_in", sa.String(16), nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("revision", sa.Integer, nullable=False),
        sa.Column("to_move", sa.Integer),
        sa.Column("save", sa.JSON),
        sa.Column("result", sa.JSON),
    )
    op.create_index("ix_tables_game", "tables", ["game"])
    op.create_index("ix_tables_status", "tables", ["status"])
    op.create_index("ix_tables_updated_at", "tables", ["updated_at"])
    op.create_table(
        "table_seats",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("level", sa.String(16)),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id")),
        sa.Column("reserved_for", sa.String(64)),
        sa.Column("name", sa.String(64)),
        sa.Column("bank_left", sa.Float, nullable=False),
        sa.Column("deadline", WHEN),
        sa.Column("stood_in", sa.Boolean, nullable=False),
    )
    op.create_index("ix_table_seats_account_id", "table_seats", ["account_id"])
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
    )
    op.create_table(
        "rating_changes",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("before", sa.Float, nullable=False),
        sa.Column("after", sa.Float, nullable=False),
    )
    op.create_table(
        "server_marks",
        sa.Column("key", sa.String(32), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )


def downgrade() -> None:
    for name in (
        "server_marks",
        "rating_changes",
        "ratings",
        "table_seats",
        "tables",
        "account_keys",
        "accounts",
    ):
        op.drop_table(name)
