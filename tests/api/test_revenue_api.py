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
from volley_app.models import Role, utcnow
from volley_app.models.ledger import CASH, CHARGE, REFUND
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
