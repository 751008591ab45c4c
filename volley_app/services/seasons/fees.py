"""What a team pays at registration (spec section 9), computed from the league in the database."""

from __future__ import annotations

import dataclasses

from volley_app.models import League, LeagueFormat
from volley_app.models.leagues import SHARES

FEE_PER_PLAYER_CENTS = 500
CURRENCY = "usd"

PLAYERS_PER_TEAM = {LeagueFormat.DOUBLES: 2, LeagueFormat.FIVES: 5, LeagueFormat.SIXES: 6}
DEFAULT_PLAYERS = 4  # quads, reverse quads and any other format


def players_per_team(fmt: LeagueFormat | str) -> int:
    try:
        fmt = LeagueFormat(fmt)
    except ValueError:
        return DEFAULT_PLAYERS
    return PLAYERS_PER_TEAM.get(fmt, DEFAULT_PLAYERS)


@dataclasses.dataclass(frozen=True)
class Breakdown:
    """League cost, the $5-per-player fee and what the card is charged, all in cents."""

    league_cost_cents: int
    players: int
    fee_cents: int
    cash: bool

    @property
    def total_cents(self) -> int:
        """Charged by card now: the fee only for cash-only leagues, otherwise league cost plus fee."""
        return self.fee_cents if self.cash else self.league_cost_cents + self.fee_cents


def breakdown(league: League) -> Breakdown:
    return priced(league.cost_cents, league.format, bool(league.cash))


def priced(cost_cents: int, fmt: LeagueFormat | str, cash: bool) -> Breakdown:
    """The breakdown of a league with this cost, format and cash choice (a form's, before the league is saved)."""
    players = players_per_team(fmt)
    return Breakdown(league_cost_cents=cost_cents, players=players, fee_cents=FEE_PER_PLAYER_CENTS * players, cash=cash)


def shared(league: League) -> bool:
    """The team's fee is shared among its roster (the captain pays a deposit to hold the place)."""
    return league.payment_mode == SHARES


def place_price(league: League) -> int:
    """What the captain pays at registration: the team's whole fee, or in a shared league its deposit."""
    total = breakdown(league).total_cents
    return min(league.deposit_cents, total) if shared(league) else total


def money(cents: int) -> str:
    """'$305' or '$12.50'."""
    return f"${cents / 100:,.2f}".replace(".00", "")
