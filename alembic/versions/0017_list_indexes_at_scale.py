"""list indexes that hold at 100,000 rows: the archive indexes hold archived rows only, a venue is found
by its lower-cased first name, the users list sorts by name from an index

The full ``archived_at`` indexes were taken by SQLite's planner for "not archived" (nearly every row) and
read most of a table through them; as partial indexes they serve the Archive alone.

Revision ID: 0022
Revises: 0021
Create Date: 2026-11-25 13:40:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0022"
down_revision: str | None = "0021"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = ("league_sessions", "leagues", "users", "sub_requests")
ARCHIVED = sa.text("archived_at IS NOT NULL")


def upgrade() -> None:
    for table in TABLES:
        op.drop_index(f"ix_{table}_archived_at", table_name=table)
        op.create_index(f"ix_{table}_archived_at", table, ["archived_at"], unique=False,
                        sqlite_where=ARCHIVED, postgresql_where=ARCHIVED)  # fmt: skip
    op.create_index("ix_users_lower_first_name", "users", [sa.text("lower(first_name)")], unique=False)
    op.create_index("ix_users_last_name_first_name_id", "users", ["last_name", "first_name", "id"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_users_last_name_first_name_id", table_name="users")
    op.drop_index("ix_users_lower_first_name", table_name="users")
    for table in reversed(TABLES):
        op.drop_index(f"ix_{table}_archived_at", table_name=table)
        op.create_index(f"ix_{table}_archived_at", table, ["archived_at"], unique=False)
