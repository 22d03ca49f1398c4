"""The lobby's listing order as indexes: status, then the newest first (of every game, and of
one game), so that listing a page of tables reads that page rather than sorting them all.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

NEWEST = [sa.text("updated_at DESC"), sa.text("id DESC")]


def upgrade() -> None:
    op.create_index("ix_tables_listing", "tables", ["status", *NEWEST])
    op.create_index("ix_tables_game_listing", "tables", ["game", "status", *NEWEST])


def downgrade() -> None:
    op.drop_index("ix_tables_game_listing", "tables")
    op.drop_index("ix_tables_listing", "tables")
