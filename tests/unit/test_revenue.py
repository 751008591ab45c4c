"""The revenue report: its sums are the ledger's, its days add up to its totals and fall on the venue's days,
cash leagues expect the league cost of each playing team that has not paid cash, and each operator sees only
their own venue."""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
from sqlmodel import col

from tests.factories import actor_of, add_league, add_league_session, add_teams, make_user
from volley_app.models import LedgerEntry, Role
from volley_app.models.ledger import CASH, CHARGE, CREDIT_ISSUED, CREDIT_SPENT, DISCOUNT, REFUND
from volley_app.services.core import timefmt
from volley_app.services.core.errors import Forbidden, Invalid, NotFound, Unauthorized
from volley_app.services.money import ledger, revenue

NY = "America/New_York"
# Venue days in New York: Nov 1 2026 is the day the clocks go back (a 25-hour day).
NOW = dt.datetime(2026, 11, 20, 17, 0, tzinfo=dt.UTC)


def _at(db, entry: LedgerEntry, when: dt.datetime) -> LedgerEntry:
    entry.created_at = when
    db.add(entry)
    db.flush()
    return entry


@pytest.fixture
def world(db):
    svl = make_user(db, "svla", Role.SVL, time_zone=NY)
    other = make_user(db, "svlb", Role.SVL, time_zone="America/Los_Angeles")
    pat, root = make_user(db, "pat"), make_user(db, "root", Role.ADMIN)
    start = dt.datetime(2026, 10, 1, tzinfo=dt.UTC)
    sid = add_league_session(db, svl, "Fall", start, start + dt.timedelta(days=80))
    sid2 = add_league_session(db, svl, "Winter", start, start + dt.timedelta(days=80))
    osid = add_league_session(db, other, "Other fall", start, start + dt.timedelta(days=80))
    lg = add_league(db, svl, sid, start=dt.datetime(2026, 11, 2, 23, 30, tzinfo=dt.UTC))
    lg2 = add_league(db, svl, sid2, start=dt.datetime(2026, 11, 3, 23, 30, tzinfo=dt.UTC), court="Court 2")
    olg = add_league(db, other, osid, start=dt.datetime(2026, 11, 2, 23, 30, tzinfo=dt.UTC))
    n = iter(range(1000))

    def put(kind: str, cents: int, league, when: dt.datetime, **kw) -> LedgerEntry:
        return _at(db, ledger.record(db, kind=kind, amount_cents=cents, key=f"k{next(n)}", league=league, **kw), when)

    utc = dt.UTC
    # Oct 31 23:30 New York is Nov 1 03:30 UTC: the venue's Oct 31.
    put(CHARGE, 30000, lg, dt.datetime(2026, 11, 1, 3, 30, tzinfo=utc))
    # Nov 1 23:30 New York (after the clocks went back) is Nov 2 04:30 UTC: still the venue's Nov 1.
    put(CHARGE, 26000, lg, dt.datetime(2026, 11, 2, 4, 30, tzinfo=utc))
    put(CASH, 5000, lg, dt.datetime(2026, 11, 2, 12, 0, tzinfo=utc))
    put(REFUND, 7500, lg, dt.datetime(2026, 11, 2, 13, 0, tzinfo=utc))
    put(CREDIT_ISSUED, 4000, lg, dt.datetime(2026, 11, 3, 13, 0, tzinfo=utc))
    put(CREDIT_SPENT, 1500, lg2, dt.datetime(2026, 11, 4, 13, 0, tzinfo=utc))
    put(DISCOUNT, 2000, lg2, dt.datetime(2026, 11, 4, 14, 0, tzinfo=utc))
    put(CHARGE, 12345, lg2, dt.datetime(2026, 11, 5, 14, 0, tzinfo=utc))
    put(CHARGE, 99900, olg, dt.datetime(2026, 11, 2, 14, 0, tzinfo=utc))  # another venue's
    put(CHARGE, 11100, lg, dt.datetime(2026, 9, 2, 14, 0, tzinfo=utc))  # before the days asked for
    db.commit()
    return {"db": db, "svl": actor_of(svl), "other": actor_of(other), "pat": actor_of(pat), "root": actor_of(root),
            "sid": sid, "sid2": sid2, "lg": lg, "lg2": lg2, "olg": olg, "osid": osid, "svl_id": svl.id,
            "other_id": other.id, "put": put}  # fmt: skip


DAYS = {"start": "2026-10-01", "end": "2026-11-19"}


def _since_until(zone: str) -> tuple[dt.datetime, dt.datetime]:
    return timefmt.day_start(dt.date(2026, 10, 1), zone), timefmt.day_start(dt.date(2026, 11, 20), zone)


def _expected(db, *where) -> ledger.Totals:
    return ledger.totals(db, *where, col(LedgerEntry.created_at) >= _since_until(NY)[0],
                         col(LedgerEntry.created_at) < _since_until(NY)[1])  # fmt: skip


def _check_sums(found: revenue.Report, t: ledger.Totals) -> None:
    got = found["totals"]
    assert (got["charged"], got["cash"], got["refunded"], got["credit_issued"], got["credit_spent"], got["discounts"]) \
        == (t[CHARGE], t[CASH], t[REFUND], t[CREDIT_ISSUED], t[CREDIT_SPENT], t[DISCOUNT])
    assert got["collected"] == t.collected and got["net"] == t.net
    assert got["credits_outstanding"] == t[CREDIT_ISSUED] - t[CREDIT_SPENT]
    for figure in revenue.FIGURES:
        assert sum(d[figure] for d in found["days"]) == got[figure], figure  # type: ignore[literal-required]


def test_a_league_s_sums_are_the_ledger_s_and_its_days_add_up(world):
    db = world["db"]
    found = revenue.report(db, world["svl"], league=world["lg"].id, now=NOW, **DAYS)
    _check_sums(found, _expected(db, col(LedgerEntry.league_id) == world["lg"].id))
    assert found["totals"]["collected"] == 61000 and found["totals"]["refunded"] == 7500
    assert found["totals"]["net"] == 53500 and found["totals"]["credits_outstanding"] == 4000
    assert (found["scope"], found["zone"], found["currency"]) == ("league", NY, "usd")


def test_days_are_the_venue_s_days(world):
    found = revenue.report(world["db"], world["svl"], league=world["lg"].id, now=NOW, **DAYS)
    by_day = {d["date"]: d for d in found["days"]}
    assert by_day["2026-10-31"]["charged"] == 30000
    assert by_day["2026-11-01"]["charged"] == 26000  # 23:30 on the 25-hour day the clocks went back
    assert by_day["2026-11-02"]["cash"] == 5000 and by_day["2026-11-02"]["refunded"] == 7500
    assert "2026-09-02" not in by_day


def test_a_session_and_a_venue_sum_their_own_rows(world):
    db = world["db"]
    ses = revenue.report(db, world["svl"], session=world["sid2"], now=NOW, **DAYS)
    _check_sums(ses, _expected(db, col(LedgerEntry.session_id) == world["sid2"]))
    assert ses["totals"]["discounts"] == 2000 and ses["totals"]["credits_outstanding"] == -1500
    venue = revenue.report(db, world["svl"], now=NOW, **DAYS)
    assert venue["scope"] == "venue" and venue["venue_id"] == world["svl_id"]
    _check_sums(venue, _expected(db, col(LedgerEntry.svl_id) == world["svl_id"]))
    assert venue["totals"]["charged"] == 30000 + 26000 + 12345


def test_admins_see_any_venue_and_the_total_of_all(world):
    db = world["db"]
    every = revenue.report(db, world["root"], now=NOW, **DAYS)
    assert every["scope"] == "all"
    since, until = _since_until(every["zone"])
    t = ledger.totals(db, col(LedgerEntry.created_at) >= since, col(LedgerEntry.created_at) < until)
    _check_sums(every, t)
    other = revenue.report(db, world["root"], venue=world["other_id"], now=NOW, **DAYS)
    assert other["totals"]["charged"] == 99900 and other["zone"] == "America/Los_Angeles"


def test_an_operator_is_refused_another_venue_s_league_session_or_venue(world):
    db, svl = world["db"], world["svl"]
    with pytest.raises(Forbidden):
        revenue.report(db, svl, league=world["olg"].id)
    with pytest.raises(Forbidden):
        revenue.report(db, svl, session=world["osid"])
    with pytest.raises(Forbidden):
        revenue.report(db, svl, venue=world["other_id"])
    with pytest.raises(Forbidden):
        revenue.csv_file(db, world["other"], league=world["lg"].id)


def test_players_and_nobody_are_refused(world):
    db = world["db"]
    with pytest.raises(Forbidden):
        revenue.report(db, world["pat"])
    with pytest.raises(Forbidden):
        revenue.report(db, world["pat"], league=world["lg"].id)
    with pytest.raises(Unauthorized):
        revenue.report(db, None)
    with pytest.raises(NotFound):
        revenue.report(db, world["root"], venue=world["pat"].user_id)


def test_cash_leagues_expect_the_cost_of_each_playing_team_without_a_cash_row(world):
    db = world["db"]
    lg = world["lg"]
    lg.cash = True
    db.add(lg)
    db.commit()
    paid, _, _ = add_teams(db, lg, 3)
    add_teams(db, lg, 1, prefix="W", waitlist=True)
    add_teams(db, lg, 1, prefix="X", withdrawn_at=NOW)
    world["put"](CASH, 30000, lg, NOW, team_id=paid)
    found = revenue.report(db, world["svl"], league=lg.id, now=NOW, **DAYS)
    assert found["totals"]["cash_expected"] == 2 * 30000
    # counted on the venue day of the first game: Nov 2 18:30 in New York
    assert {d["date"]: d["cash_expected"] for d in found["days"] if d["cash_expected"]} == {"2026-11-02": 60000}
    # a league that does not start in the days asked for expects nothing in them
    later = revenue.report(db, world["svl"], league=lg.id, now=NOW, start="2026-11-03", end="2026-11-19")
    assert later["totals"]["cash_expected"] == 0


def test_dates_are_checked(world):
    db, svl = world["db"], world["svl"]
    with pytest.raises(Invalid) as bad:
        revenue.report(db, svl, start="yesterday")
    assert bad.value.errors == {"start": revenue.DATE_MESSAGE}
    with pytest.raises(Invalid) as order:
        revenue.report(db, svl, start="2026-11-05", end="2026-11-01")
    assert order.value.errors == {"end": revenue.ORDER_MESSAGE}
    with pytest.raises(Invalid):
        revenue.report(db, svl, start="2020-01-01", end="2026-11-01")
    found = revenue.report(db, svl, now=NOW)
    assert (found["start"], found["end"]) == ("2026-10-22", "2026-11-20")  # the last 30 days, today the last


def test_the_csv_holds_numbers_and_its_total_is_the_report_s(world):
    db = world["db"]
    found = revenue.report(db, world["svl"], league=world["lg"].id, now=NOW, **DAYS)
    file = revenue.csv_file(db, world["svl"], league=world["lg"].id, now=NOW, **DAYS)
    assert file["name"] == f"revenue-league-{world['lg'].id}-2026-10-01-to-2026-11-19.csv"
    table = list(csv.reader(io.StringIO(file["data"].decode("utf-8-sig"))))
    assert table[0] == revenue.CSV_HEADER
    total = table[-1]
    assert total[:3] == ["Total", "USD", "610.00"]
    assert total[revenue.CSV_HEADER.index("Refunded")] == "75.00"
    assert total[revenue.CSV_HEADER.index("Net")] == f"{found['totals']['net'] / 100:.2f}"
    assert [r[0] for r in table[1:-1]] == [d["date"] for d in found["days"]]
    assert sum(float(r[2]) for r in table[1:-1]) == pytest.approx(610.00)
    assert not any("$" in cell for row in table for cell in row)


def test_the_csv_link_is_for_its_holder_and_its_report_only(world):
    db = world["db"]
    found = revenue.report(db, world["svl"], league=world["lg"].id, now=NOW, **DAYS)
    link = revenue.csv_link(world["svl"], found, NOW)
    query = dict(p.split("=", 1) for p in link.split("?", 1)[1].split("&"))
    asked = {k: v for k, v in query.items() if k in revenue.ASKED}
    signed = {k: query[k] for k in ("u", "e", "s")}
    got = revenue.csv_by_link(db, None, asked=asked, link=signed, now=NOW)
    assert got["data"] == revenue.csv_file(db, world["svl"], now=NOW, **asked)["data"]
    with pytest.raises(Unauthorized):
        revenue.csv_by_link(db, None, asked={**asked, "league": str(world["olg"].id)}, link=signed, now=NOW)
    with pytest.raises(Unauthorized):
        revenue.csv_by_link(db, None, asked=asked, link=signed, now=NOW + dt.timedelta(days=3))


def test_the_screen_offers_the_venue_s_sessions_and_leagues(world):
    db = world["db"]
    shown = revenue.screen(db, world["svl"], session=world["sid"], now=NOW)
    assert shown["venues"] == []
    assert {c["label"] for c in shown["sessions"]} == {"Fall", "Winter"}
    assert [c["value"] for c in shown["leagues"]] == [str(world["lg"].id)]
    assert shown["csv_link"].startswith("/api/revenue.csv?session=")
    admin = revenue.screen(db, world["root"], now=NOW)
    assert {c["value"] for c in admin["venues"]} == {str(world["svl_id"]), str(world["other_id"])}
