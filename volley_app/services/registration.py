"""Team registration (spec sections 4 and 9): the waitlist, checkout, verified card payment, fulfilment.

The amount is always computed here from the league in the database. A team is created
(paid, 0-0) only by :func:`_fulfil`, after the provider's payment has been verified; a
conditional ``UPDATE`` on the payment row lets only one caller (browser return, webhook or a
retry) fulfil it, so any mix of them yields exactly one team and one confirmation email.
"""

from __future__ import annotations

import logging
import secrets

import sqlalchemy as sa
from sqlmodel import Session, select

from volley_app.models import League, LeagueStage, Payment, Team, User, utcnow
from volley_app.services import fees, leagues, mail, payments, timefmt, validation
from volley_app.services.errors import BadRequest, Forbidden, Invalid, NotFound
from volley_app.services.permissions import Actor, access_payment, load, require_actor

log = logging.getLogger(__name__)

LEAGUE_FULL = (
    "Max teams for this league has been reached. Enter your team name to join our waitlist and we will let you "
    "know if an opening becomes available."
)
NOT_OPEN = "This league is not open for registration"
LEAGUE_NOT_FOUND = "League not found"
NAME_TAKEN = "A team in this league already has that name"
OPERATORS_CANNOT_REGISTER = "Only players can register a team"
ALREADY_PROCESSED = "This payment was already processed. Return to the league to try again."

PENDING, PROCESSING, SUCCEEDED, FAILED = "pending", "processing", "succeeded", "failed"


# --- who and where -------------------------------------------------------------------------------


def _player(actor: Actor | None) -> Actor:
    """Registering is for logged-in players; an SVL or admin may not register on someone's behalf."""
    actor = require_actor(actor)
    if actor.is_admin or actor.is_svl:
        raise Forbidden(OPERATORS_CANNOT_REGISTER)
    return actor


def _open(league: League) -> bool:
    return bool(league.active) and leagues.stage_at(league, utcnow()) != LeagueStage.INACTIVE


def _team_count(db: Session, league_id: int) -> int:
    """Teams already in the league, waitlisted included (spec section 4)."""
    return db.exec(select(sa.func.count()).select_from(Team).where(Team.league_id == league_id)).one()


def is_full(db: Session, league: League) -> bool:
    return _team_count(db, league.id) >= league.max_teams


def _team_name(value: object, db: Session, league_id: int) -> str:
    """The team-name rule, and no other team of the league may have the name."""
    name = validation.team_name(value)
    if db.exec(select(Team.id).where(Team.league_id == league_id, Team.team_name == name)).first() is not None:
        raise Invalid({"team_name": NAME_TAKEN})
    return name


def options(db: Session, actor: Actor | None, *, league_id: object) -> dict:
    """What the league home and the new-team page offer this user: register, the waitlist, or nothing.

    ``refusal`` says why registering is not offered ('' when it is).
    """
    actor = require_actor(actor)
    league = load(db, League, league_id, LEAGUE_NOT_FOUND)
    if not league.active and not leagues.may_manage(actor, league):
        raise NotFound(LEAGUE_NOT_FOUND)
    if actor.is_admin or actor.is_svl:
        refusal = OPERATORS_CANNOT_REGISTER
    else:
        refusal = "" if _open(league) else NOT_OPEN
    b = fees.breakdown(league)
    return {
        "league_id": league.id,
        "league_name": leagues.display_name(league),
        "may_register": refusal == "",
        "refusal": refusal,
        "full": is_full(db, league),
        "cash": b.cash,
        "league_cost": fees.money(b.league_cost_cents),
        "fee": fees.money(b.fee_cents),
        "players": b.players,
        "total": fees.money(b.total_cents),
    }


# --- registering --------------------------------------------------------------------------------------


def register(db: Session, actor: Actor | None, *, league_id: object, team_name: object) -> dict:
    """Start a registration.

    A full league (teams, waitlisted included, at or above maxTeams) puts the team on the waitlist
    (paid false) and answers ``{"kind": "waitlist"}``. Otherwise a pending payment with the amount
    computed from the league is created and ``{"kind": "checkout", "payment_id": ...}`` returned.
    """
    actor = _player(actor)
    league = load(db, League, league_id, LEAGUE_NOT_FOUND)
    if not _open(league):
        raise Invalid(NOT_OPEN)
    name = _team_name(team_name, db, league.id)
    if is_full(db, league):
        team = Team(
            league_id=league.id, captain_id=actor.user_id, team_name=name, paid=False, waitlist=True, wins=0, losses=0
        )
        db.add(team)
        db.flush()
        log.info("team %s joined the waitlist of league %s", team.id, league.id)
        return {"kind": "waitlist", "league_id": league.id, "team_id": team.id}
    b = fees.breakdown(league)
    pay = Payment(
        league_id=league.id,
        user_id=actor.user_id,
        team_name=name,
        amount_cents=b.total_cents,
        currency=fees.CURRENCY,
        provider=payments.provider_name(),
        status=PENDING,
        idempotency_key=secrets.token_hex(16),
    )
    db.add(pay)
    db.flush()
    return {"kind": "checkout", "league_id": league.id, "payment_id": pay.id}


def _description(league: League, db: Session) -> str:
    svl = db.get(User, league.svl_id)
    label = (svl.username if svl else "SVL").upper()
    return f"SVL {label} {leagues.display_name(league)}"[:200]


def checkout(db: Session, actor: Actor | None, *, payment_id: object) -> dict:
    """The checkout page: the breakdown from the database, and for Stripe the PaymentIntent's client secret.

    ``notice`` says why a payment that is no longer pending cannot be paid here ('' while it can).
    """
    actor = _player(actor)
    pay = access_payment(db, actor, payment_id)
    league = load(db, League, pay.league_id, LEAGUE_NOT_FOUND)
    b = fees.breakdown(league)
    out = {
        "payment_id": pay.id,
        "league_id": league.id,
        "league_name": leagues.display_name(league),
        "team_name": pay.team_name,
        "status": pay.status,
        "provider": pay.provider,
        "cash": b.cash,
        "players": b.players,
        "league_cost": fees.money(b.league_cost_cents),
        "fee": fees.money(b.fee_cents),
        "total": fees.money(pay.amount_cents),
        "client_secret": "",
        "notice": "" if pay.status in (PENDING, SUCCEEDED) else ALREADY_PROCESSED,
    }
    if pay.provider == payments.StripeProvider.name and pay.status == PENDING:
        intent = payments.stripe_provider().create_intent(
            amount_cents=pay.amount_cents,
            currency=pay.currency,
            idempotency_key=pay.idempotency_key,
            description=_description(league, db),
            metadata={"payment_id": str(pay.id), "league_id": str(league.id), "user_id": str(actor.user_id)},
        )
        if pay.provider_payment_id not in (None, intent.id):
            raise BadRequest("This registration already has a payment")
        pay.provider_payment_id = intent.id
        pay.updated_at = utcnow()
        db.add(pay)
        out["client_secret"] = intent.client_secret
    return out


def _claim(db: Session, pay: Payment, *, from_status: tuple[str, ...], to_status: str, **values) -> bool:
    """Move the payment to ``to_status`` only if it is still in one of ``from_status``; True if this caller won."""
    result = db.execute(
        sa.update(Payment)
        .where(Payment.id == pay.id, Payment.status.in_(from_status))
        .values(status=to_status, updated_at=utcnow(), **values)
    )
    db.flush()
    db.refresh(pay)
    return result.rowcount == 1


def pay_offline(
    db: Session, actor: Actor | None, *, payment_id: object, card_number: object, expiry: object, cvc: object
) -> dict:
    """Charge with the offline provider; ``{"status": "succeeded"|"declined", ...}``.

    A second call for a payment already succeeded answers succeeded and creates nothing.
    """
    actor = _player(actor)
    pay = access_payment(db, actor, payment_id, lock=True)
    if pay.provider != payments.OfflineProvider.name or payments.stripe_configured():
        raise BadRequest("Card payments go through the card provider")
    if pay.status == SUCCEEDED:
        return {"status": SUCCEEDED, "payment_id": pay.id, "league_id": pay.league_id}
    if pay.status != PENDING:
        raise Invalid(ALREADY_PROCESSED)
    payments.check_card(card_number, expiry, cvc)
    league = load(db, League, pay.league_id, LEAGUE_NOT_FOUND)
    if not _open(league):
        raise Invalid(NOT_OPEN)
    if is_full(db, league):
        raise Invalid(LEAGUE_FULL)
    if db.exec(select(Team.id).where(Team.league_id == league.id, Team.team_name == pay.team_name)).first() is not None:
        raise Invalid(NAME_TAKEN)
    if not _claim(db, pay, from_status=(PENDING,), to_status=PROCESSING):
        if pay.status == SUCCEEDED:
            return {"status": SUCCEEDED, "payment_id": pay.id, "league_id": pay.league_id}
        raise Invalid("This payment is already being processed")
    result = payments.OfflineProvider().charge(
        amount_cents=pay.amount_cents,
        idempotency_key=pay.idempotency_key,
        card_number=card_number,
        expiry=expiry,
        cvc=cvc,
    )
    if not result.ok:
        _claim(db, pay, from_status=(PROCESSING,), to_status=FAILED, error=result.reason)
        return {"status": "declined", "payment_id": pay.id, "league_id": pay.league_id}
    pay.provider_payment_id = result.provider_payment_id
    db.add(pay)
    db.flush()
    _fulfil(db, pay)
    return {"status": SUCCEEDED, "payment_id": pay.id, "league_id": pay.league_id}


def _verified(pay: Payment, intent: payments.Intent) -> bool:
    return (
        intent.status == "succeeded"
        and pay.provider_payment_id == intent.id
        and intent.amount == pay.amount_cents
        and intent.currency.lower() == pay.currency
        and intent.metadata.get("payment_id") == str(pay.id)
    )


def confirm_stripe_return(db: Session, actor: Actor | None, *, payment_id: object) -> dict:
    """The browser came back from Stripe: retrieve the intent on the server, verify it, fulfil."""
    actor = _player(actor)
    pay = access_payment(db, actor, payment_id, lock=True)
    if pay.status == SUCCEEDED:
        return {"status": SUCCEEDED, "payment_id": pay.id, "league_id": pay.league_id}
    if pay.provider != payments.StripeProvider.name or not pay.provider_payment_id:
        raise BadRequest("No card payment to confirm")
    intent = payments.stripe_provider().retrieve(pay.provider_payment_id)
    if intent.status in ("processing", "requires_action", "requires_confirmation"):
        return {"status": "processing", "payment_id": pay.id, "league_id": pay.league_id}
    if not _verified(pay, intent):
        _claim(db, pay, from_status=(PENDING, PROCESSING), to_status=FAILED, error=intent.status[:300])
        return {"status": "declined", "payment_id": pay.id, "league_id": pay.league_id}
    _fulfil(db, pay)
    return {"status": SUCCEEDED, "payment_id": pay.id, "league_id": pay.league_id}


def handle_stripe_event(db: Session, event) -> str:
    """A verified webhook event: payment_intent.succeeded fulfils the matching payment once."""
    kind = event.get("type")
    obj = (event.get("data") or {}).get("object") or {}
    if kind not in ("payment_intent.succeeded", "payment_intent.payment_failed"):
        return "ignored"
    intent = payments.StripeProvider._intent(obj)
    pay = db.exec(select(Payment).where(Payment.provider_payment_id == intent.id).with_for_update()).first()
    if pay is None or pay.provider != payments.StripeProvider.name:
        log.warning("stripe event for an unknown payment intent")
        return "unknown"
    if kind == "payment_intent.payment_failed":
        _claim(db, pay, from_status=(PENDING,), to_status=FAILED, error="payment_failed")
        return "failed"
    if not _verified(pay, intent):
        log.warning("stripe event for payment %s does not match it", pay.id)
        return "mismatch"
    _fulfil(db, pay)
    return "fulfilled"


def _fulfil(db: Session, pay: Payment) -> Team | None:
    """Create the paid team and queue the confirmation, once: only the caller that wins the claim does."""
    if not _claim(db, pay, from_status=(PENDING, PROCESSING), to_status=SUCCEEDED):
        return None
    league = load(db, League, pay.league_id, LEAGUE_NOT_FOUND)
    name = pay.team_name
    if db.exec(select(Team.id).where(Team.league_id == league.id, Team.team_name == name)).first() is not None:
        name = f"{name} ({pay.id})"[:100]  # paid already: keep the money's team, never fail here
    team = Team(
        league_id=league.id, captain_id=pay.user_id, team_name=name, paid=True, waitlist=False, wins=0, losses=0
    )
    db.add(team)
    db.flush()
    db.execute(sa.update(Payment).where(Payment.id == pay.id).values(team_id=team.id))
    db.flush()
    db.refresh(pay)
    captain = db.get(User, pay.user_id) if pay.user_id else None
    if captain is not None and captain.email:
        b = fees.breakdown(league)
        first = timefmt.day(league.start_at)
        after = (
            f"The league amount of {fees.money(b.league_cost_cents)} is due in cash at the first game ({first})."
            if b.cash
            else f"The league is paid in full. See you at the first game ({first})."
        )
        mail.queue(
            db,
            to=captain.email,
            subject=f"Team registered: {name}",
            body_text=(
                f"Your team {name} is registered in {leagues.display_name(league)}.\n"
                f"Paid by card: {fees.money(pay.amount_cents)}.\n{after}\n"
            ),
            kind="team_registered",
        )
    log.info("payment %s fulfilled: team %s", pay.id, team.id)
    return team


# --- results and records -----------------------------------------------------------------------------


def result(db: Session, actor: Actor | None, *, payment_id: object) -> dict:
    """The success page: what was paid and what is still due (a cash league's amount at the first game)."""
    actor = _player(actor)
    pay = access_payment(db, actor, payment_id)
    if pay.status != SUCCEEDED:
        raise NotFound("This registration is not paid")
    league = load(db, League, pay.league_id, LEAGUE_NOT_FOUND)
    team = db.get(Team, pay.team_id) if pay.team_id else None
    b = fees.breakdown(league)
    return {
        "league_id": league.id,
        "league_name": leagues.display_name(league),
        "team_name": team.team_name if team else pay.team_name,
        "paid": fees.money(pay.amount_cents),
        "cash": b.cash,
        "league_cost": fees.money(b.league_cost_cents),
        "first_game": timefmt.day(league.start_at),
    }


def list_payments(db: Session, actor: Actor | None, *, league_id: object) -> list[dict]:
    """The payments of a league, for its SVL and admins."""
    league = leagues.managed(db, actor, league_id)
    rows = db.exec(select(Payment).where(Payment.league_id == league.id).order_by(Payment.id.desc())).all()
    uids = {p.user_id for p in rows if p.user_id}
    names = {u.id: u.username for u in db.exec(select(User).where(User.id.in_(uids or {-1}))).all()}
    return [
        {
            "id": p.id,
            "team_name": p.team_name,
            "user": names.get(p.user_id, ""),
            "amount": fees.money(p.amount_cents),
            "provider": p.provider,
            "provider_payment_id": p.provider_payment_id or "",
            "status": p.status,
            "time": timefmt.date_time(p.updated_at),
        }
        for p in rows
    ]
