"""discount codes: a percent or an amount off a registration, for a league, a session or a venue; what a payment
took off by code and by the player's credit

Revision ID: 0032
Revises: 0031
Create Date: 2026-11-26 20:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op


revision: str = "0032"
down_revision: str | None = "0031"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# A table SQLite copies to alter it keeps counting ids with AUTOINCREMENT (no id is ever reused).
KEEP_IDS = {"sqlite_autoincrement": True}


def _fk(column: str, table: str, target: str, ondelete: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint([column], [f"{target}.id"], name=op.f(f"fk_{table}_{column}_{target}"),
                                   ondelete=ondelete)  # fmt: skip


def upgrade() -> None:
    op.create_table(
        "discount_codes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=40), nullable=False),
        sa.Column("svl_id", sa.Integer(), nullable=False),
        sa.Column("scope", sa.String(length=10), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=True),
        sa.Column("session_id", sa.Integer(), nullable=True),
        sa.Column("percent", sa.Integer(), nullable=True),
        sa.Column("amount_cents", sa.Integer(), nullable=True),
        sa.Column("max_uses", sa.Integer(), nullable=True),
        sa.Column("per_player", sa.Integer(), nullable=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("active", sa.Boolean(), server_default=sa.text("true"), nullable=False),
        sa.Column("created_by_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("percent IS NULL OR (percent >= 1 AND percent <= 100)",
                           name=op.f("ck_discount_codes_percent_range")),
        sa.CheckConstraint("(percent IS NULL) <> (amount_cents IS NULL)",
                           name=op.f("ck_discount_codes_percent_or_amount")),
        sa.CheckConstraint("amount_cents IS NULL OR amount_cents > 0", name=op.f("ck_discount_codes_amount_positive")),
        sa.CheckConstraint("max_uses IS NULL OR max_uses > 0", name=op.f("ck_discount_codes_max_uses_positive")),
        sa.CheckConstraint("per_player IS NULL OR per_player > 0", name=op.f("ck_discount_codes_per_player_positive")),
        _fk("svl_id", "discount_codes", "users", "RESTRICT"),
        _fk("league_id", "discount_codes", "leagues", "RESTRICT"),
        _fk("session_id", "discount_codes", "league_sessions", "RESTRICT"),
        _fk("created_by_id", "discount_codes", "users", "SET NULL"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_discount_codes")),
        sa.UniqueConstraint("svl_id", "code", name=op.f("uq_discount_codes_svl_id_code")),
        sqlite_autoincrement=True,
    )  # fmt: skip
    op.create_index("ix_discount_codes_league_id", "discount_codes", ["league_id"])
    op.create_index("ix_discount_codes_session_id", "discount_codes", ["session_id"])
    with op.batch_alter_table("payments", schema=None, table_kwargs=KEEP_IDS) as batch_op:
        batch_op.add_column(sa.Column("discount_code_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("discount_cents", sa.Integer(), server_default="0", nullable=False))
        batch_op.add_column(sa.Column("credit_cents", sa.Integer(), server_default="0", nullable=False))
        batch_op.create_foreign_key(op.f("fk_payments_discount_code_id_discount_codes"), "discount_codes",
                                    ["discount_code_id"], ["id"], ondelete="RESTRICT")  # fmt: skip
        batch_op.create_index("ix_payments_discount_code_id", ["discount_code_id"])


def downgrade() -> None:
    with op.batch_alter_table("payments", schema=None, table_kwargs=KEEP_IDS) as batch_op:
        batch_op.drop_index("ix_payments_discount_code_id")
        batch_op.drop_constraint(op.f("fk_payments_discount_code_id_discount_codes"), type_="foreignkey")
        batch_op.drop_column("credit_cents")
        batch_op.drop_column("discount_cents")
        batch_op.drop_column("discount_code_id")
    op.drop_index("ix_discount_codes_session_id", table_name="discount_codes")
    op.drop_index("ix_discount_codes_league_id", table_name="discount_codes")
    op.drop_table("discount_codes")
