"""Sub requests (the spec's "Note")."""

from __future__ import annotations

import datetime as dt

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from volley_app.models.base import enum_field, enum_type, fk, utc_field
from volley_app.models.enums import GenderNeeded, Position, Rating, SkillLevel, SubFormat, SubOutcome, SubStatus


class SubRequest(SQLModel, table=True):
    __tablename__ = "sub_requests"
    __table_args__ = (
        sa.Index("ix_sub_requests_completed_date", "completed", "date"),
        # The open requests list, by date, a page at a time (and the past ones completed when shown).
        sa.Index("ix_sub_requests_status_completed_date_id", "status", "completed", "date", "id"),
        # A sub's record (subbed, played, no-shows, last time) and who is busy at an hour: accepted requests by sub.
        sa.Index("ix_sub_requests_recipient_status_date", "recipient_id", "status", "date"),
        # Who has accepted a request that week or that hour (the suggestions' weekly cap and busy rules).
        sa.Index("ix_sub_requests_status_date", "status", "date"),
    )

    id: int | None = Field(default=None, primary_key=True)
    requestor_id: int = fk("users.id")
    # None means the request is open to Anyone.
    recipient_id: int | None = fk("users.id", nullable=True, ondelete="SET NULL")
    status: SubStatus = enum_field(SubStatus, index=True, default=SubStatus.OPEN)
    svl: str = Field(sa_column=sa.Column(sa.String(200), nullable=False))  # location name
    team: str = Field(sa_column=sa.Column(sa.String(100), nullable=False))
    date: dt.datetime = utc_field()
    court: str | None = Field(default=None, sa_column=sa.Column(sa.String(50)))
    skill_level: SkillLevel = enum_field(SkillLevel)
    format: SubFormat = enum_field(SubFormat)
    text: str | None = Field(default=None, sa_column=sa.Column(sa.Text))
    completed: bool = Field(default=False, sa_column=sa.Column(sa.Boolean, nullable=False, server_default=sa.text("false")))
    created_at: dt.datetime = utc_field(default_now=True)
    updated_at: dt.datetime = utc_field(default_now=True)
    # Cancelled by the requestor after a sub was involved: kept, hidden from every list.
    archived_at: dt.datetime | None = utc_field(nullable=True, index=True, default=None)
    # What the team needs: a position, a gender, and the lowest rating at that position (None: any rating).
    position_needed: Position = Field(
        default=Position.ANY, sa_column=sa.Column(enum_type(Position), nullable=False, server_default=Position.ANY.value)
    )
    gender_needed: GenderNeeded = Field(
        default=GenderNeeded.ANY,
        sa_column=sa.Column(enum_type(GenderNeeded), nullable=False, server_default=GenderNeeded.ANY.value),
    )
    min_rating: Rating | None = enum_field(Rating, nullable=True, default=None)
    # After the game the requestor says whether the sub who accepted played or did not show (None: not yet).
    outcome: SubOutcome | None = enum_field(SubOutcome, nullable=True, default=None)
    outcome_at: dt.datetime | None = utc_field(nullable=True, default=None)


class SubUnavailableDate(SQLModel, table=True):
    """A day a sub cannot play (venue date): no suggestion names them for a request that day."""

    __tablename__ = "sub_unavailable_dates"
    __table_args__ = (sa.UniqueConstraint("user_id", "day", name="uq_sub_unavailable_dates_user_id_day"),)

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = fk("users.id", index=False)
    day: dt.date = Field(sa_column=sa.Column(sa.Date, nullable=False))
