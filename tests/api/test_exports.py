"""CSV exports: the league's SVL and admins get them (bearer token or a link signed for them); others are refused."""

from __future__ import annotations

import csv
import datetime as dt
import io
from urllib.parse import urlsplit

import httpx
import pytest
from sqlmodel import select

from tests.factories import (
    actor_of,
    add_league,
    add_league_session,
    add_member,
    add_teams,
    add_waiver,
    login_token,
    make_user,
)
from tests.harness import call_handler
from volley_app import routes
from volley_app.models import Game, Payment, Role, Team, utcnow
from volley_app.pages.dash.leagues.home.state import LeagueHomeState
from volley_app.services.core import csvfile
from volley_app.services.core.errors import Forbidden, NotFound, Unauthorized
from volley_app.services.operations import exports
from volley_app.services.seasons import scheduling
from volley_app.services.teams import league_places, rosters, waivers


@pytest.fixture
def world(db):
    svl = make_user(db, "svla", Role.SVL)
    make_user(db, "svlb", Role.SVL)
    make_user(db, "root", Role.ADMIN)
    cap = make_user(db, "pat", first_name="=HYPERLINK(\"http://x\")", last_name="Ünal", email="pat@example.com")
    now = utcnow()
    sid = add_league_session(db, svl, "Fall", now + dt.timedelta(days=3), now + dt.timedelta(days=80))
    lg = add_league(db, svl, sid, start=now + dt.timedelta(days=4))
    ids = add_teams(db, lg, 3)
    team = db.get(Team, ids[0])
    team.captain_id, team.team_name = cap.id, "+Aces"
    db.add(team)
    rosters.add_captain(db, team)
    db.commit()
    scheduling.generate(db, actor_of(svl), lg.id)
    league_places.new_payment(db, lg, cap, team_name="@Late", until=now + dt.timedelta(hours=1))
    db.commit()
    add_waiver(db, actor_of(svl), lg.id)
    add_member(db, team.id, cap.id)
    waivers.sign_waiver(db, actor_of(cap), league_id=lg.id, typed_name="=HYPERLINK(\"http://x\") Ünal", adult=True,
                        ip="203.0.113.9", user_agent="Test browser")
    db.commit()
    return {"db": db, "lg": lg, "svl": actor_of(svl), "tokens": {n: login_token(db, n) for n in ("svla", "svlb", "root", "pat")}}


async def _get(backend, path: str, token: str | None = None) -> httpx.Response:
    _app, asgi = backend
    transport = httpx.ASGITransport(app=asgi, client=("203.0.113.9", 5000))
    headers = {"authorization": f"Bearer {token}"} if token else {}
    async with httpx.AsyncClient(transport=transport, base_url="http://localhost:3000") as client:
        return await client.get(path, headers=headers)


def scheduling_games(db, league_id: int) -> list[Game]:
    return list(db.exec(select(Game).where(Game.league_id == league_id).order_by(Game.start_at, Game.match)).all())


def _rows(body: bytes) -> list[list[str]]:
    assert body.startswith(b"\xef\xbb\xbf")  # UTF-8 with a byte order mark
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))


@pytest.mark.parametrize("kind", exports.KINDS)
@pytest.mark.parametrize(("who", "status"), [("svla", 200), ("root", 200), ("svlb", 403), ("pat", 403), (None, 401)])
async def test_who_may_download_each_export(backend, world, kind, who, status):
    got = await _get(backend, routes.export_path(world["lg"].id, kind), world["tokens"].get(who))
    assert got.status_code == status
    if status == 200:
        assert got.headers["content-type"].startswith("text/csv")
        name = got.headers["content-disposition"]
        assert f"monday-c-6s-{world['lg'].id}-{kind}-" in name and name.endswith('.csv"')
        assert len(_rows(got.content)) >= 2
    else:
        assert b"Team" not in got.content


async def test_a_signed_link_works_for_its_holder_and_not_when_altered(backend, world):
    links = exports.export_links(world["db"], world["svl"], world["lg"].id)
    got = await _get(backend, links["teams"])
    assert got.status_code == 200
    parts = urlsplit(links["teams"])
    forged = f"{parts.path}?{parts.query.replace('u=', 'u=9')}"
    assert (await _get(backend, forged)).status_code in (401, 403)
    other = links["teams"].replace("/teams.csv", "/payments.csv")  # a link is for one export
    assert (await _get(backend, other)).status_code == 401


def test_formulas_are_neutralised_and_captain_contact_is_in_the_teams_file(world):
    found = exports.export(world["db"], world["svl"], world["lg"].id, "teams")
    rows = _rows(found["data"])
    assert rows[0][:3] == ["Team", "Status", "Paid"]
    aces = next(r for r in rows if r[0].endswith("Aces"))
    assert aces[0] == "'+Aces"
    assert aces[3] == "'=HYPERLINK(\"http://x\")" and aces[4] == "Ünal" and aces[6] == "pat@example.com"
    schedule = _rows(exports.export(world["db"], world["svl"], world["lg"].id, "schedule")["data"])
    assert schedule[0] == ["Week", "Date", "Time", "Court", "Team 1", "Team 2", "Score", "Type", "Time zone"]
    assert {r[8] for r in schedule[1:]} == {"America/New_York"}
    assert any(r[4] == "'+Aces" or r[5] == "'+Aces" for r in schedule[1:])


def test_the_payments_file_holds_amounts_as_numbers_with_their_currency(world):
    db, lg = world["db"], world["lg"]
    [pay] = db.exec(select(Payment).where(Payment.league_id == lg.id)).all()
    rows = _rows(exports.export(db, world["svl"], lg.id, "payments")["data"])
    assert rows[0][3:5] == ["Amount", "Currency"]
    [late] = rows[1:]
    assert late[1] == "'@Late"
    assert late[3] == f"{pay.amount_cents // 100}.{pay.amount_cents % 100:02d}" and float(late[3]) * 100 == pay.amount_cents
    assert late[4] == "USD"
    assert not any("$" in cell for cell in late)


def test_the_signatures_file_says_who_signed_which_version_when_and_from_where(world):
    found = _rows(exports.export(world["db"], world["svl"], world["lg"].id, "signatures")["data"])
    assert found[0] == waivers.SIGNATURE_HEADER
    [pat] = found[1:]
    assert pat[0] == "1" and pat[1] == "'=HYPERLINK(\"http://x\")" and pat[5] == "'=HYPERLINK(\"http://x\") Ünal"
    assert pat[6:8] == ["", "Yes"] and pat[9:] == ["203.0.113.9", "Test browser"]


def test_the_standings_file_has_the_standings_pages_columns_in_its_order(world):
    db, lid = world["db"], world["lg"].id
    games = [g for g in scheduling_games(db, lid) if g.team2_id is not None]
    first = games[0]
    first.team1_game1_score, first.team2_game1_score, first.team1_game2_score, first.team2_game2_score = 21, 15, 21, 19
    db.add(first)
    db.commit()
    rows = _rows(exports.export(db, world["svl"], lid, "standings")["data"])
    assert rows[0][:5] == ["Place", "Team", "Played", "Wins", "Losses"] and rows[0][-1] == "Withdrawn"
    assert [r[0] for r in rows[1:]] == ["1", "2", "3"]
    winner = db.get(Team, first.team1_id).team_name
    top = rows[1]
    assert top[1].lstrip("'") == winner and top[2:7] == ["1", "1", "0", "2", "0"]
    assert top[8:10] == ["42", "34"]


@pytest.mark.parametrize("value", ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"])
def test_every_risky_first_character_is_neutralised(value):
    assert csvfile.safe_cell(value) == "'" + value
    assert csvfile.safe_cell("a=1") == "a=1"


def test_services_refuse_others_and_unknown_exports(world):
    db, lid = world["db"], world["lg"].id
    with pytest.raises(Unauthorized):
        exports.export(db, None, lid, "teams")
    with pytest.raises(NotFound):
        exports.export(db, world["svl"], lid, "passwords")
    with pytest.raises(Forbidden):
        exports.export_links(db, actor_of(make_user(db, "svlc", Role.SVL)), lid)


@pytest.mark.parametrize(("who", "offered"), [("svla", True), ("root", True), ("svlb", False), ("pat", False)])
async def test_the_league_home_offers_the_exports_to_its_operators_only(world, who, offered):
    path = f"/dash/leagues/{world['lg'].id}"
    state, _ev = await call_handler(world["tokens"][who], LeagueHomeState, path, "load")
    assert bool(state.export_links) is offered
    if offered:
        assert set(state.export_links) == set(exports.KINDS)
