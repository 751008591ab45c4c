"""Each player's share of a team's fee, in a league whose operator shares the fee among the roster.

The captain's registration pays the league's deposit (``fees.place_price``), which holds the team's place. What the
team still owes is the league's price less the discounts taken and less what the ledger says the team has paid
(cards, cash and credit spent, less refunds and credit given back). It is split equally among the members who have
not paid a share yet; each pays by a signed link, no login needed (:func:`pay_link`). The captain may cover the rest
at once. The team is confirmed (``Team.paid``) when nothing is left owing; a payment that arrives after that is
refunded in full.

Nothing is stored twice: a member's share, the team's balance and who paid are read from the payments and the
ledger each time. Members are reminded by email three days before the shares are due and once after.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
import math
import secrets
from typing import TypedDict

import sqlalchemy as sa
from sqlmodel import Session, col, select

from volley_app import routes
from volley_app.models import FreeAgent, League, LedgerEntry, Payment, Team, TeamMember, User, utcnow
from volley_app.models.free_agents import PLACED
from volley_app.models.ledger import CASH, CHARGE, CREDIT_ISSUED, CREDIT_SPENT, DISCOUNT, REFUND
from volley_app.models.payments import SHARE
from volley_app.models.rosters import ShareReminder
from volley_app.services.core import audit, signing, timefmt
from volley_app.services.core.actors import Actor, record_id, require_actor
from volley_app.services.core.errors import Invalid, NotFound
from volley_app.services.mail import mail
from volley_app.services.money import discounts, ledger, payments, refund_policy, refunds
from volley_app.services.seasons import fees, leagues

log = logging.getLogger(__name__)

BAD_LINK = "This payment link is not valid. Ask your captain for a new one."
NOT_ON_TEAM = "You are no longer on {team}: nothing is due from you."
NOT_SHARED = "This league's fee is paid by the captain at registration"
ONLY_CAPTAIN = "Only the team's captain covers the rest of the fee"
PAID_UP = "{team} has paid its fee in full."
YOURS_PAID = "You have paid your share of {team}'s fee."
WITHDRAWN = "{team} has withdrawn from the league: nothing is due."
IN_PROGRESS = "This payment is already being processed"
OVERPAID = "Paid after the team's fee was paid in full"
FREE_AGENT_PAID = "Own fee (free agent)"
AGENT_OWES_NOTHING = "You paid the league your own fee as a free agent: nothing is due from you."

PENDING, PROCESSING, SUCCEEDED, FAILED, EXPIRED = "pending", "processing", "succeeded", "failed", "expired"
SHARE_LINK, REST_LINK = "share", "rest"  # a member's own share; the captain covering all that is left
REMIND_BEFORE = dt.timedelta(days=3)
SOON, OVERDUE = "due_soon", "overdue"


# --- the team's balance ------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Balance:
    """A team's fee in cents: its price, the discounts taken off it, what it has paid (net), and what it owes."""

    price: int
    discount: int
    paid: int

    @property
    def due(self) -> int:
        return max(self.price - self.discount - self.paid, 0)

    @property
    def over(self) -> int:
        """Paid beyond the fee (two shares paid at once for the last of it)."""
        return max(self.paid + self.discount - self.price, 0)


def _team_rows(team_id: int) -> sa.ColumnElement[bool]:
    """The team's ledger rows: its payments' (a place's charge is written before the team exists) and its cash."""
    of_team = select(Payment.id).where(Payment.team_id == team_id)
    return sa.or_(col(LedgerEntry.team_id) == team_id, col(LedgerEntry.payment_id).in_(of_team))


def balance(db: Session, team: Team, league: League) -> Balance:
    assert team.id is not None  # a stored team
    t = ledger.totals(db, _team_rows(team.id))
    paid = t[CHARGE] + t[CASH] + t[CREDIT_SPENT] - t[REFUND] - t[CREDIT_ISSUED]
    return Balance(price=fees.breakdown(league).total_cents, discount=t[DISCOUNT], paid=paid)


def _members(db: Session, team_id: int) -> list[tuple[TeamMember, User]]:
    return list(db.exec(
        select(TeamMember, User).join(User, col(User.id) == TeamMember.user_id)
        .where(TeamMember.team_id == team_id, col(TeamMember.left_at).is_(None))
        .order_by(col(TeamMember.joined_at), col(TeamMember.id))
    ).all())  # fmt: skip


def _paid_by(db: Session, team_id: int) -> dict[int, int]:
    """What each player has paid of the team's fee by their share payments (net of refunds), in cents."""
    found = db.exec(
        select(Payment.id, Payment.user_id).where(Payment.team_id == team_id, Payment.purpose == SHARE,
                                                  col(Payment.status).in_((SUCCEEDED, "refunded")))
    ).all()  # fmt: skip
    net = ledger.net_by_payment(db, [pid for pid, _uid in found if pid is not None])
    out: dict[int, int] = {}
    for pid, uid in found:
        if pid is not None and uid is not None:
            out[uid] = out.get(uid, 0) + net.get(pid, 0)
    return out


def _agents(db: Session, team_id: int) -> set[int]:
    """The members the league's operator placed on the team as free agents: they paid the league a fee of their own,
    so they owe no share (and their fee is not the team's)."""
    return set(db.exec(select(FreeAgent.user_id).where(FreeAgent.team_id == team_id, FreeAgent.status == PLACED)).all())


def _owing(db: Session, team: Team, league: League) -> tuple[Balance, dict[int, int], list[int]]:
    """The balance, what each player paid, and the members who have paid no share yet (they split what is due;
    placed free agents are not among them)."""
    assert team.id is not None
    b = balance(db, team, league)
    paid = _paid_by(db, team.id)
    agents = _agents(db, team.id)
    unpaid = [m.user_id for m, _u in _members(db, team.id) if paid.get(m.user_id, 0) <= 0 and m.user_id not in agents]
    return b, paid, unpaid


def share_of(b: Balance, unpaid: list[int], user_id: int) -> int:
    """A member's share now: what is due split equally (rounded up to the cent) among those who have not paid."""
    if b.due <= 0 or user_id not in unpaid:
        return 0
    return min(math.ceil(b.due / len(unpaid)), b.due)


# --- the signed link ---------------------------------------------------------------------------------------


def pay_token(team_id: int, user_id: int, kind: str = SHARE_LINK) -> str:
    return f"{team_id}.{user_id}.{kind}.{signing.sign(signing.SHARE_PAY, team_id, user_id, kind)}"


def pay_link(team_id: int, user_id: int, kind: str = SHARE_LINK) -> str:
    """The player's link to pay (their share, or with ``REST_LINK`` the captain's cover of the rest), in full."""
    return routes.absolute(routes.share_pay_path(pay_token(team_id, user_id, kind)))


@dataclasses.dataclass(frozen=True)
class Payer:
    team: Team
    league: League
    user: User
    kind: str


def _read(db: Session, token: object) -> Payer:
    """The team, league and player a link was signed for; NotFound for a link that is not ours."""
    parts = token.split(".") if isinstance(token, str) else []
    if len(parts) != 4 or not parts[0].isdigit() or not parts[1].isdigit() or parts[2] not in (SHARE_LINK, REST_LINK):
        raise NotFound(BAD_LINK)
    team_id, user_id, kind = int(parts[0]), int(parts[1]), parts[2]
    if not signing.verify(signing.SHARE_PAY, parts[3], team_id, user_id, kind):
        raise NotFound(BAD_LINK)
    team, user = db.get(Team, team_id), db.get(User, user_id)
    league = db.get(League, team.league_id) if team is not None else None
    if team is None or user is None or league is None or league.archived_at is not None:
        raise NotFound(BAD_LINK)
    return Payer(team, league, user, kind)


def _lock(db: Session, team_id: int) -> Team:
    """Take the team's lock for the rest of the transaction (a write to its row), and read it as it is now."""
    db.execute(sa.update(Team).where(col(Team.id) == team_id).values(id=Team.id))
    team = db.get(Team, team_id)
    assert team is not None
    db.refresh(team)
    return team


def _amount(db: Session, who: Payer) -> tuple[int, str]:
    """What the link's player is to pay now, or (0, why nothing is)."""
    team, league, user = who.team, who.league, who.user
    assert team.id is not None and user.id is not None
    if not fees.shared(league):
        return 0, NOT_SHARED
    if team.withdrawn_at is not None:
        return 0, WITHDRAWN.format(team=team.team_name)
    member = db.exec(select(TeamMember.id).where(TeamMember.team_id == team.id, TeamMember.user_id == user.id,
                                                 col(TeamMember.left_at).is_(None))).first()  # fmt: skip
    if member is None:
        return 0, NOT_ON_TEAM.format(team=team.team_name)
    b, _paid, unpaid = _owing(db, team, league)
    if b.due <= 0:
        return 0, PAID_UP.format(team=team.team_name)
    if who.kind == REST_LINK:
        return (b.due, "") if team.captain_id == user.id else (0, ONLY_CAPTAIN)
    cents = share_of(b, unpaid, user.id)
    if cents > 0:
        return cents, ""
    return 0, AGENT_OWES_NOTHING if user.id in _agents(db, team.id) else YOURS_PAID.format(team=team.team_name)


def _open_payment(db: Session, who: Payer, cents: int) -> Payment:
    """The player's pending share payment for ``cents`` (one already started for that amount is reused); an older one
    for another amount is closed (the caller holds the team's lock)."""
    team, user = who.team, who.user
    assert who.league.id is not None
    pending = db.exec(
        select(Payment).where(Payment.team_id == team.id, Payment.user_id == user.id, Payment.purpose == SHARE,
                              Payment.status == PENDING).order_by(col(Payment.id).desc())
    ).all()  # fmt: skip
    for pay in pending:
        if pay.amount_cents + pay.credit_cents == cents and pay.discount_cents == 0:
            return pay
    for pay in pending:  # a share that changed since: never paid now (its card payment, if any, was never confirmed)
        db.execute(sa.update(Payment).where(col(Payment.id) == pay.id, col(Payment.status) == PENDING)
                   .values(status=EXPIRED, updated_at=utcnow()))  # fmt: skip
    pay = Payment(
        league_id=who.league.id, team_id=team.id, user_id=user.id, purpose=SHARE, team_name=team.team_name,
        league_name=leagues.display_name(who.league), payer_name=user.username, amount_cents=cents,
        currency=fees.CURRENCY, provider=payments.provider_name(), status=PENDING,
        idempotency_key=secrets.token_hex(16),
    )  # fmt: skip
    db.add(pay)
    db.flush()
    discounts.price(db, pay, who.league, None)  # the player's own credit is spent first
    return pay


# --- the pay page ------------------------------------------------------------------------------------------


class ShareScreen(TypedDict):
    """The page of a player's pay link: the team's fee, what is paid, and what this player pays now."""

    team_name: str
    league_name: str
    player: str
    price: str
    paid: str
    due: str
    due_by: str
    share: str  # what the card is charged now ('' when nothing is to pay)
    credit: str  # the player's credit spent on it ('' without)
    whole: bool  # the captain's cover of all that is left
    free: bool  # the player's credit covers the share: confirmed with no card
    notice: str  # why nothing is to pay ('' when something is)
    payment_id: int
    provider: str
    client_secret: str
    league_id: int


def screen(db: Session, *, token: object) -> ShareScreen:
    """The pay link's page: the team's fee and what this player pays now; a pending payment is started (or the one
    started before for the same amount reused) so that the card form can pay it."""
    who = _read(db, token)
    assert who.team.id is not None and who.league.id is not None
    _lock(db, who.team.id)
    cents, why = _amount(db, who)
    pay = _open_payment(db, who, cents) if cents > 0 else None
    b = balance(db, who.team, who.league)
    zone = leagues.zone(db, who.league)
    due_by = who.league.shares_due_at or who.league.start_at
    out: ShareScreen = {
        "team_name": who.team.team_name, "league_name": leagues.display_name(who.league),
        "player": mail.full_name(who.user) or who.user.username, "price": fees.money(b.price - b.discount),
        "paid": fees.money(b.paid), "due": fees.money(b.due), "due_by": timefmt.date_time(due_by, zone, labelled=True),
        "share": fees.money(pay.amount_cents) if pay else "", "credit": fees.money(pay.credit_cents) if pay and pay.credit_cents else "",
        "whole": who.kind == REST_LINK, "free": pay is not None and pay.amount_cents == 0, "notice": why,
        "payment_id": pay.id or 0 if pay else 0, "provider": pay.provider if pay else payments.provider_name(),
        "client_secret": "", "league_id": who.league.id,
    }  # fmt: skip
    if pay is not None and pay.provider == payments.StripeProvider.name and pay.amount_cents > 0:
        out["client_secret"] = _card_intent(db, pay, who)
    return out


def _card_intent(db: Session, pay: Payment, who: Payer) -> str:
    """The client secret of the share payment's PaymentIntent, asked for with no lock held (the payment's key makes a
    second ask get the same intent)."""
    metadata = {"payment_id": str(pay.id), "team_id": str(who.team.id), "user_id": str(who.user.id)}
    description = f"Share of {who.team.team_name}, {leagues.display_name(who.league)}"[:200]
    cents, currency, key = pay.amount_cents, pay.currency, pay.idempotency_key
    db.commit()
    intent = payments.stripe_provider().create_intent(amount_cents=cents, currency=currency, idempotency_key=key,
                                                      description=description, metadata=metadata)  # fmt: skip
    db.exec(sa.update(Payment).where(col(Payment.id) == pay.id, col(Payment.provider_payment_id).is_(None))
            .values(provider_payment_id=intent.id, updated_at=utcnow()))  # fmt: skip
    return intent.client_secret


class Paid(TypedDict):
    status: str  # "succeeded", "declined" or "processing"
    message: str


def _payment_of(db: Session, who: Payer, payment_id: object) -> Payment:
    pay = db.get(Payment, record_id(payment_id, BAD_LINK))
    if pay is None or pay.purpose != SHARE or pay.team_id != who.team.id or pay.user_id != who.user.id:
        raise NotFound(BAD_LINK)
    return pay


def _claim(db: Session, pay: Payment, *, from_status: tuple[str, ...], to_status: str, **values: object) -> bool:
    won = db.exec(sa.update(Payment).where(col(Payment.id) == pay.id, col(Payment.status).in_(from_status))
                  .values(status=to_status, updated_at=utcnow(), **values))  # fmt: skip
    db.flush()
    db.refresh(pay)
    return won.rowcount == 1


def _done(pay: Payment, who: Payer) -> Paid:
    if pay.status == SUCCEEDED:
        return {"status": SUCCEEDED, "message": f"Paid {fees.money(pay.amount_cents + pay.credit_cents)}. Thank you!"}
    return {"status": pay.status, "message": OVERPAID if pay.status == "refunded" else ""}


def pay_offline(db: Session, *, token: object, payment_id: object, card_number: object = "", expiry: object = "",
                cvc: object = "") -> Paid:  # fmt: skip
    """Pay the link's share with the offline card provider (or with no card when credit covers it). A second click
    answers what the first did; a share that changed since the page was opened is refused (the page shows the new
    one)."""
    who = _read(db, token)
    assert who.team.id is not None
    _lock(db, who.team.id)
    pay = _payment_of(db, who, payment_id)
    if pay.status in (SUCCEEDED, "refunded"):
        return _done(pay, who)
    if pay.status != PENDING:
        raise Invalid(IN_PROGRESS if pay.status == PROCESSING else "This share changed: open the link again")
    if pay.amount_cents > 0 and (pay.provider != payments.OfflineProvider.name or payments.stripe_configured()):
        raise Invalid("Card payments go through the card provider")
    cents, why = _amount(db, who)
    if cents != pay.amount_cents + pay.credit_cents:
        raise Invalid(why or "Your share changed since this page was opened: open the link again")
    if pay.amount_cents > 0:
        payments.check_card(card_number, expiry, cvc)
    if not _claim(db, pay, from_status=(PENDING,), to_status=PROCESSING, error=None):
        raise Invalid(IN_PROGRESS)
    if pay.amount_cents > 0:
        result = payments.OfflineProvider().charge(amount_cents=pay.amount_cents, idempotency_key=pay.idempotency_key,
                                                   card_number=card_number, expiry=expiry, cvc=cvc)  # fmt: skip
        if not result.ok:
            _claim(db, pay, from_status=(PROCESSING,), to_status=PENDING, error=result.reason or "declined")
            return {"status": "declined", "message": "The card was declined. Check the card and try again."}
        pay.provider_payment_id = result.provider_payment_id
        db.add(pay)
        db.flush()
    fulfil(db, pay)
    refunds.send_due(db, payment_id=pay.id)
    return _done(pay, who)


def confirm_return(db: Session, *, token: object, payment_id: object) -> Paid:
    """The browser came back from the card service: its intent is verified on the server before the share counts."""
    who = _read(db, token)
    pay = _payment_of(db, who, payment_id)
    if pay.status in (SUCCEEDED, "refunded") or not pay.provider_payment_id:
        return _done(pay, who)
    db.commit()
    try:
        intent = payments.stripe_provider().retrieve(pay.provider_payment_id)
    except payments.ProviderUnavailable:
        return {"status": "processing", "message": "Your payment is being processed."}
    assert who.team.id is not None
    _lock(db, who.team.id)
    db.refresh(pay)
    if intent.status != "succeeded" or intent.amount != pay.amount_cents or intent.id != pay.provider_payment_id:
        return {"status": "processing" if intent.status == "processing" else "declined", "message": ""}
    fulfil(db, pay)
    refunds.send_due(db, payment_id=pay.id)
    return _done(pay, who)


def fulfil(db: Session, pay: Payment) -> None:
    """A verified share payment counts (once, whoever verifies it first): its charge, discount and credit rows are
    written; beyond what the team owed it is refunded; a team with nothing left owing is confirmed."""
    team = _lock(db, pay.team_id) if pay.team_id is not None else None
    if team is None or not _claim(db, pay, from_status=(PENDING, PROCESSING, EXPIRED), to_status=SUCCEEDED):
        return
    league = db.get(League, team.league_id)
    assert league is not None and pay.id is not None
    if pay.amount_cents > 0:
        ledger.charged(db, pay)
    discounts.spend(db, pay)
    over = min(balance(db, team, league).over, ledger.refundable(db, pay, to_card=True))
    if over > 0:
        refunds.ask(db, pay, over, reason=OVERPAID, key=f"overpaid-{pay.idempotency_key}")
    log.info("share payment %s of team %s: %s cents", pay.id, team.id, pay.amount_cents)
    settle(db, team, league)


def settle(db: Session, team: Team, league: League) -> None:
    """Confirm the team (``paid``) once nothing is left owing; the captain is told (once)."""
    if not fees.shared(league) or team.paid or balance(db, team, league).due > 0:
        return
    team.paid = True
    db.add(team)
    db.flush()
    assert team.id is not None
    mail.tell(db, db.get(User, team.captain_id) if team.captain_id else None, "team_paid_up",
              {"team": team.team_name, "league": leagues.display_name(league),
               "page": routes.absolute(routes.team_path(team.id))})  # fmt: skip


# --- the team's page ----------------------------------------------------------------------------------------


class ShareRow(TypedDict):
    user_id: int
    name: str
    paid: str  # what they paid ('' for nothing)
    share: str  # what they owe now ('' when nothing)
    link: str  # their pay link, for themselves and for the captain and co-captains to pass on ('' otherwise)


class TeamShares(TypedDict):
    shared: bool
    price: str
    paid: str
    due: str
    due_by: str
    confirmed: bool
    rows: list[ShareRow]
    cover_link: str  # the captain's link to pay all that is left ('' for others, or nothing left)


def team_shares(db: Session, actor: Actor, team: Team, league: League, *, leads: bool) -> TeamShares:
    """Who paid what of a shared fee, for the team's page (the caller checked the reader may see the roster;
    ``leads``: the captain, a co-captain or the league's operator, who see everyone's link)."""
    assert team.id is not None
    empty: TeamShares = {"shared": False, "price": "", "paid": "", "due": "", "due_by": "", "confirmed": team.paid,
                         "rows": [], "cover_link": ""}  # fmt: skip
    if not fees.shared(league):
        return empty
    b, paid, unpaid = _owing(db, team, league)
    rows: list[ShareRow] = []
    for m, u in _members(db, team.id):
        owes = share_of(b, unpaid, m.user_id)
        show = owes > 0 and (leads or m.user_id == actor.user_id)
        own = fees.money(paid[m.user_id]) if paid.get(m.user_id, 0) > 0 else ""
        agent = not own and m.user_id not in unpaid  # out of the split without a share paid: a placed free agent
        rows.append({"user_id": m.user_id, "name": mail.full_name(u) or u.username,
                     "paid": FREE_AGENT_PAID if agent else own,
                     "share": fees.money(owes) if owes else "",
                     "link": pay_link(team.id, m.user_id) if show else ""})  # fmt: skip
    captain = team.captain_id == actor.user_id and b.due > 0 and team.withdrawn_at is None
    due_by = league.shares_due_at or league.start_at
    return {"shared": True, "price": fees.money(b.price - b.discount), "paid": fees.money(b.paid),
            "due": fees.money(b.due), "due_by": timefmt.date_time(due_by, leagues.zone(db, league), labelled=True),
            "confirmed": team.paid, "rows": rows,
            "cover_link": pay_link(team.id, actor.user_id, REST_LINK) if captain else ""}  # fmt: skip


def send_links(db: Session, actor: Actor | None, team: Team, league: League) -> int:
    """Email every member who owes a share their pay link (the captain, a co-captain or the operator asks; the caller
    checked); how many were sent."""
    actor = require_actor(actor)
    if not fees.shared(league):
        raise Invalid(NOT_SHARED)
    assert team.id is not None
    b, _paid, unpaid = _owing(db, team, league)
    sent = 0
    for _m, u in _members(db, team.id):
        assert u.id is not None
        if (cents := share_of(b, unpaid, u.id)) > 0:
            _tell_share(db, team, league, u, cents, "share_due")
            sent += 1
    audit.record(db, actor, action="share_links", entity="team", entity_id=team.id, league_id=league.id,
                 summary=f"Pay links sent to {sent} players of {team.team_name}")  # fmt: skip
    return sent


def _tell_share(db: Session, team: Team, league: League, user: User, cents: int, template: str) -> None:
    assert team.id is not None and user.id is not None
    due_by = league.shares_due_at or league.start_at
    mail.tell(db, user, template, {
        "team": team.team_name, "league": leagues.display_name(league), "amount": fees.money(cents),
        "due_by": timefmt.date_time(due_by, leagues.zone(db, league), labelled=True),
        "link": pay_link(team.id, user.id),
    })  # fmt: skip


def joined(db: Session, team: Team, league: League, user: User) -> None:
    """A player joined a team whose fee is shared: they are sent their pay link."""
    if not fees.shared(league) or team.paid or team.id is None or user.id is None:
        return
    b, _paid, unpaid = _owing(db, team, league)
    if (cents := share_of(b, unpaid, user.id)) > 0:
        _tell_share(db, team, league, user, cents, "share_due")


def left(db: Session, team: Team, league: League, user: User, by: Actor | None) -> None:
    """A player who paid a share left the team: the refund the league's policy gives is proposed to its operator
    (their payment's page offers it), and the player is told."""
    assert team.id is not None and user.id is not None
    found = db.exec(select(Payment).where(Payment.team_id == team.id, Payment.user_id == user.id,
                                          Payment.purpose == SHARE, Payment.status == SUCCEEDED)).all()  # fmt: skip
    for pay in found:
        assert pay.id is not None
        kept = ledger.refundable(db, pay)
        if kept <= 0:
            continue
        proposal = refund_policy.propose(league, kept, zone=leagues.zone(db, league))
        page = routes.absolute(routes.payment_path(pay.id))
        values: dict[str, object] = {"team": team.team_name, "league": leagues.display_name(league), "player": user.username,
                  "paid": fees.money(kept), "proposed": fees.money(proposal.cents), "why": proposal.why,
                  "page": page}  # fmt: skip
        mail.tell(db, db.get(User, league.svl_id), "share_refund_proposed", values)
        audit.record(db, by, action="share_refund_proposed", entity="payment", entity_id=pay.id,
                     league_id=league.id, subject_user_id=user.id,
                     summary=f"{user.username} left {team.team_name}: refund of {fees.money(proposal.cents)} proposed",
                     after={"proposed_cents": proposal.cents})  # fmt: skip


# --- reminders ----------------------------------------------------------------------------------------------


def remind(db: Session, now: dt.datetime | None = None) -> int:
    """Email each member who still owes a share, once three days before the shares are due and once after; a row per
    reminder (written with the email) keeps a second sweep from sending it again. How many were sent."""
    now = now or utcnow()
    due = db.exec(
        select(League).where(League.payment_mode == fees.SHARES, col(League.archived_at).is_(None),
                             col(League.shares_due_at).is_not(None),
                             col(League.shares_due_at) <= now + REMIND_BEFORE,
                             col(League.start_at) > now - dt.timedelta(days=7))
    ).all()  # fmt: skip
    sent = 0
    for league in due:
        assert league.shares_due_at is not None
        kind = OVERDUE if league.shares_due_at <= now else SOON
        teams = db.exec(select(Team).where(Team.league_id == league.id, col(Team.paid).is_(False),
                                           col(Team.waitlist).is_(False), col(Team.withdrawn_at).is_(None))).all()  # fmt: skip
        for team in teams:
            assert team.id is not None
            b, _paid, unpaid = _owing(db, team, league)
            done = set(db.exec(select(ShareReminder.user_id).where(ShareReminder.team_id == team.id,
                                                                   ShareReminder.kind == kind)).all())  # fmt: skip
            for _m, u in _members(db, team.id):
                assert u.id is not None
                cents = share_of(b, unpaid, u.id)
                if cents <= 0 or u.id in done:
                    continue
                db.add(ShareReminder(team_id=team.id, user_id=u.id, kind=kind))
                _tell_share(db, team, league, u, cents, "share_overdue" if kind == OVERDUE else "share_due")
                sent += 1
    db.flush()
    return sent

