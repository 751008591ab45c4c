"""sub withdrawals: a sub who gave up a place they had accepted ("I can't make it"), and each sub's count of
places given up within a day of the game, kept on ``users``

Revision ID: 0027
Revises: 0026
Create Date: 2026-11-25 22:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0027"
down_revision: str | None = "0026"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "sub_withdrawals",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("request_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("accepted_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("withdrawn_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("late", sa.Boolean(), nullable=False, server_default=sa.text("false")),
        sa.ForeignKeyConstraint(["request_id"], ["sub_requests.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_sub_withdrawals_request_id", "sub_withdrawals", ["request_id"])
    op.create_index("ix_sub_withdrawals_user_id", "sub_withdrawals", ["user_id"])
    op.add_column("users", sa.Column("sub_late_withdrawals", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    op.drop_column("users", "sub_late_withdrawals")
    op.drop_index("ix_sub_withdrawals_user_id", table_name="sub_withdrawals")
    op.drop_index("ix_sub_withdrawals_request_id", table_name="sub_withdrawals")
    op.drop_table("sub_withdrawals")
