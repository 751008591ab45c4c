"""Discount codes a venue's operator gives out: a percent or an amount off a registration's price."""

from __future__ import annotations

import datetime as dt

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from volley_app.models.base import fk, utc_field

# Where a code may be used: one league, every league of one session, or every league of the venue.
SCOPE_LEAGUE, SCOPE_SESSION, SCOPE_VENUE = "league", "session", "venue"
DISCOUNT_SCOPES = (SCOPE_LEAGUE, SCOPE_SESSION, SCOPE_VENUE)


class DiscountCode(SQLModel, table=True):
    """A code that takes a percent (1-100) or an amount off the price of a registration in its scope.

    It belongs to a venue (``svl_id``, the operator's account) and is used up after ``max_uses`` registrations
    (none: no limit), ``per_player`` of them by one player (none: no limit). A use is taken by a payment that
    names the code while it holds its place or once it went through; a hold that lapses frees it. Never
    deleted once made: it is deactivated.
    """

    __tablename__ = "discount_codes"
    __table_args__ = (
        sa.UniqueConstraint("svl_id", "code", name="uq_discount_codes_svl_id_code"),
        sa.CheckConstraint("percent IS NULL OR (percent >= 1 AND percent <= 100)", name="percent_range"),
        sa.CheckConstraint("(percent IS NULL) <> (amount_cents IS NULL)", name="percent_or_amount"),
        sa.CheckConstraint("amount_cents IS NULL OR amount_cents > 0", name="amount_positive"),
        sa.CheckConstraint("max_uses IS NULL OR max_uses > 0", name="max_uses_positive"),
        sa.CheckConstraint("per_player IS NULL OR per_player > 0", name="per_player_positive"),
    )

    id: int | None = Field(default=None, primary_key=True)
    code: str = Field(sa_column=sa.Column(sa.String(40), nullable=False))
    svl_id: int = fk("users.id", ondelete="RESTRICT", index=False)
    scope: str = Field(sa_column=sa.Column(sa.String(10), nullable=False))
    league_id: int | None = fk("leagues.id", nullable=True, ondelete="RESTRICT")
    session_id: int | None = fk("league_sessions.id", nullable=True, ondelete="RESTRICT")
    percent: int | None = Field(default=None, sa_column=sa.Column(sa.Integer, nullable=True))
    amount_cents: int | None = Field(default=None, sa_column=sa.Column(sa.Integer, nullable=True))
    max_uses: int | None = Field(default=None, sa_column=sa.Column(sa.Integer, nullable=True))
    per_player: int | None = Field(default=1, sa_column=sa.Column(sa.Integer, nullable=True))
    expires_at: dt.datetime | None = utc_field(nullable=True, default=None)
    active: bool = Field(default=True, sa_column=sa.Column(sa.Boolean, nullable=False, server_default=sa.text("true")))
    created_by_id: int | None = fk("users.id", nullable=True, ondelete="SET NULL", index=False)
    created_at: dt.datetime = utc_field(default_now=True)
    updated_at: dt.datetime = utc_field(default_now=True)
