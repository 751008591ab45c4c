"""League sessions (the spec's "Session"): status over time and who sees which."""

from __future__ import annotations

import datetime as dt
from typing import TypedDict

import sqlalchemy as sa
from sqlalchemy.orm import Mapped
from sqlmodel import Session, col, select

from volley_app.models import League, LeagueSession, Payment, Role, SessionStatus, Team, User, utcnow
from volley_app.services.accounts import venues
from volley_app.services.core import audit, clock, paging, timefmt, validation
from volley_app.services.core.actors import Actor, load, require_admin, require_role
from volley_app.services.core.errors import Forbidden, Invalid, NotFound, UnknownRecord
from volley_app.services.seasons.league_data import (
    archive_notes,
    delete_children,
    display_name,
    paid_teams,
    played_games,
    tell_captains_archived,
)

SESSION_FIELDS = ("name", "start_at", "end_at", "svl_id")


def status_at(session: LeagueSession, now: dt.datetime) -> SessionStatus:
    """Spec section 4, from the dates each time: past the end Inactive, else past the start Active,
    else Registration. Moving the dates moves Registration and Active back as well as forward; a session
    saved as Inactive stays Inactive whatever its dates become (the spec: Inactive is never changed again)."""
    if session.status == SessionStatus.INACTIVE or now > session.end_at:
        return SessionStatus.INACTIVE
    if now > session.start_at:
        return SessionStatus.ACTIVE
    return SessionStatus.REGISTRATION


def current() -> sa.ColumnElement[bool]:
    """Sessions that are not Inactive and not archived: not past their end, and not saved as Inactive."""
    return sa.and_(
        col(LeagueSession.end_at) >= utcnow(), col(LeagueSession.status) != SessionStatus.INACTIVE,
        col(LeagueSession.archived_at).is_(None),
    )  # fmt: skip


def save_reached_statuses(db: Session, now: dt.datetime | None = None) -> None:
    """Save the status each session not Inactive has reached by ``now`` (the periodic sweep: reads compute the
    status with :func:`status_at` and write nothing)."""
    found = db.exec(select(LeagueSession).where(LeagueSession.status != SessionStatus.INACTIVE,
                                                col(LeagueSession.archived_at).is_(None))).all()  # fmt: skip
    clock.save_reached(db, found, "status", status_at, now)


class SvlHomeSession(TypedDict):
    """A session of the SVL home list."""

    id: int
    name: str
    status: str
    start_at: dt.datetime
    end_at: dt.datetime
    svl_name: str
    zone: str


def svl_home(db: Session, actor: Actor | None) -> list[SvlHomeSession]:
    """The acting SVL's own sessions in Registration or Active, by start (the SVL home list)."""
    actor = require_role(actor, Role.SVL)
    rows = db.exec(
        select(LeagueSession)
        .where(LeagueSession.svl_id == actor.user_id, current())
        .order_by(col(LeagueSession.start_at), col(LeagueSession.id))
    ).all()
    now = utcnow()
    svl = db.get(User, actor.user_id)
    return [
        {
            "id": s.id,
            "name": s.name,
            "status": status_at(s, now).value,
            "start_at": s.start_at,
            "end_at": s.end_at,
            "svl_name": svl.first_name if svl else "",
            "zone": svl.time_zone if svl else timefmt.default_name(),
        }
        for s in rows
        if s.id is not None and status_at(s, now) in (SessionStatus.REGISTRATION, SessionStatus.ACTIVE)
    ]


# --- managing sessions (SVL and admin) ---------------------------------------------


class SessionRow(TypedDict):
    """A session as a page shows it."""

    id: int
    name: str
    status: str
    start_at: dt.datetime
    end_at: dt.datetime
    svl_id: int
    svl_name: str
    zone: str


class SessionDetail(SessionRow):
    """One session its SVL or an admin manages, with its leagues."""

    league_ids: list[int]
    archived: bool
    delete_question: str


def to_dict(
    db: Session, s: LeagueSession, svl_names: dict[int, str] | None = None, zones: dict[int, str] | None = None,
    now: dt.datetime | None = None,
) -> SessionRow:
    """A session as a page shows it (every field is fit for an SVL or admin who may see it), its status as of
    ``now``; ``zone`` is its venue's time zone (lists pass ``zones``, read once)."""
    assert s.id is not None  # a stored session
    names = svl_names if svl_names is not None else venues.svl_names(db, [s.svl_id])
    zones = zones if zones is not None else venues.zones(db, [s.svl_id])
    return {
        "id": s.id,
        "name": s.name,
        "status": status_at(s, now or utcnow()).value,
        "start_at": s.start_at,
        "end_at": s.end_at,
        "svl_id": s.svl_id,
        "svl_name": names.get(s.svl_id, ""),
        "zone": zones.get(s.svl_id) or timefmt.default_name(),
    }


def _check_fields(
    name: object, start: object, end: object, zone: str | None = None
) -> tuple[str, dt.datetime, dt.datetime]:
    """The name and the dates, entered on the wall clock of the venue's ``zone``."""
    clean = validation.collect(
        name=(validation.name, name, "name", "Name", 120),
        start=(timefmt.parse_local, start, "start", "Start", zone),
        end=(timefmt.parse_local, end, "end", "End", zone),
    )
    if clean["end"] <= clean["start"]:
        raise Invalid({"end": "End must be later than start"})
    return clean["name"], clean["start"], clean["end"]


def _resolve_svl(db: Session, actor: Actor, svl_id: object) -> int:
    """The SVL a session belongs to: the acting SVL itself, or the one an admin chose."""
    if actor.is_admin and svl_id not in (None, "", 0, "0"):
        try:
            chosen = load(db, User, svl_id)
        except NotFound:
            raise UnknownRecord({"svl": "Choose an SVL"}) from None
        if Role.SVL.value not in chosen.roles:
            raise UnknownRecord({"svl": "Choose an SVL"})
        assert chosen.id is not None  # a stored user
        return chosen.id
    if actor.is_svl:
        return actor.user_id
    raise Invalid({"svl": "Choose an SVL"})


class SvlChoice(TypedDict):
    """An SVL an admin may create a session for."""

    id: int
    name: str


class NewSessionForm(TypedDict):
    """What the new-session form offers: whether an admin chooses the SVL, and the SVLs to choose from."""

    choose_svl: bool
    svls: list[SvlChoice]


def svl_choices(db: Session, actor: Actor | None) -> list[SvlChoice]:
    """Every SVL account (id and name): the venues an admin may create a session for."""
    require_role(actor, Role.SVL, Role.ADMIN)
    found = db.exec(select(User).where(col(User.active).is_(True)).order_by(col(User.first_name), col(User.id))).all()
    return [{"id": u.id, "name": f"{u.first_name} {u.last_name}".strip()}
            for u in found if u.id is not None and Role.SVL.value in u.roles]  # fmt: skip


def new_session_form(db: Session, actor: Actor | None) -> NewSessionForm:
    """What the new-session form offers: an admin chooses the SVL (``svls``), an SVL creates for itself."""
    actor = require_role(actor, Role.SVL, Role.ADMIN)
    return {"choose_svl": actor.is_admin, "svls": svl_choices(db, actor) if actor.is_admin else []}


def create_session(
    db: Session, actor: Actor | None, *, name: object, start: object, end: object, svl_id: object = None
) -> LeagueSession:
    """A new session in Registration, owned by the acting SVL (or the SVL an admin chose)."""
    actor = require_role(actor, Role.SVL, Role.ADMIN)
    try:
        owner = _resolve_svl(db, actor, svl_id)
    except Invalid as exc:  # every message at once: the fields' too
        try:
            _check_fields(name, start, end)
        except Invalid as more:
            raise Invalid({**more.errors, **exc.errors}) from None
        raise
    clean_name, start_at, end_at = _check_fields(name, start, end, venues.zone(db, owner))
    row = LeagueSession(
        svl_id=owner, name=clean_name, start_at=start_at, end_at=end_at,
        status=SessionStatus.REGISTRATION, created_by_id=actor.user_id,
    )  # fmt: skip
    db.add(row)
    db.flush()
    audit.record(
        db, actor, action="create", entity="session", entity_id=row.id, subject_user_id=owner,
        summary=f"Session {row.name} created", after=audit.snapshot(row, SESSION_FIELDS),
    )  # fmt: skip
    return row


def list_sessions(db: Session, actor: Actor | None, now: dt.datetime | None = None) -> list[SessionRow]:
    """SVLs: their own sessions that are not Inactive. Admins: every session not archived. Statuses as of ``now``."""
    actor = require_role(actor, Role.SVL, Role.ADMIN)
    stmt = select(LeagueSession).where(col(LeagueSession.archived_at).is_(None)).order_by(col(LeagueSession.start_at), col(LeagueSession.id))
    if not actor.is_admin:
        stmt = stmt.where(LeagueSession.svl_id == actor.user_id, current())
    found = db.exec(stmt).all()
    now = now or utcnow()
    if not actor.is_admin:
        found = [s for s in found if status_at(s, now) != SessionStatus.INACTIVE]
    names = venues.svl_names(db, [s.svl_id for s in found])
    zones = venues.zones(db, [s.svl_id for s in found])
    return [to_dict(db, s, names, zones, now) for s in found]


# The filters of the sessions list: free text (the session's name or its venue's).
SESSION_FILTERS = ("q",)


def sessions_page(
    db: Session,
    actor: Actor | None,
    *,
    filters: dict | None = None,
    bookmark: object = "",
    size: object = paging.PAGE_SIZE,
    now: dt.datetime | None = None,
) -> paging.Page:
    """One page of the sessions ``list_sessions`` picks for the actor, by start, with the statuses as of ``now``.

    ``filters``: ``q``, the session's name or its venue's (the SVL's first or last name).
    """
    actor = require_role(actor, Role.SVL, Role.ADMIN)
    f = filters if isinstance(filters, dict) else {}
    where: list[sa.ColumnElement[bool]] = [col(LeagueSession.archived_at).is_(None)]
    if not actor.is_admin:
        where += [col(LeagueSession.svl_id) == actor.user_id, col(LeagueSession.end_at) >= (now or utcnow())]
    query = select(LeagueSession)
    if text := paging.search_text(f.get("q")):
        first, last = col(User.first_name), col(User.last_name)
        query = query.join(User, col(User.id) == LeagueSession.svl_id)
        where.append(paging.contains(text, col(LeagueSession.name), first, last, first + " " + last))
    query = query.where(*where).order_by(col(LeagueSession.start_at), col(LeagueSession.id))

    def project(found: list) -> list[SessionRow]:
        shown = [r[0] for r in found]
        names = venues.svl_names(db, [s.svl_id for s in shown])
        zones = venues.zones(db, [s.svl_id for s in shown])
        return [to_dict(db, s, names, zones, now) for s in shown]

    return paging.keyset(
        db, query, kinds=(dt.datetime, int), project=project, bookmark=bookmark, size=paging.page_size(size)
    )


def managed(db: Session, actor: Actor | None, session_id: object) -> tuple[Actor, LeagueSession]:
    """The session when the actor may manage it (its SVL or an admin); else NotFound / Forbidden."""
    row = access_session(db, actor, session_id)
    return require_role(actor, Role.SVL, Role.ADMIN), row


def get_session(db: Session, actor: Actor | None, session_id: object, now: dt.datetime | None = None) -> SessionDetail:
    """One session its SVL or an admin manages (its status as of ``now``), with its leagues."""
    _actor, row = managed(db, actor, session_id)
    leagues = db.exec(
        select(League).where(League.session_id == row.id, col(League.archived_at).is_(None))
        .order_by(col(League.start_at), col(League.id))
    ).all()  # fmt: skip
    return {
        **to_dict(db, row, now=now),
        "league_ids": [lg.id for lg in leagues if lg.id is not None],
        "archived": row.archived_at is not None,
        "delete_question": removal_question(db, row),
    }


def update_session(
    db: Session, actor: Actor | None, session_id: object, *, name: object, start: object, end: object
) -> LeagueSession:
    """Change a session's name and dates (owner SVL or admin). The status follows the dates, both ways, except
    that an Inactive session stays Inactive."""
    _actor, row = changeable(db, actor, session_id)
    before = audit.snapshot(row, SESSION_FIELDS)
    row.name, row.start_at, row.end_at = _check_fields(name, start, end, venues.zone(db, row.svl_id))
    row.status = status_at(row, utcnow())
    audit.save_change(db, actor, entity="session", row=row, before=before, fields=SESSION_FIELDS,
                      summary=f"Session {row.name} changed", subject_user_id=row.svl_id)  # fmt: skip
    return row


ARCHIVED = "This session is archived. An admin can restore it first."


def changeable(db: Session, actor: Actor | None, session_id: object) -> tuple[Actor, LeagueSession]:
    """A session its SVL or an admin may change: managed, and not archived."""
    actor, row = managed(db, actor, session_id)
    if row.archived_at is not None:
        raise Invalid(ARCHIVED)
    return actor, row


def _held(db: Session, session_row: LeagueSession) -> dict[str, int]:
    """What the session's leagues hold that history needs: teams, played games, payments."""
    ids = [i for i in db.exec(select(League.id).where(League.session_id == session_row.id)).all() if i is not None]
    if not ids:
        return {"leagues": 0, "teams": 0, "played_games": 0, "payments": 0}
    def count(model: type[Team] | type[Payment], league_column: Mapped[int]) -> int:
        return db.exec(select(sa.func.count()).select_from(model).where(league_column.in_(ids))).one()

    return {
        "leagues": len(ids),
        "teams": count(Team, col(Team.league_id)),
        "played_games": sum(played_games(db, i) for i in ids),
        "payments": count(Payment, col(Payment.league_id)),
    }


def _keeps_history(held: dict[str, int]) -> bool:
    return any(held[k] for k in ("teams", "played_games", "payments"))


def removal_question(db: Session, session_row: LeagueSession) -> str:
    """The delete confirmation: what will be archived, or that the session (and its empty leagues) goes."""
    held = _held(db, session_row)
    if not _keeps_history(held):
        return f"Are you sure you want to delete Session: {session_row.name}? Its leagues have no teams or payments."
    question = (
        f"Session: {session_row.name} has {held['leagues']} league(s) with {held['teams']} team(s), "
        f"{held['played_games']} game(s) with results and {held['payments']} payment(s). It will be archived with "
        f"its leagues: hidden from every list, everything kept. An admin can restore it."
    )
    leagues = db.exec(
        select(League).where(League.session_id == session_row.id, col(League.archived_at).is_(None)).order_by(col(League.id))
    ).all()
    paid = [f"{display_name(lg)}: {'; '.join(names)}" for lg in leagues if lg.id and (names := paid_teams(db, lg.id))]
    return question + archive_notes(paid, held["teams"], separator=" / ")


def delete_session(db: Session, actor: Actor | None, session_id: object) -> str:
    """Remove a session (its SVL or an admin); returns its name.

    When any of its leagues holds teams, results or payments, the session and its leagues are
    archived (kept whole, restorable by an admin); otherwise it is deleted with its empty leagues.
    """
    actor, row = changeable(db, actor, session_id)
    name = row.name
    held = _held(db, row)
    if _keeps_history(held):
        now = utcnow()
        row.archived_at, row.archived_by_id = now, actor.user_id
        db.add(row)
        for league in db.exec(select(League).where(League.session_id == row.id, col(League.archived_at).is_(None))).all():
            league.archived_at, league.archived_by_id = now, actor.user_id
            db.add(league)
            tell_captains_archived(db, league)
        db.flush()
        audit.record(db, actor, action="archive", entity="session", entity_id=row.id, subject_user_id=row.svl_id,
                     summary=f"Session {name} archived with its leagues", after=held)  # fmt: skip
        return name
    for league in db.exec(select(League).where(League.session_id == row.id)).all():
        assert league.id is not None  # a stored league
        delete_children(db, league.id)
    db.delete(row)
    db.flush()
    audit.record(db, actor, action="delete", entity="session", entity_id=row.id, subject_user_id=row.svl_id,
                 summary=f"Session {name} deleted (no teams or payments)")  # fmt: skip
    return name


def restore_session(db: Session, actor: Actor | None, session_id: object) -> str:
    """Bring an archived session back (admins only), with the leagues archived along with it."""
    actor = require_admin(actor)
    _actor, row = managed(db, actor, session_id)
    if row.archived_at is None:
        raise Invalid("This session is not archived")
    for league in db.exec(
        select(League).where(League.session_id == row.id, League.archived_at == row.archived_at)
    ).all():
        league.archived_at, league.archived_by_id = None, None
        db.add(league)
    row.archived_at, row.archived_by_id = None, None
    db.add(row)
    db.flush()
    audit.record(db, actor, action="restore", entity="session", entity_id=row.id, subject_user_id=row.svl_id,
                 summary=f"Session {row.name} restored")  # fmt: skip
    return row.name


def current_session_ids(db: Session, svl_id: int, now: dt.datetime | None = None) -> list[int]:
    """The SVL's sessions that are current (Registration or Active as of ``now``): "their current session"."""
    found = db.exec(select(LeagueSession).where(LeagueSession.svl_id == svl_id, current())).all()
    now = now or utcnow()
    return [s.id for s in found if s.id is not None and status_at(s, now) != SessionStatus.INACTIVE]


# --- loading a league session by id ---------------------------------------------------------------

SESSION_NOT_FOUND = "This session no longer exists"


def access_session(db: Session, actor: Actor | None, session_id: object) -> LeagueSession:
    """The session when the actor manages it (its SVL or an admin); else Unauthorized / Forbidden / NotFound.

    An archived session exists only for admins (who may restore it).
    """
    actor = require_role(actor, Role.SVL, Role.ADMIN)
    row = load(db, LeagueSession, session_id, SESSION_NOT_FOUND)
    if not actor.is_admin and row.svl_id != actor.user_id:
        raise Forbidden()
    if row.archived_at is not None and not actor.is_admin:
        raise NotFound(SESSION_NOT_FOUND)
    return row
