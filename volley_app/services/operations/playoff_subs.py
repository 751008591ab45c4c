"""Playoff subs awaiting the operator's approval: a league with ``playoff_subs_approved`` holds each place a sub
takes on a request for one of its playoff games (``SubRequestPlace.needs_approval``) until its operator (the SVL
of its venue, or an admin) approves or refuses it.

- Approve: the place stays, marked approved (who, when).
- Refuse: the place is freed (the request may be filled again, as when a sub gives a place up) and the refusal
  is kept (``sub_place_refusals``).

Both are audited, and the request's requestor and the sub are emailed. Anyone else (a player, another venue's
operator) is refused and nothing changes.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any, TypedDict

from sqlmodel import Session, col, select

from volley_app import routes
from volley_app.models import SubPlaceRefusal, SubRequest, SubRequestPlace, Team, User, utcnow
from volley_app.services.accounts import venues
from volley_app.services.core import audit, paging, screens, timefmt
from volley_app.services.core.actors import Actor, record_id, require_actor
from volley_app.services.core.errors import BadRequest, NotFound
from volley_app.services.mail import mail
from volley_app.services.seasons import leagues
from volley_app.services.subs import invites, request_replies, request_rows
from volley_app.services.teams import rosters

NOT_AWAITING = "This sub is no longer awaiting approval"
APPROVED = "approved"
REFUSED = "refused"


class PendingSub(TypedDict):
    """A sub's place on one of the league's playoff requests, awaiting the operator's approval."""

    place_id: int
    request_id: int
    request_href: str
    sub: str
    team: str
    when: str
    requestor: str
    accepted: str


def pending(db: Session, actor: Actor | None, *, league_id: object) -> list[PendingSub]:
    """The league's playoff subs awaiting approval, the soonest game first (its SVL or an admin)."""
    league = leagues.access_league(db, actor, league_id, manage=True)
    zone = leagues.zone(db, league)
    found = db.exec(
        select(SubRequestPlace, SubRequest, Team).join(SubRequest, col(SubRequest.id) == SubRequestPlace.request_id)
        .join(Team, col(Team.id) == SubRequest.team_id)
        .where(Team.league_id == league.id, col(SubRequestPlace.needs_approval).is_(True),
               col(SubRequestPlace.approved_at).is_(None), col(SubRequest.archived_at).is_(None))
        .order_by(col(SubRequest.date), col(SubRequestPlace.id))
    ).all()  # fmt: skip
    names = request_rows.person_names(db, {p.user_id for p, _r, _t in found} | {r.requestor_id for _p, r, _t in found})
    return [{"place_id": p.id or 0, "request_id": r.id or 0, "request_href": routes.sub_request_path(r.id or 0),
             "sub": names.get(p.user_id, ""), "team": t.team_name, "when": timefmt.date_time(r.date, zone, labelled=True),
             "requestor": names.get(r.requestor_id, ""), "accepted": timefmt.date_time(p.accepted_at, zone, labelled=True)}
            for p, r, t in found]  # fmt: skip


@dataclasses.dataclass(frozen=True)
class RostersScreen:
    """What a league's rosters page shows, read in one call: a page of its members (the search's), and the
    playoff subs awaiting approval."""

    members: screens.Part[paging.Page]
    pending: list[PendingSub]


def rosters_screen(db: Session, actor: Actor | None, *, league_id: object,
                   filters: dict[str, Any] | None = None) -> RostersScreen:  # fmt: skip
    members = screens.part(rosters.league_rosters, db, actor, league_id=league_id, filters=filters)
    waiting = screens.part(pending, db, actor, league_id=league_id)  # refused with the members, and said there
    return RostersScreen(members, waiting.value or [])


def _awaiting(db: Session, actor: Actor | None, place_id: object) -> tuple[Actor, SubRequestPlace, SubRequest, Team]:
    """The place awaiting approval, its request (locked) and team, when the actor runs the team's league."""
    actor = require_actor(actor)
    pid = record_id(place_id, NOT_AWAITING)
    place = db.get(SubRequestPlace, pid)
    req = db.get(SubRequest, place.request_id) if place is not None else None
    team = db.get(Team, req.team_id) if req is not None and req.team_id is not None else None
    if place is None or req is None or team is None:
        raise NotFound(NOT_AWAITING)
    leagues.access_league(db, actor, team.league_id, manage=True)
    assert req.id is not None  # a stored request
    req = invites.lock_request(db, req.id)
    db.refresh(place)
    if not place.needs_approval or place.approved_at is not None or req.archived_at is not None:
        raise BadRequest(NOT_AWAITING)
    return actor, place, req, team


def approve(db: Session, actor: Actor | None, place_id: object, *, now: dt.datetime | None = None) -> None:
    """The league's operator approves a playoff sub: the place stays, approved."""
    actor, place, req, team = _awaiting(db, actor, place_id)
    place.approved_at, place.approved_by_id = now or utcnow(), actor.user_id
    db.add(place)
    db.flush()
    sub = _record(db, actor, req, team, place.user_id, APPROVED, place.id)
    _tell(db, req, sub, APPROVED, requestor_then="They may play in this game.", sub_then="You play in this game.")


def refuse(db: Session, actor: Actor | None, place_id: object, *, now: dt.datetime | None = None) -> None:
    """The league's operator refuses a playoff sub: the place is freed for another sub; the refusal is kept."""
    now = now or utcnow()
    actor, place, req, team = _awaiting(db, actor, place_id)
    assert req.id is not None  # a stored request
    user_id = place.user_id
    refusal = SubPlaceRefusal(request_id=req.id, user_id=user_id, accepted_at=place.accepted_at, refused_at=now,
                              refused_by_id=actor.user_id)  # fmt: skip
    db.add(refusal)
    holder = request_replies.free_place(db, req, place, now)
    db.flush()
    sub = _record(db, actor, req, team, user_id, REFUSED, refusal.id)
    _tell(db, req, sub, REFUSED, requestor_then=request_replies.reopened(holder),
          sub_then="Your place on this request is freed.")  # fmt: skip
    invites.tell_changed(db, req, user_id, open_list=True)


def _record(db: Session, actor: Actor, req: SubRequest, team: Team, user_id: int, verdict: str,
            entity_id: int | None) -> User | None:  # fmt: skip
    sub = db.get(User, user_id)
    who = mail.full_name(sub) if sub is not None else ""
    audit.record(
        db, actor, action="approve" if verdict == APPROVED else "refuse", entity="playoff_sub", entity_id=entity_id,
        summary=f"Playoff sub {who or user_id} {verdict} for {team.team_name} (sub request {req.id})",
        after={"request_id": req.id, "user_id": user_id, "verdict": verdict}, league_id=team.league_id,
        subject_user_id=user_id,
    )  # fmt: skip
    return sub


def _tell(db: Session, req: SubRequest, sub: User | None, verdict: str, *, requestor_then: str, sub_then: str) -> None:
    """Email the request's requestor and the sub the operator's verdict."""
    assert req.id is not None  # a stored request
    requestor = db.get(User, req.requestor_id)
    common = {"verdict": verdict, "who": mail.full_name(sub) if sub is not None else "", "team": req.team,
              "when": timefmt.long(req.date, venues.zone_by_name(db, req.svl)), "svl": req.svl,
              "page": routes.absolute(routes.sub_request_path(req.id))}  # fmt: skip
    for person, then in ((requestor, requestor_then), (sub, sub_then)):
        if person is not None:
            mail.queue_email(db, "playoff_sub_decided", {**common, "first_name": mail.first_name(person), "then": then},
                             to=person.email)  # fmt: skip
