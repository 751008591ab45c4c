"""Giving money back: refunds of a card payment (in full or in part) and credit instead of a refund.

A refund is decided under the payment's lock (so two refunds together never exceed what the payment took in,
and a second click with the same key is the first refund again), written as a :class:`Refund` that is due,
committed, and only then asked of the card provider, outside any transaction (:func:`send_due`). The ledger's
refund row is written when the provider answers that the refund is made; a provider that does not answer in
time leaves it due, and the periodic sweep asks again with the same idempotency key (one refund whatever the
retries). Credit instead of a refund is a ledger row at once: nothing is asked of the provider.
"""

from __future__ import annotations

import datetime as dt
import logging
import secrets
from typing import TypedDict

import sqlalchemy as sa
from sqlmodel import Session, col, select

from volley_app import routes
from volley_app.models import League, Payment, Refund, User, utcnow
from volley_app.models.ledger import CREDIT_ISSUED, REFUND
from volley_app.models.payments import PLACE
from volley_app.services.core import audit, timefmt, validation
from volley_app.services.core.actors import Actor, record_id, require_actor
from volley_app.services.core.errors import Invalid, NotFound
from volley_app.services.mail import mail
from volley_app.services.money import ledger, payments, refund_policy
from volley_app.services.seasons import fees, leagues

log = logging.getLogger(__name__)

PAYMENT_NOT_FOUND = "Payment not found"
NOTHING_TO_REFUND = "Nothing is left to refund of this payment"
TOO_MUCH = "At most {left} can be given back of this payment"
REASON_NEEDED = "Say why the money is given back"
NOT_PAID = "This payment did not go through: there is nothing to give back"
NO_CARD = "Nothing of this payment was paid by card: give it back as credit"


class GivenBack(TypedDict):
    """What became of a refund or a credit: ``status`` "made", "due" (the provider will be asked again),
    "failed" (the provider refused it) or "credit"."""

    id: int
    status: str
    amount: str
    message: str


def _payment(db: Session, actor: Actor | None, payment_id: object) -> tuple[Payment, League]:
    """The payment of a league the actor runs (its operator or an admin)."""
    require_actor(actor)
    pay = db.get(Payment, record_id(payment_id, PAYMENT_NOT_FOUND))
    if pay is None:
        raise NotFound(PAYMENT_NOT_FOUND)
    league = leagues.managed(db, actor, pay.league_id)
    return pay, league


def _lock(db: Session, pay: Payment) -> Payment:
    """Take the payment's lock for the rest of the transaction (a write to its row: on PostgreSQL the row's lock,
    on SQLite the database's write lock), then read it as it is now."""
    db.execute(sa.update(Payment).where(col(Payment.id) == pay.id).values(id=Payment.id))
    db.refresh(pay)
    return pay


def _amount(value: object, left: int) -> int:
    """The amount asked for, in cents: all that is left when none is given."""
    if value in (None, ""):
        return left
    cents = validation.money_cents(value, "amount", "Amount")
    if cents <= 0:
        raise Invalid({"amount": "Amount must be more than $0"})
    if cents > left:
        raise Invalid({"amount": TOO_MUCH.format(left=fees.money(left))})
    return cents


def _key(value: object) -> str:
    """The caller's key for this refund (a form opened once, an API call's Idempotency-Key), or a new one."""
    if isinstance(value, str) and 8 <= len(value.strip()) <= 64 and value.strip().isprintable():
        return value.strip()
    return secrets.token_hex(16)


def give_back(
    db: Session, actor: Actor | None, *, payment_id: object, amount: object = None, reason: object = "",
    as_credit: object = False, key: object = None,
) -> GivenBack:  # fmt: skip
    """Refund a payment of a league the actor runs, in full (no amount) or in part, or give the payer credit for it.

    Never more than the payment has left to give back; the same ``key`` twice is one refund. The payer is
    emailed; the change is audited. A card refund is asked of the provider after the commit.
    """
    actor = require_actor(actor)
    pay, league = _payment(db, actor, payment_id)
    why = validation.plain(str(reason or "").strip(), "reason", "Reason")
    if not why:
        raise Invalid({"reason": REASON_NEEDED})
    credit = validation.flag(as_credit)
    token = _key(key)
    earlier = _earlier(db, pay, token, credit)
    if earlier is not None:
        return earlier
    pay = _lock(db, pay)
    earlier = _earlier(db, pay, token, credit)  # the same click, decided while this one waited for the lock
    if earlier is not None:
        return earlier
    if pay.status not in ("succeeded", "refunded"):
        raise Invalid(NOT_PAID)
    if pay.provider_payment_id is None and not credit:
        raise Invalid(NO_CARD)
    left = ledger.refundable(db, pay, to_card=not credit)
    if left <= 0:
        raise Invalid(NOTHING_TO_REFUND)
    cents = _amount(amount, left)
    name = leagues.display_name(league)
    if credit:
        entry = ledger.record(db, kind=CREDIT_ISSUED, amount_cents=cents, key=f"credit-{token}", payment=pay,
                              recorded_by_id=actor.user_id, reason=why)  # fmt: skip
        _audit(db, actor, pay, league, "credit", f"{fees.money(cents)} of {pay.team_name}'s payment for {name} "
               f"given back as credit: {why}", cents)  # fmt: skip
        mail.tell(db, _payer(db, pay), "credit_issued",
                  {"amount": fees.money(cents), "team": pay.team_name, "league": name, "reason": why,
                   "balance": fees.money(ledger.credit_balance(db, pay.user_id) if pay.user_id else cents),
                   "page": routes.absolute(routes.DASH_LEAGUES)})  # fmt: skip
        db.commit()
        assert entry.id is not None  # a stored row
        return {"id": entry.id, "status": "credit", "amount": fees.money(cents), "message": _said("credit", cents)}
    refund = ask(db, pay, cents, reason=why, key=f"refund-{token}", requested_by_id=actor.user_id)
    _audit(db, actor, pay, league, "refund", f"{fees.money(cents)} of {pay.team_name}'s payment for {name} "
           f"refunded: {why}", cents)  # fmt: skip
    assert refund.id is not None  # a stored refund
    send_due(db, refund_id=refund.id)
    db.refresh(refund)
    return _given(refund)


def _earlier(db: Session, pay: Payment, token: str, credit: bool) -> GivenBack | None:
    """What the same key decided before, if it did."""
    if credit:
        entry = db.exec(select(ledger.LedgerEntry).where(ledger.LedgerEntry.idempotency_key == f"credit-{token}")).first()
        if entry is None or entry.id is None:
            return None
        return {"id": entry.id, "status": "credit", "amount": fees.money(entry.amount_cents),
                "message": _said("credit", entry.amount_cents)}  # fmt: skip
    refund = db.exec(select(Refund).where(Refund.idempotency_key == f"refund-{token}")).first()
    if refund is None or refund.payment_id != pay.id:
        return None
    return _given(refund)


def _said(status: str, cents: int, error: str | None = None) -> str:
    money = fees.money(cents)
    return {
        "credit": f"{money} given as credit for a later registration.",
        ledger.MADE: f"{money} refunded to the card.",
        ledger.DUE: f"{money} refund asked for: the card service did not answer yet, it is asked again shortly.",
        ledger.FAILED: f"The card service refused the refund of {money}: {error or 'no reason given'}.",
    }[status]


def _given(refund: Refund) -> GivenBack:
    assert refund.id is not None  # a stored refund
    return {"id": refund.id, "status": refund.status, "amount": fees.money(refund.amount_cents),
            "message": _said(refund.status, refund.amount_cents, refund.error)}  # fmt: skip


def _audit(db: Session, actor: Actor, pay: Payment, league: League, action: str, summary: str, cents: int) -> None:
    audit.record(db, actor, action=action, entity="payment", entity_id=pay.id, league_id=league.id, summary=summary,
                 after={"amount_cents": cents}, subject_user_id=pay.user_id)  # fmt: skip


def _payer(db: Session, pay: Payment) -> User | None:
    return db.get(User, pay.user_id) if pay.user_id else None


def ask(db: Session, pay: Payment, cents: int, *, reason: str, key: str, requested_by_id: int | None = None) -> Refund:
    """A refund of ``cents`` of the payment, due (written in the caller's transaction, once per ``key``).

    The caller holds the payment's (or its league's) lock and has checked that this much is left to give back.
    """
    found = db.exec(select(Refund).where(Refund.idempotency_key == key)).first()
    if found is not None:
        return found
    assert pay.id is not None  # a stored payment
    refund = Refund(payment_id=pay.id, amount_cents=cents, reason=reason[:300], requested_by_id=requested_by_id,
                    status=ledger.DUE, idempotency_key=key)  # fmt: skip
    db.add(refund)
    db.flush()
    return refund


def send_due(db: Session, *, refund_id: int | None = None, payment_id: int | None = None,
             league_id: int | None = None) -> bool:  # fmt: skip
    """Ask the card provider for the refunds that are due (one, a payment's or a league's): True when none of them
    is left due.

    Call it with no lock held: the transaction so far is committed first; each refund is asked for outside any
    transaction and recorded (its ledger row, the payer told) in a short one of its own.
    """
    db.commit()
    query = select(Refund, Payment).join(Payment, col(Payment.id) == Refund.payment_id).where(Refund.status == ledger.DUE)
    if refund_id is not None:
        query = query.where(col(Refund.id) == refund_id)
    if payment_id is not None:
        query = query.where(Refund.payment_id == payment_id)
    if league_id is not None:
        query = query.where(Payment.league_id == league_id)
    due = list(db.exec(query.order_by(col(Refund.id))).all())
    db.commit()
    left = 0
    for refund, pay in due:
        assert pay.provider_payment_id is not None  # a refund is asked only of a payment that went through
        try:
            provider_ref = payments.refund(pay.provider, pay.provider_payment_id, amount_cents=refund.amount_cents,
                                           idempotency_key=refund.idempotency_key, refund_id=refund.id)  # fmt: skip
        except payments.ProviderUnavailable:
            left += 1
            continue
        except payments.RefundRefused as exc:
            _settle(db, refund, ledger.FAILED, error=exc.message[:300])
            log.warning("refund %s of payment %s refused by the card service", refund.id, pay.id)
            continue
        if _settle(db, refund, ledger.MADE, provider_refund_id=provider_ref or None):
            ledger.refund_made(db, refund, pay, provider_ref or None)
            if refund.requested_by_id is not None:  # a refund the app decided alone told the payer when it did
                _tell_refunded(db, pay, refund)
        db.commit()
        log.info("refund %s of payment %s made by the card service", refund.id, pay.id)
    return left == 0


def _settle(db: Session, refund: Refund, status: str, **values: object) -> bool:
    """Move a due refund to ``status``; True if this caller moved it."""
    done = db.exec(
        sa.update(Refund).where(col(Refund.id) == refund.id, col(Refund.status) == ledger.DUE)
        .values(status=status, updated_at=utcnow(), **values)
    )  # fmt: skip
    db.flush()
    db.refresh(refund)
    if status == ledger.FAILED:
        db.commit()
    return done.rowcount == 1


def _tell_refunded(db: Session, pay: Payment, refund: Refund) -> None:
    league = db.get(League, pay.league_id)
    assert league is not None and league.id is not None  # a payment's league is kept
    mail.tell(db, _payer(db, pay), "refund_made",
              {"amount": fees.money(refund.amount_cents), "team": pay.team_name,
               "league": leagues.display_name(league), "reason": refund.reason,
               "page": routes.absolute(routes.league_path(league.id))})  # fmt: skip


# --- one payment, as its league's operator sees it ---------------------------------------------------------

KIND_WORDS = {
    "charge": "Paid by card", "cash": "Paid in cash", "refund": "Refunded to the card",
    "credit_issued": "Given back as credit", "credit_spent": "Paid with credit", "discount": "Discount",
}  # fmt: skip


class HistoryRow(TypedDict):
    what: str
    amount: str
    time: str
    by: str
    reason: str


class PaymentScreen(TypedDict):
    """A payment, what it has brought in and given back, and what the league's policy proposes to give back now."""

    id: int
    league_id: int
    league_name: str
    team_name: str
    payer: str
    amount: str
    paid: str
    left: str
    left_cents: int
    status: str
    time: str
    history: list[HistoryRow]
    policy: str
    proposal: str
    proposal_why: str
    may_give_back: bool


def payment_screen(db: Session, actor: Actor | None, *, payment_id: object, now: object = None) -> PaymentScreen:
    """The payment page of a league's operator or an admin: its ledger rows, refunds still due or refused, and
    what the league's refund policy proposes to give back now."""
    pay, league = _payment(db, actor, payment_id)
    assert pay.id is not None and league.id is not None  # stored rows
    zone = leagues.zone(db, league)
    entries = db.exec(select(ledger.LedgerEntry).where(ledger.LedgerEntry.payment_id == pay.id)
                      .order_by(col(ledger.LedgerEntry.id))).all()  # fmt: skip
    pending = db.exec(select(Refund).where(Refund.payment_id == pay.id, col(Refund.status) != ledger.MADE)
                      .order_by(col(Refund.id))).all()  # fmt: skip
    ids = ({e.recorded_by_id for e in entries} | {r.requested_by_id for r in pending}) - {None}
    people = {u.id: u.username for u in db.exec(select(User).where(col(User.id).in_(ids or {-1})))}
    history: list[HistoryRow] = [
        {"what": KIND_WORDS.get(e.kind, e.kind), "amount": fees.money(e.amount_cents),
         "time": timefmt.date_time(e.created_at, zone, labelled=True),
         "by": people.get(e.recorded_by_id, "") if e.recorded_by_id else "", "reason": e.reason}
        for e in entries
    ]  # fmt: skip
    history += [
        {"what": "Refund asked for, not made yet" if r.status == ledger.DUE else "Refund refused by the card service",
         "amount": fees.money(r.amount_cents), "time": timefmt.date_time(r.created_at, zone, labelled=True),
         "by": people.get(r.requested_by_id, "") if r.requested_by_id else "",
         "reason": r.reason if r.status == ledger.DUE else f"{r.reason} ({r.error or 'no reason given'})"}
        for r in pending
    ]  # fmt: skip
    net = ledger.net_by_payment(db, [pay.id])[pay.id]
    left = ledger.refundable(db, pay)
    when = now if isinstance(now, dt.datetime) else None
    proposal = refund_policy.propose(league, left, when, zone)
    return {
        "id": pay.id, "league_id": league.id, "league_name": leagues.display_name(league), "team_name": pay.team_name,
        "payer": pay.payer_name, "amount": fees.money(pay.amount_cents), "paid": fees.money(net),
        "left": fees.money(left), "left_cents": left, "status": pay.status,
        "time": timefmt.date_time(pay.created_at, zone, labelled=True), "history": history,
        "policy": refund_policy.words(league, zone), "proposal": f"{proposal.cents / 100:.2f}",
        "proposal_why": proposal.why, "may_give_back": left > 0,
    }  # fmt: skip


class MoneyTotals(TypedDict):
    """A league's money as its payments card sums it from the ledger."""

    collected: str
    refunded: str
    credit: str
    kept: str
    line: str  # the four in words, as the payments card says them


def league_money(db: Session, actor: Actor | None, *, league_id: object) -> MoneyTotals:
    """What the league's payments brought in and gave back, for its operator and admins."""
    league = leagues.managed(db, actor, league_id)
    t = ledger.totals(db, col(ledger.LedgerEntry.league_id) == league.id)
    collected, refunded = fees.money(t.collected), fees.money(t[REFUND])
    credit, kept = fees.money(t[CREDIT_ISSUED]), fees.money(t.net - t[CREDIT_ISSUED])
    return {"collected": collected, "refunded": refunded, "credit": credit, "kept": kept,
            "line": f"Collected {collected} · refunded {refunded} · given as credit {credit} · kept {kept}"}



class Proposed(TypedDict):
    """What the league's refund policy proposes to give back of a withdrawn team's payment for its place."""

    payment_id: int
    amount: str
    words: str  # "Refund proposed per the policy: $X"
    href: str  # the payment's page, its refund form filled in with the amount


def withdrawal_proposal(db: Session, league: League, team_id: int, now: dt.datetime | None = None) -> Proposed | None:
    """The refund the league's policy proposes now for the team's paid place (None: nothing paid is left, or the
    policy gives nothing back). Only a proposal: the league's operator decides it on the payment's page."""
    pay = db.exec(select(Payment).where(Payment.team_id == team_id, Payment.purpose == PLACE,
                                        Payment.status == "succeeded").order_by(col(Payment.id))).first()  # fmt: skip
    left = ledger.refundable(db, pay) if pay is not None else 0
    cents = refund_policy.propose(league, left, now).cents if left > 0 else 0
    if pay is None or pay.id is None or cents <= 0:
        return None
    amount = fees.money(cents)
    return {"payment_id": pay.id, "amount": amount, "words": f"Refund proposed per the policy: {amount}",
            "href": routes.payment_path(pay.id)}

# --- refunds the card service tells of -------------------------------------------------------------------------

DASHBOARD = "Refunded in the card service's dashboard"


def from_provider(db: Session, charge: dict) -> str:
    """A ``charge.refunded`` event (verified): each refund it lists that the ledger does not hold yet is recorded.

    One the app asked for (its id in the refund's metadata) is settled as made, as :func:`send_due` would; one made
    in the card service's dashboard becomes a refund of its own, made. Under the payment's lock, once per refund
    whatever the redeliveries.
    """
    intent = str(charge.get("payment_intent") or "")
    pay = db.exec(select(Payment).where(Payment.provider_payment_id == intent)).first() if intent else None
    if pay is None or pay.provider != payments.StripeProvider.name:
        return "unknown"
    pay = _lock(db, pay)
    recorded = 0
    for item in ((charge.get("refunds") or {}).get("data") or []):
        ref, amount = str(item.get("id") or ""), int(item.get("amount") or 0)
        if not ref or amount <= 0 or item.get("status") not in (None, "succeeded"):
            continue
        if db.exec(select(ledger.LedgerEntry.id).where(ledger.LedgerEntry.provider_ref == ref)).first() is not None:
            continue
        ours = str((item.get("metadata") or {}).get("refund_id") or "")
        refund = db.get(Refund, int(ours)) if ours.isdigit() else None
        if refund is None or refund.payment_id != pay.id:
            refund = ask(db, pay, amount, reason=DASHBOARD, key=f"provider-{ref}")
        if refund.status == ledger.DUE:
            _settle(db, refund, ledger.MADE, provider_refund_id=ref)
        if refund.status == ledger.MADE:
            ledger.refund_made(db, refund, pay, ref)
            recorded += 1
    db.commit()
    return "recorded" if recorded else "known"


# --- a league's payments refunded by its policy (when it is archived) ---------------------------------------------


class Planned(TypedDict):
    """A payment the league's refund policy would give back now, and how much."""

    payment_id: int
    team_name: str
    left: int
    proposed: int


def _kept_payments(db: Session, league_id: int) -> list[Payment]:
    return list(db.exec(
        select(Payment).where(Payment.league_id == league_id, Payment.status == "succeeded",
                              col(Payment.provider_payment_id).is_not(None)).order_by(col(Payment.team_name), col(Payment.id))
    ).all())  # fmt: skip


def policy_plan(db: Session, league: League, now: dt.datetime | None = None) -> list[Planned]:
    """What the league's refund policy gives back now of each payment it still keeps (nothing: not listed)."""
    assert league.id is not None  # a stored league
    pays = _kept_payments(db, league.id)
    left = ledger.net_by_payment(db, [p.id for p in pays if p.id is not None])
    out: list[Planned] = []
    for pay in pays:
        assert pay.id is not None  # a stored payment
        keep = left.get(pay.id, 0)
        proposed = refund_policy.propose(league, keep, now).cents if keep > 0 else 0
        if proposed > 0:
            out.append({"payment_id": pay.id, "team_name": pay.team_name, "left": keep, "proposed": proposed})
    return out


def archive_plan(db: Session, actor: Actor | None, *, league_id: object) -> str:
    """The archive confirmation's words on refunds, for the league's operator: what its policy gives back now."""
    league = leagues.managed(db, actor, league_id)
    plan = policy_plan(db, league)
    if not plan:
        return ""
    listed = ", ".join(f"{p['team_name']} {fees.money(p['proposed'])}" for p in plan)
    total = fees.money(sum(p["proposed"] for p in plan))
    return (f" The refund policy gives back now: {listed} ({total} in all). Choose Archive and refund to make these "
            f"refunds; each payer is emailed.")  # fmt: skip


def refund_by_policy(db: Session, actor: Actor, league: League, *, reason: str) -> int:
    """Refund each payment of the league by what its policy gives back now: the number of refunds asked for. The
    caller has checked that ``actor`` runs the league (``operations.archive``). Once per payment, whatever the
    clicks; asked of the card service after the commit."""
    assert league.id is not None  # a stored league
    asked = 0
    for planned in policy_plan(db, league):
        found = db.get(Payment, planned["payment_id"])
        assert found is not None  # listed just now; payments are never deleted
        pay = _lock(db, found)
        cents = min(planned["proposed"], ledger.refundable(db, pay, to_card=True))
        key = f"policy-{pay.id}"
        if cents <= 0 or db.exec(select(Refund.id).where(Refund.idempotency_key == key)).first() is not None:
            continue
        ask(db, pay, cents, reason=reason, key=key, requested_by_id=actor.user_id)
        _audit(db, actor, pay, league, "refund", f"{fees.money(cents)} of {pay.team_name}'s payment for "
               f"{leagues.display_name(league)} refunded by the league's policy: {reason}", cents)  # fmt: skip
        asked += 1
    send_due(db, league_id=league.id)
    return asked
