"""Sub requests (the spec's "Note")."""

from __future__ import annotations

import datetime as dt

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from volley_app.models.base import archived_index, enum_field, enum_type, fk, utc_field
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
        # The reminders' sweep: the requests of the days around now, whatever their status.
        sa.Index("ix_sub_requests_date", "date"),
        archived_index("sub_requests"),
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
    # The league game and team it finds subs for, when made from a short team's game (its attendance shows them).
    game_id: int | None = fk("games.id", nullable=True, ondelete="SET NULL", index=False)
    team_id: int | None = fk("teams.id", nullable=True, ondelete="SET NULL", index=False)
    completed: bool = Field(default=False, sa_column=sa.Column(sa.Boolean, nullable=False, server_default=sa.text("false")))
    created_at: dt.datetime = utc_field(default_now=True)
    updated_at: dt.datetime = utc_field(default_now=True)
    # Cancelled by the requestor after a sub was involved: kept, hidden from every list.
    archived_at: dt.datetime | None = utc_field(nullable=True, default=None)
    # What the team needs: a position, a gender, and the lowest rating at that position (None: any rating).
    position_needed: Position = Field(
        default=Position.ANY, sa_column=sa.Column(enum_type(Position), nullable=False, server_default=Position.ANY.value)
    )
    gender_needed: GenderNeeded = Field(
        default=GenderNeeded.ANY,
        sa_column=sa.Column(enum_type(GenderNeeded), nullable=False, server_default=GenderNeeded.ANY.value),
    )
    min_rating: Rating | None = enum_field(Rating, nullable=True, default=None)
    # How many subs the team needs (1 to 4) and how many have accepted: one place per accept.
    players_needed: int = Field(default=1, sa_column=sa.Column(sa.Integer, nullable=False, server_default="1"))
    places_filled: int = Field(default=0, sa_column=sa.Column(sa.Integer, nullable=False, server_default="0"))
    # An ordered invite list's end, chosen by the requestor: "open" (to Anyone) or "close"; None without a list.
    if_nobody: str | None = Field(default=None, sa_column=sa.Column(sa.String(10)))


class SubUnavailableDate(SQLModel, table=True):
    """A day a sub cannot play (venue date): no suggestion names them for a request that day."""

    __tablename__ = "sub_unavailable_dates"
    __table_args__ = (sa.UniqueConstraint("user_id", "day", name="uq_sub_unavailable_dates_user_id_day"),)

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = fk("users.id", index=False)
    day: dt.date = Field(sa_column=sa.Column(sa.Date, nullable=False))


# How a place waiting for the league operator's approval is named beside its sub.
AWAITING_APPROVAL = "awaiting the operator's approval"


class SubRequestPlace(SQLModel, table=True):
    """One sub who accepted a place on a request (the sub a request names has one once they accept), and how
    they did."""

    __tablename__ = "sub_request_places"
    __table_args__ = (sa.UniqueConstraint("request_id", "user_id", name="uq_sub_request_places_request_user"),)

    id: int | None = Field(default=None, primary_key=True)
    request_id: int = fk("sub_requests.id")
    user_id: int = fk("users.id")
    accepted_at: dt.datetime = utc_field(default_now=True)
    # After the game the requestor says whether this sub played or did not show (None: not yet).
    outcome: SubOutcome | None = enum_field(SubOutcome, nullable=True, default=None)
    outcome_at: dt.datetime | None = utc_field(nullable=True, default=None)
    # A place on a playoff game's request in a league whose subs need the operator's approval: held until the
    # operator approves it (``approved_at``) or refuses it (the place is freed: :class:`SubPlaceRefusal`).
    needs_approval: bool = Field(default=False, sa_column=sa.Column(sa.Boolean, nullable=False,
                                                                    server_default=sa.text("false")))
    approved_at: dt.datetime | None = utc_field(nullable=True, default=None)
    approved_by_id: int | None = fk("users.id", nullable=True, ondelete="SET NULL", index=False)


class SubPlaceRefusal(SQLModel, table=True):
    """A sub's place on a playoff game's request that the league's operator refused: the place was freed, the
    record kept."""

    __tablename__ = "sub_place_refusals"

    id: int | None = Field(default=None, primary_key=True)
    request_id: int = fk("sub_requests.id")
    user_id: int = fk("users.id")
    accepted_at: dt.datetime = utc_field()
    refused_at: dt.datetime = utc_field(default_now=True)
    refused_by_id: int | None = fk("users.id", nullable=True, ondelete="SET NULL", index=False)


class SubWithdrawal(SQLModel, table=True):
    """A sub who gave up a place they had accepted ("I can't make it"), before the game; ``late``: within
    :data:`services.subs.sub_records.LATE_HOURS` hours of it (their record counts those)."""

    __tablename__ = "sub_withdrawals"

    id: int | None = Field(default=None, primary_key=True)
    request_id: int = fk("sub_requests.id")
    user_id: int = fk("users.id")
    accepted_at: dt.datetime = utc_field()
    withdrawn_at: dt.datetime = utc_field(default_now=True)
    late: bool = Field(default=False, sa_column=sa.Column(sa.Boolean, nullable=False, server_default=sa.text("false")))


class SubInvite(SQLModel, table=True):
    """One sub on a request's ordered invite list, and what became of the invitation.

    ``state``: queued (waiting for their turn), invited (holding the request until ``hold_until``),
    accepted, declined, expired (the hold window passed), skipped (the request filled, closed, or
    the sub could no longer be asked). ``link_used_at``: the email's Accept/Decline links were used.
    """

    __tablename__ = "sub_invites"
    __table_args__ = (
        sa.Index("ix_sub_invites_request_position", "request_id", "position"),
        sa.Index("ix_sub_invites_state_hold_until", "state", "hold_until"),
    )

    id: int | None = Field(default=None, primary_key=True)
    request_id: int = fk("sub_requests.id", index=False)
    user_id: int = fk("users.id")
    position: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))
    state: str = Field(default="queued", sa_column=sa.Column(sa.String(10), nullable=False))
    created_at: dt.datetime = utc_field(default_now=True)
    invited_at: dt.datetime | None = utc_field(nullable=True, default=None)
    hold_until: dt.datetime | None = utc_field(nullable=True, default=None)
    answered_at: dt.datetime | None = utc_field(nullable=True, default=None)
    link_used_at: dt.datetime | None = utc_field(nullable=True, default=None)
