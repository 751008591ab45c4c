"""A league's waiver: its operator writes the text (each change a new version), each member of its teams signs the
current version with their typed name and their date of birth or an "18 or older" attestation.

A signature is never changed or deleted: it says who signed which version, when, from which address and
browser. A new version asks every member to sign again (``signed_current`` counts only the current one).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypedDict, cast

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, func, select

from volley_app.models import League, Team, User, utcnow
from volley_app.models.rosters import LeagueWaiver, TeamMember, WaiverSignature
from volley_app.services.core import audit, paging, timefmt, validation
from volley_app.services.core.actors import Actor, load, require_actor
from volley_app.services.core.errors import Forbidden, Invalid, NotFound
from volley_app.services.seasons import leagues
from volley_app.services.teams import league_places
from volley_app.services.teams.rosters import TEAM_NOT_FOUND

# The league rules' age rule ("All players must be 18 years of age or older."): the rules page says it from here.
MINIMUM_AGE = 18
AGE_RULE = f"All players must be {MINIMUM_AGE} years of age or older."

TEXT_MAX = 20_000
TYPED_NAME_MAX = 200
IP_MAX, USER_AGENT_MAX = 45, 300
OLDEST_BIRTH_YEAR = 1900

NO_WAIVER = "This league has no waiver yet. Its operator writes it."
NOT_MEMBER = "Only a current member of one of this league's teams signs its waiver."
NOT_ON_TEAM = "You are not on this team: only its current members sign its league's waiver."
TOO_YOUNG = f"Players must be {MINIMUM_AGE} or older: this waiver cannot be signed before your {MINIMUM_AGE}th birthday."
AGE_NEEDED = f"Enter your date of birth or confirm that you are {MINIMUM_AGE} or older"
BAD_DATE = "Enter your date of birth as a date, for example 1990-04-21"
FUTURE_DATE = "Your date of birth cannot be in the future"


class WaiverVersion(TypedDict):
    id: int
    league_id: int
    version: int
    text: str
    created_at: dt.datetime
    created_by: str  # the username of whoever saved it ("" when that account is gone)
    zone: str  # the league venue's time zone, to show ``created_at``


class SignatureRow(TypedDict):
    id: int
    user_id: int
    name: str  # the account's first and last name
    username: str
    team: str
    typed_name: str
    version: int
    birth_date: str  # ISO date, "" when the signer attested their age instead
    adult: bool
    signed_at: dt.datetime
    ip: str
    user_agent: str


class Signed(TypedDict):
    version: int
    signed_at: dt.datetime
    already: bool  # True: this version was signed before (nothing new was written)


class MemberName(TypedDict):
    user_id: int
    name: str


class TeamWaiverSummary(TypedDict):
    version: int | None  # None: the league has no waiver
    signed: int
    members: int
    unsigned: list[MemberName]  # the current members who have not signed the current version


# --- reading ------------------------------------------------------------------------------------


def _current(db: Session, league_id: int) -> LeagueWaiver | None:
    return db.exec(
        select(LeagueWaiver).where(LeagueWaiver.league_id == league_id).order_by(col(LeagueWaiver.version).desc()).limit(1)
    ).first()


def _version(db: Session, league: League, row: LeagueWaiver) -> WaiverVersion:
    author = db.get(User, row.created_by_id) if row.created_by_id else None
    assert row.id is not None
    return {"id": row.id, "league_id": row.league_id, "version": row.version, "text": row.text,
            "created_at": row.created_at, "created_by": author.username if author else "",
            "zone": leagues.zone(db, league)}  # fmt: skip


def current_waiver(db: Session, actor: Actor | None, *, league_id: object) -> WaiverVersion | None:
    """The league's current waiver (None: none written yet), for anyone who can see the league."""
    league = leagues.access_league(db, actor, league_id)
    assert league.id is not None
    row = _current(db, league.id)
    return _version(db, league, row) if row else None


def _full_name(user: User) -> str:
    return " ".join(p for p in (user.first_name.strip(), user.last_name.strip()) if p)


def _name_key(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


# --- the operator writes it ---------------------------------------------------------------------


def save_waiver(db: Session, actor: Actor | None, *, league_id: object, text: object) -> WaiverVersion:
    """A new version of the league's waiver (its operator); the same text as the current one adds nothing."""
    league = leagues.changeable(db, actor, league_id)
    assert league.id is not None
    clean = validation.text(text, "text", "Waiver text", TEXT_MAX)
    league_places.lock(db, league.id)  # two saves at once make two versions, one after the other
    current = _current(db, league.id)
    if current is not None and current.text == clean:
        return _version(db, league, current)
    row = LeagueWaiver(league_id=league.id, version=(current.version + 1) if current else 1, text=clean,
                       created_by_id=actor.user_id if actor else None)  # fmt: skip
    db.add(row)
    db.flush()
    audit.record(
        db, actor, action="create", entity="league_waiver", entity_id=row.id, league_id=league.id,
        summary=f"Waiver of {leagues.display_name(league)}: version {row.version} saved",
        before={"version": current.version, "text": current.text} if current else None,
        after={"version": row.version, "text": row.text},
    )  # fmt: skip
    return _version(db, league, row)


# --- a member signs it --------------------------------------------------------------------------


def _memberships(db: Session, user_id: int, league_id: int) -> list[Team]:
    """The teams of the league the user is a current member of (withdrawn teams left out)."""
    return list(db.exec(
        select(Team).join(TeamMember, col(TeamMember.team_id) == col(Team.id))
        .where(TeamMember.user_id == user_id, col(TeamMember.left_at).is_(None), Team.league_id == league_id,
               col(Team.withdrawn_at).is_(None))
        .order_by(col(Team.id))
    ).all())  # fmt: skip


def age_on(birth: dt.date, day: dt.date) -> int:
    """Whole years from ``birth`` to ``day`` (a 29 February birthday comes on 1 March in other years)."""
    return day.year - birth.year - ((day.month, day.day) < (birth.month, birth.day))


def _parse_date(value: object) -> dt.date | None:
    """A date as a form or a client sends it ('1990-04-21'); None when empty; Invalid when not a date."""
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value
    if value is None:
        return None
    text = value.strip() if isinstance(value, str) else "?"
    if not text:
        return None
    try:
        if len(text) == 10:
            return dt.date.fromisoformat(text)
    except ValueError:
        pass
    raise Invalid({"birth_date": BAD_DATE})


def _birth_date(value: object, today: dt.date) -> dt.date | None:
    birth = _parse_date(value)
    if birth is None:
        return None
    if birth > today:
        raise Invalid({"birth_date": FUTURE_DATE})
    if birth.year < OLDEST_BIRTH_YEAR:
        raise Invalid({"birth_date": BAD_DATE})
    return birth


def _check_signer(user: User, typed_name: object, birth_date: object, adult: object, today: dt.date) -> tuple[str, dt.date | None, bool]:
    """The typed name, date of birth and attestation, checked together (every message at once)."""
    errors: dict[str, str] = {}
    name = ""
    try:
        name = validation.name(typed_name, "typed_name", "Your full name", TYPED_NAME_MAX)
        expected = _full_name(user)
        if _name_key(name) != _name_key(expected):
            errors["typed_name"] = f'Type your full name as your account has it: "{expected}"'
    except Invalid as exc:
        errors.update(exc.errors)
    birth: dt.date | None = None
    attested = validation.flag(adult)
    try:
        birth = _birth_date(birth_date, today)
        if birth is not None and age_on(birth, today) < MINIMUM_AGE:
            errors["birth_date"] = TOO_YOUNG
        elif birth is None and not attested:
            errors["birth_date"] = AGE_NEEDED
    except Invalid as exc:
        errors.update(exc.errors)
    if errors:
        raise Invalid(errors)
    return name, birth, attested


def _signer_team(db: Session, actor: Actor, league: League, team_id: object) -> Team:
    assert league.id is not None
    teams = _memberships(db, actor.user_id, league.id)
    if team_id not in (None, ""):
        wanted = load(db, Team, team_id, TEAM_NOT_FOUND)
        for team in teams:
            if team.id == wanted.id:
                return team
        raise Forbidden(NOT_ON_TEAM)
    if not teams:
        raise Forbidden(NOT_MEMBER)
    return teams[0]


def _signed(row: WaiverSignature, version: int, already: bool) -> Signed:
    return {"version": version, "signed_at": row.signed_at, "already": already}


def sign_waiver(
    db: Session, actor: Actor | None, *, league_id: object = None, team_id: object = None, typed_name: object = "",
    birth_date: object = "", adult: object = False, ip: object = "", user_agent: object = "",
    now: dt.datetime | None = None,
) -> Signed:  # fmt: skip
    """The actor (a current member of one of the league's teams; ``team_id``: of that team) signs the league's
    current waiver (``league_id`` left out: the league of ``team_id``). Signing a version already signed writes
    nothing and answers the first signature."""
    actor = require_actor(actor)
    if league_id in (None, "") and team_id not in (None, ""):
        league_id = load(db, Team, team_id, TEAM_NOT_FOUND).league_id
    league = leagues.access_league(db, actor, league_id)
    assert league.id is not None
    team = _signer_team(db, actor, league, team_id)
    return _sign(db, actor, league, team, typed_name=typed_name, birth_date=birth_date, adult=adult, ip=ip,
                 user_agent=user_agent, now=now)  # fmt: skip


def sign_alone(db: Session, actor: Actor, league: League, *, typed_name: object, birth_date: object,
               adult: object, now: dt.datetime | None = None) -> Signed | None:  # fmt: skip
    """The actor signs the league's current waiver with no team yet (a free agent registering; the caller checked
    who may). None when the league has no waiver."""
    assert league.id is not None
    if _current(db, league.id) is None:
        return None
    return _sign(db, actor, league, None, typed_name=typed_name, birth_date=birth_date, adult=adult, now=now)


def to_sign(db: Session, league_id: int, user: User) -> tuple[str, str]:
    """The text of the league's current waiver when the player has not signed it ('' when there is none, or signed),
    and the full name they sign it with."""
    waiver = _current(db, league_id)
    assert user.id is not None
    signed = waiver is None or waiver.id is None or _signature(db, waiver.id, user.id) is not None
    return ("" if signed or waiver is None else waiver.text), _full_name(user)


def _sign(db: Session, actor: Actor, league: League, team: Team | None, *, typed_name: object, birth_date: object,
          adult: object, ip: object = "", user_agent: object = "", now: dt.datetime | None = None) -> Signed:  # fmt: skip
    assert league.id is not None
    waiver = _current(db, league.id)
    if waiver is None:
        raise NotFound(NO_WAIVER)
    assert waiver.id is not None
    existing = _signature(db, waiver.id, actor.user_id)
    if existing is not None:
        return _signed(existing, waiver.version, True)
    user = db.get(User, actor.user_id)
    if user is None:
        raise Forbidden()
    now = now or utcnow()
    name, birth, attested = _check_signer(user, typed_name, birth_date, adult, timefmt.local(now, leagues.zone(db, league)).date())
    row = WaiverSignature(
        waiver_id=waiver.id, user_id=actor.user_id, team_id=team.id if team else None, typed_name=name, birth_date=birth,
        adult=attested or birth is not None, signed_at=now,
        ip=(ip if isinstance(ip, str) else "")[:IP_MAX] or None,
        user_agent=(user_agent if isinstance(user_agent, str) else "")[:USER_AGENT_MAX] or None,
    )  # fmt: skip
    try:
        with db.begin_nested():  # a second click at the same moment: one signature, the first
            db.add(row)
            db.flush()
    except IntegrityError:
        first = _signature(db, waiver.id, actor.user_id)
        if first is None:
            raise
        return _signed(first, waiver.version, True)
    return _signed(row, waiver.version, False)


def _signature(db: Session, waiver_id: int, user_id: int) -> WaiverSignature | None:
    return db.exec(
        select(WaiverSignature).where(WaiverSignature.waiver_id == waiver_id, WaiverSignature.user_id == user_id)
    ).first()


# --- status, for the screens that show who has signed --------------------------------------------


def signed_current(db: Session, league_id: int, user_ids: Iterable[int]) -> set[int]:
    """Of ``user_ids``, those who signed the league's current waiver (none when it has no waiver). No access check:
    the caller has read the league for its viewer."""
    ids = set(user_ids)
    if not ids:
        return set()
    newest = select(func.max(LeagueWaiver.version)).where(LeagueWaiver.league_id == league_id).scalar_subquery()
    found = db.exec(
        select(WaiverSignature.user_id).join(LeagueWaiver, col(LeagueWaiver.id) == col(WaiverSignature.waiver_id))
        .where(LeagueWaiver.league_id == league_id, LeagueWaiver.version == newest, col(WaiverSignature.user_id).in_(ids))
    ).all()  # fmt: skip
    return set(found)


def team_summary(db: Session, team_id: int) -> TeamWaiverSummary:
    """The team's current members and who of them has not signed its league's current waiver. No access check: the
    caller has read the team for its viewer."""
    team = db.get(Team, team_id)
    if team is None:
        raise NotFound(TEAM_NOT_FOUND)
    members = db.exec(
        select(User).join(TeamMember, col(TeamMember.user_id) == col(User.id))
        .where(TeamMember.team_id == team_id, col(TeamMember.left_at).is_(None))
        .order_by(col(User.first_name), col(User.last_name), col(User.id))
    ).all()  # fmt: skip
    waiver = _current(db, team.league_id)
    signed = signed_current(db, team.league_id, [u.id for u in members if u.id is not None]) if waiver else set()
    unsigned: list[MemberName] = [{"user_id": u.id, "name": _full_name(u)} for u in members
                                  if u.id is not None and u.id not in signed]  # fmt: skip
    return {"version": waiver.version if waiver else None, "signed": len(signed), "members": len(members),
            "unsigned": unsigned}  # fmt: skip


# --- the operator's list and export ------------------------------------------------------------


def _signature_query(league_id: int) -> sa.Select:
    return (
        select(WaiverSignature, LeagueWaiver.version, User, Team.team_name)
        .join(LeagueWaiver, col(LeagueWaiver.id) == col(WaiverSignature.waiver_id))
        .join(User, col(User.id) == col(WaiverSignature.user_id))
        .outerjoin(Team, col(Team.id) == col(WaiverSignature.team_id))
        .where(LeagueWaiver.league_id == league_id)
    )


def _row(s: WaiverSignature, version: int, u: User, team: str | None) -> SignatureRow:
    assert s.id is not None
    return {"id": s.id, "user_id": s.user_id, "name": _full_name(u), "username": u.username, "team": team or "",
            "typed_name": s.typed_name, "version": version,
            "birth_date": s.birth_date.isoformat() if s.birth_date else "", "adult": s.adult,
            "signed_at": s.signed_at, "ip": s.ip or "", "user_agent": s.user_agent or ""}  # fmt: skip


def signatures_page(
    db: Session, actor: Actor | None, *, league_id: object, filters: dict | None = None, bookmark: object = "",
    size: object = paging.PAGE_SIZE,
) -> paging.Page:  # fmt: skip
    """One page of the league's signatures, every version, newest first (its operator); ``filters``: ``q`` a part
    of the signer's name, username or typed name."""
    league = leagues.managed(db, actor, league_id)
    assert league.id is not None
    f = filters if isinstance(filters, dict) else {}
    query = _signature_query(league.id)
    if text := paging.search_text(f.get("q")):
        query = query.where(paging.contains(text, col(User.first_name), col(User.last_name), col(User.username),
                                            col(WaiverSignature.typed_name)))  # fmt: skip
    query = query.order_by(col(WaiverSignature.signed_at).desc(), col(WaiverSignature.id).desc())

    def project(found: list) -> list[SignatureRow]:
        return [_row(s, v, u, t) for s, v, u, t in found]

    return paging.keyset(db, query, kinds=(dt.datetime, int), project=project, bookmark=bookmark,
                         size=paging.page_size(size))  # fmt: skip


SIGNATURE_HEADER = ["Version", "First name", "Last name", "Username", "Team", "Typed name", "Date of birth",
                    "18 or older", "Signed", "IP address", "Browser"]  # fmt: skip


def signature_table(db: Session, league: League) -> tuple[list[str], list[list[object]]]:
    """Every signature of the league's waiver as a spreadsheet's rows, oldest first. No access check: the export
    checks that the reader manages the league."""
    assert league.id is not None
    zone = leagues.zone(db, league)
    query = _signature_query(league.id).order_by(col(WaiverSignature.signed_at), col(WaiverSignature.id))
    rows: list[list[object]] = []
    for found in db.execute(query).all():
        s, version, u, team = cast(tuple[WaiverSignature, int, User, str | None], tuple(found))
        rows.append([version, u.first_name, u.last_name, u.username, team or "", s.typed_name,
                     s.birth_date.isoformat() if s.birth_date else "", "Yes" if s.adult else "No",
                     timefmt.date_time(s.signed_at, zone, labelled=True), s.ip or "", s.user_agent or ""])  # fmt: skip
    return SIGNATURE_HEADER, rows


# --- the member's page -------------------------------------------------------------------------


@dataclass(frozen=True)
class TeamWaiverScreen:
    """The waiver page of one of the viewer's teams: the league's current waiver and the viewer's signature."""

    team_id: int
    team_name: str
    league_id: int
    league_name: str
    waiver: WaiverVersion | None
    signed: Signed | None  # the viewer's signature of the current version
    full_name: str  # the name the viewer types
    minimum_age: int = MINIMUM_AGE


def team_waiver_screen(db: Session, actor: Actor | None, *, team_id: object) -> TeamWaiverScreen:
    """The member's waiver page for the team ``team_id`` (its current members only)."""
    actor = require_actor(actor)
    team = load(db, Team, team_id, TEAM_NOT_FOUND)
    league = leagues.access_league(db, actor, team.league_id)
    assert team.id is not None and league.id is not None
    if team.id not in {t.id for t in _memberships(db, actor.user_id, league.id)}:
        raise Forbidden(NOT_ON_TEAM)
    user = db.get(User, actor.user_id)
    row = _current(db, league.id)
    signature = _signature(db, row.id, actor.user_id) if row and row.id is not None else None
    return TeamWaiverScreen(
        team_id=team.id, team_name=team.team_name, league_id=league.id, league_name=leagues.display_name(league),
        waiver=_version(db, league, row) if row else None,
        signed=_signed(signature, row.version, True) if signature and row else None,
        full_name=_full_name(user) if user else "",
    )  # fmt: skip
