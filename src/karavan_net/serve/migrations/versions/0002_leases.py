"""Leases: which server process runs a table now, until when, and where it listens; and the
processes running, where their clients may come back to if one is lost.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as table:
        table.add_column(sa.Column("lease_owner", sa.String(64)))
        table.add_column(sa.Column("lease_until", sa.DateTime(timezone=True)))
        table.add_column(sa.Column("lease_address", sa.String(300)))
        table.create_index("ix_tables_lease_until", ["lease_until"])
    op.create_table(
        "server_processes",
        sa.Column("owner", sa.String(64), primary_key=True),
        sa.Column("address", sa.String(300), nullable=False),
        sa.Column("alive_until", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("server_processes")
    with op.batch_alter_table("tables") as table:
        table.drop_index("ix_tables_lease_until")
        table.drop_column("lease_address")
        table.drop_column("lease_until")
        table.drop_column("lease_owner")
