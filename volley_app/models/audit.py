"""The audit log: who changed what, when, and what it was before and after."""

from __future__ import annotations

import datetime as dt

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from volley_app.models.base import fk, utc_field


class AuditEntry(SQLModel, table=True):
    """One operator or admin change. Names are copied in, so an entry reads the same after renames."""

    __tablename__ = "audit_log"
    __table_args__ = (
        sa.Index("ix_audit_log_league_id_at", "league_id", "at"),
        sa.Index("ix_audit_log_subject_user_id_at", "subject_user_id", "at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    at: dt.datetime = utc_field(default_now=True, index=True)
    actor_id: int | None = fk("users.id", nullable=True, ondelete="SET NULL")
    actor_name: str = Field(default="", sa_column=sa.Column(sa.String(100), nullable=False, server_default=""))
    action: str = Field(sa_column=sa.Column(sa.String(40), nullable=False))
    entity: str = Field(sa_column=sa.Column(sa.String(40), nullable=False))
    entity_id: int | None = Field(default=None, sa_column=sa.Column(sa.Integer))
    # Kept as plain numbers (no foreign key): an entry outlives what it is about.
    league_id: int | None = Field(default=None, sa_column=sa.Column(sa.Integer))
    subject_user_id: int | None = Field(default=None, sa_column=sa.Column(sa.Integer))
    summary: str = Field(sa_column=sa.Column(sa.String(300), nullable=False))
    before: dict | None = Field(default=None, sa_column=sa.Column(sa.JSON))
    after: dict | None = Field(default=None, sa_column=sa.Column(sa.JSON))
