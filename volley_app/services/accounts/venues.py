"""Venues: the SVL accounts that host leagues, by the names pages show."""

from __future__ import annotations

from collections.abc import Iterable

import sqlalchemy as sa
from sqlmodel import Session, col, select

from volley_app.models import Role, User, utcnow
from volley_app.services.core import timefmt


def svl_names(db: Session, ids: Iterable[int]) -> dict[int, str]:
    """Each SVL's full name by id (the venue name lists and league pages show)."""
    ids = set(ids)
    if not ids:
        return {}
    found = db.exec(select(User).where(col(User.id).in_(ids))).all()
    return {u.id: f"{u.first_name} {u.last_name}".strip() for u in found if u.id is not None}


def partner_venues(db: Session) -> list[dict]:
    """Every active SVL account with its address, by name (the players' list of partner venues)."""
    found = db.exec(select(User).where(col(User.active).is_(True)).order_by(col(User.first_name), col(User.id))).all()
    return [
        {"name": f"{u.first_name} {u.last_name}".strip(), "address": u.address or "", "city": u.city or "",
         "region": u.region.value if u.region else ""}
        for u in found
        if Role.SVL.value in u.roles
    ]  # fmt: skip


def zones(db: Session, ids: Iterable[int]) -> dict[int, str]:
    """Each venue's (SVL's) time zone name by id, in one query (a list's rows look theirs up here)."""
    ids = {i for i in ids if i is not None}
    if not ids:
        return {}
    found = db.exec(select(User.id, User.time_zone).where(col(User.id).in_(ids))).all()
    return {uid: zone for uid, zone in found if uid is not None}


def zone(db: Session, svl_id: int | None) -> str:
    """One venue's time zone name (the default zone when there is no such venue)."""
    found = zones(db, [svl_id]).get(svl_id) if svl_id is not None else None
    return found or timefmt.default_name()


def _storable(name: object) -> bool:
    """Whether ``name`` can be a venue's name at all (typed text, before its field is checked: no NUL, no lone
    surrogate, not over a name's length); anything else names no venue rather than reaching the database."""
    if not isinstance(name, str) or not name.strip() or len(name) > 200 or "\x00" in name:
        return False
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _first_names(name: str) -> set[str]:
    """What a venue's first name may be when ``name`` is its first name or its full name (first, a space, last):
    ``name`` itself and every part of it before a space."""
    return {name} | {name[:i].rstrip() for i, ch in enumerate(name) if ch == " " and name[:i].strip()}


def zones_by_name(db: Session, names: Iterable[str]) -> dict[str, str]:
    """The time zone of each venue named (a sub request's location is a venue's name, typed: its full
    name or its first name, any case), in one query. Keys are the names lower-cased and trimmed; a name
    no venue has is left out (the caller uses the default zone for it).

    The accounts are found by their lower-cased first name (``ix_users_lower_first_name``): the names
    asked for and each one's parts before a space; the full names are matched here.
    """
    wanted = {n.strip().casefold() for n in names if _storable(n)}
    if not wanted:
        return {}
    firsts = set().union(*(_first_names(w) for w in wanted))
    found = db.exec(
        select(User.first_name, User.last_name, User.time_zone, User.roles)
        .where(sa.func.lower(sa.literal_column("users.first_name")).in_(firsts), col(User.archived_at).is_(None))
        .order_by(col(User.id))
    ).all()
    out: dict[str, str] = {}
    for first, last, tz, roles in found:
        if Role.SVL.value not in roles:
            continue
        for key in (f"{first} {last}".strip().casefold(), first.strip().casefold()):
            if key in wanted:
                out.setdefault(key, tz)
    return out


def zone_by_name(db: Session, name: str) -> str:
    """The time zone of the venue a sub request names (the default zone when none has that name)."""
    key = name.strip().casefold() if isinstance(name, str) else ""
    return zones_by_name(db, [key]).get(key) or timefmt.default_name()


# At most this many venues outside the default zone are told to the sub request form (there are a handful).
MAX_HINTED_VENUES = 200


def _hint(zone: str) -> str:
    return f"Venue time: {timefmt.label(utcnow(), zone)} ({zone.replace('_', ' ')})"


def time_hints(db: Session) -> dict:
    """What a sub request's date and time are read in, by the location typed: ``default`` (the default zone's
    'Venue time: ET (America/New York)') and ``venues``, each venue outside the default zone by its full name and
    its first name, lower-cased ('windy city volleyball': 'Venue time: CT (America/Chicago)'). The form picks
    one as the location is typed, in the browser (``zones_by_name`` matches the same names on the server)."""
    default = timefmt.default_name()
    found = db.exec(
        select(User.first_name, User.last_name, User.time_zone, User.roles)
        .where(col(User.time_zone).is_not(None), User.time_zone != default, col(User.archived_at).is_(None))
        .order_by(col(User.id)).limit(MAX_HINTED_VENUES)
    ).all()  # fmt: skip
    hints: dict[str, str] = {}
    for first, last, tz, roles in found:
        if Role.SVL.value not in roles or not timefmt.known(tz):
            continue
        for key in (f"{first or ''} {last or ''}".strip().casefold(), (first or "").strip().casefold()):
            if key:
                hints.setdefault(key, _hint(tz))
    return {"default": _hint(default), "venues": hints}


TIME_ZONE_INVALID = "Choose a time zone from the list (an IANA name such as America/Chicago)"


def check_zone(value: object, field: str = "time_zone") -> str:
    """A time zone name the zone database knows, else Invalid with a message under the field."""
    from volley_app.services.core.errors import Invalid

    name = value.strip() if isinstance(value, str) else ""
    if not timefmt.known(name):
        raise Invalid({field: TIME_ZONE_INVALID})
    return name


def zone_choices(current: str = "") -> list[dict[str, str]]:
    """The time zones a venue picks from (label 'America/Chicago (CT)'), with ``current`` kept when not common."""
    now = utcnow()
    names = list(timefmt.COMMON_ZONES)
    if current and current not in names and timefmt.known(current):
        names.insert(0, current)
    return [{"value": n, "label": f"{n.replace('_', ' ')} ({timefmt.label(now, n)})"} for n in names]


ZONE_CONFIRM = "time_zone_confirm"
"""The key of the question asked before a venue's time zone changes while it has games or leagues to come."""


def zone_change_question(db: Session, svl_id: int, old: str, new: str) -> str:
    """What a venue's new time zone moves, asked before it is saved ("" when nothing upcoming moves).

    Times are kept as instants, so every upcoming game, league start and session date of the venue keeps
    its moment and shows at another clock time: the question counts them and shows the next game's
    time before and after.
    """
    from volley_app.models import Game, League, LeagueSession

    if old == new:
        return ""
    now = utcnow()
    mine = select(League.id).where(League.svl_id == svl_id, col(League.archived_at).is_(None))
    games = db.exec(select(Game.start_at).where(col(Game.league_id).in_(mine), Game.start_at >= now).order_by(col(Game.start_at))).all()
    leagues = db.exec(select(sa.func.count()).select_from(League).where(
        League.svl_id == svl_id, col(League.archived_at).is_(None), League.start_at >= now)).one()  # fmt: skip
    sessions = db.exec(select(sa.func.count()).select_from(LeagueSession).where(
        LeagueSession.svl_id == svl_id, col(LeagueSession.archived_at).is_(None), LeagueSession.end_at >= now)).one()  # fmt: skip
    if not games and not leagues and not sessions:
        return ""
    moved = []
    if games:
        moved.append(f"{len(games)} upcoming game{'' if len(games) == 1 else 's'}")
    if leagues:
        moved.append(f"the start of {leagues} league{'' if leagues == 1 else 's'}")
    if sessions:
        moved.append(f"the dates of {sessions} session{'' if sessions == 1 else 's'}")
    example = ""
    if games:
        first = games[0]
        example = (f" The next game, {timefmt.date_time(first, old, labelled=True)}, would show as "
                   f"{timefmt.date_time(first, new, labelled=True)}.")  # fmt: skip
    listed = moved[0] if len(moved) == 1 else f"{', '.join(moved[:-1])} and {moved[-1]}"
    return (f"Changing the time zone from {old.replace('_', ' ')} to {new.replace('_', ' ')} changes the clock time "
            f"shown for {listed}. Each keeps its moment and is shown on the new zone's clock, to captains and "
            f"players too.{example} Tick the box and save again to change it.")  # fmt: skip
