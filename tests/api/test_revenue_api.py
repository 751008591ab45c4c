"""GET /api/revenue and its CSV over HTTP: the league's operator and admins get the ledger's sums in cents (and the
file in dollars), through the whole backend, by bearer token or the screen's signed link; others are refused."""

from __future__ import annotations

import csv
import datetime as dt
import io
from urllib.parse import urlsplit

import httpx
import pytest

from tests.factories import actor_of, add_league, add_league_session, login_token, make_user
from tests.harness import call, page_state
from volley_app import routes
from volley_app.models import Role, utcnow
from volley_app.models.ledger import CASH, CHARGE, REFUND
from volley_app.pages.dash import revenue as revenue_page
from volley_app.pages.dash.revenue import RevenueState
from volley_app.services.money import ledger, revenue


@pytest.fixture
def world(db):
    svl, _other = make_user(db, "svla", Role.SVL), make_user(db, "svlb", Role.SVL)
    make_user(db, "root", Role.ADMIN)
    make_user(db, "pat")
    now = utcnow()
    sid = add_league_session(db, svl, "Fall", now - dt.timedelta(days=3), now + dt.timedelta(days=80))
    lg = add_league(db, svl, sid, start=now + dt.timedelta(days=4))
    for i, (kind, cents) in enumerate(((CHARGE, 30500), (CHARGE, 26000), (CASH, 5000), (REFUND, 7550))):
        ledger.record(db, kind=kind, amount_cents=cents, key=f"r{i}", league=lg)
    db.commit()
    tokens = {n: login_token(db, n) for n in ("svla", "svlb", "root", "pat")}
    return {"db": db, "lg": lg, "sid": sid, "svl": actor_of(svl), "tokens": tokens}


async def _get(backend, path: str, token: str | None = None) -> httpx.Response:
    _app, asgi = backend
    transport = httpx.ASGITransport(app=asgi, client=("203.0.113.9", 5000))
    headers = {"authorization": f"Bearer {token}"} if token else {}
    async with httpx.AsyncClient(transport=transport, base_url="http://localhost:3000") as client:
        return await client.get(path, headers=headers)


@pytest.mark.parametrize(("who", "status"), [("svla", 200), ("root", 200), ("svlb", 403), ("pat", 403), (None, 401)])
async def test_who_may_read_a_league_s_revenue(backend, world, who, status):
    got = await _get(backend, f"/api/revenue?league={world['lg'].id}", world["tokens"].get(who or ""))
    assert got.status_code == status, got.text
    if status == 200:
        body = got.json()
        assert body["scope"] == "league" and body["currency"] == "usd"
        assert body["totals"]["collected"] == 61500 and body["totals"]["refunded"] == 7550
        assert body["totals"]["net"] == 53950 and body["totals"]["cashExpected"] == 0
        assert sum(d["collected"] for d in body["days"]) == 61500


async def test_bad_dates_are_refused_by_field(backend, world):
    got = await _get(backend, "/api/revenue?start=soon", world["tokens"]["svla"])
    assert got.status_code == 422 and got.json()["errors"] == {"start": revenue.DATE_MESSAGE}


async def test_the_csv_by_token_and_by_the_screen_s_signed_link(backend, world):
    got = await _get(backend, f"/api/revenue.csv?session={world['sid']}", world["tokens"]["svla"])
    assert got.status_code == 200 and got.headers["content-type"].startswith("text/csv")
    table = list(csv.reader(io.StringIO(got.content.decode("utf-8-sig"))))
    assert table[0][:3] == ["Date", "Currency", "Collected"]
    assert table[-1][:3] == ["Total", "USD", "615.00"] and table[-1][6] == "539.50"
    link = revenue.screen(world["db"], world["svl"], session=world["sid"])["csv_link"]
    signed = await _get(backend, link)
    assert signed.status_code == 200 and signed.content == got.content
    parts = urlsplit(link)
    sid = world["sid"]
    widened = f"{parts.path}?{parts.query.replace(f'session={sid}', '')}"  # the venue, not the session
    assert (await _get(backend, widened)).status_code == 401
    assert (await _get(backend, f"/api/revenue.csv?session={world['sid']}", world["tokens"]["svlb"])).status_code == 403


async def test_the_screen_pages_its_days_on_the_server(world):
    db, lg = world["db"], world["lg"]
    today = utcnow()
    for i in range(20):
        row = ledger.record(db, kind=CHARGE, amount_cents=1000 + i, key=f"day{i}", league=lg)
        row.created_at = today - dt.timedelta(days=i + 1)
        db.add(row)
    db.commit()
    _root, state = page_state(RevenueState, routes.revenue_path(league=lg.id, start=(today - dt.timedelta(days=40)).date().isoformat()),
                              world["tokens"]["svla"])  # fmt: skip
    await call(state.load)
    assert state.error == "" and state.day_count == 21 and state.day_pages == 2
    assert len(state.day_rows) == revenue_page.DAYS_PER_PAGE
    assert state.asked["league"] == str(lg.id) and state.asked["session"] == str(world["sid"])
    first = [r["date"] for r in state.day_rows]
    await call(state.next_days)
    assert len(state.day_rows) == 21 - revenue_page.DAYS_PER_PAGE and state.day_rows[0]["date"] < first[-1]
    await call(state.next_days)  # past the last page: it stays there
    assert state.day_page == 1
    figures = {f["key"]: f["value"] for f in state.figures}
    assert figures["collected"] == "$" + f"{(61500 + sum(1000 + i for i in range(20))) / 100:,.2f}"


async def test_a_player_opening_the_screen_gets_the_refusal_and_no_figures(world):
    _root, state = page_state(RevenueState, routes.REVENUE, world["tokens"]["pat"])
    await call(state.load)
    assert state.error and state.figures == [] and state.csv_link == "" and state.day_rows == []
