"""playoff sub approval: a sub's place on a playoff game's request held for the league operator's approval, and
the places the operator refused

Revision ID: 0030
Revises: 0029
Create Date: 2026-11-26 16:10:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op


revision: str = "0030"
down_revision: str | None = "0029"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# A table SQLite copies to alter it keeps counting ids with AUTOINCREMENT (no id is ever reused).
KEEP_IDS = {"sqlite_autoincrement": True}


def upgrade() -> None:
    op.create_table(
        "sub_place_refusals",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("request_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("accepted_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("refused_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("refused_by_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["request_id"], ["sub_requests.id"], name=op.f("fk_sub_place_refusals_request_id_sub_requests"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_sub_place_refusals_user_id_users"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["refused_by_id"], ["users.id"], name=op.f("fk_sub_place_refusals_refused_by_id_users"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sub_place_refusals")),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_sub_place_refusals_request_id", "sub_place_refusals", ["request_id"])
    op.create_index("ix_sub_place_refusals_user_id", "sub_place_refusals", ["user_id"])
    with op.batch_alter_table("sub_request_places", schema=None, table_kwargs=KEEP_IDS) as batch_op:
        batch_op.add_column(sa.Column("needs_approval", sa.Boolean(), server_default=sa.text("false"), nullable=False))
        batch_op.add_column(sa.Column("approved_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("approved_by_id", sa.Integer(), nullable=True))
        batch_op.create_foreign_key(
            batch_op.f("fk_sub_request_places_approved_by_id_users"), "users", ["approved_by_id"], ["id"],
            ondelete="SET NULL",
        )


def downgrade() -> None:
    with op.batch_alter_table("sub_request_places", schema=None, table_kwargs=KEEP_IDS) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_sub_request_places_approved_by_id_users"), type_="foreignkey")
        batch_op.drop_column("approved_by_id")
        batch_op.drop_column("approved_at")
        batch_op.drop_column("needs_approval")

    op.drop_index("ix_sub_place_refusals_user_id", table_name="sub_place_refusals")
    op.drop_index("ix_sub_place_refusals_request_id", table_name="sub_place_refusals")
    op.drop_table("sub_place_refusals")
