"""archive indexes: the Archive lists what was archived, newest first, a page at a time

Revision ID: 0012
Revises: 0015
Create Date: 2026-11-22 01:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0012"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = ("league_sessions", "leagues", "users", "sub_requests")


def upgrade() -> None:
    for table in TABLES:
        op.create_index(f"ix_{table}_archived_at", table, ["archived_at"], unique=False)


def downgrade() -> None:
    for table in reversed(TABLES):
        op.drop_index(f"ix_{table}_archived_at", table_name=table)
