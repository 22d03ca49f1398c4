"""A table's marks on its log: the words a stand-in's decision carries ("A bot decided for
Ann: their time ran out."), kept so that they outlast the process that made them.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN, as in 0005: SQLite's batch mode would copy the tables table.
    op.add_column("tables", sa.Column("log_marks", sa.JSON))


def downgrade() -> None:
    with op.batch_alter_table("tables") as table:
        table.drop_column("log_marks")
