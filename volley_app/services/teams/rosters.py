"""A team's roster: its current members (captain, co-captains, players), who may change it, and its rules.

The captain is ``Team.captain_id`` and also a member with the role Captain; handing over the captaincy changes
both together. The captain and co-captains invite (``invitations.py``) and remove members; the captain makes
and unmakes co-captains and hands over the captaincy; every member but the captain may leave. The league's
operator (its SVL, or an admin) sees every roster of the league and may do what the captain does.

League rules: a roster's size (the league's ``roster_min``/``roster_max``, else the format's), how many of
the league's teams one player may be on (``teams_per_player``), and the women needed on court
(``women_on_court``), which the roster shows against its female members.

Every change is in the audit log, and the team's members are told by email.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypedDict

import sqlalchemy as sa
from sqlmodel import Session, col, func, select

from volley_app import routes
from volley_app.models import (
    Gender,
    InvitationStatus,
    League,
    MemberRole,
    Team,
    TeamInvitation,
    TeamMember,
    User,
    utcnow,
)
from volley_app.services.core import audit, paging, timefmt
from volley_app.services.core.actors import Actor, load, record_id, require_actor
from volley_app.services.core.errors import Forbidden, Invalid, NotFound
from volley_app.services.mail import mail
from volley_app.services.seasons import leagues
from volley_app.services.teams import playoff_eligibility, shares

TEAM_NOT_FOUND = "This team no longer exists"
NOT_ON_TEAM = "That player is not on this team"
ROSTER_FULL = "{team}'s roster is full ({most} players, the most {league} allows)"
TOO_MANY_TEAMS = "{name} is already on {count} of {league}'s teams, the most one player may be on"
ALREADY_MEMBER = "{name} is already on {team}"
CAPTAIN_LEAVES = "Hand the captaincy to another member before you leave the team"
CAPTAIN_REMOVED = "The captain cannot be removed: make another member captain first"
SELF_REMOVED = "Use Leave team to leave the team yourself"
CO_CAPTAIN_ONLY_PLAYERS = "Co-captains remove players; only the captain removes a co-captain"
ONLY_CAPTAIN_ROLES = "Only the captain (or the league's operator) changes roles"
ALREADY_CAPTAIN = "{name} is already the captain"
HAND_OVER = "To change the captain's role, make another member captain"
BAD_ROLE = "Choose Captain, Co-captain or Player"
WITHDRAWN = "This team has withdrawn from the league"
MANAGE = "Only the team's captain, its co-captains or the league's operator change the roster"


@dataclasses.dataclass(frozen=True)
class Seat:
    """Who is looking at a team's roster: the team, its league, the actor, their membership, and whether they run
    the league."""

    actor: Actor
    team: Team
    league: League
    member: TeamMember | None
    operator: bool

    @property
    def role(self) -> MemberRole | None:
        return self.member.role if self.member is not None else None

    @property
    def is_captain(self) -> bool:
        return self.role == MemberRole.CAPTAIN or (self.team.captain_id == self.actor.user_id)

    @property
    def leads(self) -> bool:
        """Changes roles and the captaincy: the captain or the operator."""
        return self.operator or self.is_captain

    @property
    def manages(self) -> bool:
        """Invites and removes: the captain, a co-captain or the operator."""
        return self.leads or self.role == MemberRole.CO_CAPTAIN


def current(db: Session, team_id: int, user_id: int) -> TeamMember | None:
    """The user's current membership of the team (None when they are not on it)."""
    return db.exec(
        select(TeamMember).where(TeamMember.team_id == team_id, TeamMember.user_id == user_id,
                                 col(TeamMember.left_at).is_(None))
    ).first()  # fmt: skip


def is_member(db: Session, team_id: int, user_id: int) -> bool:
    """Whether the user is on the team now."""
    return current(db, team_id, user_id) is not None


def access_roster(db: Session, actor: Actor | None, team_id: object) -> Seat:
    """The team's roster as this actor may see it: a member, the league's operator or an admin.

    Raises Unauthorized / Forbidden / NotFound (an archived league's team, for all but admins).
    """
    actor = require_actor(actor)
    team = load(db, Team, team_id, TEAM_NOT_FOUND)
    league = db.get(League, team.league_id)
    if league is None or (league.archived_at is not None and not actor.is_admin):
        raise NotFound(TEAM_NOT_FOUND)
    assert team.id is not None
    member = current(db, team.id, actor.user_id)
    operator = leagues.may_manage_league(actor, league)
    if member is None and not operator and team.captain_id != actor.user_id:
        raise Forbidden()
    return Seat(actor, team, league, member, operator)


def _managed(db: Session, actor: Actor | None, team_id: object, *, lead: bool = False) -> Seat:
    seat = access_roster(db, actor, team_id)
    if not (seat.leads if lead else seat.manages):
        raise Forbidden(ONLY_CAPTAIN_ROLES if lead else MANAGE)
    return seat


def count(db: Session, team_id: int) -> int:
    """How many people are on the team now."""
    return int(db.exec(
        select(func.count()).select_from(TeamMember).where(TeamMember.team_id == team_id, col(TeamMember.left_at).is_(None))
    ).one())  # fmt: skip


def full_message(db: Session, team: Team, league: League) -> str:
    """Why the team can take nobody more ('' when it can)."""
    assert team.id is not None
    most = leagues.roster_size(league)[1]
    if count(db, team.id) >= most:
        return ROSTER_FULL.format(team=team.team_name, most=most, league=leagues.display_name(league))
    return ""


def check_can_join(db: Session, team: Team, league: League, user: User) -> None:
    """Raise Invalid when ``user`` may not join ``team`` now: withdrawn team, already on it, full roster, or on as
    many of the league's teams as one player may be."""
    assert team.id is not None and user.id is not None
    name = mail.full_name(user) or user.username
    if team.withdrawn_at is not None:
        raise Invalid(WITHDRAWN)
    if is_member(db, team.id, user.id):
        raise Invalid(ALREADY_MEMBER.format(name=name, team=team.team_name))
    if why := full_message(db, team, league):
        raise Invalid(why)
    on = int(db.exec(
        select(func.count()).select_from(TeamMember).join(Team, col(Team.id) == TeamMember.team_id)
        .where(TeamMember.user_id == user.id, col(TeamMember.left_at).is_(None), Team.league_id == league.id,
               col(Team.withdrawn_at).is_(None))
    ).one())  # fmt: skip
    if on >= max(1, league.teams_per_player):
        raise Invalid(TOO_MANY_TEAMS.format(name=name, count=on, league=leagues.display_name(league)))


def add_member(db: Session, team: Team, league: League, user: User, *, by: Actor | None) -> TeamMember:
    """Put ``user`` on the team as a player once :func:`check_can_join` allows it; audited, the team told."""
    check_can_join(db, team, league, user)
    assert team.id is not None and user.id is not None
    member = TeamMember(team_id=team.id, user_id=user.id, role=MemberRole.PLAYER)
    db.add(member)
    db.flush()
    name = mail.full_name(user) or user.username
    audit.record(db, by, action="join", entity="team_member", entity_id=member.id, league_id=league.id,
                 subject_user_id=user.id, summary=f"{name} joined {team.team_name}",
                 after={"team_id": team.id, "role": member.role.value})  # fmt: skip
    tell_team(db, team, f"{name} joined the team", skip=user.id)
    shares.joined(db, team, league, user)
    return member


def add_captain(db: Session, team: Team) -> None:
    """A new team's captain becomes its first member (every place that makes a team calls this)."""
    if team.captain_id is None or team.id is None or is_member(db, team.id, team.captain_id):
        return
    db.add(TeamMember(team_id=team.id, user_id=team.captain_id, role=MemberRole.CAPTAIN))
    db.flush()


def tell_team(db: Session, team: Team, change: str, *, skip: int | None = None,
              also: User | None = None) -> None:  # fmt: skip
    """Email every current member (but ``skip``), and ``also`` (a member who just left), that the roster changed."""
    found = db.exec(
        select(User).join(TeamMember, col(TeamMember.user_id) == User.id)
        .where(TeamMember.team_id == team.id, col(TeamMember.left_at).is_(None), col(User.archived_at).is_(None))
    ).all()  # fmt: skip
    people = [u for u in found if u.id != skip]
    if also is not None and also.id != skip and all(u.id != also.id for u in people):
        people.append(also)
    assert team.id is not None
    page = routes.absolute(routes.team_path(team.id))
    for user in people:
        mail.tell(db, user, "roster_changed", {"team": team.team_name, "change": change, "page": page})


# --- the roster as shown -------------------------------------------------------------------------------------


class MemberRow(TypedDict):
    """One member as the roster shows them, and what the reader may do to them."""

    user_id: int
    name: str
    username: str
    role: str
    gender: str
    position: str
    joined: str
    can_remove: bool
    can_make_co_captain: bool
    can_make_player: bool
    can_make_captain: bool
    # Regular-season games played against the league's playoff minimum ("" when it sets none).
    playoff: str
    playoff_eligible: bool


class InvitationRow(TypedDict):
    """A pending invitation as the roster shows it."""

    id: int
    email: str
    username: str
    invited_by: str
    sent: str
    expires: str


class Roster(TypedDict):
    """A team's roster for a reader: its members, pending invitations, the league's rules and the reader's part."""

    team_id: int
    team_name: str
    league_id: int
    league_name: str
    members: list[MemberRow]
    invitations: list[InvitationRow]
    size: str
    smallest: int
    largest: int
    count: int
    full: bool
    women_needed: int
    women: int
    gender_note: str
    my_role: str
    can_manage: bool
    can_lead: bool
    can_leave: bool


def _position(user: User) -> str:
    """What the player rates themselves best at (hitter, passer, setter), '' when unrated."""
    rated = [(r.value, label) for r, label in ((user.hitter_skill_level, "Hitter"), (user.passer_skill_level, "Passer"),
                                               (user.setter_skill_level, "Setter")) if r is not None]  # fmt: skip
    return ", ".join(label for _v, label in rated)


def gender_note(league: League, women: int) -> str:
    """Whether the roster can meet the league's women-on-court rule ('' when the league has none)."""
    need = league.women_on_court or 0
    if need <= 0:
        return ""
    if women >= need:
        return f"Meets the league's rule: at least {need} women on court ({women} on the roster)"
    return f"Short of the league's rule: at least {need} women on court, {women} on the roster"


_ORDER = {MemberRole.CAPTAIN: 0, MemberRole.CO_CAPTAIN: 1, MemberRole.PLAYER: 2}


def _pending_rows(db: Session, team_id: int, zone: str | None) -> list[InvitationRow]:
    inviter = sa.orm.aliased(User)
    invited = sa.orm.aliased(User)
    found = db.exec(
        select(TeamInvitation, inviter.username, invited.username)
        .outerjoin(inviter, col(inviter.id) == TeamInvitation.invited_by_id)
        .outerjoin(invited, col(invited.id) == TeamInvitation.user_id)
        .where(TeamInvitation.team_id == team_id, TeamInvitation.status == InvitationStatus.PENDING)
        .order_by(col(TeamInvitation.created_at).desc(), col(TeamInvitation.id).desc()).limit(50)
    ).all()  # fmt: skip
    return [{"id": inv.id or 0, "email": inv.email, "username": username or "", "invited_by": by or "",
             "sent": timefmt.day(inv.created_at, zone), "expires": timefmt.day(inv.expires_at, zone)}
            for inv, by, username in found]  # fmt: skip


class PlayoffFields(TypedDict):
    playoff: str
    playoff_eligible: bool


def _playoff(standing: playoff_eligibility.Standing | None) -> PlayoffFields:
    """A member's playoff standing in words, and whether they may play ("" and True without a minimum)."""
    if standing is None:
        return {"playoff": "", "playoff_eligible": True}
    return {"playoff": standing.reason, "playoff_eligible": standing.eligible}


def _shown(db: Session, seat: Seat) -> Roster:
    team, league = seat.team, seat.league
    assert team.id is not None and league.id is not None
    zone = leagues.zone(db, league)
    found = db.exec(
        select(TeamMember, User).join(User, col(User.id) == TeamMember.user_id)
        .where(TeamMember.team_id == team.id, col(TeamMember.left_at).is_(None))
        .order_by(col(TeamMember.joined_at), col(TeamMember.id))
    ).all()  # fmt: skip
    found = sorted(found, key=lambda mu: _ORDER.get(mu[0].role, 3))
    me = seat.actor.user_id
    open_team = team.withdrawn_at is None
    members: list[MemberRow] = []
    played = playoff_eligibility.standings(db, league, [team.id])
    for m, u in found:
        captain = m.role == MemberRole.CAPTAIN
        removable = open_team and not captain and m.user_id != me and (
            seat.leads or (seat.manages and m.role == MemberRole.PLAYER))  # fmt: skip
        members.append({
            "user_id": m.user_id, "name": mail.full_name(u) or u.username, "username": u.username,
            "role": m.role.value, "gender": u.gender.value if u.gender else "", "position": _position(u),
            "joined": timefmt.day(m.joined_at, zone), "can_remove": removable,
            "can_make_co_captain": seat.leads and m.role == MemberRole.PLAYER,
            "can_make_player": seat.leads and m.role == MemberRole.CO_CAPTAIN,
            "can_make_captain": seat.leads and open_team and not captain,
            **_playoff(playoff_eligibility.standing_of(played, league, team.id, m.user_id)),
        })  # fmt: skip
    smallest, largest = leagues.roster_size(league)
    women = sum(1 for _m, u in found if u.gender == Gender.FEMALE)
    return {
        "team_id": team.id, "team_name": team.team_name, "league_id": league.id,
        "league_name": leagues.display_name(league), "members": members,
        "invitations": _pending_rows(db, team.id, zone) if seat.manages else [],
        "size": f"{len(found)} of {smallest}–{largest} players", "smallest": smallest, "largest": largest,
        "count": len(found), "full": len(found) >= largest, "women_needed": league.women_on_court or 0,
        "women": women, "gender_note": gender_note(league, women),
        "my_role": seat.role.value if seat.role else "", "can_manage": seat.manages and open_team,
        "can_lead": seat.leads, "can_leave": seat.member is not None and seat.role != MemberRole.CAPTAIN,
    }  # fmt: skip


def roster(db: Session, actor: Actor | None, team_id: object) -> Roster:
    """The team's roster for a member, the league's operator or an admin."""
    return _shown(db, access_roster(db, actor, team_id))


def team_shares(db: Session, actor: Actor | None, team_id: object) -> shares.TeamShares:
    """Who paid what of a shared fee, for a member, the league's operator or an admin; the captain, co-captains and
    the operator see every member's pay link, a member only their own."""
    seat = access_roster(db, actor, team_id)
    return shares.team_shares(db, seat.actor, seat.team, seat.league, leads=seat.manages)


def send_share_links(db: Session, actor: Actor | None, team_id: object) -> int:
    """Email each member who owes a share their pay link (the captain, a co-captain or the league's operator)."""
    seat = _managed(db, actor, team_id)
    if seat.team.withdrawn_at is not None:
        raise Invalid(WITHDRAWN)
    return shares.send_links(db, seat.actor, seat.team, seat.league)


# --- changes ------------------------------------------------------------------------------------------------


def _target(db: Session, seat: Seat, user_id: object) -> tuple[TeamMember, User]:
    assert seat.team.id is not None
    uid = record_id(user_id, NOT_ON_TEAM)
    member = current(db, seat.team.id, uid)
    user = db.get(User, uid)
    if member is None or user is None:
        raise NotFound(NOT_ON_TEAM)
    return member, user


def _end(db: Session, member: TeamMember, by: Actor) -> None:
    """End a membership (the row stays, with when and by whom); of two at once one ends it."""
    ended = db.connection().execute(
        sa.update(TeamMember).where(col(TeamMember.id) == member.id, col(TeamMember.left_at).is_(None))
        .values(left_at=utcnow(), ended_by_id=by.user_id)
    ).rowcount  # fmt: skip
    if ended != 1:
        raise Invalid(NOT_ON_TEAM)
    db.refresh(member)


def leave(db: Session, actor: Actor | None, team_id: object) -> str:
    """The acting member leaves the team (the captain hands over first); returns the team's name."""
    seat = access_roster(db, actor, team_id)
    if seat.member is None:
        raise Forbidden("You are not on this team")
    if seat.member.role == MemberRole.CAPTAIN or seat.team.captain_id == seat.actor.user_id:
        raise Invalid(CAPTAIN_LEAVES)
    _end(db, seat.member, seat.actor)
    who = seat.actor.first_name or seat.actor.username
    audit.record(db, seat.actor, action="leave", entity="team_member", entity_id=seat.member.id,
                 league_id=seat.league.id, subject_user_id=seat.actor.user_id,
                 summary=f"{seat.actor.username} left {seat.team.team_name}",
                 before={"team_id": seat.team.id, "role": seat.member.role.value})  # fmt: skip
    tell_team(db, seat.team, f"{who} left the team")
    shares.left(db, seat.team, seat.league, load(db, User, seat.actor.user_id), seat.actor)
    return seat.team.team_name


def remove_member(db: Session, actor: Actor | None, team_id: object, user_id: object) -> str:
    """Take a member off the roster (the captain, a co-captain for players, the league's operator); returns their
    name. The member and the team are told."""
    seat = _managed(db, actor, team_id)
    if seat.team.withdrawn_at is not None:
        raise Invalid(WITHDRAWN)
    member, user = _target(db, seat, user_id)
    if member.role == MemberRole.CAPTAIN or seat.team.captain_id == member.user_id:
        raise Invalid(CAPTAIN_REMOVED)
    if member.user_id == seat.actor.user_id:
        raise Invalid(SELF_REMOVED)
    if not seat.leads and member.role != MemberRole.PLAYER:
        raise Forbidden(CO_CAPTAIN_ONLY_PLAYERS)
    _end(db, member, seat.actor)
    name = mail.full_name(user) or user.username
    audit.record(db, seat.actor, action="remove", entity="team_member", entity_id=member.id,
                 league_id=seat.league.id, subject_user_id=user.id,
                 summary=f"{name} removed from {seat.team.team_name}",
                 before={"team_id": seat.team.id, "role": member.role.value})  # fmt: skip
    tell_team(db, seat.team, f"{name} was taken off the roster", also=user)
    shares.left(db, seat.team, seat.league, user, seat.actor)
    return name


def set_role(db: Session, actor: Actor | None, team_id: object, user_id: object, role: object) -> str:
    """The captain (or the league's operator) makes a member co-captain or player, or hands them the captaincy
    (``Team.captain_id`` and both members' roles change together; the old captain becomes a player).
    Returns the member's name."""
    seat = _managed(db, actor, team_id, lead=True)
    try:
        wanted = MemberRole(str(role))
    except ValueError:
        raise Invalid({"role": BAD_ROLE}) from None
    member, user = _target(db, seat, user_id)
    name = mail.full_name(user) or user.username
    before = member.role
    if wanted == before:
        if wanted == MemberRole.CAPTAIN:
            raise Invalid(ALREADY_CAPTAIN.format(name=name))
        return name
    if before == MemberRole.CAPTAIN:
        raise Invalid(HAND_OVER)
    team = seat.team
    if wanted == MemberRole.CAPTAIN:
        if team.withdrawn_at is not None:
            raise Invalid(WITHDRAWN)
        assert team.id is not None
        old_id = team.captain_id
        old = current(db, team.id, old_id) if old_id is not None else None
        if old is not None:
            old.role = MemberRole.PLAYER
            db.add(old)
        team.captain_id = user.id
        db.add(team)
        change = f"{name} is now the captain"
    else:
        change = f"{name} is now {'a co-captain' if wanted == MemberRole.CO_CAPTAIN else 'a player'}"
    member.role = wanted
    db.add(member)
    db.flush()
    audit.record(db, seat.actor, action="role", entity="team_member", entity_id=member.id, league_id=seat.league.id,
                 subject_user_id=user.id, summary=f"{team.team_name}: {change}",
                 before={"role": before.value}, after={"role": wanted.value})  # fmt: skip
    tell_team(db, team, change)
    return name


# --- a league's rosters, for its operator --------------------------------------------------------------------


class LeagueRosterRow(TypedDict):
    """One member of one of the league's teams."""

    team_id: int
    team_name: str
    user_id: int
    name: str
    username: str
    email: str
    role: str
    gender: str
    joined: str
    playoff: str
    playoff_eligible: bool


ROSTER_FILTERS = ("q",)


def _league_query(league_id: int, text: str) -> Any:  # a select of (member, team, user)
    query = (
        select(TeamMember, Team, User)
        .join(Team, col(Team.id) == TeamMember.team_id)
        .join(User, col(User.id) == TeamMember.user_id)
        .where(Team.league_id == league_id, col(TeamMember.left_at).is_(None))
    )
    if text:
        query = query.where(paging.contains(text, col(Team.team_name), col(User.username), col(User.first_name),
                                            col(User.last_name), col(User.first_name) + " " + col(User.last_name)))  # fmt: skip
    return query


def _league_rows(db: Session, league: League, found: list[Any], zone: str | None) -> list[LeagueRosterRow]:
    """The rows of the (member, team, user) ``found``, with their playoff standing read in one query."""
    played = playoff_eligibility.standings(db, league, {t.id for _m, t, _u in found})
    return [{"team_id": t.id, "team_name": t.team_name, "user_id": m.user_id, "name": mail.full_name(u) or u.username,
             "username": u.username, "email": u.email, "role": m.role.value,
             "gender": u.gender.value if u.gender else "", "joined": timefmt.day(m.joined_at, zone),
             **_playoff(playoff_eligibility.standing_of(played, league, t.id, m.user_id))}
            for m, t, u in found]  # fmt: skip


def league_rosters(
    db: Session,
    actor: Actor | None,
    *,
    league_id: object,
    filters: dict[str, Any] | None = None,
    bookmark: object = "",
    size: object = paging.PAGE_SIZE,
) -> paging.Page:
    """One page of every member of the league's teams (its SVL or an admin), by team then joining order.

    ``filters``: ``q``, a team's name or a member's name or username.
    """
    league = leagues.access_league(db, actor, league_id, manage=True)
    assert league.id is not None
    f = filters if isinstance(filters, dict) else {}
    zone = leagues.zone(db, league)
    query = _league_query(league.id, paging.search_text(f.get("q"))).order_by(col(Team.id), col(TeamMember.id))

    def project(found: list[Any]) -> list[LeagueRosterRow]:
        return _league_rows(db, league, found, zone)

    return paging.keyset(db, query, kinds=(int, int), project=project, bookmark=bookmark,
                         size=paging.page_size(size))  # fmt: skip


def league_roster_rows(db: Session, league: League) -> list[LeagueRosterRow]:
    """Every current member of the league's teams (the rosters export: the caller checked the operator)."""
    assert league.id is not None
    zone = leagues.zone(db, league)
    found = db.exec(_league_query(league.id, "").order_by(col(Team.team_name), col(Team.id), col(TeamMember.id))).all()
    return _league_rows(db, league, list(found), zone)


def teams_of(db: Session, user_id: int) -> list[int]:
    """The teams the user is on now."""
    return list(db.exec(
        select(TeamMember.team_id).where(TeamMember.user_id == user_id, col(TeamMember.left_at).is_(None))
    ).all())  # fmt: skip
