"""push notifications: each device's subscription, the messages on their way to it, and each kind's push preference

Revision ID: 0036
Revises: 0035
Create Date: 2026-11-27 12:20:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0036"
down_revision: str | None = "0035"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("notification_preferences", table_kwargs={"sqlite_autoincrement": True}) as batch:
        batch.add_column(sa.Column("push", sa.Boolean(), server_default=sa.text("true"), nullable=False))
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("endpoint", sa.String(length=1000), nullable=False),
        sa.Column("p256dh", sa.String(length=200), nullable=False),
        sa.Column("auth", sa.String(length=100), nullable=False),
        sa.Column("device", sa.String(length=120), server_default="", nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_push_subscriptions_user_id_users"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_push_subscriptions")),
        sa.UniqueConstraint("endpoint", name=op.f("uq_push_subscriptions_endpoint")),
        sqlite_autoincrement=True,
    )
    with op.batch_alter_table("push_subscriptions", schema=None) as batch:
        batch.create_index("ix_push_subscriptions_user_id", ["user_id"], unique=False)
    op.create_table(
        "push_messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("subscription_id", sa.Integer(), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("failed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["subscription_id"], ["push_subscriptions.id"],
                                name=op.f("fk_push_messages_subscription_id_push_subscriptions"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_push_messages")),
        sqlite_autoincrement=True,
    )
    with op.batch_alter_table("push_messages", schema=None) as batch:
        batch.create_index("ix_push_messages_subscription_id", ["subscription_id"], unique=False)
        batch.create_index("ix_push_messages_due", ["sent_at", "next_attempt_at"], unique=False)


def downgrade() -> None:
    op.drop_table("push_messages")
    op.drop_table("push_subscriptions")
    with op.batch_alter_table("notification_preferences", table_kwargs={"sqlite_autoincrement": True}) as batch:
        batch.drop_column("push")
