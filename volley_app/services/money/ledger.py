"""The money ledger: writing its rows (once each) and reading balances from them.

Every movement of money or credit is one :class:`~volley_app.models.LedgerEntry`, written in the transaction
of what caused it and never changed after: what a payment has brought in, what a team has paid, a player's
credit and a league's revenue are all sums over these rows. :func:`check` says where they do not add up.
"""

from __future__ import annotations

from collections.abc import Iterable

import sqlalchemy as sa
from sqlmodel import Session, col, select

from volley_app.models import League, LedgerEntry, Payment, Refund
from volley_app.models.ledger import CASH, CHARGE, CREDIT_ISSUED, CREDIT_SPENT, LEDGER_KINDS, REFUND

# Refund attempts: asked for and not yet made, made by the provider, refused by it.
DUE, MADE, FAILED = "due", "made", "failed"

# How each kind moves a payment's net takings: charges and cash in, refunds and credit given back out.
_NET = {CHARGE: 1, CASH: 1, CREDIT_SPENT: 1, REFUND: -1, CREDIT_ISSUED: -1}


def record(
    db: Session,
    *,
    kind: str,
    amount_cents: int,
    key: str,
    league: League | None = None,
    payment: Payment | None = None,
    refund: Refund | None = None,
    user_id: int | None = None,
    payer_name: str = "",
    team_id: int | None = None,
    team_name: str = "",
    recorded_by_id: int | None = None,
    provider: str = "",
    provider_ref: str | None = None,
    reason: str = "",
) -> LedgerEntry:
    """Write one movement in the caller's transaction, once: a second call with the same ``key`` returns the row
    the first wrote and writes nothing. What it was for is taken from ``payment`` (and its league) unless given."""
    if kind not in LEDGER_KINDS:
        raise ValueError(f"not a ledger kind: {kind}")
    if amount_cents <= 0:
        raise ValueError("a ledger amount is a positive number of cents")
    found = db.exec(select(LedgerEntry).where(LedgerEntry.idempotency_key == key)).first()
    if found is not None:
        return found
    if payment is not None:
        league = league or db.get(League, payment.league_id)
        user_id = user_id if user_id is not None else payment.user_id
        payer_name = payer_name or payment.payer_name
        team_id = team_id if team_id is not None else payment.team_id
        team_name = team_name or payment.team_name
        provider = provider or payment.provider
    entry = LedgerEntry(
        kind=kind, amount_cents=amount_cents, currency=payment.currency if payment else "usd",
        user_id=user_id, payer_name=payer_name[:200],
        league_id=league.id if league else None, session_id=league.session_id if league else None,
        svl_id=league.svl_id if league else None, team_id=team_id, team_name=team_name[:100],
        payment_id=payment.id if payment else None, refund_id=refund.id if refund else None,
        recorded_by_id=recorded_by_id, provider=provider, provider_ref=provider_ref, idempotency_key=key,
        reason=reason[:300],
    )  # fmt: skip
    db.add(entry)
    db.flush()
    return entry


def charged(db: Session, pay: Payment) -> LedgerEntry:
    """The card payment went through: its charge row (written once, whoever verifies it first)."""
    assert pay.provider_payment_id is not None  # a charge is recorded with the provider's payment
    return record(db, kind=CHARGE, amount_cents=pay.amount_cents, key=f"charge-{pay.idempotency_key}",
                  payment=pay, provider_ref=pay.provider_payment_id, reason="Registration")  # fmt: skip


def refund_made(db: Session, refund: Refund, pay: Payment, provider_ref: str | None) -> LedgerEntry:
    """The provider made the refund: its ledger row (written once)."""
    return record(db, kind=REFUND, amount_cents=refund.amount_cents, key=refund.idempotency_key, payment=pay,
                  refund=refund, recorded_by_id=refund.requested_by_id, provider_ref=provider_ref,
                  reason=refund.reason)  # fmt: skip


# --- reading ---------------------------------------------------------------------------------------------


def _signed() -> sa.ColumnElement[int]:
    """A row's amount with the sign of its effect on what was paid (discounts count nothing)."""
    return sa.case(
        *((col(LedgerEntry.kind) == kind, col(LedgerEntry.amount_cents) * sign) for kind, sign in _NET.items()),
        else_=0,
    )


def net_by_payment(db: Session, payment_ids: Iterable[int]) -> dict[int, int]:
    """What each payment has brought in, net of refunds and of credit given back for it, in cents."""
    ids = sorted(set(payment_ids))
    if not ids:
        return {}
    rows = db.exec(
        select(LedgerEntry.payment_id, sa.func.sum(_signed()))
        .where(col(LedgerEntry.payment_id).in_(ids)).group_by(col(LedgerEntry.payment_id))
    ).all()  # fmt: skip
    out = dict.fromkeys(ids, 0)
    out.update({pid: int(total or 0) for pid, total in rows if pid is not None})
    return out


def refundable(db: Session, pay: Payment, *, to_card: bool = False) -> int:
    """What may still be given back of a payment: its net takings (credit it spent included) less the refunds still
    due; ``to_card``: no more than its card brought in, less the card's refunds made and due (credit a payment spent
    goes back as credit, never to the card)."""
    assert pay.id is not None  # a stored payment
    due = int(db.exec(
        select(sa.func.coalesce(sa.func.sum(Refund.amount_cents), 0)).where(Refund.payment_id == pay.id,
                                                                            Refund.status == DUE)
    ).one())  # fmt: skip
    left = net_by_payment(db, [pay.id])[pay.id] - due
    if to_card:
        card = db.exec(
            select(sa.func.coalesce(sa.func.sum(sa.case((col(LedgerEntry.kind) == CHARGE, LedgerEntry.amount_cents),
                                                        (col(LedgerEntry.kind) == REFUND, -col(LedgerEntry.amount_cents)),
                                                        else_=0)), 0))
            .where(LedgerEntry.payment_id == pay.id)
        ).one()  # fmt: skip
        left = min(left, int(card) - due)
    return max(left, 0)


def credit_balance(db: Session, user_id: int) -> int:
    """The player's credit left to spend, in cents."""
    issued = sa.func.coalesce(sa.func.sum(sa.case((col(LedgerEntry.kind) == CREDIT_ISSUED, LedgerEntry.amount_cents),
                                                  else_=0)), 0)  # fmt: skip
    spent = sa.func.coalesce(sa.func.sum(sa.case((col(LedgerEntry.kind) == CREDIT_SPENT, LedgerEntry.amount_cents),
                                                 else_=0)), 0)  # fmt: skip
    row = db.exec(select(issued, spent).where(LedgerEntry.user_id == user_id)).one()
    return int(row[0]) - int(row[1])


class Totals(dict[str, int]):
    """Sums of the ledger's rows by kind, in cents (``t[REFUND]``; a kind with no rows sums to 0)."""

    def __missing__(self, kind: str) -> int:
        return 0

    @property
    def collected(self) -> int:
        """Money taken in: cards and cash."""
        return self[CHARGE] + self[CASH]

    @property
    def net(self) -> int:
        """Money kept: what was taken in less what was given back."""
        return self.collected - self[REFUND]


def totals(db: Session, *where: sa.ColumnElement[bool]) -> Totals:
    """The ledger's sums by kind over the rows ``where`` picks (e.g. ``LedgerEntry.league_id == 3``)."""
    rows = db.exec(
        select(LedgerEntry.kind, sa.func.sum(LedgerEntry.amount_cents)).where(*where).group_by(col(LedgerEntry.kind))
    ).all()
    return Totals({kind: int(total or 0) for kind, total in rows})


def check(db: Session) -> list[str]:
    """Where the ledger does not add up, in words (nothing when it balances):

    * no payment has given back (refunds made and due, credit for it) more than it took in;
    * no player has spent more credit than they were given;
    * every refund the provider made has its one ledger row of the same amount, and no other refund row exists;
    * every succeeded card payment has its one charge row of the payment's amount.
    """
    problems: list[str] = []
    net = db.exec(
        select(LedgerEntry.payment_id, sa.func.sum(_signed()))
        .where(col(LedgerEntry.payment_id).is_not(None)).group_by(col(LedgerEntry.payment_id))
    ).all()  # fmt: skip
    due = dict(db.exec(
        select(Refund.payment_id, sa.func.sum(Refund.amount_cents)).where(Refund.status == DUE)
        .group_by(col(Refund.payment_id))
    ).all())  # fmt: skip
    for pid, total in net:
        if pid is None:
            continue
        left = int(total or 0) - int(due.get(pid) or 0)
        if left < 0:
            problems.append(f"payment {pid} gives back {-left} cents more than it took in")
    spent = db.exec(
        select(LedgerEntry.user_id, sa.func.sum(sa.case((col(LedgerEntry.kind) == CREDIT_ISSUED, LedgerEntry.amount_cents),
                                                        else_=-col(LedgerEntry.amount_cents))))
        .where(col(LedgerEntry.kind).in_((CREDIT_ISSUED, CREDIT_SPENT))).group_by(col(LedgerEntry.user_id))
    ).all()  # fmt: skip
    problems += [f"player {uid} spent {-int(b)} cents of credit more than given" for uid, b in spent if int(b) < 0]
    made = {r.id: r for r in db.exec(select(Refund).where(Refund.status == MADE)).all() if r.id is not None}
    rows = db.exec(select(LedgerEntry).where(LedgerEntry.kind == REFUND)).all()
    seen: set[int] = set()
    for row in rows:
        refund = made.get(row.refund_id) if row.refund_id is not None else None
        if refund is None:
            problems.append(f"refund row {row.id} has no refund the provider made")
        elif row.refund_id in seen or row.amount_cents != refund.amount_cents:
            problems.append(f"refund {row.refund_id} is recorded twice or for another amount")
        if row.refund_id is not None:
            seen.add(row.refund_id)
    problems += [f"refund {rid} was made but has no ledger row" for rid in sorted(set(made) - seen)]
    charges = dict(db.exec(
        select(LedgerEntry.payment_id, sa.func.count()).where(LedgerEntry.kind == CHARGE)
        .group_by(col(LedgerEntry.payment_id))
    ).all())  # fmt: skip
    paid = db.exec(select(Payment).where(col(Payment.status).in_(("succeeded", "refunded")),
                                         col(Payment.provider_payment_id).is_not(None))).all()  # fmt: skip
    for pay in paid:
        assert pay.id is not None  # a stored payment
        if charges.get(pay.id) != 1:
            problems.append(f"payment {pay.id} went through but has {charges.get(pay.id, 0)} charge rows")
    return problems
