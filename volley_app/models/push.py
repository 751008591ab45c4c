"""Push notifications: a device's subscription (the browser's push service address and keys), and the messages
waiting to go to it. A message is a row written in the transaction of its cause; a sender sends it afterwards."""

from __future__ import annotations

import datetime as dt

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from volley_app.models.base import Delivery, fk, utc_field


class PushSubscription(SQLModel, table=True):
    """One device of one person that asked for push notifications (its browser's push service endpoint)."""

    __tablename__ = "push_subscriptions"

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = fk("users.id")
    endpoint: str = Field(sa_column=sa.Column(sa.String(1000), nullable=False, unique=True))
    p256dh: str = Field(sa_column=sa.Column(sa.String(200), nullable=False))
    auth: str = Field(sa_column=sa.Column(sa.String(100), nullable=False))
    device: str = Field(default="", sa_column=sa.Column(sa.String(120), nullable=False, server_default=""))
    created_at: dt.datetime = utc_field(default_now=True)
    last_sent_at: dt.datetime | None = utc_field(nullable=True, default=None)


class PushMessage(Delivery, table=True):
    """A notification on its way to one device. Gone with its subscription (the device no longer takes them)."""

    __tablename__ = "push_messages"
    __table_args__ = (sa.Index("ix_push_messages_due", "sent_at", "next_attempt_at"),)

    id: int | None = Field(default=None, primary_key=True)
    subscription_id: int = fk("push_subscriptions.id")
    payload: str = Field(sa_column=sa.Column(sa.Text, nullable=False))
    failed_at: dt.datetime | None = utc_field(nullable=True, default=None)
