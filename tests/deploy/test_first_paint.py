"""Behind nginx: a player's home and a league's standings asked for with the device's login cookie reach a backend,
which draws them for that login; without it, nginx serves the build's page itself."""

from __future__ import annotations

import datetime as dt

import httpx

from tests.factories import add_league, add_league_session, add_teams, login_token, make_user
from volley_app.api.first_paint import COOKIE, TAG
from volley_app.models import Role, utcnow
from volley_app.settings import get_settings


def _get(deployment, path: str, token: str | None = None) -> httpx.Response:
    headers = {"Accept": "text/html"} | ({"Cookie": f"{COOKIE}={token}"} if token else {})
    return httpx.get(deployment.url + path, headers=headers, timeout=30)


def test_the_home_and_standings_are_drawn_for_a_login_cookie_and_served_as_built_without(deployment, db,
                                                                                         monkeypatch):
    for n in (1, 2):  # both instances run (an earlier test may have stopped one)
        deployment.start(n)
    svl = make_user(db, "paintsvl", Role.SVL)
    make_user(db, "paintplayer")
    now = utcnow()
    sid = add_league_session(db, svl, "Paint", now - dt.timedelta(days=10), now + dt.timedelta(days=60))
    league = add_league(db, svl, sid, start=now - dt.timedelta(days=7))
    add_teams(db, league, 2, prefix="Painted")
    db.commit()
    monkeypatch.setenv("SECRET_KEY", deployment.env["SECRET_KEY"])  # a login's token is kept as the instances keep it
    get_settings.cache_clear()
    try:
        token = login_token(db, "paintplayer")
    finally:
        monkeypatch.undo()
        get_settings.cache_clear()

    home = _get(deployment, "/dash", token)
    assert home.status_code == 200 and f"<{TAG} " in home.text and "Welcome, Paintplayer" in home.text
    assert home.headers["cache-control"] == "private, no-store"
    assert len(home.headers.get_list("content-security-policy")) == 1
    standings = _get(deployment, f"/dash/leagues/{league.id}/teams", token)
    assert f"<{TAG} " in standings.text and "Painted1" in standings.text

    for path, sent in (("/dash", None), ("/dash", "no-such-login"), ("/dash/leagues", token)):
        built = _get(deployment, path, sent)
        assert built.status_code == 200 and f"<{TAG} " not in built.text, (path, sent)
        assert "data-is-root-theme" in built.text  # the build's own page
    assert _get(deployment, "/dash").headers["cache-control"] == "no-cache"  # nginx's, for the build's pages
