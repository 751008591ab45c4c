"""Free agents: players who register alone into a league, for its operator to place on a team.

A player registers with what they play (position, ratings, gender, availability), signs the league's waiver and pays
the league's free-agent fee (``League.agent_fee_cents``; none: the league takes no free agents) through the same
checkout as a team's place: their payment is an ``AGENT`` payment, which holds no place. Paid, they wait for the
operator, who places them on one of the league's teams (they join its roster) or forms a new team of several of them.
One still waiting when the league starts is given back all they paid: the card part refunded, the credit spent given
back as credit (:func:`sweep`). A player withdraws themself while waiting; what they paid is given back as the league's
refund policy says.

Every decision about an agent takes the league's lock first (``league_places.lock``), and moves the agent's status by
a conditional update, so two operators placing the same agent place them once.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
import secrets
from typing import Any, TypedDict

import sqlalchemy as sa
from sqlmodel import Session, col, select

from volley_app import db as dbmod
from volley_app import routes
from volley_app.models import FreeAgent, League, LeagueStage, Payment, Team, TeamMember, User, utcnow
from volley_app.models.enums import Gender, Position, Rating
from volley_app.models.free_agents import PENDING_PAYMENT, PLACED, REFUNDED, WAITING, WITHDRAWN
from volley_app.models.ledger import CREDIT_ISSUED
from volley_app.models.payments import AGENT
from volley_app.services.core import audit, paging, screens, timefmt, validation
from volley_app.services.core.actors import Actor, load, require_actor
from volley_app.services.core.errors import Forbidden, Invalid, NotFound
from volley_app.services.mail import mail
from volley_app.services.money import discounts, ledger, payments, refund_policy, refunds
from volley_app.services.seasons import fees, leagues, scheduling
from volley_app.services.teams import league_places, rosters, waivers

log = logging.getLogger(__name__)

AGENT_LABEL = "Free agent"
NOT_OFFERED = "This league does not take free agents"
NOT_OPEN = "This league is not open for registration"
CLOSED = "Registration for this league closed on {when}."
OPERATORS_CANNOT = "Only players register as free agents"
ALREADY_AGENT = "You are already a free agent of this league"
ON_A_TEAM = "You are already on {team} in this league"
AGENT_NOT_FOUND = "Free agent not found"
NOT_YOURS = "Only the player withdraws their own registration"
NOT_WAITING = "{name} is no longer waiting to be placed"
TEAM_ELSEWHERE = "Choose one of this league's teams"
TEAM_OUT = "{team} is not playing in this league (withdrawn or on the waitlist)"
NO_AGENTS = "Choose the free agents who form the team"
CAPTAIN_AMONG = "The captain must be one of the chosen free agents"
NAME_TAKEN = "A team in this league already has that name"
CANNOT_WITHDRAW = "A placed free agent leaves their team from its roster"
UNPLACED = "Not placed on a team by the league's start"
WITHDREW = "Withdrew as a free agent"

# The operator's list of free agents shows these, waiting first.
_ORDER = sa.case((col(FreeAgent.status) == WAITING, 0), (col(FreeAgent.status) == PENDING_PAYMENT, 1), else_=2)


# --- registering ------------------------------------------------------------------------------------------------


def _player(actor: Actor | None) -> Actor:
    actor = require_actor(actor)
    if actor.is_admin or actor.is_svl:
        raise Forbidden(OPERATORS_CANNOT)
    return actor


def refusal(db: Session, league: League, now: dt.datetime | None = None) -> str:
    """Why a player may not register as a free agent of the league now ('' when they may)."""
    if league.agent_fee_cents is None:
        return NOT_OFFERED
    now = now or utcnow()
    if not league.active or league.archived_at is not None or leagues.stage_at(league, now) == LeagueStage.INACTIVE:
        return NOT_OPEN
    closes = leagues.registration_closes(league)
    if now >= closes:
        return CLOSED.format(when=timefmt.date_time(closes, leagues.zone(db, league), labelled=True))
    return ""


def _live(db: Session, league_id: int, user_id: int) -> FreeAgent | None:
    return db.exec(
        select(FreeAgent).where(FreeAgent.league_id == league_id, FreeAgent.user_id == user_id,
                                col(FreeAgent.status).in_((PENDING_PAYMENT, WAITING, PLACED)))
    ).first()  # fmt: skip


def _team_of(db: Session, league_id: int, user_id: int) -> Team | None:
    """The league's team (playing or waiting) the player is on now, if any."""
    return db.exec(
        select(Team).join(TeamMember, col(TeamMember.team_id) == Team.id)
        .where(Team.league_id == league_id, TeamMember.user_id == user_id, col(TeamMember.left_at).is_(None),
               col(Team.withdrawn_at).is_(None))
    ).first()  # fmt: skip


def _rating(value: object, field: str, label: str) -> str:
    found = validation.optional_choice(value, Rating, field, label.lower())
    return found.value if found is not None else ""


def _profile(fields: dict[str, object]) -> dict[str, Any]:
    """What the player plays, as they typed it (every message at once)."""
    clean = validation.collect(
        position=(validation.choice, fields.get("position") or "", Position, "position", "Position"),
        hitter=(_rating, fields.get("hitter"), "hitter", "Hitter rating"),
        passer=(_rating, fields.get("passer"), "passer", "Passer rating"),
        setter=(_rating, fields.get("setter"), "setter", "Setter rating"),
        gender=(validation.optional_choice, fields.get("gender"), Gender, "gender", "gender"),
        availability=(validation.optional, fields.get("availability"), "availability", "Availability", 300),
    )  # fmt: skip
    clean["position"] = clean["position"].value
    clean["gender"] = clean["gender"].value if clean["gender"] is not None else ""
    return clean


class Prefill(TypedDict):
    """The free-agent form: the league, its fee, and the player's profile as the form starts."""

    league_id: int
    league_name: str
    fee: str
    refusal: str
    waiver: str  # the waiver's text to sign ('' when none, or signed already)
    name: str  # the full name the waiver is signed with
    position: str
    hitter: str
    passer: str
    setter: str
    gender: str
    agent_id: int  # the player's live registration (0: none)
    agent_status: str


def form(db: Session, actor: Actor | None, *, league_id: object) -> Prefill:
    """The free-agent form for the player: the league's fee, the waiver to sign, their profile to start from."""
    actor = require_actor(actor)
    league = leagues.access_league(db, actor, league_id)
    user = load(db, User, actor.user_id)
    assert league.id is not None
    why = OPERATORS_CANNOT if actor.is_admin or actor.is_svl else refusal(db, league)
    live = _live(db, league.id, actor.user_id)
    waiver, signer = waivers.to_sign(db, league.id, user)
    return {
        "league_id": league.id, "league_name": leagues.display_name(league),
        "fee": fees.money(league.agent_fee_cents or 0), "refusal": why, "waiver": waiver,
        "name": signer, "position": Position.ANY.value,
        "hitter": user.hitter_skill_level.value if user.hitter_skill_level else "",
        "passer": user.passer_skill_level.value if user.passer_skill_level else "",
        "setter": user.setter_skill_level.value if user.setter_skill_level else "",
        "gender": user.gender.value if user.gender else "",
        "agent_id": live.id or 0 if live else 0, "agent_status": live.status if live else "",
    }  # fmt: skip


class Registered(TypedDict):
    """Where a free agent's registration goes on: the checkout of its payment."""

    agent_id: int
    payment_id: int
    league_id: int


def register(db: Session, actor: Actor | None, *, league_id: object, typed_name: object = "",
             birth_date: object = "", adult: object = False, **fields: object) -> Registered:  # fmt: skip
    """The player registers alone into the league: their profile is checked, the league's waiver signed (when it has
    one they have not signed), and a payment of the league's free-agent fee started for checkout. Back with a
    registration not paid yet: its payment again."""
    actor = _player(actor)
    league = load(db, League, league_id, "This league no longer exists")
    if why := refusal(db, league):
        raise Invalid(why)
    profile = _profile(fields)
    assert league.id is not None
    league_places.lock(db, league.id)
    db.refresh(league)
    live = _live(db, league.id, actor.user_id)
    if live is not None and live.status == PENDING_PAYMENT and live.payment_id is not None:
        pay = db.get(Payment, live.payment_id)
        if pay is not None and pay.status in (league_places.PENDING, league_places.PROCESSING):
            return {"agent_id": live.id or 0, "payment_id": pay.id or 0, "league_id": league.id}
    if live is not None and live.status != PENDING_PAYMENT:
        raise Invalid(ALREADY_AGENT)
    if (team := _team_of(db, league.id, actor.user_id)) is not None:
        raise Invalid(ON_A_TEAM.format(team=team.team_name))
    waivers.sign_alone(db, actor, league, typed_name=typed_name, birth_date=birth_date, adult=adult)
    user = load(db, User, actor.user_id)
    pay = Payment(
        league_id=league.id, user_id=user.id, purpose=AGENT, team_name=AGENT_LABEL,
        league_name=leagues.display_name(league), payer_name=user.username, amount_cents=league.agent_fee_cents or 0,
        currency=fees.CURRENCY, provider=payments.provider_name(), status=league_places.PENDING,
        idempotency_key=secrets.token_hex(16),
    )  # fmt: skip
    db.add(pay)
    db.flush()
    discounts.price(db, pay, league, None)
    if live is not None:  # an earlier registration whose payment was never made: this one replaces it
        live.status, live.updated_at = WITHDRAWN, utcnow()
        db.add(live)
        db.flush()
    agent = FreeAgent(league_id=league.id, user_id=actor.user_id, payment_id=pay.id, **profile)
    db.add(agent)
    db.flush()
    assert agent.id is not None and pay.id is not None
    log.info("free agent %s registered in league %s (payment %s)", agent.id, league.id, pay.id)
    return {"agent_id": agent.id, "payment_id": pay.id, "league_id": league.id}


def _moved(db: Session, agent: FreeAgent, from_status: tuple[str, ...], to_status: str, **values: object) -> bool:
    """Move the agent to ``to_status`` only if still in one of ``from_status``; True if this caller won."""
    won = db.exec(
        sa.update(FreeAgent).where(col(FreeAgent.id) == agent.id, col(FreeAgent.status).in_(from_status))
        .values(status=to_status, updated_at=utcnow(), **values)
    )  # fmt: skip
    db.flush()
    db.refresh(agent)
    return won.rowcount == 1


def fulfil(db: Session, pay: Payment) -> None:
    """A verified free agent's payment (or one the discount and credit cover): its ledger rows are written and the
    agent waits to be placed (once, whoever verifies it first). A payment for a registration withdrawn meanwhile is
    refunded in full. The caller holds the league's lock."""
    agent = db.exec(select(FreeAgent).where(FreeAgent.payment_id == pay.id)).first()
    from_status = (league_places.PENDING, league_places.PROCESSING, league_places.EXPIRED)
    if agent is None or not league_places.claim(db, pay, from_status=from_status, to_status=league_places.SUCCEEDED):
        return
    if pay.amount_cents > 0:
        ledger.charged(db, pay)
    discounts.spend(db, pay)
    if not _moved(db, agent, (PENDING_PAYMENT,), WAITING):
        _give_back(db, None, agent, pay, ledger.refundable(db, pay), WITHDREW)
        return
    log.info("free agent %s paid (payment %s)", agent.id, pay.id)


# --- the operator's list --------------------------------------------------------------------------------------


class AgentRow(TypedDict):
    id: int
    name: str
    username: str
    position: str
    ratings: str  # "Hitter B, Passer C" ('' for none)
    gender: str
    availability: str
    status: str  # pending_payment | waiting | placed
    status_label: str  # the status in words
    team: str  # the team placed on ('' while waiting)
    registered: str


STATUS_LABELS = {PENDING_PAYMENT: "Paying", WAITING: "Waiting", PLACED: "Placed"}


def _ratings(a: FreeAgent) -> str:
    return ", ".join(f"{label} {value}" for label, value in
                     (("Hitter", a.hitter), ("Passer", a.passer), ("Setter", a.setter)) if value)  # fmt: skip


def _rows(db: Session, found: list[Any], zone: str | None) -> list[AgentRow]:
    team_ids = {a.team_id for a, _u in found if a.team_id}
    names = dict(db.exec(select(Team.id, Team.team_name).where(col(Team.id).in_(team_ids or {-1}))).all())
    return [{
        "id": a.id, "name": mail.full_name(u) or u.username, "username": u.username, "position": a.position,
        "ratings": _ratings(a), "gender": a.gender, "availability": a.availability, "status": a.status,
        "status_label": STATUS_LABELS.get(a.status, a.status),
        "team": names.get(a.team_id, "") if a.team_id else "",
        "registered": timefmt.date_time(a.created_at, zone, labelled=True),
    } for a, u in found]  # fmt: skip


# The filters of a league's free agents: free text (the player's name or username).
AGENT_FILTERS = ("q",)


def agents_page(db: Session, actor: Actor | None, *, league_id: object, filters: dict[str, Any] | None = None,
                bookmark: object = "", size: object = paging.PAGE_SIZE) -> paging.Page:  # fmt: skip
    """One page of the league's free agents (paid or paying; withdrawn and refunded ones left out), those waiting
    first, for its SVL and admins. ``filters``: ``q``, the player's name or username."""
    league = leagues.managed(db, actor, league_id)
    f = filters if isinstance(filters, dict) else {}
    order = _ORDER.label("o")
    query = (
        select(FreeAgent, User, order).join(User, col(User.id) == FreeAgent.user_id)
        .where(FreeAgent.league_id == league.id, col(FreeAgent.status).in_((PENDING_PAYMENT, WAITING, PLACED)))
        .order_by(order, col(FreeAgent.id))
    )  # fmt: skip
    if q := paging.search_text(f.get("q")):
        query = query.where(paging.contains(q, col(User.username), col(User.first_name), col(User.last_name)))
    zone = leagues.zone(db, league)
    return paging.keyset(db, query, kinds=(int, int), project=lambda found: _rows(db, [(r[0], r[1]) for r in found], zone),
                         bookmark=bookmark, size=paging.page_size(size))  # fmt: skip


class TeamChoice(TypedDict):
    id: int
    name: str
    players: int
    short: bool  # below the league's roster minimum


def team_choices(db: Session, actor: Actor | None, *, league_id: object) -> list[TeamChoice]:
    """The league's playing teams an agent may be placed on (room on the roster), those short of players first."""
    league = leagues.managed(db, actor, league_id)
    low, high = leagues.roster_size(league)
    teams = db.exec(
        select(Team).where(Team.league_id == league.id, col(Team.waitlist).is_(False), col(Team.withdrawn_at).is_(None))
        .order_by(col(Team.team_name), col(Team.id))
    ).all()  # fmt: skip
    out: list[TeamChoice] = []
    for t in teams:
        assert t.id is not None
        n = rosters.count(db, t.id)
        if n < high:
            out.append({"id": t.id, "name": t.team_name, "players": n, "short": n < low})
    return sorted(out, key=lambda c: not c["short"])


@dataclasses.dataclass(frozen=True)
class OperatorScreen:
    """The operator's page of a league's free agents, read in one call: the league, a page of its agents (the
    search's), and the teams to place them on."""

    league_id: int
    league_name: str
    agents: screens.Part[paging.Page]
    teams: list[TeamChoice]


def operator_screen(db: Session, actor: Actor | None, *, league_id: object,
                    filters: dict[str, Any] | None = None) -> OperatorScreen:  # fmt: skip
    """The league's free agents (the first page, waiting first) and its teams with room, for its SVL and admins."""
    league = leagues.managed(db, actor, league_id)
    assert league.id is not None
    agents = screens.part(agents_page, db, actor, league_id=league.id, filters=filters)
    return OperatorScreen(league.id, leagues.display_name(league), agents, team_choices(db, actor, league_id=league.id))


# --- placing ---------------------------------------------------------------------------------------------------


def _agent(db: Session, agent_id: object) -> FreeAgent:
    return load(db, FreeAgent, agent_id, AGENT_NOT_FOUND)


def _waiting(db: Session, agent: FreeAgent) -> User:
    """The agent's player, once the agent is still waiting (read again under the league's lock)."""
    db.refresh(agent)
    user = load(db, User, agent.user_id)
    if agent.status != WAITING:
        raise Invalid(NOT_WAITING.format(name=mail.full_name(user) or user.username))
    return user


class Placed(TypedDict):
    agent_id: int
    team_id: int
    team_name: str


def _join(db: Session, actor: Actor, agent: FreeAgent, user: User, team: Team, league: League) -> None:
    """The waiting agent joins the team's roster; they are told (the caller holds the league's lock)."""
    assert team.id is not None and league.id is not None
    if not _moved(db, agent, (WAITING,), PLACED, team_id=team.id, placed_by_id=actor.user_id):
        raise Invalid(NOT_WAITING.format(name=mail.full_name(user) or user.username))
    if team.captain_id != user.id:
        rosters.add_member(db, team, league, user, by=actor)
    page = routes.absolute(routes.team_path(team.id))
    mail.tell(db, user, "agent_placed", {"team": team.team_name, "league": leagues.display_name(league), "page": page})


def place(db: Session, actor: Actor | None, *, agent_id: object, team_id: object) -> Placed:
    """The league's operator places a waiting free agent on one of the league's playing teams: the agent joins its
    roster (the roster's rules apply: room on it, teams per player), and the agent and the captain are emailed."""
    agent = _agent(db, agent_id)
    league = leagues.managed(db, actor, agent.league_id)
    actor = require_actor(actor)
    team = load(db, Team, team_id, TEAM_ELSEWHERE)
    if team.league_id != league.id:
        raise Invalid({"team_id": TEAM_ELSEWHERE})
    assert league.id is not None and team.id is not None
    league_places.lock(db, league.id)
    db.refresh(team)
    if team.waitlist or team.withdrawn_at is not None:
        raise Invalid({"team_id": TEAM_OUT.format(team=team.team_name)})
    user = _waiting(db, agent)
    _join(db, actor, agent, user, team, league)
    name = mail.full_name(user) or user.username
    mail.tell(db, league_places.captain_of(db, team), "agent_joined",
              {"player": name, "team": team.team_name, "league": leagues.display_name(league),
               "page": routes.absolute(routes.team_path(team.id))})  # fmt: skip
    audit.record(db, actor, action="agent_placed", entity="free_agent", entity_id=agent.id, league_id=league.id,
                 subject_user_id=user.id, summary=f"Free agent {name} placed on {team.team_name}",
                 before={"status": WAITING}, after={"status": PLACED, "team_id": team.id})  # fmt: skip
    assert agent.id is not None
    return {"agent_id": agent.id, "team_id": team.id, "team_name": team.team_name}


def _ids(value: object) -> list[int]:
    items = value if isinstance(value, list | tuple) else []
    out = [int(v) for v in items if isinstance(v, int | str) and not isinstance(v, bool) and str(v).isdigit()]
    return list(dict.fromkeys(out))


def form_team(db: Session, actor: Actor | None, *, league_id: object, agent_ids: object, captain_id: object,
              team_name: object) -> Placed:  # fmt: skip
    """The league's operator forms a new team of waiting free agents (``captain_id``: the agent who captains it),
    when the league has a place free: the team plays (its players paid their own fees), the agents are on its
    roster and each is emailed."""
    league = leagues.managed(db, actor, league_id)
    actor = require_actor(actor)
    ids = _ids(agent_ids)
    clean = validation.collect(team_name=(validation.team_name, team_name))
    if not ids:
        raise Invalid({"agent_ids": NO_AGENTS})
    captain_agent = next(iter(_ids([captain_id])), 0)
    if captain_agent not in ids:
        raise Invalid({"captain_id": CAPTAIN_AMONG})
    assert league.id is not None
    league = league_places.decide(db, league.id)
    assert league.id is not None
    agents = [_agent(db, i) for i in ids]
    if any(a.league_id != league.id for a in agents):
        raise NotFound(AGENT_NOT_FOUND)
    users = {a.id: _waiting(db, a) for a in agents}
    name = clean["team_name"]
    if db.exec(select(Team.id).where(Team.league_id == league.id, Team.team_name == name)).first() is not None:
        raise Invalid({"team_name": NAME_TAKEN})
    places = league_places.count(db, league)
    if not places.room_for_offer:
        raise Invalid(league_places.NO_PLACE.format(league=leagues.display_name(league), taken=places.taken,
                                                    places=places.places))  # fmt: skip
    captain = users[captain_agent]
    team = Team(league_id=league.id, captain_id=captain.id, team_name=name, paid=True, waitlist=False)
    db.add(team)
    db.flush()
    rosters.add_captain(db, team)
    for agent in sorted(agents, key=lambda a: a.id != captain_agent):
        _join(db, actor, agent, users[agent.id], team, league)
    scheduling.regenerate_unplayed(db, league)
    assert team.id is not None
    audit.record(db, actor, action="agents_team", entity="team", entity_id=team.id, league_id=league.id,
                 summary=f"Team {name} formed of {len(agents)} free agents",
                 after={"agent_ids": ids, "captain_id": captain.id})  # fmt: skip
    return {"agent_id": captain_agent, "team_id": team.id, "team_name": name}


# --- giving back ------------------------------------------------------------------------------------------------


def _give_back(db: Session, actor: Actor | None, agent: FreeAgent, pay: Payment, cents: int, reason: str) -> None:
    """Give back ``cents`` of the agent's payment, once: to the card what it brought in, the rest (credit it spent) as
    credit; the player is told."""
    assert pay.id is not None
    card = min(cents, ledger.refundable(db, pay, to_card=True)) if pay.provider_payment_id else 0
    if card > 0:
        refunds.ask(db, pay, card, reason=reason, key=f"agent-{agent.id}")
    rest = min(cents - card, ledger.refundable(db, pay))
    if rest > 0:
        ledger.record(db, kind=CREDIT_ISSUED, amount_cents=rest, key=f"agent-credit-{agent.id}", payment=pay,
                      recorded_by_id=actor.user_id if actor else None, reason=reason)  # fmt: skip
    league = db.get(League, agent.league_id)
    assert league is not None and league.id is not None
    mail.tell(db, db.get(User, agent.user_id), "agent_given_back",
              {"league": leagues.display_name(league), "reason": reason, "refund": fees.money(card) if card else "",
               "credit": fees.money(rest) if rest else "",
               "page": routes.absolute(routes.league_path(league.id))})  # fmt: skip


def withdraw(db: Session, actor: Actor | None, *, agent_id: object) -> str:
    """The player withdraws their own free-agent registration while not placed: a payment not made yet is closed;
    one made is given back as the league's refund policy says now."""
    actor = require_actor(actor)
    agent = _agent(db, agent_id)
    if agent.user_id != actor.user_id:
        raise Forbidden(NOT_YOURS)
    league_places.lock(db, agent.league_id)
    db.refresh(agent)
    if agent.status == PLACED:
        raise Invalid(CANNOT_WITHDRAW)
    if not _moved(db, agent, (PENDING_PAYMENT, WAITING), WITHDRAWN):
        return "You are no longer a free agent of this league."
    pay = db.get(Payment, agent.payment_id) if agent.payment_id else None
    league = db.get(League, agent.league_id)
    assert league is not None
    if pay is not None and pay.status == league_places.SUCCEEDED:
        kept = ledger.refundable(db, pay)
        cents = refund_policy.propose(league, kept).cents if kept > 0 else 0
        if cents > 0:
            _give_back(db, actor, agent, pay, cents, WITHDREW)
    elif pay is not None:
        league_places.claim(db, pay, from_status=(league_places.PENDING,), to_status=league_places.EXPIRED)
    audit.record(db, actor, action="agent_withdrew", entity="free_agent", entity_id=agent.id, league_id=league.id,
                 subject_user_id=actor.user_id, summary=f"Free agent withdrew from {leagues.display_name(league)}",
                 after={"status": WITHDRAWN})  # fmt: skip
    if pay is not None:
        refunds.send_due(db, payment_id=pay.id)
    return "You are no longer a free agent of this league."


def _unplaced(db: Session, league_id: int) -> int:
    """The league started: each agent still waiting is given back all they paid, once; a registration never paid is
    closed. How many were given back. The caller holds the league's lock."""
    done = 0
    agents = db.exec(select(FreeAgent).where(FreeAgent.league_id == league_id,
                                             col(FreeAgent.status).in_((WAITING, PENDING_PAYMENT)))).all()  # fmt: skip
    for agent in agents:
        pay = db.get(Payment, agent.payment_id) if agent.payment_id else None
        if agent.status == PENDING_PAYMENT:
            if pay is None or league_places.claim(db, pay, from_status=(league_places.PENDING,),
                                                  to_status=league_places.EXPIRED):  # fmt: skip
                _moved(db, agent, (PENDING_PAYMENT,), WITHDRAWN)
            continue
        if not _moved(db, agent, (WAITING,), REFUNDED) or pay is None:
            continue
        cents = ledger.refundable(db, pay)
        if cents > 0:
            _give_back(db, None, agent, pay, cents, UNPLACED)
        audit.record(db, None, action="agent_unplaced", entity="free_agent", entity_id=agent.id, league_id=league_id,
                     subject_user_id=agent.user_id, summary=f"Free agent not placed by the start: {fees.money(cents)} given back",
                     after={"status": REFUNDED, "cents": cents})  # fmt: skip
        done += 1
    return done


def _started(now: dt.datetime) -> list[int]:
    def find(db: Session) -> list[int]:
        found = db.exec(
            select(FreeAgent.league_id).join(League, col(League.id) == FreeAgent.league_id)
            .where(col(FreeAgent.status).in_((WAITING, PENDING_PAYMENT)), col(League.start_at) <= now)
        ).all()  # fmt: skip
        return sorted(set(found))

    return dbmod.call(find)


def sweep(now: dt.datetime | None = None) -> int:
    """Give back what each free agent still unplaced at their league's start paid: one transaction per league, under
    its lock; idempotent (an agent moves out of waiting once). How many were given back."""
    now = now or utcnow()
    total = 0
    for league_id in _started(now):
        try:
            def one(db: Session, lid: int = league_id) -> int:
                league_places.lock(db, lid)
                return _unplaced(db, lid)

            total += dbmod.call(one)
            dbmod.call(lambda db, lid=league_id: refunds.send_due(db, league_id=lid))
        except Exception:
            log.exception("giving back the unplaced free agents of league %s failed; the next sweep tries again",
                          league_id)
    return total
