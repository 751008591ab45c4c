"""sub invites: players needed and places taken, ordered invites with hold windows, sub notification settings,
one-click unsubscribe of bulk mail

Revision ID: 0018
Revises: 0012
Create Date: 2026-11-22 05:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("sub_requests", sa.Column("players_needed", sa.Integer(), nullable=False, server_default="1"))
    op.add_column("sub_requests", sa.Column("places_filled", sa.Integer(), nullable=False, server_default="0"))
    op.add_column("sub_requests", sa.Column("if_nobody", sa.String(length=10), nullable=True))
    # A request already accepted has its one place taken.
    op.execute("UPDATE sub_requests SET places_filled = 1 WHERE status = 'Accepted'")
    op.add_column("users", sa.Column("sub_notify", sa.String(length=10), nullable=False, server_default="invites"))
    op.add_column("users", sa.Column("announcements_off", sa.Boolean(), nullable=False, server_default=sa.text("false")))
    op.add_column("mail_outbox", sa.Column("list_unsubscribe", sa.String(length=500), nullable=True))
    op.create_table(
        "sub_request_places",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("request_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("accepted_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["request_id"], ["sub_requests.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("request_id", "user_id", name="uq_sub_request_places_request_user"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_sub_request_places_request_id", "sub_request_places", ["request_id"])
    op.create_index("ix_sub_request_places_user_id", "sub_request_places", ["user_id"])
    # The accepted requests' subs, as places.
    op.execute(
        "INSERT INTO sub_request_places (request_id, user_id, accepted_at) "
        "SELECT id, recipient_id, updated_at FROM sub_requests WHERE status = 'Accepted' AND recipient_id IS NOT NULL"
    )
    op.create_table(
        "sub_invites",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("request_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(length=10), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("invited_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("hold_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("answered_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("link_used_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["request_id"], ["sub_requests.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_sub_invites_request_position", "sub_invites", ["request_id", "position"])
    op.create_index("ix_sub_invites_state_hold_until", "sub_invites", ["state", "hold_until"])
    op.create_index("ix_sub_invites_user_id", "sub_invites", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_sub_invites_user_id", table_name="sub_invites")
    op.drop_index("ix_sub_invites_state_hold_until", table_name="sub_invites")
    op.drop_index("ix_sub_invites_request_position", table_name="sub_invites")
    op.drop_table("sub_invites")
    op.drop_index("ix_sub_request_places_user_id", table_name="sub_request_places")
    op.drop_index("ix_sub_request_places_request_id", table_name="sub_request_places")
    op.drop_table("sub_request_places")
    op.drop_column("mail_outbox", "list_unsubscribe")
    op.drop_column("users", "announcements_off")
    op.drop_column("users", "sub_notify")
    op.drop_column("sub_requests", "if_nobody")
    op.drop_column("sub_requests", "places_filled")
    op.drop_column("sub_requests", "players_needed")
