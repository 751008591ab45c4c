"""The revenue report: what a league, a league session or a venue took in and gave back over a span of days.

Every figure is a sum over the money ledger's rows (``services.money.ledger``) in the app's currency, in cents:

* **collected**: card charges plus cash the operator recorded; **refunded**: money given back; **net**: collected
  less refunded;
* **credits outstanding**: credit given to players less credit they spent, over the same rows (it can be negative
  over a span where more old credit was spent than new credit given);
* **discounts**: what discount codes took off registrations (no money moved);
* **cash expected**: for each cash league in the scope whose first game falls in the span (the league cost is paid
  in person then; the card paid only the registration fee), the league cost for every team playing in it (not on
  the waitlist, not withdrawn) that has no cash row recorded yet, at any date. It is counted on the day of the
  league's first game; archived leagues expect nothing.

Days are the venue's (its time zone): ``start`` and ``end`` are venue days, both included. Across all venues
(admins only) the days are the app's default zone's.

Who sees what: an SVL their own venue, its sessions and leagues; an admin every venue, and the total across all
of them; players nothing. The scope is the league when one is given, else the session, else the venue, else
(an SVL) their own venue or (an admin) every venue.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any, TypedDict
from urllib.parse import urlencode

import sqlalchemy as sa
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.expression import FunctionElement
from sqlmodel import Session, col, select

from volley_app import routes
from volley_app.models import League, LeagueSession, LedgerEntry, Role, Team, User, utcnow
from volley_app.models.ledger import CASH, CHARGE, CREDIT_ISSUED, CREDIT_SPENT, DISCOUNT, REFUND
from volley_app.services.accounts import auth, venues
from volley_app.services.core import timefmt, uploads
from volley_app.services.core.actors import Actor, record_id, require_role
from volley_app.services.core.csvfile import dollars, to_csv
from volley_app.services.core.errors import Forbidden, Invalid, NotFound
from volley_app.services.seasons import fees, leagues, sessions

VENUE_NOT_FOUND = "No such venue."
DEFAULT_DAYS = 30  # a report without dates: the last 30 venue days, today included
MAX_DAYS = 3 * 366
DATE_MESSAGE = "Enter a date as YYYY-MM-DD."
ORDER_MESSAGE = "The end date is before the start date."
SPAN_MESSAGE = f"Pick at most {MAX_DAYS} days."

# The figures of a report, its totals and each day alike, in cents.
FIGURES = ("collected", "charged", "cash", "refunded", "net", "credit_issued", "credit_spent", "credits_outstanding",
           "discounts", "cash_expected")  # fmt: skip
_BY_KIND = {CHARGE: "charged", CASH: "cash", REFUND: "refunded", CREDIT_ISSUED: "credit_issued",
            CREDIT_SPENT: "credit_spent", DISCOUNT: "discounts"}  # fmt: skip
CSV_HEADER = ["Date", "Currency", "Collected", "Card", "Cash", "Refunded", "Net", "Credit issued", "Credit spent",
              "Credits outstanding", "Discounts", "Cash expected"]  # fmt: skip


class Figures(TypedDict):
    collected: int
    charged: int
    cash: int
    refunded: int
    net: int
    credit_issued: int
    credit_spent: int
    credits_outstanding: int
    discounts: int
    cash_expected: int


class Day(Figures):
    date: str  # the venue day, YYYY-MM-DD


class Report(TypedDict):
    scope: str  # "all", "venue", "session" or "league"
    scope_id: int | None
    scope_name: str
    venue_id: int | None
    session_id: int | None
    league_id: int | None
    start: str
    end: str
    zone: str
    currency: str
    totals: Figures
    days: list[Day]  # the days with something in them, oldest first


# --- the venue's day of an instant, in SQL --------------------------------------------------------------------


class _epoch(FunctionElement):
    """Seconds since 1970 of a UTC timestamp column."""

    type = sa.BigInteger()
    inherit_cache = True
    name = "epoch"


@compiles(_epoch)
def _epoch_default(element: _epoch, compiler: Any, **kw: Any) -> str:
    return f"CAST(EXTRACT(EPOCH FROM {compiler.process(element.clauses, **kw)}) AS BIGINT)"


@compiles(_epoch, "sqlite")
def _epoch_sqlite(element: _epoch, compiler: Any, **kw: Any) -> str:
    return f"CAST(strftime('%s', {compiler.process(element.clauses, **kw)}) AS INTEGER)"


def _offset_at(zone: str, seconds: int) -> int:
    when = dt.datetime.fromtimestamp(seconds, dt.UTC)
    offset = timefmt.local(when, zone).utcoffset()
    return int(offset.total_seconds()) if offset else 0


def _offsets(zone: str, start: int, end: int) -> list[tuple[int, int]]:
    """The zone's UTC offset over [start, end): ``(from, offset)`` pieces, the first from ``start``."""
    pieces = [(start, _offset_at(zone, start))]
    step = 6 * 3600  # offsets change at most once in a few hours: look every 6 hours, then find the second
    t = start
    while t < end:
        nxt = min(t + step, end)
        if _offset_at(zone, nxt) != pieces[-1][1]:
            lo, hi = t, nxt  # the offset changes in (lo, hi]
            while hi - lo > 1:
                mid = (lo + hi) // 2
                if _offset_at(zone, mid) == pieces[-1][1]:
                    lo = mid
                else:
                    hi = mid
            pieces.append((hi, _offset_at(zone, hi)))
        t = nxt
    return pieces


def _local_day(column: Any, zone: str, start: dt.datetime, end: dt.datetime) -> sa.ColumnElement[int]:
    """The venue day of ``column`` as days since 1970-01-01 (the zone's offset at that instant added first)."""
    seconds = _epoch(column)
    pieces = _offsets(zone, int(start.timestamp()), int(end.timestamp()))
    if len(pieces) == 1:
        offset: sa.ColumnElement[int] = sa.literal(pieces[0][1])
    else:
        offset = sa.case(*((seconds < since, off) for (_, off), (since, _) in zip(pieces, pieces[1:], strict=False)),
                         else_=pieces[-1][1])  # fmt: skip
    return (seconds + offset) // 86400


_EPOCH_DAY = dt.date(1970, 1, 1)


# --- scope and dates --------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Scope:
    kind: str
    name: str
    zone: str
    venue_id: int | None = None
    session_id: int | None = None
    league_id: int | None = None

    @property
    def id(self) -> int | None:
        return {"league": self.league_id, "session": self.session_id, "venue": self.venue_id}.get(self.kind)

    def _narrowest(self, league: Any, session: Any, venue: Any) -> list[sa.ColumnElement[bool]]:
        """The narrowest scope given (league, else session, else venue) on the columns that name each."""
        for value, column in ((self.league_id, league), (self.session_id, session), (self.venue_id, venue)):
            if value is not None:
                return [column == value]
        return []

    def ledger_rows(self) -> list[sa.ColumnElement[bool]]:
        return self._narrowest(col(LedgerEntry.league_id), col(LedgerEntry.session_id), col(LedgerEntry.svl_id))

    def leagues(self) -> list[sa.ColumnElement[bool]]:
        return self._narrowest(col(League.id), col(League.session_id), col(League.svl_id))


def _blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _venue(db: Session, actor: Actor, venue: object) -> User:
    vid = record_id(venue, VENUE_NOT_FOUND)
    if not actor.is_admin and vid != actor.user_id:
        raise Forbidden()
    row = db.get(User, vid)
    if row is None or Role.SVL.value not in (row.roles or []):
        raise NotFound(VENUE_NOT_FOUND)
    return row


def _venue_name(db: Session, venue_id: int) -> str:
    return venues.svl_names(db, [venue_id]).get(venue_id, "") or f"Venue {venue_id}"


def scope_of(db: Session, actor: Actor | None, *, venue: object = None, session: object = None,
             league: object = None) -> Scope:  # fmt: skip
    """What the report sums for this actor: the league, else the session, else the venue, else their own venue
    (an SVL) or every venue (an admin). Unauthorized / Forbidden / NotFound as the loaders refuse."""
    actor = require_role(actor, Role.SVL, Role.ADMIN)
    if not _blank(league):
        row = leagues.managed(db, actor, league)
        return Scope("league", leagues.display_name(row), leagues.zone(db, row), row.svl_id, row.session_id, row.id)
    if not _blank(session):
        ses = sessions.access_session(db, actor, session)
        return Scope("session", ses.name, venues.zone(db, ses.svl_id), ses.svl_id, ses.id)
    if not _blank(venue):
        user = _venue(db, actor, venue)
        assert user.id is not None  # a stored user
        return Scope("venue", _venue_name(db, user.id), venues.zone(db, user.id), user.id)
    if actor.is_admin:
        return Scope("all", "All venues", timefmt.default_name())
    return Scope("venue", _venue_name(db, actor.user_id), venues.zone(db, actor.user_id), actor.user_id)


def _date(value: object, field: str) -> dt.date | None:
    """A venue day as YYYY-MM-DD (a date input's value); blank: none."""
    if _blank(value):
        return None
    text = str(value).strip()
    try:
        if len(text) == 10:
            return dt.date.fromisoformat(text)
    except ValueError:
        pass
    raise Invalid({field: DATE_MESSAGE})


def span(zone: str, start: object = None, end: object = None, *, now: dt.datetime | None = None) -> tuple[dt.date, dt.date]:
    """The venue days asked for (both included): by default the last ``DEFAULT_DAYS`` days, today the last."""
    first, last = _date(start, "start"), _date(end, "end")
    today = timefmt.local(now or utcnow(), zone).date()
    last = last or (max(today, first) if first else today)
    first = first or last - dt.timedelta(days=DEFAULT_DAYS - 1)
    if last < first:
        raise Invalid({"end": ORDER_MESSAGE})
    if (last - first).days + 1 > MAX_DAYS:
        raise Invalid({"start": SPAN_MESSAGE})
    return first, last


# --- the figures -------------------------------------------------------------------------------------------------


def _zero() -> Figures:
    return Figures(**dict.fromkeys(FIGURES, 0))  # type: ignore[typeddict-item]


def _finish(f: Figures) -> Figures:
    f["collected"] = f["charged"] + f["cash"]
    f["net"] = f["collected"] - f["refunded"]
    f["credits_outstanding"] = f["credit_issued"] - f["credit_spent"]
    return f


def ledger_rows(scope: Scope, since: dt.datetime, until: dt.datetime) -> list[sa.ColumnElement[bool]]:
    """The ledger rows a report over [since, until) sums: its scope's, in the app's currency."""
    return [*scope.ledger_rows(), col(LedgerEntry.currency) == fees.CURRENCY, col(LedgerEntry.created_at) >= since,
            col(LedgerEntry.created_at) < until]  # fmt: skip


def _figures(db: Session, scope: Scope, first: dt.date, last: dt.date) -> tuple[Figures, list[Day]]:
    since = timefmt.day_start(first, scope.zone)
    until = timefmt.day_start(last + dt.timedelta(days=1), scope.zone)
    day = _local_day(LedgerEntry.created_at, scope.zone, since, until).label("day")
    found = db.exec(
        select(day, LedgerEntry.kind, sa.func.sum(LedgerEntry.amount_cents))
        .where(*ledger_rows(scope, since, until)).group_by(day, col(LedgerEntry.kind))
    ).all()  # fmt: skip
    by_day: dict[dt.date, Figures] = {}
    for number, kind, total in found:
        field = _BY_KIND.get(kind)
        if field is None or total is None:
            continue
        f = by_day.setdefault(_EPOCH_DAY + dt.timedelta(days=int(number)), _zero())
        f[field] += int(total)  # type: ignore[literal-required]
    expected = db.exec(
        select(League.start_at, sa.func.sum(League.cost_cents))
        .join(Team, col(Team.league_id) == col(League.id))
        .where(*scope.leagues(), col(League.cash).is_(True), col(League.archived_at).is_(None),
               col(League.start_at) >= since, col(League.start_at) < until,
               col(Team.waitlist).is_(False), col(Team.withdrawn_at).is_(None),
               ~sa.exists().where(col(LedgerEntry.team_id) == col(Team.id), col(LedgerEntry.kind) == CASH))
        .group_by(col(League.id), col(League.start_at))
    ).all()  # fmt: skip
    for start_at, total in expected:
        f = by_day.setdefault(timefmt.local(start_at, scope.zone).date(), _zero())
        f["cash_expected"] += int(total or 0)
    totals = _zero()
    days: list[Day] = []
    for d in sorted(by_day):
        f = _finish(by_day[d])
        days.append(Day(date=d.isoformat(), **f))
        for k in FIGURES:
            totals[k] += f[k]  # type: ignore[literal-required]
    return _finish(totals), days


def report(db: Session, actor: Actor | None, *, venue: object = None, session: object = None, league: object = None,
           start: object = None, end: object = None, now: dt.datetime | None = None) -> Report:  # fmt: skip
    """The revenue of a league, a session or a venue (or, for admins, every venue) over venue days, in cents."""
    scope = scope_of(db, actor, venue=venue, session=session, league=league)
    first, last = span(scope.zone, start, end, now=now)
    totals, days = _figures(db, scope, first, last)
    return Report(scope=scope.kind, scope_id=scope.id, scope_name=scope.name, venue_id=scope.venue_id,
                  session_id=scope.session_id, league_id=scope.league_id, start=first.isoformat(), end=last.isoformat(),
                  zone=scope.zone, currency=fees.CURRENCY, totals=totals, days=days)  # fmt: skip


# --- the CSV file -------------------------------------------------------------------------------------------------


def _csv_row(label: str, currency: str, f: Figures) -> list[object]:
    return [label, currency.upper(), *(dollars(f[k]) for k in ("collected", "charged", "cash", "refunded", "net",  # type: ignore[literal-required]
            "credit_issued", "credit_spent", "credits_outstanding", "discounts", "cash_expected"))]  # fmt: skip


def csv_file(db: Session, actor: Actor | None, **asked: Any) -> dict:
    """The report as CSV, ``{"name", "data"}``: a row per day with something in it, then the total."""
    found = report(db, actor, **asked)
    rows = [_csv_row(d["date"], found["currency"], d) for d in found["days"]]
    rows.append(_csv_row("Total", found["currency"], found["totals"]))
    what = found["scope"] + (f"-{found['scope_id']}" if found["scope_id"] else "")
    return {"name": f"revenue-{what}-{found['start']}-to-{found['end']}.csv", "data": to_csv(CSV_HEADER, rows)}


ASKED = ("venue", "session", "league", "start", "end")


def _subject(asked: dict[str, str]) -> str:
    return "revenue:" + ":".join(asked.get(k, "") for k in ASKED)


def _asked(report_: Report) -> dict[str, str]:
    """The query naming this very report (its scope and its days)."""
    ids = {"league": report_["league_id"]} if report_["scope"] == "league" else (
        {"session": report_["session_id"]} if report_["scope"] == "session" else
        ({"venue": report_["venue_id"]} if report_["scope"] == "venue" else {}))  # fmt: skip
    return {**{k: str(v) for k, v in ids.items()}, "start": report_["start"], "end": report_["end"]}


def csv_link(actor: Actor, found: Report, now: dt.datetime) -> str:
    """The download link of a report the caller made for ``actor``, signed for them for a short while."""
    asked = _asked(found)
    query = {**asked, **uploads.ticket(actor.user_id, _subject(asked), now)}
    return f"{routes.revenue_csv_path}?{urlencode(query)}"


def csv_by_link(db: Session, actor: Actor | None, *, asked: dict[str, str], link: dict[str, str],
                now: dt.datetime | None = None) -> dict:  # fmt: skip
    """The CSV route: the reader is ``actor`` (a bearer token), else the user the link was signed for (for the
    very scope and days it was signed with)."""
    now = now or utcnow()
    asked = {k: v for k, v in asked.items() if k in ASKED and v}
    if actor is None:
        uid = uploads.ticket_holder(link, _subject(asked), now)
        actor = auth.holder(db, uid) if uid is not None else None
    return csv_file(db, actor, now=now, **asked)


# --- the screen -------------------------------------------------------------------------------------------------


class Choice(TypedDict):
    value: str
    label: str


class Screen(TypedDict):
    report: Report
    venues: list[Choice]  # admins only: every venue that runs a session
    sessions: list[Choice]  # the venue's sessions
    leagues: list[Choice]  # the session's leagues, else the venue's
    csv_link: str


def screen(db: Session, actor: Actor | None, *, venue: object = None, session: object = None, league: object = None,
           start: object = None, end: object = None, now: dt.datetime | None = None) -> Screen:  # fmt: skip
    """The revenue screen: the report, what may be picked next, and the CSV's link."""
    now = now or utcnow()
    found = report(db, actor, venue=venue, session=session, league=league, start=start, end=end, now=now)
    assert actor is not None  # report refused anyone else
    venue_list: list[Choice] = []
    if actor.is_admin:
        ids = db.exec(select(LeagueSession.svl_id).distinct()).all()
        names = venues.svl_names(db, ids)
        venue_list = sorted(({"value": str(i), "label": names.get(i) or f"Venue {i}"} for i in ids),
                            key=lambda c: c["label"].lower())  # fmt: skip
    vid = found["venue_id"]
    session_list: list[Choice] = []
    league_list: list[Choice] = []
    if vid is not None:
        ses = db.exec(select(LeagueSession).where(col(LeagueSession.svl_id) == vid,
                                                  col(LeagueSession.archived_at).is_(None))
                      .order_by(col(LeagueSession.start_at).desc())).all()  # fmt: skip
        session_list = [{"value": str(s.id), "label": s.name} for s in ses]
        where = [col(League.session_id) == found["session_id"]] if found["session_id"] else [col(League.svl_id) == vid]
        lgs = db.exec(select(League).where(*where, col(League.archived_at).is_(None))
                      .order_by(col(League.start_at).desc(), col(League.id))).all()  # fmt: skip
        league_list = [{"value": str(g.id), "label": f"{leagues.display_name(g)} ({timefmt.day(g.start_at, found['zone'])})"}
                       for g in lgs]  # fmt: skip
    return Screen(report=found, venues=venue_list, sessions=session_list, leagues=league_list,
                  csv_link=csv_link(actor, found, now))  # fmt: skip
