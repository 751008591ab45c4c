"""CSV exports of a league for its SVL and admins: teams (with captain contact), payments, standings, schedule,
waiver signatures, rosters.

Each file is UTF-8 with a byte order mark (spreadsheets then read accents right), named after the
league and the day, and safe to open: a cell that starts with ``=``, ``+``, ``-``, ``@`` (or a tab or
carriage return) is prefixed with an apostrophe so no spreadsheet runs it as a formula.
"""

from __future__ import annotations

import datetime as dt
import re
from urllib.parse import urlencode

from sqlmodel import Session, col, select

from volley_app import routes
from volley_app.models import Game, League, Payment, Team, User, utcnow
from volley_app.services.accounts import auth
from volley_app.services.core import csvfile, timefmt, uploads
from volley_app.services.core.actors import Actor, record_id
from volley_app.services.core.errors import NotFound
from volley_app.services.seasons import leagues, results, schedule
from volley_app.services.seasons.leagues import LEAGUE_NOT_FOUND
from volley_app.services.teams import registration, rosters, waivers

KINDS = ("teams", "payments", "standings", "schedule", "signatures", "rosters")
UNKNOWN = "No such export."
def file_name(league: League, kind: str, now: dt.datetime, zone: str | None = None) -> str:
    """'monday-c-6s-schedule-2026-11-22.csv': the league, what it holds, the venue's day."""
    slug = re.sub(r"[^a-z0-9]+", "-", leagues.display_name(league).lower()).strip("-")
    return f"{slug}-{league.id}-{kind}-{timefmt.local(now, zone).date().isoformat()}.csv"


def _teams(db: Session, league: League) -> tuple[list[str], list[list[object]]]:
    zone = leagues.zone(db, league)
    teams = db.exec(select(Team).where(Team.league_id == league.id).order_by(col(Team.id))).all()
    uids = {t.captain_id for t in teams if t.captain_id}
    users = {u.id: u for u in db.exec(select(User).where(col(User.id).in_(uids or {-1}))).all()}
    header = ["Team", "Status", "Paid", "Captain first name", "Captain last name", "Captain username", "Captain email",
              "Registered"]  # fmt: skip
    rows: list[list[object]] = []
    for t in teams:
        u = users.get(t.captain_id)
        status = "Withdrawn" if t.withdrawn_at else ("Waitlist" if t.waitlist else "Playing")
        rows.append([t.team_name, status, "Yes" if t.paid else "No", u.first_name if u else "", u.last_name if u else "",
                     u.username if u else "", u.email if u else "", timefmt.date_time(t.created_at, zone, labelled=True)])  # fmt: skip
    return header, rows


def _rosters(db: Session, league: League) -> tuple[list[str], list[list[object]]]:
    header = ["Team", "Role", "Name", "Username", "Email", "Gender", "Joined"]
    rule = league.playoff_min_games is not None
    if rule:
        header += ["Playoffs"]
    rows: list[list[object]] = [[r["team_name"], r["role"], r["name"], r["username"], r["email"], r["gender"], r["joined"],
                                 *([r["playoff"]] if rule else [])]
                                for r in rosters.league_roster_rows(db, league)]  # fmt: skip
    return header, rows


def _payments(db: Session, actor: Actor | None, league: League) -> tuple[list[str], list[list[object]]]:
    """A row per payment; the amount as a number of dollars ('260.00') with its currency beside it."""
    found = registration.list_payments(db, actor, league_id=league.id)
    amounts = {pid: (cents, currency) for pid, cents, currency in db.exec(
        select(Payment.id, Payment.amount_cents, Payment.currency).where(Payment.league_id == league.id))}  # fmt: skip
    header = ["Payment", "Team", "User", "Amount", "Currency", "Provider", "Provider reference", "Status", "Updated"]
    rows: list[list[object]] = []
    for p in found:
        cents, currency = amounts[p["id"]]
        rows.append([p["id"], p["team_name"], p["user"], csvfile.dollars(cents), currency.upper(), p["provider"],
                     p["provider_payment_id"], p["status"], p["time"]])  # fmt: skip
    return header, rows


def _standings(db: Session, actor: Actor | None, league: League) -> tuple[list[str], list[list[object]]]:
    found = results.standings(db, actor, league.id)
    header = ["Place", "Team", "Played", "Wins", "Losses", "Sets Won", "Sets Lost", "Set %", "Points For",
              "Points Against", "Point Ratio", "Forfeits", "Adjustment", "Withdrawn"]  # fmt: skip
    keys = ["rank", "team_name", "played", "wins", "losses", "sets_won", "sets_lost", "set_pct", "points_for",
            "points_against", "point_ratio", "forfeits", "adjustment"]  # fmt: skip
    return header, [[t.get(k) for k in keys] + ["Yes" if t["withdrawn"] else ""] for t in found["teams"]]


def _schedule(db: Session, league: League) -> tuple[list[str], list[list[object]]]:
    games = db.exec(select(Game).where(Game.league_id == league.id).order_by(col(Game.start_at), col(Game.match), col(Game.id))).all()
    teams = db.exec(select(Team).where(Team.league_id == league.id)).all()
    names = {t.id: t.team_name for t in teams if t.id is not None}
    zone = leagues.zone(db, league)
    # Dates and times on the venue's clock; its zone is the last column.
    header = ["Week", "Date", "Time", "Court", "Team 1", "Team 2", "Score", "Type", "Time zone"]
    rows = []
    for g in games:
        d = schedule.game_dict(g, names)
        rows.append([schedule.week_of(league.start_at, g.start_at, zone),
                     timefmt.local(g.start_at, zone).date().isoformat(), timefmt.clock(g.start_at, zone),
                     g.court or "", d["team1"], d["team2"], d["sets"], d["type"], zone])  # fmt: skip
    return header, rows


def export(db: Session, actor: Actor | None, league_id: object, kind: object, *, now: dt.datetime | None = None) -> dict:
    """One CSV of the league (its SVL or an admin): ``{"name", "data"}``."""
    if kind not in KINDS:
        raise NotFound(UNKNOWN)
    league = leagues.managed(db, actor, league_id)
    if kind == "teams":
        header, rows = _teams(db, league)
    elif kind == "payments":
        header, rows = _payments(db, actor, league)
    elif kind == "standings":
        header, rows = _standings(db, actor, league)
    elif kind == "signatures":
        header, rows = waivers.signature_table(db, league)
    elif kind == "rosters":
        header, rows = _rosters(db, league)
    else:
        header, rows = _schedule(db, league)
    return {"name": file_name(league, str(kind), now or utcnow(), leagues.zone(db, league)), "data": csvfile.to_csv(header, rows)}


def _subject(league_id: int, kind: str) -> str:
    return f"export:{league_id}:{kind}"


def export_links(db: Session, actor: Actor | None, league_id: object, *, now: dt.datetime | None = None) -> dict[str, str]:
    """Download links for each export, signed for the actor (its SVL or an admin) for a short while."""
    league = leagues.managed(db, actor, league_id)
    assert actor is not None and league.id is not None  # managed: a stored league, for its SVL or an admin
    now = now or utcnow()
    return {kind: signed_link(actor, league.id, kind, now) for kind in KINDS}


def signed_link(actor: Actor, league_id: int, kind: str, now: dt.datetime) -> str:
    """The download link of one export of a league the caller has checked ``actor`` manages."""
    return f"{routes.export_path(league_id, kind)}?{urlencode(uploads.ticket(actor.user_id, _subject(league_id, kind), now))}"


def export_by_link(
    db: Session, actor: Actor | None, league_id: object, kind: object, *, link: dict[str, str], now: dt.datetime | None = None
) -> dict:
    """The export route: the reader is ``actor`` (a bearer token), else the user the link was signed for."""
    if kind not in KINDS:
        raise NotFound(UNKNOWN)
    now = now or utcnow()
    if actor is None:
        lid = record_id(league_id, LEAGUE_NOT_FOUND)
        uid = uploads.ticket_holder(link, _subject(lid, str(kind)), now)
        actor = auth.holder(db, uid) if uid is not None else None
    return export(db, actor, league_id, kind, now=now)
