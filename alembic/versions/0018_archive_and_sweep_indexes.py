"""indexes for the Archive and the background sweeps: the Archive's indexes hold (archived_at, id), so a page
of each kind is read in the Archive's order without sorting what was archived; the reminders' sweep finds the
requests of the days around now by date, and the holds' sweep the lapsed holds from an index of pending payments

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
PENDING = sa.text("status = 'pending'")


def upgrade() -> None:
    for table in TABLES:
        op.drop_index(f"ix_{table}_archived_at", table_name=table)
        op.create_index(f"ix_{table}_archived_at_id", table, ["archived_at", "id"], unique=False,
                        sqlite_where=ARCHIVED, postgresql_where=ARCHIVED)  # fmt: skip
    op.create_index("ix_sub_requests_date", "sub_requests", ["date"], unique=False)
    op.create_index("ix_payments_pending_expires_at", "payments", ["expires_at"], unique=False,
                    sqlite_where=PENDING, postgresql_where=PENDING)  # fmt: skip


def downgrade() -> None:
    op.drop_index("ix_payments_pending_expires_at", table_name="payments")
    op.drop_index("ix_sub_requests_date", table_name="sub_requests")
    for table in reversed(TABLES):
        op.drop_index(f"ix_{table}_archived_at_id", table_name=table)
        op.create_index(f"ix_{table}_archived_at", table, ["archived_at"], unique=False,
                        sqlite_where=ARCHIVED, postgresql_where=ARCHIVED)  # fmt: skip
