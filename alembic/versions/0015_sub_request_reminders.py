"""sub request reminders: which reminder each request has sent to whom, so each goes out once

Revision ID: 0020
Revises: 0012
Create Date: 2026-11-22 05:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0020"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "sub_request_reminders",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("sub_request_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["sub_request_id"], ["sub_requests.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("sub_request_id", "user_id", "kind", name="uq_sub_request_reminders_request_user_kind"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_sub_request_reminders_user_id", "sub_request_reminders", ["user_id"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_sub_request_reminders_user_id", table_name="sub_request_reminders")
    op.drop_table("sub_request_reminders")
