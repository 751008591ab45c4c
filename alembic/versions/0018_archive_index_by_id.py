"""the Archive's indexes hold (archived_at, id): a page of each kind is read in the Archive's order,
the last rows of one moment included, without sorting what was archived

Revision ID: 0023
Revises: 0022
Create Date: 2026-11-25 16:10:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0023"
down_revision: str | None = "0022"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = ("league_sessions", "leagues", "users", "sub_requests")
ARCHIVED = sa.text("archived_at IS NOT NULL")


def upgrade() -> None:
    for table in TABLES:
        op.drop_index(f"ix_{table}_archived_at", table_name=table)
        op.create_index(f"ix_{table}_archived_at_id", table, ["archived_at", "id"], unique=False,
                        sqlite_where=ARCHIVED, postgresql_where=ARCHIVED)  # fmt: skip


def downgrade() -> None:
    for table in reversed(TABLES):
        op.drop_index(f"ix_{table}_archived_at_id", table_name=table)
        op.create_index(f"ix_{table}_archived_at", table, ["archived_at"], unique=False,
                        sqlite_where=ARCHIVED, postgresql_where=ARCHIVED)  # fmt: skip
