"""A player's credit (given back instead of a refund, spent on a later registration) and cash an operator took in
person: both rows of the ledger."""

from __future__ import annotations

import secrets
from typing import TypedDict

from sqlmodel import Session, col, select

from volley_app.models import League, LedgerEntry, Team
from volley_app.models.ledger import CASH, CREDIT_ISSUED, CREDIT_SPENT
from volley_app.services.core import audit, timefmt, validation
from volley_app.services.core.actors import Actor, record_id, require_actor
from volley_app.services.core.errors import Invalid, NotFound
from volley_app.services.money import ledger
from volley_app.services.seasons import fees, leagues

TEAM_NOT_FOUND = "Team not found"


class CreditRow(TypedDict):
    what: str
    amount: str
    time: str
    reason: str
    league: str


class Credit(TypedDict):
    """A player's credit left to spend and how it came and went."""

    balance: str
    balance_cents: int
    rows: list[CreditRow]


def my_credit(db: Session, actor: Actor | None) -> Credit:
    """The acting player's credit: what is left and every row that gave or spent it, newest first."""
    actor = require_actor(actor)
    found = db.exec(
        select(LedgerEntry).where(LedgerEntry.user_id == actor.user_id,
                                  col(LedgerEntry.kind).in_((CREDIT_ISSUED, CREDIT_SPENT)))
        .order_by(col(LedgerEntry.id).desc())
    ).all()  # fmt: skip
    ids = {e.league_id for e in found if e.league_id is not None}
    names = {lg.id: leagues.display_name(lg) for lg in db.exec(select(League).where(col(League.id).in_(ids or {-1})))}
    balance = ledger.credit_balance(db, actor.user_id)
    return {
        "balance": fees.money(balance), "balance_cents": balance,
        "rows": [{"what": "Given" if e.kind == CREDIT_ISSUED else "Spent", "amount": fees.money(e.amount_cents),
                  "time": timefmt.date_time(e.created_at, None, labelled=True), "reason": e.reason,
                  "league": names.get(e.league_id, "") if e.league_id is not None else ""} for e in found],
    }  # fmt: skip


class CashRecorded(TypedDict):
    id: int
    team_name: str
    amount: str
    message: str


def record_cash(db: Session, actor: Actor | None, *, team_id: object, amount: object, note: object = "",
                key: object = None) -> CashRecorded:  # fmt: skip
    """Cash the league's operator (or an admin) took in person from a team: a ledger row, audited. The same ``key``
    twice (a double click, a retried call) records it once."""
    actor = require_actor(actor)
    team = db.get(Team, record_id(team_id, TEAM_NOT_FOUND))
    if team is None:
        raise NotFound(TEAM_NOT_FOUND)
    league = leagues.changeable(db, actor, team.league_id)
    cents = validation.money_cents(amount, "amount", "Amount")
    if cents <= 0:
        raise Invalid({"amount": "Amount must be more than $0"})
    why = validation.plain(str(note or "").strip(), "note", "Note") or "Cash at the venue"
    token = key.strip() if isinstance(key, str) and 8 <= len(key.strip()) <= 64 else secrets.token_hex(16)
    entry = ledger.record(db, kind=CASH, amount_cents=cents, key=f"cash-{token}", league=league, team_id=team.id,
                          team_name=team.team_name, user_id=team.captain_id, recorded_by_id=actor.user_id,
                          reason=why)  # fmt: skip
    audit.record(db, actor, action="cash", entity="team", entity_id=team.id, league_id=league.id,
                 summary=f"{fees.money(cents)} in cash recorded for {team.team_name}: {why}",
                 after={"amount_cents": cents})  # fmt: skip
    assert entry.id is not None  # a stored row
    return {"id": entry.id, "team_name": team.team_name, "amount": fees.money(entry.amount_cents),
            "message": f"{fees.money(entry.amount_cents)} in cash recorded for {team.team_name}."}  # fmt: skip
