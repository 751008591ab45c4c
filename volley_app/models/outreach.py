"""Per-client rate limits for public forms, and the admin's email-to-all-users jobs."""

from __future__ import annotations

import datetime as dt

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from volley_app.models.base import fk, utc_field


class RateLimitHit(SQLModel, table=True):
    """One counted use of a limited action (a form sent, a reset asked for) by one key (a client, an email)."""

    __tablename__ = "rate_limit_hits"
    __table_args__ = (sa.Index("ix_rate_limit_hits_scope_key_at", "scope", "key", "at"),)

    id: int | None = Field(default=None, primary_key=True)
    scope: str = Field(sa_column=sa.Column(sa.String(50), nullable=False))
    key: str = Field(sa_column=sa.Column(sa.String(254), nullable=False))
    at: dt.datetime = utc_field(default_now=True)


class EmailAllJob(SQLModel, table=True):
    """One 'email all users' send: its text, who sent it, and how many messages it queued."""

    __tablename__ = "email_all_jobs"

    id: int | None = Field(default=None, primary_key=True)
    subject: str = Field(sa_column=sa.Column(sa.String(300), nullable=False))
    body_text: str = Field(sa_column=sa.Column(sa.Text, nullable=False))
    created_by_id: int | None = fk("users.id", nullable=True, ondelete="SET NULL")
    created_at: dt.datetime = utc_field(default_now=True)
    queued: int = 0


class EmailAllRecipient(SQLModel, table=True):
    """A user a job mails, once: the unique (job, user) pair makes a second queueing impossible."""

    __tablename__ = "email_all_recipients"
    __table_args__ = (sa.UniqueConstraint("job_id", "user_id", name="uq_email_all_recipients_job_user"),)

    id: int | None = Field(default=None, primary_key=True)
    job_id: int = fk("email_all_jobs.id")
    user_id: int | None = fk("users.id", nullable=True, ondelete="SET NULL", index=False)
    outbox_id: int | None = fk("mail_outbox.id", nullable=True, ondelete="SET NULL", index=False)
