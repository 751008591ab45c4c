"""Teams as operators manage them: lists, edits by role, withdrawing or deleting, the waitlist and Promote."""

from __future__ import annotations

import datetime as dt
from typing import Any, TypedDict

import sqlalchemy as sa
from sqlmodel import Session, col, select

from volley_app import routes
from volley_app.models import Game, GameType, League, Payment, Role, StandingAdjustment, Team, TeamMember, User, utcnow
from volley_app.services.accounts import venues
from volley_app.services.core import audit, paging, timefmt, validation
from volley_app.services.core.actors import Actor, load, record_id, require_actor, require_role
from volley_app.services.core.errors import Forbidden, Invalid, NotFound
from volley_app.services.mail import mail
from volley_app.services.money import refunds
from volley_app.services.seasons import leagues, playoffs, results, scheduling, scoring
from volley_app.services.teams import league_places, rosters, shares, waivers
from volley_app.services.teams.rosters import TEAM_NOT_FOUND

NAME_CLASH = "Another team in this league has that name"
HAS_HISTORY = "{name} has {what}, so it cannot be deleted. Withdraw it instead: its results and payments are kept."
ALREADY_WITHDRAWN = "This team has already withdrawn"
FORFEIT, REMOVE = "forfeit", "remove"
REMAINING_CHOICES = {FORFEIT: "Forfeit them (the opponents win)", REMOVE: "Remove them from the schedule"}


class TeamRow(TypedDict):
    """A team as lists show it."""

    id: int
    team_name: str
    league_id: int
    league_name: str
    captain: str
    wins: int
    losses: int
    adjustment: str
    paid: bool
    waitlist: bool
    withdrawn: bool
    can_promote: bool
    offered_until: str


class TeamDetail(TeamRow):
    """A team for its edit page: what the reader may do with it, and what ties it to the record."""

    can_manage: bool
    can_edit_name: bool
    history: str
    can_delete: bool


def _to_dict(t: Team, league_names: dict[int, str], captains: dict[int, str], managed: set[int],
             recs: dict[int, results.Record], offers: dict[int, dt.datetime] | None = None,
             zones: dict[int, str | None] | None = None) -> TeamRow:  # fmt: skip
    """A team as lists show it; an offer's deadline on the clock of its league's venue (``zones`` by league)."""
    assert t.id is not None  # a stored team
    rec = recs[t.id]
    offered = (offers or {}).get(t.id)
    return {
        "id": t.id,
        "team_name": t.team_name,
        "league_id": t.league_id,
        "league_name": league_names.get(t.league_id, ""),
        "captain": captains.get(t.captain_id, "") if t.captain_id is not None else "",
        "wins": rec.wins,
        "losses": rec.losses,
        "adjustment": rec.adjustment,
        "paid": t.paid,
        "waitlist": t.waitlist,
        "withdrawn": t.withdrawn_at is not None,
        "can_promote": t.waitlist and t.withdrawn_at is None and t.league_id in managed and offered is None,
        "offered_until": timefmt.date_time(offered, (zones or {}).get(t.league_id), labelled=True) if offered else "",
    }


def _dicts(db: Session, actor: Actor, found: list[Team]) -> list[TeamRow]:
    lids = {t.league_id for t in found}
    lgs = db.exec(select(League).where(col(League.id).in_(lids or {-1}))).all()
    names = {lg.id: leagues.display_name(lg) for lg in lgs if lg.id is not None}
    managed = {lg.id for lg in lgs if lg.id is not None and leagues.may_manage(actor, lg)}
    cids = {t.captain_id for t in found if t.captain_id}
    users = db.exec(select(User).where(col(User.id).in_(cids or {-1}))).all()
    captains = {u.id: u.username for u in users if u.id is not None}
    recs = results.records(db, [t.id for t in found if t.id is not None])
    offers = league_places.live_offers(db, [t.id for t in found if t.waitlist and t.id is not None])
    venue_zones = venues.zones(db, {lg.svl_id for lg in lgs})
    zones = {lg.id: venue_zones.get(lg.svl_id) for lg in lgs if lg.id is not None}
    return [_to_dict(t, names, captains, managed, recs, offers, zones) for t in found]


def list_teams(
    db: Session, actor: Actor | None, *, waitlist: bool | None = None, league_id: object = None
) -> list[TeamRow]:
    """Admins: every team; SVLs: the teams of their leagues; players: the teams they captain or are on.

    ``league_id`` (from the address, may be empty) keeps one league's teams. Each row says
    whether the actor may promote it off the waitlist (``can_promote``).
    """
    actor = require_actor(actor)
    stmt = (
        select(Team)
        .join(League, col(League.id) == Team.league_id)
        .where(col(League.archived_at).is_(None))
        .order_by(col(Team.league_id), col(Team.id))
    )
    if league_id not in (None, ""):
        try:
            stmt = stmt.where(Team.league_id == record_id(league_id))
        except NotFound:
            return []
    if not actor.is_admin:
        if actor.is_svl:
            stmt = stmt.where(League.svl_id == actor.user_id)
        else:
            stmt = stmt.where(_on_team(actor))
    if waitlist is not None:
        stmt = stmt.where(col(Team.waitlist).is_(waitlist))
    return _dicts(db, actor, list(db.exec(stmt).all()))


def _on_team(actor: Actor) -> sa.ColumnElement[bool]:
    """The teams the player captains or is on."""
    member = sa.exists().where(col(TeamMember.team_id) == Team.id, col(TeamMember.user_id) == actor.user_id,
                               col(TeamMember.left_at).is_(None))  # fmt: skip
    return sa.or_(col(Team.captain_id) == actor.user_id, member)


# The filters of the teams list and the waitlist: free text (the team's or its captain's name).
TEAM_FILTERS = ("q",)


def teams_page(
    db: Session,
    actor: Actor | None,
    *,
    waitlist: bool | None = None,
    league_id: object = None,
    filters: dict[str, Any] | None = None,
    bookmark: object = "",
    size: object = paging.PAGE_SIZE,
) -> paging.Page:
    """One page of the teams ``list_teams`` picks for the actor, by league then the order they joined.

    ``filters``: ``q``, the team's name or its captain's (username, first or last name).
    """
    actor = require_actor(actor)
    f = filters if isinstance(filters, dict) else {}
    where: list[sa.ColumnElement[bool]] = [col(League.archived_at).is_(None)]
    if league_id not in (None, ""):
        try:
            where.append(col(Team.league_id) == record_id(league_id))
        except NotFound:
            where.append(sa.false())
    if not actor.is_admin:
        where.append(col(League.svl_id) == actor.user_id if actor.is_svl else _on_team(actor))
    if waitlist is not None:
        where.append(col(Team.waitlist).is_(waitlist))
    query = select(Team).join(League, col(League.id) == Team.league_id)
    if text := paging.search_text(f.get("q")):
        query = query.outerjoin(User, col(User.id) == Team.captain_id)
        where.append(paging.contains(text, col(Team.team_name), col(User.username), col(User.first_name),
                                     col(User.last_name), col(User.first_name) + " " + col(User.last_name)))  # fmt: skip
    query = query.where(*where).order_by(col(Team.league_id), col(Team.id))

    def project(found: list[Any]) -> list[TeamRow]:
        return _dicts(db, actor, [r[0] for r in found])

    return paging.keyset(db, query, kinds=(int, int), project=project, bookmark=bookmark,
                         size=paging.page_size(size))  # fmt: skip


def get_team(db: Session, actor: Actor | None, team_id: object) -> TeamDetail:
    """A team for its page: the league's SVL, an admin, or its captain and members (read only)."""
    actor = require_actor(actor)
    team = access_team(db, actor, team_id, manage=False)
    can_manage = manages_team(db, actor, team) and team.withdrawn_at is None
    what = history(db, team)
    return {**_dicts(db, actor, [team])[0], "can_manage": can_manage, "can_edit_name": actor.is_admin,
            "history": what, "can_delete": can_manage and not what}  # fmt: skip


class TeamScreen(TypedDict):
    """The team page: the team and its roster, read at once."""

    team: TeamDetail
    roster: rosters.Roster
    waiver: waivers.TeamWaiverSummary  # who of the members has not signed the league's current waiver
    standing: str  # "2nd of 6" once the league has played a game ("" before, or for a waitlisted team)
    shares: shares.TeamShares  # who paid what of a fee shared among the roster


def team_screen(db: Session, actor: Actor | None, team_id: object) -> TeamScreen:
    """The team page's one read: the team (as :func:`get_team`), its roster, who has not signed the league's
    waiver, its place in the standings and who paid a shared fee, for its members, the league's operator and admins."""
    team = get_team(db, actor, team_id)
    return {"team": team, "roster": rosters.roster(db, actor, team_id), "waiver": waivers.team_summary(db, team["id"]),
            "standing": _standing(db, team["id"], team["league_id"]),
            "shares": rosters.team_shares(db, actor, team_id)}  # fmt: skip


def _standing(db: Session, team_id: int, league_id: int) -> str:
    """The team's place in its league's standings, once a game has been played."""
    league = db.get(League, league_id)
    table = results.table(db, league) if league is not None else []
    if not any(row["played"] for row in table):
        return ""
    place = next((i for i, row in enumerate(table, 1) if row["id"] == team_id), None)
    return f"{timefmt.ordinal(place)} of {len(table)}" if place is not None else ""


def history(db: Session, team: Team) -> str:
    """What ties the team to the record ('' when nothing): a payment, played games, adjustments."""
    what: list[str] = []
    if db.exec(select(Payment.id).where(Payment.team_id == team.id)).first() is not None:
        what.append("a payment")
    games = db.exec(select(Game).where(_plays_in(team))).all()
    played = sum(1 for g in games if scoring.played(g))
    if played:
        what.append(f"{played} played game{'s' if played != 1 else ''}")
    if db.exec(select(StandingAdjustment.id).where(StandingAdjustment.team_id == team.id)).first() is not None:
        what.append("a record adjustment")
    return " and ".join(what)


TEAM_FIELDS = ("team_name", "paid")


def _plays_in(team: Team) -> sa.ColumnElement[bool]:
    """The games the team plays in, either side."""
    return sa.or_(col(Game.team1_id) == team.id, col(Game.team2_id) == team.id)


def _league(db: Session, team: Team) -> League:
    """The team's league (its key holds one)."""
    league = db.get(League, team.league_id)
    assert league is not None and league.id is not None
    return league


def update_team(db: Session, actor: Actor | None, team_id: object, **fields: object) -> Team:
    """SVL (of the league) and admin correct the record (an adjustment with a reason); only admins
    edit the name and paid. Every change is in the audit log."""
    actor = require_actor(actor)
    team = access_team(db, actor, team_id)
    if team.withdrawn_at is not None:
        raise Invalid(ALREADY_WITHDRAWN)
    before = audit.snapshot(team, TEAM_FIELDS)
    if actor.is_admin:
        name = validation.team_name(fields.get("team_name"))
        clash = db.exec(
            select(Team.id).where(Team.league_id == team.league_id, Team.team_name == name, col(Team.id) != team.id)
        ).first()
        if clash is not None:
            raise Invalid({"team_name": NAME_CLASH})
        team.team_name = name
        team.paid = validation.flag(fields.get("paid"))
        audit.save_change(
            db, actor, entity="team", row=team, before=before, fields=TEAM_FIELDS, league_id=team.league_id,
            summary=f"Team {team.team_name} changed",
        )  # fmt: skip
    results.correct(db, actor, team, wins=fields.get("wins"), losses=fields.get("losses"), reason=fields.get("reason"))
    return team


def delete_team(db: Session, actor: Actor | None, team_id: object) -> str:
    """Delete a team with no history (the league's SVL or an admin); returns its name.

    A team with a payment, played games or a record adjustment is refused: it is withdrawn instead.
    Its unplayed games go with it, and the unplayed weeks are drawn again.
    """
    team = access_team(db, actor, team_id)
    name = team.team_name
    what = history(db, team)
    if what:
        raise Invalid(HAS_HISTORY.format(name=name, what=what))
    league = _league(db, team)
    db.exec(sa.delete(Game).where(_plays_in(team)))
    db.delete(team)
    db.flush()
    scheduling.regenerate_unplayed(db, league, actor)
    audit.record(
        db, actor, action="delete", entity="team", entity_id=team.id, league_id=league.id,
        summary=f"Team {name} deleted from {leagues.display_name(league)}", before={"team_name": name},
    )  # fmt: skip
    return name


class Withdrawn(TypedDict):
    """A team taken out of its league, and the refund its league's policy proposes of its paid place."""

    team_name: str
    refund: str  # "Refund proposed per the policy: $X" ('' when nothing is proposed)
    refund_href: str  # the payment's page, where the operator decides the refund ('' without one)


def withdraw_team(db: Session, actor: Actor | None, team_id: object, *, remaining: object = FORFEIT) -> Withdrawn:
    """Take a team out of the league's play (the league's SVL or an admin).

    Its played games stay as they are. Its unplayed league games are forfeited (the opponents win) or
    removed, as the operator chose; the record of every team follows from the games either way. Its
    playoff game still to play is forfeited either way (``playoffs.withdraw_from_bracket``).
    The captain is told by email, with the refund the league's policy proposes of what they paid for the place
    (``refunds.withdrawal_proposal``); the operator decides it on the payment's page.
    """
    team = access_team(db, actor, team_id)
    if team.withdrawn_at is not None:
        raise Invalid(ALREADY_WITHDRAWN)
    choice = str(remaining or "").strip().lower()
    if choice not in REMAINING_CHOICES:
        raise Invalid({"remaining": "Choose what happens to the team's remaining games"})
    league = _league(db, team)
    assert team.id is not None  # a stored team
    in_bracket = playoffs.withdraw_from_bracket(db, team.id)  # a bracket game is forfeited, never removed
    games = scoring.unplayed_games(db, team.id, GameType.LEAGUE)
    changed = len(games)
    for game in games:
        if choice == REMOVE or game.team2_id is None:
            db.delete(game)
        else:
            game.forfeit_team_id = team.id
            db.add(game)
    team.withdrawn_at = utcnow()
    db.add(team)
    db.flush()
    if choice == REMOVE:
        scheduling.regenerate_unplayed(db, league, actor)  # the others' unplayed weeks drawn again without it
    proposed = refunds.withdrawal_proposal(db, league, team.id)
    audit.record(
        db, actor, action="withdraw", entity="team", entity_id=team.id, league_id=league.id,
        summary=(
            f"Team {team.team_name} withdrawn from {leagues.display_name(league)}; "
            f"{changed} remaining game{'s' if changed != 1 else ''} {'forfeited' if choice == FORFEIT else 'removed'}"
            + ("; its playoff game forfeited" if in_bracket else "")
            + (f"; refund proposed per the policy: {proposed['amount']}" if proposed else "")
        ),
        after={"remaining": choice, "games": changed, "playoff_games": in_bracket},
    )  # fmt: skip
    mail.tell(
        db, league_places.captain_of(db, team), "team_withdrawn",
        {"team": team.team_name, "league": leagues.display_name(league), "forfeited": choice == FORFEIT,
         "refund": proposed["amount"] if proposed else "", "page": routes.absolute(routes.league_path(team.league_id))},
    )  # fmt: skip
    return {"team_name": team.team_name, "refund": proposed["words"] if proposed else "",
            "refund_href": proposed["href"] if proposed else ""}


def promote(db: Session, actor: Actor | None, team_id: object) -> league_places.Offer:
    """Offer a waitlisted team a place (its league's SVL or an admin), when the league has one free.

    Nothing is marked paid: the captain is emailed a checkout link that holds the place for the
    league's hold window, and the team is in once paid (``services.teams.league_places``). Recorded in the audit log.
    """
    actor = require_actor(actor)
    team = access_team(db, actor, team_id)
    return league_places.promote(db, actor, team)


def team_record(db: Session, actor: Actor | None, team_id: object) -> results.Record:
    """One team's record for whoever may read the team."""
    return results.record_of(db, access_team(db, actor, team_id, manage=False))


# --- loading a team by id -------------------------------------------------------------------------



def manages_team(db: Session, actor: Actor, team: Team) -> bool:
    """True when the actor manages the team's league: an admin, or the league's own SVL."""
    if actor.is_admin:
        return True
    league = db.get(League, team.league_id)
    return league is not None and actor.is_svl and league.svl_id == actor.user_id


def access_team(db: Session, actor: Actor | None, team_id: object, *, manage: bool = True) -> Team:
    """The team when the actor manages its league (its SVL or an admin).

    With ``manage=False`` its captain and members may have it too (to read it). Else Unauthorized / Forbidden / NotFound.
    """
    actor = require_role(actor, Role.SVL, Role.ADMIN) if manage else require_actor(actor)
    team = load(db, Team, team_id, TEAM_NOT_FOUND)
    on_team = team.captain_id == actor.user_id or (team.id is not None and rosters.is_member(db, team.id, actor.user_id))
    if not (manages_team(db, actor, team) or (not manage and on_team)):
        raise Forbidden()
    league = db.get(League, team.league_id)
    if league is not None and league.archived_at is not None and not actor.is_admin:
        raise NotFound(TEAM_NOT_FOUND)
    return team
