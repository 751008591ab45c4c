"""sub needs and availability: what a request needs (position, gender, lowest rating), what happened
after the game (played, no-show); when a sub can play (weekdays, a weekly cap, dates they cannot)

Revision ID: 0017
Revises: 0012
Create Date: 2026-11-22 05:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Existing requests need anyone: "Any" position and gender, no lowest rating.
    op.add_column("sub_requests", sa.Column("position_needed", sa.String(length=14), server_default="Any", nullable=False))
    op.add_column("sub_requests", sa.Column("gender_needed", sa.String(length=14), server_default="Any", nullable=False))
    op.add_column("sub_requests", sa.Column("min_rating", sa.String(length=9), nullable=True))
    op.add_column("sub_requests", sa.Column("outcome", sa.String(length=15), nullable=True))
    op.add_column("sub_requests", sa.Column("outcome_at", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_sub_requests_recipient_status_date", "sub_requests", ["recipient_id", "status", "date"])
    op.create_index("ix_sub_requests_status_date", "sub_requests", ["status", "date"])
    # Existing subs can play every day, without a cap.
    op.add_column("users", sa.Column("sub_days", sa.Integer(), server_default="127", nullable=False))
    op.add_column("users", sa.Column("sub_weekly_cap", sa.Integer(), nullable=True))
    op.create_table(
        "sub_unavailable_dates",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_sub_unavailable_dates_user_id_users"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sub_unavailable_dates")),
        sa.UniqueConstraint("user_id", "day", name="uq_sub_unavailable_dates_user_id_day"),
        sqlite_autoincrement=True,
    )  # fmt: skip


def downgrade() -> None:
    op.drop_table("sub_unavailable_dates")
    op.drop_column("users", "sub_weekly_cap")
    op.drop_column("users", "sub_days")
    op.drop_index("ix_sub_requests_status_date", table_name="sub_requests")
    op.drop_index("ix_sub_requests_recipient_status_date", table_name="sub_requests")
    op.drop_column("sub_requests", "outcome_at")
    op.drop_column("sub_requests", "outcome")
    op.drop_column("sub_requests", "min_rating")
    op.drop_column("sub_requests", "gender_needed")
    op.drop_column("sub_requests", "position_needed")
