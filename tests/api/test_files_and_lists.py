"""Files and lists over HTTP: a league's bracket for readers of the league (cached privately, never in state); open requests by the page."""

from __future__ import annotations

import datetime as dt
from urllib.parse import parse_qs, quote, urlsplit

import httpx
import pytest

from tests.factories import add_league, add_league_session, login_token, make_user
from tests.harness import call, page_state
from volley_app import routes
from volley_app.models import Role, utcnow
from volley_app.pages.dash.leagues.home.state import LeagueHomeState
from volley_app.services.core.actors import Actor
from volley_app.services.seasons import leagues
from volley_app.settings import get_settings

PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 3000


@pytest.fixture
def upload_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("UPLOAD_DIR", str(tmp_path / "uploads"))
    get_settings.cache_clear()
    yield tmp_path / "uploads"
    get_settings.cache_clear()


@pytest.fixture
def world(db, upload_dir):
    svl = make_user(db, "svla", Role.SVL)
    pat = make_user(db, "pat")
    make_user(db, "gone", active=False)
    now = utcnow()
    sid = add_league_session(db, svl, "Fall", now + dt.timedelta(days=3), now + dt.timedelta(days=80))
    lg = add_league(db, svl, sid, start=now + dt.timedelta(days=4))
    hidden = add_league(db, svl, sid, start=now + dt.timedelta(days=4), active=False)
    svl_actor = Actor(user_id=svl.id, username="svla", roles=("SVL",), first_name="Svla")
    for league in (lg, hidden):
        leagues.upload_bracket(db, svl_actor, league.id, data=PNG)
    db.commit()
    pat_actor = Actor(user_id=pat.id, username="pat", roles=("Player",), first_name="Pat")
    return {"db": db, "league": lg.id, "hidden": hidden.id, "pat": pat_actor,
            "tokens": {n: login_token(db, n) for n in ("svla", "pat")}}  # fmt: skip


async def _get(backend, path: str, **headers) -> httpx.Response:
    _app, asgi = backend
    transport = httpx.ASGITransport(app=asgi, client=("203.0.113.9", 5000))
    async with httpx.AsyncClient(transport=transport, base_url="http://localhost:3000") as client:
        return await client.get(path, headers={k.replace("_", "-"): v for k, v in headers.items()})


async def test_a_reader_with_a_token_gets_the_file_privately_cached(backend, world):
    path = routes.bracket_file_path(world["league"])
    got = await _get(backend, path, authorization=f"Bearer {world['tokens']['pat']}")
    assert got.status_code == 200 and got.content == PNG
    assert got.headers["content-type"] == "image/png"
    assert got.headers["cache-control"] == "private, max-age=3600"
    assert got.headers["x-content-type-options"] == "nosniff"
    again = await _get(backend, path, authorization=f"Bearer {world['tokens']['pat']}", if_none_match=got.headers["etag"])
    assert again.status_code == 304 and again.content == b""


async def test_a_signed_link_works_for_its_reader_only_while_it_holds(backend, world):
    db = world["db"]
    link = leagues.bracket_link(db, world["pat"], world["league"])
    assert (await _get(backend, link)).content == PNG
    query = parse_qs(urlsplit(link).query)
    base = routes.bracket_file_path(world["league"])
    other_user = f"{base}?u={int(query['u'][0]) + 1}&e={query['e'][0]}&s={query['s'][0]}"
    later = f"{base}?u={query['u'][0]}&e={int(query['e'][0]) + 3600}&s={query['s'][0]}"
    for forged in (base, other_user, later, f"{base}?u=x&e=&s="):
        assert (await _get(backend, forged)).status_code in (401, 403), forged
    old = leagues.bracket_link(db, world["pat"], world["league"], now=utcnow() - dt.timedelta(hours=3))
    assert (await _get(backend, old)).status_code == 401


async def test_a_link_to_a_replaced_bracket_no_longer_works(backend, world):
    db = world["db"]
    link = leagues.bracket_link(db, world["pat"], world["league"])
    svl = Actor(user_id=int(parse_qs(urlsplit(link).query)["u"][0]) - 1, username="svla", roles=("SVL",), first_name="S")
    leagues.upload_bracket(db, svl, world["league"], data=PNG + b"new")
    db.commit()
    assert (await _get(backend, link)).status_code == 401
    assert (await _get(backend, leagues.bracket_link(db, world["pat"], world["league"]))).content == PNG + b"new"


async def test_an_inactive_league_bracket_is_not_found_for_a_player(backend, world):
    path = routes.bracket_file_path(world["hidden"])
    assert (await _get(backend, path, authorization=f"Bearer {world['tokens']['pat']}")).status_code == 404
    assert (await _get(backend, path, authorization=f"Bearer {world['tokens']['svla']}")).status_code == 200
    assert (await _get(backend, routes.bracket_file_path("nope"))).status_code == 404


async def test_the_league_home_state_holds_a_link_not_the_file(world):
    _root, s = page_state(LeagueHomeState, routes.league_path(world["league"]), world["tokens"]["pat"])
    await call(s.load)
    assert s.bracket_url.startswith("http") and f"/api/leagues/{world['league']}/bracket?u=" in s.bracket_url
    assert len(repr(s.dict())) < 10_000


async def test_open_requests_by_the_page_over_rest(backend, world):
    from tests.factories import actor_of
    from volley_app.models import User
    from volley_app.services.subs import request_changes

    db = world["db"]
    alice = actor_of(make_user(db, "alice"))
    for i in range(30):
        request_changes.create(db, alice, team=f"Team {i:02}", date=utcnow() + dt.timedelta(days=2 + i), svl="Gym",
                            skill_level="C", format="6s")  # fmt: skip
    db.commit()
    auth = {"authorization": f"Bearer {world['tokens']['pat']}"}
    first = (await _get(backend, "/api/sub-requests/open", **auth)).json()
    assert len(first["rows"]) == 25 and first["total"] == 30 and first["previous"] == ""
    assert not any("@" in str(v) for r in first["rows"] for v in r.values())
    second = (await _get(backend, f"/api/sub-requests/open?page={quote(first['next'])}", **auth)).json()
    assert [r["team"] for r in second["rows"]] == [f"Team {i}" for i in range(25, 30)] and second["next"] == ""
    searched = (await _get(backend, "/api/sub-requests/open?q=team%2029", **auth)).json()
    assert [r["team"] for r in searched["rows"]] == ["Team 29"]
    assert (await _get(backend, "/api/sub-requests/open")).status_code == 401
    assert (await _get(backend, "/api/sub-requests/open?date_from=soon", **auth)).status_code == 422
    assert db.get(User, alice.user_id) is not None
