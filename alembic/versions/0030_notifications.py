"""notifications: what the app told each person, and how each kind reaches them; a sub's email setting becomes two
of those preferences

Revision ID: 0035
Revises: 0034
Create Date: 2026-11-27 12:00:00
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0035"
down_revision: str | None = "0034"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

KEEP_IDS = {"sqlite_autoincrement": True}
UNREAD = sa.text("read_at IS NULL")
# A sub's setting and the preferences it becomes: "none" emails no invitation, "every" also every open request
# that matches them ("invites", the default, is both kinds' default: no row).
INVITATION, OPEN_REQUEST = "sub_invitation", "open_request"


def _rebuilding_users(change) -> None:
    """``change`` the users table; SQLite rebuilds it, which would lose its index on an expression (kept here)."""
    op.drop_index("ix_users_lower_first_name", table_name="users")
    with op.batch_alter_table("users", table_kwargs=KEEP_IDS) as batch:
        change(batch)
    op.create_index("ix_users_lower_first_name", "users", [sa.text("lower(first_name)")], unique=False)


def upgrade() -> None:
    op.create_table(
        "notifications",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=30), nullable=False),
        sa.Column("title", sa.String(length=200), nullable=False),
        sa.Column("text", sa.String(length=500), server_default="", nullable=False),
        sa.Column("link", sa.String(length=300), server_default="", nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("read_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_notifications_user_id_users"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_notifications")),
        sqlite_autoincrement=True,
    )
    with op.batch_alter_table("notifications", schema=None) as batch:
        batch.create_index("ix_notifications_user_id_created_at", ["user_id", "created_at", "id"], unique=False)
        batch.create_index("ix_notifications_unread", ["user_id"], unique=False, sqlite_where=UNREAD,
                           postgresql_where=UNREAD)
    prefs = op.create_table(
        "notification_preferences",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=30), nullable=False),
        sa.Column("email", sa.Boolean(), server_default=sa.text("true"), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_notification_preferences_user_id_users"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_notification_preferences")),
        sa.UniqueConstraint("user_id", "kind", name="uq_notification_preferences_user_id_kind"),
        sqlite_autoincrement=True,
    )
    users = sa.table("users", sa.column("id", sa.Integer()), sa.column("sub_notify", sa.String()))
    now = dt.datetime.now(dt.UTC)
    conn = op.get_bind()
    for setting, kind, email in (("none", INVITATION, False), ("every", OPEN_REQUEST, True)):
        ids = conn.execute(sa.select(users.c.id).where(users.c.sub_notify == setting)).scalars().all()
        if ids:
            op.bulk_insert(prefs, [{"user_id": i, "kind": kind, "email": email, "updated_at": now} for i in ids])
    _rebuilding_users(lambda batch: batch.drop_column("sub_notify"))


def downgrade() -> None:
    _rebuilding_users(lambda batch: batch.add_column(
        sa.Column("sub_notify", sa.String(length=10), server_default="invites", nullable=False)))
    conn = op.get_bind()
    prefs = sa.table("notification_preferences", sa.column("user_id", sa.Integer()), sa.column("kind", sa.String()),
                     sa.column("email", sa.Boolean()))  # fmt: skip
    users = sa.table("users", sa.column("id", sa.Integer()), sa.column("sub_notify", sa.String()))
    for kind, email, setting in ((INVITATION, False, "none"), (OPEN_REQUEST, True, "every")):
        chosen = sa.select(prefs.c.user_id).where(prefs.c.kind == kind, prefs.c.email.is_(email))
        conn.execute(sa.update(users).where(users.c.id.in_(chosen)).values(sub_notify=setting))
    op.drop_table("notification_preferences")
    with op.batch_alter_table("notifications", schema=None) as batch:
        batch.drop_index("ix_notifications_unread", sqlite_where=UNREAD, postgresql_where=UNREAD)
        batch.drop_index("ix_notifications_user_id_created_at")
    op.drop_table("notifications")
