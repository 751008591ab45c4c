"""one-time sign-in links (emailed when the failed-login ceiling holds a right password back) and known devices
(the device cookie set at a successful login; the ceilings do not hold them back)

Revision ID: 0024
Revises: 0023
Create Date: 2026-11-25 21:40:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0024"
down_revision: str | None = "0023"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "sign_in_links",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_sign_in_links_user_id_users"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sign_in_links")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_sign_in_links_token_hash")),
        sqlite_autoincrement=True,
    )
    op.create_index(op.f("ix_sign_in_links_user_id"), "sign_in_links", ["user_id"], unique=False)
    op.create_table(
        "known_devices",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_known_devices_user_id_users"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_known_devices")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_known_devices_token_hash")),
        sqlite_autoincrement=True,
    )
    op.create_index(op.f("ix_known_devices_user_id"), "known_devices", ["user_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_known_devices_user_id"), table_name="known_devices")
    op.drop_table("known_devices")
    op.drop_index(op.f("ix_sign_in_links_user_id"), table_name="sign_in_links")
    op.drop_table("sign_in_links")
