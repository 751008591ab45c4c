"""What the app told a person (their notifications), and how each kind reaches them (their preferences)."""

from __future__ import annotations

import datetime as dt

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from volley_app.models.base import fk, utc_field

UNREAD = sa.text("read_at IS NULL")


class Notification(SQLModel, table=True):
    """One thing the app told a person: its kind, a short title and text, the path of its page, when it was made
    and when the person read it (None: unread)."""

    __tablename__ = "notifications"
    __table_args__ = (
        # A person's list, newest first (keyset paging by created_at, id).
        sa.Index("ix_notifications_user_id_created_at", "user_id", "created_at", "id"),
        # Their unread count: only the unread rows.
        sa.Index("ix_notifications_unread", "user_id", sqlite_where=UNREAD, postgresql_where=UNREAD),
    )  # fmt: skip

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = fk("users.id", index=False)
    kind: str = Field(sa_column=sa.Column(sa.String(30), nullable=False))
    title: str = Field(sa_column=sa.Column(sa.String(200), nullable=False))
    text: str = Field(default="", sa_column=sa.Column(sa.String(500), nullable=False, server_default=""))
    link: str = Field(default="", sa_column=sa.Column(sa.String(300), nullable=False, server_default=""))
    created_at: dt.datetime = utc_field(default_now=True)
    read_at: dt.datetime | None = utc_field(nullable=True, default=None)


class NotificationPreference(SQLModel, table=True):
    """How one kind of notification reaches a person beside the app: a column per channel (email, push). No row: the
    kind's default."""

    __tablename__ = "notification_preferences"
    __table_args__ = (sa.UniqueConstraint("user_id", "kind", name="uq_notification_preferences_user_id_kind"),)

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = fk("users.id", index=False)
    kind: str = Field(sa_column=sa.Column(sa.String(30), nullable=False))
    email: bool = Field(default=True, sa_column=sa.Column(sa.Boolean(), nullable=False, server_default=sa.text("true")))
    push: bool = Field(default=True, sa_column=sa.Column(sa.Boolean(), nullable=False, server_default=sa.text("true")))
    updated_at: dt.datetime = utc_field(default_now=True)
