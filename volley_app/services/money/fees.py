"""What a team pays at registration (spec section 9), computed from the league in the database."""

from __future__ import annotations

import dataclasses

from volley_app.models import League, LeagueFormat

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
    players = players_per_team(league.format)
    return Breakdown(
        league_cost_cents=league.cost_cents,
        players=players,
        fee_cents=FEE_PER_PLAYER_CENTS * players,
        cash=bool(league.cash),
    )


def money(cents: int) -> str:
    """'$305' or '$12.50'."""
    return f"${cents / 100:,.2f}".replace(".00", "")
