"""Card payments for team registration."""

from __future__ import annotations

import datetime as dt

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from volley_app.models.base import fk, utc_field

# What a payment is for: a team's place in a league (its captain's registration or deposit), a rostered player's
# share of the team's fee, or a free agent's own registration.
PLACE, SHARE, AGENT = "place", "share", "agent"
PURPOSES = (PLACE, SHARE, AGENT)

class Payment(SQLModel, table=True):
    """One registration attempt paid by card: the amount the server computed, the provider's id and the outcome.

    A ledger row: never deleted, never cascaded away. ``team_id`` stays empty until the payment
    has been verified and fulfilled, except for a place offered to a waitlisted team, where it names
    that team from the start; the unique
    ``provider_payment_id`` and ``idempotency_key`` make a payment count once, whatever retries.
    """

    __tablename__ = "payments"
    # The holds' sweep: pending payments whose hold has lapsed (or that never had one). Only pending rows, a few
    # at any time however long the ledger grows; a query names the status as written here, not as a parameter.
    __table_args__ = (
        sa.Index("ix_payments_pending_expires_at", "expires_at", sqlite_where=sa.text("status = 'pending'"),
                 postgresql_where=sa.text("status = 'pending'")),  # fmt: skip
    )

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = fk("leagues.id", ondelete="RESTRICT")
    # Only a place payment holds or takes a place; the others are paid by a player already on a roster (or none).
    purpose: str = Field(default=PLACE, sa_column=sa.Column(sa.String(10), nullable=False, server_default=PLACE))
    team_id: int | None = fk("teams.id", nullable=True, ondelete="SET NULL")
    user_id: int | None = fk("users.id", nullable=True, ondelete="SET NULL")
    team_name: str = Field(sa_column=sa.Column(sa.String(100), nullable=False))
    # What was bought and by whom, as it was then: kept when the league or the account changes.
    league_name: str = Field(default="", sa_column=sa.Column(sa.String(200), nullable=False, server_default=""))
    payer_name: str = Field(default="", sa_column=sa.Column(sa.String(200), nullable=False, server_default=""))
    # What the card is charged: the league's price less the discount and the credit spent (0: no card at all).
    amount_cents: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))
    # The discount code used and what it took off; the player's credit spent on it. Price = all three summed.
    discount_code_id: int | None = fk("discount_codes.id", nullable=True, ondelete="RESTRICT")
    discount_cents: int = Field(default=0, sa_column=sa.Column(sa.Integer, nullable=False, server_default="0"))
    credit_cents: int = Field(default=0, sa_column=sa.Column(sa.Integer, nullable=False, server_default="0"))
    currency: str = Field(default="usd", sa_column=sa.Column(sa.String(3), nullable=False, server_default="usd"))
    provider: str = Field(sa_column=sa.Column(sa.String(20), nullable=False))
    provider_payment_id: str | None = Field(default=None, sa_column=sa.Column(sa.String(255), unique=True))
    status: str = Field(default="pending", sa_column=sa.Column(sa.String(20), nullable=False, server_default="pending"))
    error: str | None = Field(default=None, sa_column=sa.Column(sa.String(300)))
    idempotency_key: str = Field(sa_column=sa.Column(sa.String(64), nullable=False, unique=True))
    # A pending payment holds its place in the league until then.
    expires_at: dt.datetime | None = utc_field(nullable=True, default=None)
    created_at: dt.datetime = utc_field(default_now=True)
    updated_at: dt.datetime = utc_field(default_now=True)
