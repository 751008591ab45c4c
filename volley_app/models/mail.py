"""The durable mail outbox: a message is a row, written in the transaction of its cause."""

from __future__ import annotations

import datetime as dt

import sqlalchemy as sa
from sqlmodel import Field

from volley_app.models.base import Delivery, enum_field, utc_field
from volley_app.models.enums import OutboxStatus


class OutboxMessage(Delivery, table=True):
    __tablename__ = "mail_outbox"
    __table_args__ = (sa.Index("ix_mail_outbox_status_next", "status", "next_attempt_at"),)

    id: int | None = Field(default=None, primary_key=True)
    kind: str = Field(default="generic", sa_column=sa.Column(sa.String(50), nullable=False, index=True))
    to_addr: str = Field(sa_column=sa.Column(sa.String(254), nullable=False))
    subject: str = Field(sa_column=sa.Column(sa.String(300), nullable=False))
    body_text: str = Field(sa_column=sa.Column(sa.Text, nullable=False))
    body_html: str | None = Field(default=None, sa_column=sa.Column(sa.Text))
    reply_to: str | None = Field(default=None, sa_column=sa.Column(sa.String(254)))
    # Bulk mail: the address of its one-click unsubscribe (List-Unsubscribe).
    list_unsubscribe: str | None = Field(default=None, sa_column=sa.Column(sa.String(500)))
    status: OutboxStatus = enum_field(OutboxStatus, default=OutboxStatus.PENDING)
    logged_at: dt.datetime | None = utc_field(nullable=True, default=None)
