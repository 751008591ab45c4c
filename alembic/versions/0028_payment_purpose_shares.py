"""what a payment is for (a team's place, a player's share, a free agent); a league's fee paid by the captain or
shared among the roster, with a deposit, a date the shares are due, and the reminders sent of them

Revision ID: 0033
Revises: 0032
Create Date: 2026-11-26 22:10:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op


revision: str = "0033"
down_revision: str | None = "0032"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

KEEP_IDS = {"sqlite_autoincrement": True}


def upgrade() -> None:
    with op.batch_alter_table("payments", table_kwargs=KEEP_IDS) as batch:
        batch.add_column(sa.Column("purpose", sa.String(length=10), server_default="place", nullable=False))
    with op.batch_alter_table("leagues", table_kwargs=KEEP_IDS) as batch:
        batch.add_column(sa.Column("payment_mode", sa.String(length=10), server_default="captain", nullable=False))
        batch.add_column(sa.Column("deposit_cents", sa.Integer(), server_default="0", nullable=False))
        batch.add_column(sa.Column("shares_due_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "share_reminders",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["team_id"], ["teams.id"], name=op.f("fk_share_reminders_team_id_teams"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_share_reminders_user_id_users"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_share_reminders")),
        sa.UniqueConstraint("team_id", "user_id", "kind", name="uq_share_reminders_team_id_user_id_kind"),
        sqlite_autoincrement=True,
    )


def downgrade() -> None:
    op.drop_table("share_reminders")
    with op.batch_alter_table("leagues", table_kwargs=KEEP_IDS) as batch:
        batch.drop_column("shares_due_at")
        batch.drop_column("deposit_cents")
        batch.drop_column("payment_mode")
    with op.batch_alter_table("payments", table_kwargs=KEEP_IDS) as batch:
        batch.drop_column("purpose")
