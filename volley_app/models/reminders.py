"""The reminders a sub request has sent: one row per request, person and kind, so each goes out once."""

from __future__ import annotations

import datetime as dt

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from volley_app.models.base import fk, utc_field


class SubRequestReminder(SQLModel, table=True):
    __tablename__ = "sub_request_reminders"
    # Written in the transaction that queues the email: a second sweep (another instance) cannot send it again.
    __table_args__ = (
        sa.UniqueConstraint("sub_request_id", "user_id", "kind", name="uq_sub_request_reminders_request_user_kind"),
    )

    id: int | None = Field(default=None, primary_key=True)
    sub_request_id: int = fk("sub_requests.id", index=False)
    user_id: int = fk("users.id")
    kind: str = Field(sa_column=sa.Column(sa.String(20), nullable=False))  # "day_before", "after_game"
    sent_at: dt.datetime = utc_field(default_now=True)
