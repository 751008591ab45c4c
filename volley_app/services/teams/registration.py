"""Team registration (spec sections 4 and 9): the waitlist, checkout, verified card payment, fulfilment.

The amount is always computed here from the league in the database. Starting checkout reserves
a place (``services.teams.league_places``); a team is created (paid, 0-0), or a waitlisted team offered a
place moves in, only by :func:`_fulfil`, after the provider's payment has been verified; a
conditional ``UPDATE`` on the payment row lets only one caller (browser return, webhook or a
retry) fulfil it, so any mix of them yields exactly one team and one confirmation email. Every
step that decides about places takes the league's lock first.

The card provider is called with no lock held and outside any transaction: what was decided is
committed first, the provider is asked (at most ``payments.PROVIDER_TIMEOUT_SECONDS``), and its
answer is recorded in a second short transaction. The payment's idempotency key makes a retry, a
second tab or a double click get the same PaymentIntent, never a second charge.
"""

from __future__ import annotations

import datetime as dt
import logging
import secrets
from typing import Any, NotRequired, TypedDict

import sqlalchemy as sa
from sqlmodel import Session, col, select

from volley_app import routes
from volley_app.models import DiscountCode, League, LeagueStage, Payment, Team, TeamMember, User, utcnow
from volley_app.models.payments import AGENT, PLACE, SHARE
from volley_app.services.core import paging, ratelimit, timefmt, validation
from volley_app.services.core.actors import Actor, load, require_actor
from volley_app.services.core.errors import BadRequest, Forbidden, Invalid, NotFound
from volley_app.services.money import discounts, ledger, payments, refund_policy, refunds
from volley_app.services.money.payments import access_payment
from volley_app.services.seasons import fees, leagues
from volley_app.services.seasons.leagues import access_league
from volley_app.services.teams import free_agents, league_places, rosters, shares

log = logging.getLogger(__name__)

LEAGUE_FULL = (
    "Max teams for this league has been reached. Enter your team name to join our waitlist and we will let you "
    "know if an opening becomes available."
)
NOT_OPEN = "This league is not open for registration"
REGISTRATION_CLOSED = "Registration for this league closed on {when}."
LEAGUE_NOT_FOUND = "This league no longer exists"
NAME_TAKEN = "A team in this league already has that name"
OPERATORS_CANNOT_REGISTER = "Only players can register a team"
ALREADY_PROCESSED = "This payment was already processed. Return to the league to try again."
PAID_BEFORE_CODE = "This registration was paid meanwhile (in another window) at its price without this code"
FILLED_UP = "The league filled up while you were registering. You can join its waitlist instead."
HOLD_EXPIRED = "The place held for {team} was released at {until}."
HOLD_EXPIRED_FULL = HOLD_EXPIRED + " The league is full now: you can put your team on its waitlist."
HOLD_EXPIRED_ROOM = HOLD_EXPIRED + " A place is still free: you can hold it again and pay."
OFFER_LAPSED = (
    "The place offered to {team} was held until {until} and has passed to the next team on the waitlist. "
    "Your team stays on the waitlist."
)
CARD_DECLINED = "The card was declined. Check the card number, expiry and CVC and try again."
REFUNDED_NOTICE = "This payment arrived after its place had been released and has been refunded."
CARD_NEEDED = "This registration still has {total} to pay by card."
NOTHING_BY_CARD = "Nothing is left to pay by card: confirm the registration."

PENDING, PROCESSING, SUCCEEDED, FAILED = league_places.PENDING, league_places.PROCESSING, league_places.SUCCEEDED, league_places.FAILED
EXPIRED, REFUNDED = league_places.EXPIRED, league_places.REFUNDED


# --- who and where -------------------------------------------------------------------------------


def _player(actor: Actor | None) -> Actor:
    """Registering is for logged-in players; an SVL or admin may not register on someone's behalf."""
    actor = require_actor(actor)
    if actor.is_admin or actor.is_svl:
        raise Forbidden(OPERATORS_CANNOT_REGISTER)
    return actor


def _open(league: League) -> bool:
    return (
        bool(league.active)
        and league.archived_at is None
        and leagues.stage_at(league, utcnow()) != LeagueStage.INACTIVE
    )


def _closed(db: Session, league: League, now: dt.datetime | None = None) -> str:
    """Why registration and the waitlist are closed by the deadline ('' while open), on the venue's clock."""
    closes = leagues.registration_closes(league)
    if (now or utcnow()) < closes:
        return ""
    return REGISTRATION_CLOSED.format(when=timefmt.date_time(closes, leagues.zone(db, league), labelled=True))


def is_full(db: Session, league: League) -> bool:
    """A new registrant is offered the waitlist: playing teams, live reservations and the waitlist fill it."""
    return league_places.count(db, league).full_for_new


def _name_taken(db: Session, league_id: int, name: str, *, leaving_out: int | None = None) -> bool:
    """A team of the league, or another live reservation in it, has the name."""
    if db.exec(select(Team.id).where(Team.league_id == league_id, Team.team_name == name)).first() is not None:
        return True
    held = select(Payment.id).where(
        Payment.league_id == league_id, Payment.team_name == name, col(Payment.team_id).is_(None),
        Payment.purpose == PLACE, col(Payment.status).in_(league_places.HOLDING), col(Payment.expires_at) > utcnow(),
    )  # fmt: skip
    if leaving_out is not None:
        held = held.where(col(Payment.id) != leaving_out)
    return db.exec(held).first() is not None


def _own_hold(db: Session, league_id: int, user_id: int, name: str) -> int | None:
    """The player's own live reservation of this team name in the league (its payment's id), if any."""
    return db.exec(
        select(Payment.id).where(
            Payment.league_id == league_id, Payment.user_id == user_id, Payment.team_name == name,
            Payment.purpose == PLACE, col(Payment.team_id).is_(None), col(Payment.status).in_(league_places.HOLDING),
            col(Payment.expires_at) > utcnow(),
        ).order_by(col(Payment.id).desc())
    ).first()  # fmt: skip


def _team_name(value: object, db: Session, league_id: int) -> str:
    """The team-name rule, and no other team (or live reservation) of the league may have the name."""
    name = validation.team_name(value)
    if _name_taken(db, league_id, name):
        raise Invalid({"team_name": NAME_TAKEN})
    return name


class Options(TypedDict):
    """What the league home and the new-team page offer a user, with the league's price."""

    league_id: int
    league_name: str
    may_register: bool
    refusal: str
    full: bool
    held: int
    cash: bool
    league_cost: str
    fee: str
    players: int
    total: str


def options(db: Session, actor: Actor | None, *, league_id: object) -> Options:
    """What the league home and the new-team page offer this user: register, the waitlist, or nothing.

    ``refusal`` says why registering is not offered ('' when it is).
    """
    actor = require_actor(actor)
    league = access_league(db, actor, league_id)
    if actor.is_admin or actor.is_svl:
        refusal = OPERATORS_CANNOT_REGISTER
    else:
        refusal = "" if _open(league) else NOT_OPEN
        refusal = refusal or _closed(db, league)
    b = fees.breakdown(league)
    taken = league_places.count(db, league)
    assert league.id is not None  # a stored league
    return {
        "league_id": league.id,
        "league_name": leagues.display_name(league),
        "may_register": refusal == "",
        "refusal": refusal,
        "full": taken.full_for_new,
        "held": taken.held,
        "cash": b.cash,
        "league_cost": fees.money(b.league_cost_cents),
        "fee": fees.money(b.fee_cents),
        "players": b.players,
        "total": fees.money(b.total_cents),
    }


# --- registering --------------------------------------------------------------------------------------


class NextStep(TypedDict):
    """Where a registration goes on: ``kind`` "checkout" (its ``payment_id``), "waitlist" (the ``team_id`` put on
    it), or "full" (the ``message`` offering the waitlist)."""

    kind: str
    league_id: int
    payment_id: NotRequired[int]
    team_id: NotRequired[int]
    message: NotRequired[str]


def register(
    db: Session, actor: Actor | None, *, league_id: object, team_name: object, waitlist: object = False
) -> NextStep:
    """Start a registration: reserve a place and go to checkout, or the waitlist of a full league.

    Under the league's lock: with a place for a new registrant, a pending payment (the amount
    computed from the league) holds it for ``league_places.RESERVATION_MINUTES`` and
    ``{"kind": "checkout", "payment_id": ...}`` is answered. A full league puts the team on the
    waitlist (paid false, ``{"kind": "waitlist"}``) when the captain asked for it (``waitlist``),
    else answers ``{"kind": "full"}`` so the page can offer the waitlist.
    """
    actor = _player(actor)
    league = load(db, League, league_id, LEAGUE_NOT_FOUND)
    if not _open(league):
        raise Invalid(NOT_OPEN)
    if closed := _closed(db, league):
        raise Invalid(closed)
    typed = validation.team_name(team_name)  # the field's own rule, before anything is locked
    assert league.id is not None  # a stored league
    league = league_places.decide(db, league.id)
    assert league.id is not None
    if (own := _own_hold(db, league.id, actor.user_id, typed)) is not None:  # back after a declined card
        return {"kind": "checkout", "league_id": league.id, "payment_id": own}
    name = _team_name(team_name, db, league.id)
    user = load(db, User, actor.user_id)
    if league_places.count(db, league).full_for_new:
        if not validation.flag(waitlist):
            return {"kind": "full", "league_id": league.id, "message": FILLED_UP}
        ratelimit.waitlist_entry(db, actor.user_id, league.id)
        team = Team(league_id=league.id, captain_id=actor.user_id, team_name=name, paid=False, waitlist=True)
        db.add(team)
        db.flush()
        rosters.add_captain(db, team)
        assert team.id is not None  # flushed
        log.info("team %s joined the waitlist of league %s", team.id, league.id)
        return {"kind": "waitlist", "league_id": league.id, "team_id": team.id}
    pay = league_places.reserve(db, league, user, name)
    assert pay.id is not None  # flushed
    return {"kind": "checkout", "league_id": league.id, "payment_id": pay.id}


def hold_again(db: Session, actor: Actor | None, *, payment_id: object, waitlist: object = False) -> NextStep:
    """A registration whose reservation expired before it was paid: start again with the same team name.

    As :func:`register`: a new reservation when a place is free, else the waitlist (when asked for).
    A lapsed offer has nothing to start again: its team is still on the waitlist.
    """
    actor = _player(actor)
    pay = access_payment(db, actor, payment_id)
    if pay.status != EXPIRED or pay.team_id is not None or pay.purpose != PLACE:
        raise Invalid(ALREADY_PROCESSED)
    return register(db, actor, league_id=pay.league_id, team_name=pay.team_name, waitlist=waitlist)


def _description(league: League, db: Session) -> str:
    svl = db.get(User, league.svl_id)
    label = (svl.username if svl else "SVL").upper()
    return f"SVL {label} {leagues.display_name(league)}"[:200]


def _expired_notice(db: Session, pay: Payment, league: League) -> tuple[str, bool]:
    """Why an expired reservation cannot be paid, and whether the league is full for a new registrant."""
    until = timefmt.date_time(pay.expires_at, leagues.zone(db, league), labelled=True)
    if pay.team_id is not None:
        return OFFER_LAPSED.format(team=pay.team_name, until=until), True
    full = league_places.count(db, league).full_for_new
    return (HOLD_EXPIRED_FULL if full else HOLD_EXPIRED_ROOM).format(team=pay.team_name, until=until), full


class Checkout(TypedDict):
    """The checkout of a payment: its breakdown, its state, and what the page offers."""

    payment_id: int
    league_id: int
    league_name: str
    team_name: str
    status: str
    provider: str
    cash: bool
    players: int
    league_cost: str
    fee: str
    price: str  # the league's price, before the discount and the credit
    discount: str  # what the discount code took off ('' without one)
    discount_code: str
    credit: str  # the player's credit spent on it ('' without)
    total: str  # what the card is charged
    free: bool  # nothing to pay by card: the registration is confirmed without one
    shared: bool  # the price is a deposit: the rest of the team's fee is shared among its roster
    free_agent: bool  # a player's own free-agent fee, not a team's place
    team_fee: str  # the team's whole fee
    client_secret: str
    held_until: str
    offer: bool
    full: bool
    notice: str
    refund_policy: str  # the league's refund policy in words


def checkout(db: Session, actor: Actor | None, *, payment_id: object) -> Checkout:
    """The checkout page: the breakdown from the database, until when the place is held, and for Stripe the
    PaymentIntent's client secret.

    ``notice`` says why a payment that is no longer pending cannot be paid here ('' while it can); an
    expired reservation says whether the league has a place again or only its waitlist (``full``).
    """
    actor = _player(actor)
    pay = access_payment(db, actor, payment_id)
    league = league_places.decide(db, pay.league_id)
    db.refresh(pay)
    if pay.status == PENDING and not pay.provider_payment_id:  # credit given since it was priced is spent too
        discounts.take_credit(db, pay)
    b = fees.breakdown(league)
    assert pay.id is not None and league.id is not None  # stored
    code = db.get(DiscountCode, pay.discount_code_id) if pay.discount_code_id else None
    out: Checkout = {
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
        "price": fees.money(pay.amount_cents + pay.discount_cents + pay.credit_cents),
        "discount": fees.money(pay.discount_cents) if pay.discount_cents else "",
        "discount_code": code.code if code is not None else "",
        "credit": fees.money(pay.credit_cents) if pay.credit_cents else "",
        "total": fees.money(pay.amount_cents),
        "free": pay.amount_cents == 0,
        "shared": fees.shared(league),
        "free_agent": pay.purpose == AGENT,
        "team_fee": fees.money(b.total_cents),
        "client_secret": "",
        "held_until": league_places.hold_until(pay, leagues.zone(db, league)) if pay.status == PENDING else "",
        "offer": pay.team_id is not None,
        "full": False,
        "notice": "" if pay.status in (PENDING, SUCCEEDED) else ALREADY_PROCESSED,
        "refund_policy": refund_policy.words(league, leagues.zone(db, league)),
    }
    if pay.status == PENDING and pay.error:  # a card was declined: the place is still held, try another
        out["notice"] = CARD_DECLINED
    if pay.status == EXPIRED:
        out["notice"], out["full"] = _expired_notice(db, pay, league)
    elif pay.status == REFUNDED:
        out["notice"] = REFUNDED_NOTICE
    if pay.provider == payments.StripeProvider.name and pay.status == PENDING and pay.amount_cents > 0:
        secret = _card_intent(db, pay, league, actor)
        if secret is None:  # the hold ended while the card service answered: the checkout as it is now
            return checkout(db, actor, payment_id=pay.id)
        out["client_secret"] = secret
    return out


def _card_intent(db: Session, pay: Payment, league: League, actor: Actor) -> str | None:
    """The client secret of the pending payment's PaymentIntent; None when the payment stopped being pending
    while the card service answered.

    The place was decided under the league's lock: that is committed (the lock released) before the card
    service is called, so a slow answer holds up no one else. The intent's id is then recorded in a short
    transaction of its own. A card service that does not answer in time raises ``ProviderUnavailable`` and
    leaves the payment as it was (pending, its place held until its time): trying again gets the same intent.
    """
    description = _description(league, db)
    metadata = {"payment_id": str(pay.id), "league_id": str(league.id), "user_id": str(actor.user_id)}
    amount_cents, currency, idempotency_key = pay.amount_cents, pay.currency, pay.idempotency_key
    db.commit()
    provider = payments.stripe_provider()
    intent = provider.create_intent(amount_cents=amount_cents, currency=currency, idempotency_key=idempotency_key,
                                    description=description, metadata=metadata)  # fmt: skip
    recorded = db.exec(
        sa.update(Payment)
        .where(col(Payment.id) == pay.id,
               sa.or_(col(Payment.provider_payment_id).is_(None), col(Payment.provider_payment_id) == intent.id))
        .values(provider_payment_id=intent.id, updated_at=utcnow())
    )  # fmt: skip
    if recorded.rowcount != 1:
        raise BadRequest("This registration already has a payment")
    db.refresh(pay)
    if pay.status == PENDING:
        return intent.client_secret
    if pay.status == EXPIRED:  # released meanwhile, before anyone had this intent: nobody may pay it now
        db.commit()
        provider.cancel(intent.id)
    return None


def _locked_payment(db: Session, actor: Actor, payment_id: object) -> tuple[Payment, League]:
    """The actor's payment, after its league's lock was taken and its lapsed holds swept."""
    pay = access_payment(db, actor, payment_id)
    league = league_places.decide(db, pay.league_id)
    return _reload(db, pay), league


def _reload(db: Session, pay: Payment) -> Payment:
    """The payment as it is now, locked for update (its league's lock is already held)."""
    return db.exec(select(Payment).where(col(Payment.id) == pay.id).with_for_update().execution_options(populate_existing=True)).one()




class Outcome(TypedDict):
    """What became of a payment: ``status`` a payment's status, or "declined" or "processing"."""

    status: str
    payment_id: int
    league_id: int


def _outcome(pay: Payment, status: str | None = None) -> Outcome:
    """The payment's outcome: its own status unless ``status`` says what became of it."""
    assert pay.id is not None  # a stored payment
    return {"status": status or pay.status, "payment_id": pay.id, "league_id": pay.league_id}


def _claim_to_pay(db: Session, pay: Payment, league: League) -> None:
    """Move a pending registration to processing, while its league is open and its team's name free (only one
    caller wins: a second click is told it is under way)."""
    if not _open(league):
        raise Invalid(NOT_OPEN)
    if pay.purpose == PLACE and pay.team_id is None and _name_taken(db, pay.league_id, pay.team_name, leaving_out=pay.id):
        raise Invalid(NAME_TAKEN)
    if not league_places.claim(db, pay, from_status=(PENDING,), to_status=PROCESSING, error=None):
        raise Invalid("This payment is already being processed")


def pay_offline(
    db: Session, actor: Actor | None, *, payment_id: object, card_number: object, expiry: object, cvc: object
) -> Outcome:
    """Charge with the offline provider; ``{"status": "succeeded"|"declined", ...}``.

    A second call for a payment already succeeded answers succeeded and creates nothing.
    """
    actor = _player(actor)
    pay = access_payment(db, actor, payment_id)
    if pay.provider != payments.OfflineProvider.name or payments.stripe_configured():
        raise BadRequest("Card payments go through the card provider")
    pay, league = _locked_payment(db, actor, pay.id)
    if pay.status in (SUCCEEDED, EXPIRED):
        return _outcome(pay)
    if pay.status != PENDING:
        raise Invalid(ALREADY_PROCESSED)
    if pay.amount_cents == 0:
        raise Invalid(NOTHING_BY_CARD)
    payments.check_card(card_number, expiry, cvc)
    _claim_to_pay(db, pay, league)
    result = payments.OfflineProvider().charge(
        amount_cents=pay.amount_cents,
        idempotency_key=pay.idempotency_key,
        card_number=card_number,
        expiry=expiry,
        cvc=cvc,
    )
    if not result.ok:  # the place stays held until its time: the same checkout takes another card
        league_places.claim(db, pay, from_status=(PROCESSING,), to_status=PENDING, error=result.reason or "declined")
        return _outcome(pay, "declined")
    pay.provider_payment_id = result.provider_payment_id
    db.add(pay)
    db.flush()
    _fulfil(db, pay)
    if pay.status == REFUNDED:
        league_places.send_due_refunds(db, payment_id=pay.id)
    return _outcome(pay)


def apply_code(db: Session, actor: Actor | None, *, payment_id: object, code: object) -> Checkout:
    """Take a discount code off the price of one's pending registration (a blank code takes it away again); the
    checkout with its new price. A code that may not be used here is refused at ``code`` saying why.

    The price is the server's: the league's, less the code's discount, less the player's credit. Decided under the
    league's lock and then the code's, so a code's last use goes to one registration. A card payment started for the
    old price is cancelled with the card service first, outside any transaction: one that went through meanwhile is
    the registration's, at the old price (the code is refused); otherwise checkout starts one for the new price.
    """
    actor = _player(actor)
    pay, league = _locked_payment(db, actor, payment_id)
    typed = code.strip() if isinstance(code, str) else ""
    before, intent = pay.amount_cents, pay.provider_payment_id
    _price_with(db, actor, pay, league, typed)
    if pay.provider == payments.StripeProvider.name and intent and pay.amount_cents != before:
        # The card payment started for the old price is cancelled first, outside any transaction: one the player
        # finished meanwhile (in another tab) is this registration's, at the old price, and the code is not taken.
        db.rollback()
        now = payments.stripe_provider().cancel(intent)
        pay, league = _locked_payment(db, actor, pay.id)
        if pay.status == PENDING and _verified(pay, now):
            _fulfil(db, pay)
            if pay.status == REFUNDED:
                league_places.send_due_refunds(db, payment_id=pay.id)
            db.commit()
            raise Invalid({"code": PAID_BEFORE_CODE})
        if pay.provider_payment_id == intent:  # the cancelled card payment is no longer this one's, whatever the code
            pay.provider_payment_id, pay.idempotency_key = None, secrets.token_hex(16)
            db.add(pay)
            db.commit()
            pay, league = _locked_payment(db, actor, pay.id)
        _price_with(db, actor, pay, league, typed)
    log.info("payment %s priced with code %r: %s cents by card", pay.id, typed, pay.amount_cents)
    return checkout(db, actor, payment_id=pay.id)


def _price_with(db: Session, actor: Actor, pay: Payment, league: League, typed: str) -> None:
    """The pending payment priced with the code ``typed`` (none when blank); the caller holds the league's lock."""
    if pay.status != PENDING:
        raise Invalid(ALREADY_PROCESSED)
    found = discounts.find_for(db, typed, league, actor.user_id, leaving_out=pay.id) if typed else None
    discounts.price(db, pay, league, found)


def confirm_free(db: Session, actor: Actor | None, *, payment_id: object) -> Outcome:
    """Take the place of a registration whose discount and credit cover its whole price: no card, the same
    fulfilment as a paid one (once)."""
    actor = _player(actor)
    pay, league = _locked_payment(db, actor, payment_id)
    if pay.status in (SUCCEEDED, EXPIRED):
        return _outcome(pay)
    if pay.status != PENDING:
        raise Invalid(ALREADY_PROCESSED)
    if pay.amount_cents != 0:
        raise Invalid(CARD_NEEDED.format(total=fees.money(pay.amount_cents)))
    _claim_to_pay(db, pay, league)
    _fulfil(db, pay)
    return _outcome(pay)


_verified = league_places.verified


def confirm_stripe_return(db: Session, actor: Actor | None, *, payment_id: object) -> Outcome:
    """The browser came back from Stripe: retrieve the intent on the server, verify it, fulfil.

    The intent is retrieved before the league's lock is taken, outside any transaction; a card service that
    does not answer in time answers "processing" (the webhook, or the page read again, settles it).
    """
    actor = _player(actor)
    pay = access_payment(db, actor, payment_id)
    if pay.status in (SUCCEEDED, REFUNDED):
        return _outcome(pay)
    if pay.provider != payments.StripeProvider.name or not pay.provider_payment_id:
        raise BadRequest("No card payment to confirm")
    db.commit()
    try:
        intent = payments.stripe_provider().retrieve(pay.provider_payment_id)
    except payments.ProviderUnavailable:
        return _outcome(pay, "processing")
    pay, _league = _locked_payment(db, actor, pay.id)
    if pay.status in (SUCCEEDED, REFUNDED):
        return _outcome(pay)
    if intent.status in ("processing", "requires_action", "requires_confirmation"):
        return _outcome(pay, "processing")
    if not _verified(pay, intent):
        if pay.status == EXPIRED:  # its place was released before the card went through
            return _outcome(pay)
        # A declined card leaves the intent waiting for another one: the checkout stays usable.
        retry = intent.status == "requires_payment_method"
        league_places.claim(db, pay, from_status=(PENDING, PROCESSING), to_status=PENDING if retry else FAILED,
               error=intent.status[:300])  # fmt: skip
        return _outcome(pay, "declined")
    _fulfil(db, pay)
    if pay.status == REFUNDED:
        league_places.send_due_refunds(db, payment_id=pay.id)  # not answered in time: the periodic sweep asks again
    return _outcome(pay)


def handle_stripe_event(db: Session, event) -> str:
    """A verified webhook event: payment_intent.succeeded fulfils the matching payment once; charge.refunded
    records the refunds it lists that the ledger does not hold yet."""
    kind = event.get("type")
    obj = (event.get("data") or {}).get("object") or {}
    if kind == "charge.refunded":  # refunds made in the card service's dashboard, or ours confirmed
        return refunds.from_provider(db, obj)
    if kind not in ("payment_intent.succeeded", "payment_intent.payment_failed"):
        return "ignored"
    intent = payments.StripeProvider._intent(obj)
    pay = db.exec(select(Payment).where(Payment.provider_payment_id == intent.id)).first()
    if pay is None or pay.provider != payments.StripeProvider.name:
        log.warning("stripe event for an unknown payment intent")
        return "unknown"
    league_places.decide(db, pay.league_id)
    pay = _reload(db, pay)
    if kind == "payment_intent.payment_failed":
        # Stripe lets the same intent take another card: the payment keeps its place until its hold ends.
        league_places.claim(db, pay, from_status=(PENDING,), to_status=PENDING, error="payment_failed")
        return "failed"
    if not _verified(pay, intent):
        log.warning("stripe event for payment %s does not match it", pay.id)
        return "mismatch"
    _fulfil(db, pay)
    if pay.status != REFUNDED:
        return "fulfilled"
    if not league_places.send_due_refunds(db, payment_id=pay.id):  # committed first: the refund is due, not lost
        raise payments.ProviderUnavailable(payments.REFUND_SLOW)  # Stripe sends the event again later
    return "refunded"


def _fulfil(db: Session, pay: Payment) -> Team | None:
    """The verified payment's team takes its place, or the payment is refunded (``league_places.fulfil``); a
    player's share counts toward their team's fee (``shares.fulfil``); a free agent waits to be placed
    (``free_agents.fulfil``).

    The caller holds the league's lock.
    """
    if pay.purpose == SHARE:
        shares.fulfil(db, pay)
        return None
    if pay.purpose == AGENT:
        free_agents.fulfil(db, pay)
        return None
    team = league_places.fulfil(db, pay)
    league = db.get(League, pay.league_id)
    if team is not None and league is not None:
        shares.settle(db, team, league)  # a deposit (with its discount) that covers the whole fee
    return team


# --- results and records -----------------------------------------------------------------------------


class Paid(TypedDict):
    """A paid registration: what was paid, and what is still due at the first game."""

    league_id: int
    league_name: str
    team_name: str
    paid: str
    cash: bool
    league_cost: str
    first_game: str


def result(db: Session, actor: Actor | None, *, payment_id: object) -> Paid:
    """The success page: what was paid and what is still due (a cash league's amount at the first game)."""
    actor = _player(actor)
    pay = access_payment(db, actor, payment_id)
    if pay.status == REFUNDED:
        raise Invalid(REFUNDED_NOTICE)
    if pay.status != SUCCEEDED:
        raise NotFound("This registration is not paid")
    league = load(db, League, pay.league_id, LEAGUE_NOT_FOUND)
    team = db.get(Team, pay.team_id) if pay.team_id else None
    b = fees.breakdown(league)
    assert league.id is not None  # a stored league
    return {
        "league_id": league.id,
        "league_name": leagues.display_name(league),
        "team_name": team.team_name if team else pay.team_name,
        "paid": fees.money(pay.amount_cents),
        "cash": b.cash,
        "league_cost": fees.money(b.league_cost_cents),
        "first_game": timefmt.day(league.start_at, leagues.zone(db, league)),
    }


class PaymentRow(TypedDict):
    """A payment as a league's payments list shows it."""

    id: int
    team_name: str
    user: str
    amount: str
    kept: str  # what it brought in, less what was given back (the ledger's sum)
    proposed: str  # the refund the league's policy proposes now for a place or share given up ('' for none)
    provider: str
    provider_payment_id: str
    status: str
    time: str
    href: str  # the payment's page, where its operator refunds it


def _payment(p: Payment, names: dict[int, str], zone: str | None, kept: dict[int, int], proposed: dict[int, int]) -> PaymentRow:
    assert p.id is not None  # a stored payment
    return {
        "id": p.id,
        "team_name": p.team_name,
        "user": names.get(p.user_id, "") if p.user_id is not None else "",
        "amount": fees.money(p.amount_cents),
        "kept": fees.money(kept.get(p.id, 0)),
        "proposed": fees.money(proposed[p.id]) if proposed.get(p.id, 0) > 0 else "",
        "href": routes.payment_path(p.id),
        "provider": p.provider,
        "provider_payment_id": p.provider_payment_id or "",
        "status": p.status,
        "time": timefmt.date_time(p.updated_at, zone, labelled=True),
    }


def _proposals(db: Session, league: League, found: list[Payment], kept: dict[int, int]) -> dict[int, int]:
    """The refund the league's policy proposes now for each payment whose place or share was given up (a withdrawn
    team's place, the share of a player who left the team) with something kept; the operator decides it on the
    payment's page."""
    team_ids = {p.team_id for p in found if p.team_id is not None} or {-1}
    withdrawn = set(db.exec(select(Team.id).where(col(Team.id).in_(team_ids), col(Team.withdrawn_at).is_not(None))).all())
    on_team = set(db.exec(select(TeamMember.team_id, TeamMember.user_id).where(
        col(TeamMember.team_id).in_(team_ids), col(TeamMember.left_at).is_(None))).all())  # fmt: skip
    out: dict[int, int] = {}
    for p in found:
        left = kept.get(p.id, 0) if p.id is not None else 0
        if p.id is None or p.status != SUCCEEDED or left <= 0:
            continue
        given_up = (p.purpose == PLACE and p.team_id in withdrawn) or (
            p.purpose == SHARE and (p.team_id, p.user_id) not in on_team)
        if given_up:
            out[p.id] = refund_policy.propose(league, left).cents
    return out


def _payment_rows(db: Session, league: League, found: list[Payment]) -> list[PaymentRow]:
    names, zone = _payer_names(db, found), leagues.zone(db, league)
    kept = ledger.net_by_payment(db, [p.id for p in found if p.id is not None])
    proposed = _proposals(db, league, found, kept)
    return [_payment(p, names, zone, kept, proposed) for p in found]


def _payer_names(db: Session, found: list[Payment]) -> dict[int, str]:
    uids = {p.user_id for p in found if p.user_id}
    users = db.exec(select(User).where(col(User.id).in_(uids or {-1}))).all()
    return {u.id: u.username for u in users if u.id is not None}


def list_payments(db: Session, actor: Actor | None, *, league_id: object) -> list[PaymentRow]:
    """The payments of a league, for its SVL and admins."""
    league = leagues.managed(db, actor, league_id)
    query = select(Payment).where(Payment.league_id == league.id).order_by(col(Payment.id).desc())
    return _payment_rows(db, league, list(db.exec(query).all()))


# The filters of a league's payments: free text (the team or the player who paid).
PAYMENT_FILTERS = ("q",)


def payments_page(
    db: Session,
    actor: Actor | None,
    *,
    league_id: object,
    filters: dict[str, Any] | None = None,
    bookmark: object = "",
    size: object = paging.PAGE_SIZE,
) -> paging.Page:
    """One page of a league's payments, newest first, for its SVL and admins.

    ``filters``: ``q``, the team's name or the paying player's username or name.
    """
    league = leagues.managed(db, actor, league_id)
    f = filters if isinstance(filters, dict) else {}
    query = select(Payment).where(Payment.league_id == league.id)
    if text := paging.search_text(f.get("q")):
        query = query.outerjoin(User, col(User.id) == Payment.user_id).where(
            paging.contains(text, col(Payment.team_name), col(Payment.payer_name), col(User.username),
                            col(User.first_name), col(User.last_name))  # fmt: skip
        )
    query = query.order_by(col(Payment.id).desc())

    def project(found: list[Any]) -> list[PaymentRow]:
        return _payment_rows(db, league, [r[0] for r in found])

    return paging.keyset(db, query, kinds=(int,), project=project, bookmark=bookmark, size=paging.page_size(size))

AMOUNT_DIFFERS = "The amount is set by the league: {total} ({cents} cents). Nothing was charged."
CURRENCY_DIFFERS = "Payments are in {currency}"


def _whole_number(value: object) -> int | None:
    """A number a client sent (5, 5.0 or "5") as a whole number; None for anything else."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        return int(value) if float(value) == int(float(value)) else None
    except (ValueError, OverflowError):
        return None


class PaymentIntent(Checkout):
    """:func:`checkout`'s answer with the amount in cents and its currency."""

    amount: int
    currency: str


def payment_intent(
    db: Session, actor: Actor | None, *, payment_id: object, amount: object = None, currency: object = None
) -> PaymentIntent:
    """Start paying a pending registration (the spec's /payment-intent): the amount always comes from
    the registration, which the server computed from the league. A client that sends an amount or a
    currency that differs is refused (422 naming the field), never charged what it asked for.

    Returns :func:`checkout`'s answer plus ``amount`` in cents and ``currency``; for Stripe its
    ``client_secret`` confirms the card payment.
    """
    actor = _player(actor)
    pay = access_payment(db, actor, payment_id)
    if amount not in (None, ""):
        if _whole_number(amount) != pay.amount_cents:
            raise Invalid({"amount": AMOUNT_DIFFERS.format(total=fees.money(pay.amount_cents), cents=pay.amount_cents)})
    if currency not in (None, "") and (not isinstance(currency, str) or currency.strip().lower() != pay.currency):
        raise Invalid({"currency": CURRENCY_DIFFERS.format(currency=pay.currency)})
    out = checkout(db, actor, payment_id=pay.id)
    return {**out, "amount": pay.amount_cents, "currency": pay.currency}

