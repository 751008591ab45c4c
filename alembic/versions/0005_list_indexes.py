"""list indexes: the open requests and the subs lists read a page at a time

Revision ID: 0011
Revises: 0007
Create Date: 2026-11-21 23:25:00
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0011"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index(
        "ix_sub_requests_status_completed_date_id", "sub_requests", ["status", "completed", "date", "id"], unique=False
    )
    op.create_index(
        "ix_users_sub_active_first_name_last_name_id",
        "users",
        ["sub", "active", "first_name", "last_name", "id"],
        unique=False,
    )


def downgrade() -> None:
    op.drop_index("ix_users_sub_active_first_name_last_name_id", table_name="users")
    op.drop_index("ix_sub_requests_status_completed_date_id", table_name="sub_requests")
