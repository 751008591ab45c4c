"""Players who register alone into a league, for its operator to place on a team."""

from __future__ import annotations

import datetime as dt

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from volley_app.models.base import fk, utc_field

# A free agent's way through: paying their fee, waiting to be placed, placed on a team, or out (refunded when the
# league started without placing them, or withdrawn by themself).
PENDING_PAYMENT, WAITING, PLACED, REFUNDED, WITHDRAWN = "pending_payment", "waiting", "placed", "refunded", "withdrawn"
AGENT_STATUSES = (PENDING_PAYMENT, WAITING, PLACED, REFUNDED, WITHDRAWN)
LIVE = sa.text("status IN ('pending_payment', 'waiting', 'placed')")


class FreeAgent(SQLModel, table=True):
    """A player's registration as a free agent of a league: what they play, their ratings, gender and availability as
    they gave them, their fee's payment, and the team they were placed on. Never deleted: a withdrawn or refunded
    agent keeps the row."""

    __tablename__ = "free_agents"
    __table_args__ = (
        # A player is a live free agent of a league once at a time.
        sa.Index("uq_free_agents_live", "league_id", "user_id", unique=True, sqlite_where=LIVE, postgresql_where=LIVE),
        sa.Index("ix_free_agents_league_id_status", "league_id", "status"),
    )  # fmt: skip

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = fk("leagues.id", index=False, ondelete="RESTRICT")
    user_id: int = fk("users.id", index=True, ondelete="RESTRICT")
    position: str = Field(default="Any", sa_column=sa.Column(sa.String(10), nullable=False, server_default="Any"))
    hitter: str = Field(default="", sa_column=sa.Column(sa.String(2), nullable=False, server_default=""))
    passer: str = Field(default="", sa_column=sa.Column(sa.String(2), nullable=False, server_default=""))
    setter: str = Field(default="", sa_column=sa.Column(sa.String(2), nullable=False, server_default=""))
    gender: str = Field(default="", sa_column=sa.Column(sa.String(10), nullable=False, server_default=""))
    availability: str = Field(default="", sa_column=sa.Column(sa.String(300), nullable=False, server_default=""))
    payment_id: int | None = fk("payments.id", nullable=True, index=False, ondelete="RESTRICT")
    status: str = Field(default=PENDING_PAYMENT, sa_column=sa.Column(sa.String(20), nullable=False,
                                                                      server_default=PENDING_PAYMENT))
    team_id: int | None = fk("teams.id", nullable=True, index=False, ondelete="SET NULL")
    placed_by_id: int | None = fk("users.id", nullable=True, index=False, ondelete="SET NULL")
    created_at: dt.datetime = utc_field(default_now=True)
    updated_at: dt.datetime = utc_field(default_now=True)
