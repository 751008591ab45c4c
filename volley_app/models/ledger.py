"""The money ledger: every movement of money (or of a player's credit) as a row nobody edits or deletes."""

from __future__ import annotations

import datetime as dt

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from volley_app.models.base import fk, utc_field

# What a ledger row records. Amounts are always positive; the kind says which way the money went.
CHARGE = "charge"  # a card payment that went through
CASH = "cash"  # money the operator took in person and recorded
REFUND = "refund"  # money given back by the card provider (or, offline, recorded as given back)
CREDIT_ISSUED = "credit_issued"  # credit given to a player, to spend on a later registration
CREDIT_SPENT = "credit_spent"  # credit a player spent on a registration
DISCOUNT = "discount"  # what a discount code took off a registration's price (no money moved)
LEDGER_KINDS = (CHARGE, CASH, REFUND, CREDIT_ISSUED, CREDIT_SPENT, DISCOUNT)


class LedgerEntry(SQLModel, table=True):
    """One movement of money: amount in cents, currency, whose money, what for, by whom, and the provider's id.

    Immutable: a correction is a new row with its reason. ``idempotency_key`` makes each movement count once
    whatever retries; ``provider_ref`` (the card provider's charge or refund id) is unique where there is one.
    The names of what was paid for are kept as they were then, so a row reads the same when the team or the
    league changes; its keys to them never cascade (a league with money on record is archived, not deleted).
    """

    __tablename__ = "ledger_entries"
    __table_args__ = (
        sa.CheckConstraint("amount_cents > 0", name="amount_positive"),
        sa.Index("ix_ledger_entries_league_id_created_at", "league_id", "created_at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    kind: str = Field(sa_column=sa.Column(sa.String(20), nullable=False))
    amount_cents: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))
    currency: str = Field(default="usd", sa_column=sa.Column(sa.String(3), nullable=False, server_default="usd"))
    # Whose money or credit it is.
    user_id: int | None = fk("users.id", nullable=True, ondelete="SET NULL")
    payer_name: str = Field(default="", sa_column=sa.Column(sa.String(200), nullable=False, server_default=""))
    # What it was for: a league place (and the team), through a card payment.
    league_id: int | None = fk("leagues.id", nullable=True, ondelete="RESTRICT", index=False)
    session_id: int | None = fk("league_sessions.id", nullable=True, ondelete="RESTRICT")
    svl_id: int | None = fk("users.id", nullable=True, ondelete="SET NULL")  # the league's venue
    team_id: int | None = fk("teams.id", nullable=True, ondelete="SET NULL")
    team_name: str = Field(default="", sa_column=sa.Column(sa.String(100), nullable=False, server_default=""))
    payment_id: int | None = fk("payments.id", nullable=True, ondelete="RESTRICT")
    refund_id: int | None = fk("refunds.id", nullable=True, ondelete="RESTRICT")
    # Who recorded it (an operator or admin); none for the payer's own card and the app's own sweeps.
    recorded_by_id: int | None = fk("users.id", nullable=True, ondelete="SET NULL", index=False)
    provider: str = Field(default="", sa_column=sa.Column(sa.String(20), nullable=False, server_default=""))
    provider_ref: str | None = Field(default=None, sa_column=sa.Column(sa.String(255), unique=True))
    idempotency_key: str = Field(sa_column=sa.Column(sa.String(100), nullable=False, unique=True))
    reason: str = Field(default="", sa_column=sa.Column(sa.String(300), nullable=False, server_default=""))
    created_at: dt.datetime = utc_field(default_now=True)


class Refund(SQLModel, table=True):
    """A refund asked of the card provider for one payment: due until the provider has made it.

    The ledger's refund row is written when the provider answers that it is made; until then the amount is
    held against the payment, so that two refunds never together exceed what was paid. A refund the provider
    refuses is marked failed and frees its amount.
    """

    __tablename__ = "refunds"
    __table_args__ = (
        sa.CheckConstraint("amount_cents > 0", name="amount_positive"),
        sa.Index("ix_refunds_due", "id", sqlite_where=sa.text("status = 'due'"),
                 postgresql_where=sa.text("status = 'due'")),  # fmt: skip
    )

    id: int | None = Field(default=None, primary_key=True)
    payment_id: int = fk("payments.id", ondelete="RESTRICT")
    amount_cents: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))
    reason: str = Field(default="", sa_column=sa.Column(sa.String(300), nullable=False, server_default=""))
    requested_by_id: int | None = fk("users.id", nullable=True, ondelete="SET NULL", index=False)
    status: str = Field(default="due", sa_column=sa.Column(sa.String(20), nullable=False, server_default="due"))
    provider_refund_id: str | None = Field(default=None, sa_column=sa.Column(sa.String(255), unique=True))
    error: str | None = Field(default=None, sa_column=sa.Column(sa.String(300)))
    idempotency_key: str = Field(sa_column=sa.Column(sa.String(100), nullable=False, unique=True))
    created_at: dt.datetime = utc_field(default_now=True)
    updated_at: dt.datetime = utc_field(default_now=True)
