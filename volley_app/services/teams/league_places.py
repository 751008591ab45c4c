"""Places in a league: reservations while a captain pays, offers to the waitlist, and paying for a place.

A league has ``max_teams`` places. A place is *taken* by a playing team (not waitlisted, not
withdrawn) and *held* by a live reservation: a pending payment whose ``expires_at`` has not
passed. A new registration holds its place for :data:`RESERVATION_MINUTES`; a place offered to
a waitlisted team (Promote, or an offer passed on) is a pending payment that names the team and
holds the place for the league's ``offer_hold_hours``.

* A new registrant finds the league full when playing teams + live reservations + teams waiting
  on the waitlist reach ``max_teams`` (the waitlist keeps its priority).
* An offer can be made while playing teams + live reservations are below ``max_teams``.

Every decision about places takes the league's lock first (:func:`lock`: a row lock on
PostgreSQL, the database's write lock on SQLite), so two captains never get the same last place.
Expired holds are swept where places are decided and by a periodic task (:func:`expire_holds`):
the payment becomes "expired", a Stripe PaymentIntent is cancelled, and a place freed this way
is offered to the next team on the waitlist. A card payment that still succeeds for a place that
is no longer there is refunded, and the captain told.

The card provider is never called while the lock is held: lapsed holds' intents are cancelled
before it is taken (:func:`decide`), and a refund decided under it is marked due and asked for
after the commit (:func:`send_due_refunds`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import logging
import secrets
from collections.abc import Sequence
from typing import TypedDict

import sqlalchemy as sa
from sqlmodel import Session, col, select

from volley_app import db as dbmod
from volley_app import routes
from volley_app.models import League, Payment, Team, User, utcnow
from volley_app.models.payments import PLACE
from volley_app.services.core import audit, periodic, timefmt
from volley_app.services.core.actors import Actor
from volley_app.services.core.errors import Invalid
from volley_app.services.mail import mail
from volley_app.services.money import discounts, ledger, payments, refunds
from volley_app.services.seasons import fees, leagues, scheduling
from volley_app.services.teams import rosters

log = logging.getLogger(__name__)

PENDING, PROCESSING, SUCCEEDED, FAILED, EXPIRED, REFUNDED = (
    "pending", "processing", "succeeded", "failed", "expired", "refunded",
)  # fmt: skip
HOLDING = (PENDING, PROCESSING)
# A refunded payment's error: why (its refund is a ``Refund``, due until the card provider has made it).
PLACE_GONE = "place no longer held"

RESERVATION_MINUTES = 15
OFFER_HOURS_MIN, OFFER_HOURS_MAX = 1, 336
SWEEP_SECONDS = 60

NO_PLACE = (
    "{league} has no free place: {taken} of {places} places are taken or held. To add a team, raise "
    "Max Teams on the league's edit form."
)
NOT_WAITLISTED = "This team is not on the waitlist"
WITHDRAWN = "This team has withdrawn"
ALREADY_OFFERED = "{team} already has an offer, open until {until}"
NO_CAPTAIN = "This team has no captain to offer the place to"


# --- counting places -----------------------------------------------------------------------------


def lock(db: Session, league_id: int) -> None:
    """Take the league's lock for the rest of the transaction, before anything about its places is read.

    A write to the league row: on PostgreSQL the row's lock, on SQLite the database's write lock
    (pysqlite begins the transaction at the first write, and busy_timeout waits for the lock).
    """
    db.execute(sa.update(League).where(col(League.id) == league_id).values(id=League.id))


def _places() -> sa.ColumnElement[bool]:
    """Payments for a team's place (shares and free agents' fees hold no place)."""
    return col(Payment.purpose) == sa.literal(PLACE, literal_execute=True)


def _live(now: dt.datetime) -> sa.ColumnElement[bool]:
    expires = col(Payment.expires_at)
    return sa.and_(_places(), col(Payment.status).in_(HOLDING), expires.is_not(None), expires > now)


@dataclasses.dataclass(frozen=True)
class Places:
    places: int
    playing: int
    held: int
    waiting: int

    @property
    def taken(self) -> int:
        return self.playing + self.held

    @property
    def full_for_new(self) -> bool:
        """A new registrant is offered the waitlist: the waiting teams come first."""
        return self.playing + self.held + self.waiting >= self.places

    @property
    def left(self) -> int:
        """Places a new registrant may still take (the waiting teams come first)."""
        return max(0, self.places - self.playing - self.held - self.waiting)

    @property
    def room_for_offer(self) -> bool:
        return self.playing + self.held < self.places


def count(db: Session, league: League, now: dt.datetime | None = None, *, leaving_out: int | None = None) -> Places:
    """The league's places as they are at ``now`` (``leaving_out``: a payment not to count as a hold)."""
    return counts(db, [league], now, leaving_out=leaving_out)[league.id or 0]


def counts(
    db: Session, found: Sequence[League], now: dt.datetime | None = None, *, leaving_out: int | None = None
) -> dict[int, Places]:
    """Each league's places as they are at ``now``, by its id, in two queries for them all."""
    now = now or utcnow()
    ids = [lg.id for lg in found if lg.id is not None]
    teams = db.exec(
        select(Team.id, Team.league_id, Team.waitlist).where(col(Team.league_id).in_(ids), col(Team.withdrawn_at).is_(None))
    ).all()
    holds = select(Payment.league_id, Payment.team_id).where(col(Payment.league_id).in_(ids), _live(now))
    if leaving_out is not None:
        holds = holds.where(col(Payment.id) != leaving_out)
    held = db.exec(holds).all()
    offered = {team_id for _league, team_id in held if team_id is not None}
    return {
        lg.id: Places(
            places=lg.max_teams,
            playing=sum(1 for _t, league, waiting in teams if league == lg.id and not waiting),
            held=sum(1 for league, _t in held if league == lg.id),
            waiting=sum(1 for t, league, waiting in teams if league == lg.id and waiting and t not in offered),
        )
        for lg in found
        if lg.id is not None
    }


def live_offers(db: Session, team_ids: list[int], now: dt.datetime | None = None) -> dict[int, dt.datetime]:
    """For each of ``team_ids`` with an open offer: until when it holds its place."""
    if not team_ids:
        return {}
    found = db.exec(
        select(Payment.team_id, Payment.expires_at).where(col(Payment.team_id).in_(team_ids), _live(now or utcnow()))
    )
    return {team_id: until for team_id, until in found if team_id is not None and until is not None}


def hold_until(pay: Payment, zone: str | None = None) -> str:
    """Until when the payment holds its place, on the clock of the league's venue (``zone``)."""
    return timefmt.date_time(pay.expires_at, zone, labelled=True)


# --- new payments ----------------------------------------------------------------------------------


def new_payment(db: Session, league: League, user: User, *, team_name: str, until: dt.datetime,
                team_id: int | None = None) -> Payment:  # fmt: skip
    """A pending payment that holds a place until ``until``; the amount comes from the league, less the player's
    credit (a discount code is entered at checkout)."""
    assert league.id is not None  # a stored league
    pay = Payment(
        league_id=league.id, team_id=team_id, user_id=user.id, team_name=team_name,
        league_name=leagues.display_name(league), payer_name=user.username,
        amount_cents=fees.place_price(league), currency=fees.CURRENCY, provider=payments.provider_name(),
        status=PENDING, idempotency_key=secrets.token_hex(16), expires_at=until,
    )  # fmt: skip
    db.add(pay)
    db.flush()
    discounts.price(db, pay, league, None)
    return pay


def reserve(db: Session, league: League, user: User, team_name: str, now: dt.datetime | None = None) -> Payment:
    """A new registration's reservation (the caller holds the lock and checked there is room)."""
    now = now or utcnow()
    return new_payment(db, league, user, team_name=team_name, until=now + dt.timedelta(minutes=RESERVATION_MINUTES))


# --- offers to the waitlist -------------------------------------------------------------------------


def captain_of(db: Session, team: Team) -> User | None:
    """The team's captain (None when the account is gone)."""
    return db.get(User, team.captain_id) if team.captain_id else None


def _offer(db: Session, actor: Actor | None, league: League, team: Team, captain: User, now: dt.datetime) -> Payment:
    """Offer a place to a waitlisted team: its payment holds the place for the league's hold window."""
    until = now + dt.timedelta(hours=league.offer_hold_hours or 48)
    pay = new_payment(db, league, captain, team_name=team.team_name, until=until, team_id=team.id)
    name = leagues.display_name(league)
    deadline = timefmt.date_time(until, leagues.zone(db, league), labelled=True)
    mail.tell(
        db, captain, "place_offered",
        {"league": name, "team": team.team_name, "deadline": deadline, "amount": fees.money(pay.amount_cents),
         "page": routes.absolute(routes.checkout_path(pay.id))},
    )  # fmt: skip
    audit.record(
        db, actor, action="offer", entity="team", entity_id=team.id, league_id=league.id,
        summary=f"Place in {name} offered to {team.team_name} until {deadline}",
        after={"payment_id": pay.id, "until": until.isoformat()},
    )  # fmt: skip
    log.info("place in league %s offered to team %s until %s", league.id, team.id, until.isoformat())
    return pay


class Offer(TypedDict):
    """A place offered to a waitlisted team: its payment, and until when it holds the place."""

    team_id: int
    team_name: str
    payment_id: int
    until: str


def promote(db: Session, actor: Actor, team: Team, now: dt.datetime | None = None) -> Offer:
    """Offer the team (on the waitlist, its league managed by ``actor``) a place, if the league has one free.

    Nothing is marked paid: the captain is emailed a checkout link valid for the league's hold
    window, and the team is in once paid.
    """
    now = now or utcnow()
    league = decide(db, team.league_id, now)
    db.refresh(team)
    if team.withdrawn_at is not None:
        raise Invalid(WITHDRAWN)
    if not team.waitlist:
        raise Invalid(NOT_WAITLISTED)
    assert team.id is not None  # a stored team
    offered = live_offers(db, [team.id], now)
    if team.id in offered:
        until = timefmt.date_time(offered[team.id], leagues.zone(db, league), labelled=True)
        raise Invalid(ALREADY_OFFERED.format(team=team.team_name, until=until))
    captain = captain_of(db, team)
    if captain is None:
        raise Invalid(NO_CAPTAIN)
    places = count(db, league, now)
    if not places.room_for_offer:
        raise Invalid(NO_PLACE.format(league=leagues.display_name(league), taken=places.taken, places=places.places))
    pay = _offer(db, actor, league, team, captain, now)
    until = hold_until(pay, leagues.zone(db, league))
    assert pay.id is not None  # flushed
    return {"team_id": team.id, "team_name": team.team_name, "payment_id": pay.id, "until": until}


def _lapsed_team_ids(db: Session, league_id: int) -> set[int]:
    """Waitlisted teams whose offer has lapsed: the sweep does not offer them a place again by itself."""
    found = db.exec(
        select(Payment.team_id).where(
            Payment.league_id == league_id, col(Payment.team_id).is_not(None), Payment.status == EXPIRED, _places()
        )
    ).all()
    return {team_id for team_id in found if team_id is not None}


def _pass_on(db: Session, league: League, now: dt.datetime) -> int:
    """Offer the league's free places to the waitlist in order (teams whose offer lapsed are passed over)."""
    assert league.id is not None  # a stored league
    made = 0
    lapsed = _lapsed_team_ids(db, league.id)
    while count(db, league, now).room_for_offer:
        offered = set(live_offers(db, _waiting_ids(db, league.id), now))
        passed_over = offered | lapsed
        captains = ((t, captain_of(db, t)) for t in _waiting(db, league.id) if t.id not in passed_over)
        nxt = next(((t, captain) for t, captain in captains if captain is not None), None)
        if nxt is None:
            break
        _offer(db, None, league, *nxt, now)
        made += 1
    return made


def _waiting(db: Session, league_id: int) -> list[Team]:
    return list(
        db.exec(
            select(Team)
            .where(Team.league_id == league_id, col(Team.waitlist).is_(True), col(Team.withdrawn_at).is_(None))
            .order_by(col(Team.id))
        ).all()
    )


def _waiting_ids(db: Session, league_id: int) -> list[int]:
    return [t.id for t in _waiting(db, league_id) if t.id is not None]


# --- expiry ----------------------------------------------------------------------------------------------


@dataclasses.dataclass
class Sweep:
    expired: int = 0
    offered: int = 0
    paid: int = 0

    def __add__(self, other: Sweep) -> Sweep:
        return Sweep(self.expired + other.expired, self.offered + other.offered, self.paid + other.paid)


def claim(db: Session, pay: Payment, *, from_status: tuple[str, ...], to_status: str, **values: object) -> bool:
    """Move the payment to ``to_status`` only if it is still in one of ``from_status``; True if this caller won."""
    result = db.exec(
        sa.update(Payment)
        .where(col(Payment.id) == pay.id, col(Payment.status).in_(from_status))
        .values(status=to_status, updated_at=utcnow(), **values)
    )
    db.flush()
    db.refresh(pay)
    return result.rowcount == 1


def _lapsed_hold(now: dt.datetime) -> sa.ColumnElement[bool]:
    """A hold with no deadline, or one past by ``now``."""
    return sa.or_(col(Payment.expires_at).is_(None), col(Payment.expires_at) <= now)


def _stale(league_id: int, now: dt.datetime) -> sa.ColumnElement[bool]:
    return sa.and_(col(Payment.league_id) == league_id, col(Payment.status) == PENDING, _places(), _lapsed_hold(now))


def _with_intent(pay: Payment) -> bool:
    return pay.provider == payments.StripeProvider.name and bool(pay.provider_payment_id)


def _cancel_lapsed(db: Session, league_id: int, now: dt.datetime) -> dict[int, payments.Intent]:
    """Cancel the card payments of the league's lapsed holds, so that none can be paid any more: the intents as the
    provider has them now (a card may have gone through just before), by payment id.

    Runs before the league's lock is taken and before anything is written: the transaction so far (reads) is
    ended first, so no lock or transaction waits on the provider. Nothing to cancel, nothing is called.
    """
    stale = db.exec(
        select(Payment.id, Payment.provider_payment_id)
        .where(_stale(league_id, now), Payment.provider == payments.StripeProvider.name,
               col(Payment.provider_payment_id).is_not(None))
        .order_by(col(Payment.id))
    ).all()  # fmt: skip
    if not stale:
        return {}
    db.commit()
    provider = payments.stripe_provider()
    return {pid: provider.cancel(intent_id) for pid, intent_id in stale if pid is not None and intent_id is not None}


def _sweep_league(db: Session, league: League, now: dt.datetime, cancelled: dict[int, payments.Intent]) -> Sweep:
    """Expire the league's lapsed holds and pass freed places on (the caller holds the league's lock).

    A hold with a card payment is expired once its intent was cancelled (``cancelled``, by :func:`_cancel_lapsed`
    before the lock); one that lapsed after that is left to the next sweep, which cancels it first.
    """
    assert league.id is not None  # a stored league
    done = Sweep()
    stale = db.exec(select(Payment).where(_stale(league.id, now)).order_by(col(Payment.id))).all()
    for pay in stale:
        assert pay.id is not None  # a stored payment
        if _with_intent(pay) and pay.id not in cancelled:
            continue
        if not claim(db, pay, from_status=(PENDING,), to_status=EXPIRED):
            continue
        if _with_intent(pay) and verified(pay, cancelled[pay.id]) and fulfil(db, pay, now) is not None:
            done.paid += 1  # the card went through after all, and a place is still free for it
            continue
        done.expired += 1
        _lapsed(db, league, pay)
    if done.expired:
        done.offered = _pass_on(db, league, now)
    return done


def _lapsed(db: Session, league: League, pay: Payment) -> None:
    """An offer ran out: the captain is told, and the team stays on the waitlist."""
    team = db.get(Team, pay.team_id) if pay.team_id else None
    if team is None or not team.waitlist or team.withdrawn_at is not None:
        return
    name = leagues.display_name(league)
    deadline = timefmt.date_time(pay.expires_at, leagues.zone(db, league), labelled=True)
    _tell_captain(
        db, league, team, "offer_lapsed", {"league": name, "team": team.team_name, "deadline": deadline},
        action="offer_lapsed", summary=f"Offer of a place in {name} to {team.team_name} lapsed",
        before={"payment_id": pay.id},
    )  # fmt: skip


def _tell_captain(db: Session, league: League, team: Team, template: str, values: dict[str, object], *,
                  action: str, summary: str, before: dict[str, object],
                  after: dict[str, object] | None = None) -> None:  # fmt: skip
    """Email the team's captain ``template`` (with the league's page), and record what happened to the team."""
    assert league.id is not None  # a stored league
    mail.tell(db, captain_of(db, team), template, {**values, "page": routes.absolute(routes.league_path(league.id))})
    audit.record(db, None, action=action, entity="team", entity_id=team.id, league_id=league.id, summary=summary,
                 before=before, after=after)  # fmt: skip


def _locked(db: Session, league_id: int) -> League:
    lock(db, league_id)
    league = db.get(League, league_id)
    assert league is not None  # a decision is about a stored league
    db.refresh(league)
    return league


def decide(db: Session, league_id: int, now: dt.datetime | None = None) -> League:
    """Start a decision about the league's places: take its lock, then sweep its lapsed holds.

    Call it before writing anything in the transaction: the card payments of lapsed holds are cancelled
    first, outside any transaction (:func:`_cancel_lapsed`).
    """
    return _decided(db, league_id, now or utcnow())[0]


def _decided(db: Session, league_id: int, now: dt.datetime) -> tuple[League, Sweep]:
    cancelled = _cancel_lapsed(db, league_id, now)
    league = _locked(db, league_id)
    return league, _sweep_league(db, league, now, cancelled)


def _leagues_to_sweep(now: dt.datetime) -> list[int]:
    def find(db: Session) -> list[int]:
        # "pending" written into the query, so that the index of pending payments serves it (and no DISTINCT,
        # which SQLite would rather read from the index of every payment by league)
        pending = col(Payment.status) == sa.literal(PENDING, literal_execute=True)
        return sorted(set(db.exec(select(Payment.league_id).where(pending, _places(), _lapsed_hold(now))).all()))

    return dbmod.call(find)


def expire_holds(now: dt.datetime | None = None) -> Sweep:
    """Expire every lapsed hold and pass freed places on: one transaction per league.

    Idempotent and safe with several workers: each league is swept under its lock, and a payment
    is expired only by the caller whose conditional update moved it.
    """
    total = Sweep()
    for league_id in _leagues_to_sweep(now or utcnow()):
        try:
            total += dbmod.call(lambda db, lid=league_id: _decided(db, lid, now or utcnow())[1])
            dbmod.call(lambda db, lid=league_id: send_due_refunds(db, league_id=lid))
        except Exception:
            log.exception("sweeping the holds of league %s failed; the next sweep tries again", league_id)
    dbmod.call(lambda db: refunds.send_due(db))  # refunds the card service did not answer before, asked again
    return total


async def run_sweeper_forever(stop_event: asyncio.Event | None = None, interval: float = SWEEP_SECONDS) -> None:
    """Run :func:`expire_holds` every ``interval`` seconds (in a worker thread) until cancelled or stopped."""
    await periodic.every(interval, expire_holds, name="Hold sweeper", stop_event=stop_event,
                         worth_saying=lambda r: r.expired or r.offered or r.paid)  # fmt: skip

# --- paying for a place ------------------------------------------------------------------------------


def verified(pay: Payment, intent: payments.Intent) -> bool:
    """The provider's payment is this payment: succeeded, same intent, amount, currency and payment id."""
    return (
        intent.status == "succeeded"
        and pay.provider_payment_id == intent.id
        and intent.amount == pay.amount_cents
        and intent.currency.lower() == pay.currency
        and intent.metadata.get("payment_id") == str(pay.id)
    )


def has_place(db: Session, pay: Payment, league: League, now: dt.datetime) -> bool:
    """Whether a paid payment gets its place: its hold is live, or a place is still free for it."""
    if pay.team_id is not None:
        team = db.get(Team, pay.team_id)
        if team is None or not team.waitlist or team.withdrawn_at is not None:
            return False
    if pay.status in HOLDING and pay.expires_at is not None and pay.expires_at > now:
        return True
    places = count(db, league, now, leaving_out=pay.id)
    if pay.team_id is not None:
        return places.room_for_offer
    return not places.full_for_new


def fulfil(db: Session, pay: Payment, now: dt.datetime | None = None) -> Team | None:
    """A verified payment (or one with nothing to pay by card): its team takes its place (once), its discount and
    credit spent are written to the ledger, or the payment is refunded when the place is gone.

    The caller holds the league's lock. A new registration creates the paid team; an offer moves
    the waitlisted team it names into the league. Either way the team joins the schedule's unplayed
    weeks and the captain is emailed. Only the caller whose conditional update wins does anything.
    """
    now = now or utcnow()
    league = db.get(League, pay.league_id)
    assert league is not None  # a payment's league is kept (its key restricts deleting it)
    if pay.status not in (*HOLDING, EXPIRED):
        return None
    if pay.amount_cents > 0:  # a price the discount and the credit covered has no card payment
        ledger.charged(db, pay)
    if not has_place(db, pay, league, now):
        if pay.amount_cents > 0:
            _refund(db, pay, league)
        else:
            claim(db, pay, from_status=(*HOLDING, EXPIRED), to_status=FAILED, error=PLACE_GONE)
        return None
    if not claim(db, pay, from_status=(*HOLDING, EXPIRED), to_status=SUCCEEDED):
        return None
    discounts.spend(db, pay)
    team = _move_in(db, pay, league) if pay.team_id is not None else _new_team(db, pay, league)
    scheduling.regenerate_unplayed(db, league)
    log.info("payment %s fulfilled: team %s", pay.id, team.id)
    return team


def _new_team(db: Session, pay: Payment, league: League) -> Team:
    assert league.id is not None  # a stored league
    name = pay.team_name
    if db.exec(select(Team.id).where(Team.league_id == league.id, Team.team_name == name)).first() is not None:
        name = f"{name} ({pay.id})"[:100]  # paid already: keep the money's team, never fail here
    paid = not fees.shared(league)  # a shared fee: paid once the shares are in (``shares.settle``)
    team = Team(league_id=league.id, captain_id=pay.user_id, team_name=name, paid=paid, waitlist=False)
    db.add(team)
    db.flush()
    rosters.add_captain(db, team)
    db.execute(sa.update(Payment).where(col(Payment.id) == pay.id).values(team_id=team.id))
    db.flush()
    db.refresh(pay)
    captain = db.get(User, pay.user_id) if pay.user_id else None
    assert team.id is not None  # flushed
    if captain is not None and captain.email:
        mail.queue_email(
            db, "team_registered", {"team": name, "league": leagues.display_name(league),
                                    "amount": fees.money(pay.amount_cents), "shared": fees.shared(league),
                                    "page": routes.absolute(routes.team_path(team.id)),
                                    **_still_due(league, leagues.zone(db, league))},
            to=captain.email,
        )  # fmt: skip
    return team


def _still_due(league: League, zone: str | None = None) -> dict[str, object]:
    """What is still due at the first game (on the venue's day), as ``templates/email/_still_due.jinja`` says it."""
    b = fees.breakdown(league)
    return {"cash": bool(b.cash), "league_cost": fees.money(b.league_cost_cents),
            "first_day": timefmt.day(league.start_at, zone)}  # fmt: skip


def _move_in(db: Session, pay: Payment, league: League) -> Team:
    """The waitlisted team of a paid offer joins the league: off the waitlist, paid."""
    team = db.get(Team, pay.team_id)
    assert team is not None  # has_place found it on the waitlist, under the league's lock
    team.waitlist, team.paid = False, not fees.shared(league)
    db.add(team)
    db.flush()
    name = leagues.display_name(league)
    _tell_captain(
        db, league, team, "team_promoted",
        {"team": team.team_name, "league": name, "amount": fees.money(pay.amount_cents),
         **_still_due(league, leagues.zone(db, league))},
        action="join", summary=f"{team.team_name} paid for its offered place and joined {name}",
        before={"waitlist": True, "paid": False}, after={"waitlist": False, "paid": team.paid, "payment_id": pay.id},
    )  # fmt: skip
    return team


def _refund(db: Session, pay: Payment, league: League) -> None:
    """The payment came in for a place that is gone: refund it in full (once) and tell the payer.

    The refund is made due here, under the league's lock; the provider is asked for it after the commit
    (:func:`send_due_refunds`).
    """
    if not claim(db, pay, from_status=(*HOLDING, EXPIRED), to_status=REFUNDED, error=PLACE_GONE):
        return
    refunds.ask(db, pay, pay.amount_cents, reason="Its place was no longer held", key=f"refund-{pay.idempotency_key}")
    name = leagues.display_name(league)
    payer = db.get(User, pay.user_id) if pay.user_id else None
    assert league.id is not None  # a stored league
    mail.tell(
        db, payer, "payment_refunded",
        {"team": pay.team_name, "league": name, "amount": fees.money(pay.amount_cents),
         "page": routes.absolute(routes.league_path(league.id))},
    )  # fmt: skip
    log.warning("payment %s refunded: its place in league %s was no longer held", pay.id, league.id)


def send_due_refunds(db: Session, *, payment_id: int | None = None, league_id: int | None = None) -> bool:
    """Ask the card provider for the refunds that are due (``payment_id``'s, or those of ``league_id``): True when
    none is left due (``refunds.send_due``).

    A refund the provider does not answer stays due and is asked for again by the next call: Stripe sends the
    webhook of the payment again (it was answered 503), and the sweep of the league asks too; its idempotency
    key makes it one refund whatever the retries.
    """
    if payment_id is None and league_id is None:
        raise ValueError("name the payment or the league whose refunds are due")
    return refunds.send_due(db, payment_id=payment_id, league_id=league_id)
