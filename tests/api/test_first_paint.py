"""A player's home and a league's standings drawn by the server for the login in the device's cookie: drawn for that
login only, never for another or for none, never kept by a cache; the build's own page wherever nothing is drawn."""

from __future__ import annotations

import datetime as dt
import gzip

import httpx
import pytest

from tests.factories import add_game, add_league, add_league_session, add_member, add_teams, player_world, rows
from volley_app import routes
from volley_app.api import first_paint
from volley_app.api.script_policy import LATER_MODULE, inline_script_hashes
from volley_app.models import LoginSession, User, utcnow
from volley_app.services.accounts import auth

BASE = "http://localhost:3000"
# The build's pages as far as the copy needs them: the prerendered frame of /dash (header, main column with the
# spinner, footer) and the app's fallback page, each with a script the page boots with.
FRAME = ('<div data-is-root-theme="true" class="radix-themes"><header><div role="navigation" aria-label="Main">'
         '<a href="/dash">Home</a></div></header><main class="m"><div aria-label="Loading" role="status"></div></main>'
         "<footer><p>footer</p></footer></div>")  # fmt: skip
MODULE = 'import "/assets/root.js";\nimport("/assets/entry.client.js");'
HOME = (f'<!DOCTYPE html><html><head><title>Home</title><link rel="modulepreload" href="/assets/root.js"/></head>'
        f"<body>{FRAME}<script>boot('home')</script><script type=\"module\" async=\"\">{MODULE}</script></body></html>")
FALLBACK = "<!DOCTYPE html><html><head><title>App</title></head><body><script>boot('any')</script></body></html>"


@pytest.fixture
def build(tmp_path):
    (tmp_path / "dash").mkdir()
    (tmp_path / first_paint.HOME_FILE).write_text(HOME)
    (tmp_path / first_paint.FALLBACK_FILE).write_text(FALLBACK)
    first_paint._file.cache_clear()
    first_paint._frame.cache_clear()
    yield tmp_path
    first_paint._file.cache_clear()
    first_paint._frame.cache_clear()


async def _inner(scope, receive, send):
    """What answers every request the first paint passes on (the static files, the app)."""
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": b"inner"})


def _client(root) -> httpx.AsyncClient:
    app = first_paint.FirstPaint(_inner, lambda: root)
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=BASE)


async def _open(root, path: str, token: str | None, *, method: str = "GET", **headers: str) -> httpx.Response:
    sent = {"Accept": "text/html,application/xhtml+xml", **headers}
    if token is not None:
        sent["Cookie"] = f"{first_paint.COOKIE}={token}"
    async with _client(root) as c:
        return await c.request(method, path, headers=sent)


@pytest.fixture
def world(db):
    found = player_world(db)
    svl = rows(db, User, User.username == "svl")[0]
    now = utcnow()
    sid = add_league_session(db, svl, "Winter", now - dt.timedelta(days=20), now + dt.timedelta(days=60))
    league = add_league(db, svl, sid, start=now - dt.timedelta(days=14))
    teams = add_teams(db, league, 2, prefix="Spikers")
    add_member(db, teams[0], found["ids"]["alice"])
    add_game(db, league.id, teams[0], teams[1], now + dt.timedelta(days=2))
    db.commit()
    return {**found, "league": league}


def _copy(page: str) -> str:
    start = page.index(f"<{first_paint.TAG} ")
    return page[start:page.index(f"</{first_paint.TAG}>") + len(first_paint.TAG) + 3]


async def test_the_home_is_drawn_for_the_login_in_the_cookie(world, build):
    token = world["tokens"]["alice"]
    response = await _open(build, routes.DASH, token)
    assert response.status_code == 200
    page = response.text
    copy = _copy(page)
    assert "Welcome, Alice" in copy and "Net Ninjas" in copy  # her open requests
    assert "Spikers1 v Spikers2" in copy  # her team's next game, her answer's buttons with it
    assert 'data-answer="Maybe"' in copy
    assert f'data-who="{token[-first_paint.WHO:]}"' in copy and 'aria-busy="true"' in copy
    assert f'<meta name="{first_paint.DRAWN}" content="{token[-first_paint.WHO:]}"/>' in page
    assert page.count("<title>") == 1 and "<title>Home | " in page
    # The build's page as it is around it: its frame in the copy, its own root and script after it.
    assert page.index("<body>") < page.index(copy) < page.index(FRAME) < page.index("boot('home')")
    assert "Loading" not in copy and '<header><div role="navigation"' in copy
    # The app's modules are fetched once the copy has painted, not beside the stylesheet its paint waits for.
    assert "modulepreload" not in page and '<script type="module"' not in page
    assert f'<script type="{LATER_MODULE}" async="">{MODULE}</script>' in page
    assert response.headers["cache-control"] == "private, no-store"
    assert "Cookie" in response.headers["vary"]


async def test_the_standings_are_drawn_with_the_app_fallback_page(world, build):
    league = world["league"]
    response = await _open(build, f"/dash/leagues/{league.id}/teams", world["tokens"]["ben"])
    copy = _copy(response.text)
    assert "Standings: " in copy and "Spikers1" in copy and "Spikers2" in copy
    assert "How standings are calculated" in copy
    assert response.text.count("<title>") == 1 and "<title>Standings | " in response.text  # the fallback has none
    assert response.text.index(copy) < response.text.index("boot('any')")
    assert "Welcome" not in copy


async def test_each_login_sees_only_its_own_home(world, build):
    alice = _copy((await _open(build, routes.DASH, world["tokens"]["alice"])).text)
    ben = _copy((await _open(build, routes.DASH, world["tokens"]["ben"])).text)
    assert "Welcome, Ben" in ben and "Spikers1" not in ben  # alice's team, not his
    assert "Welcome, Alice" in alice and "Spikers1" in alice


@pytest.mark.parametrize("who", ["svl", "root"])
async def test_an_operator_or_admin_gets_the_build_page_as_it_is(world, build, who):
    response = await _open(build, routes.DASH, world["tokens"][who])
    assert response.status_code == 200 and response.text == HOME
    assert response.headers["cache-control"] == "private, no-store"


async def test_a_login_that_no_longer_holds_gets_nothing_drawn(world, build, db):
    token = world["tokens"]["alice"]
    auth.logout(db, token)
    db.commit()
    assert (await _open(build, routes.DASH, token)).text == HOME
    assert (await _open(build, routes.DASH, "not-a-token")).text == HOME
    assert (await _open(build, routes.DASH, "x" * 300)).text == HOME
    assert [r.revoked_at is not None for r in rows(db, LoginSession)].count(True) == 1


async def test_a_league_the_player_may_not_read_gets_nothing_drawn(world, build):
    token = world["tokens"]["alice"]
    assert (await _open(build, "/dash/leagues/999999/teams", token)).text == FALLBACK


@pytest.mark.parametrize(("path", "token", "method", "accept"), [
    (routes.DASH, None, "GET", "text/html"),  # no login on the device
    (routes.DASH, "alice", "GET", "application/json"),  # not a page
    (routes.DASH, "alice", "POST", "text/html"),
    (routes.DASH_LEAGUES, "alice", "GET", "text/html"),  # a page not drawn here
    ("/dash/leagues/1/teams/extra", "alice", "GET", "text/html"),
])  # fmt: skip
async def test_anything_else_goes_on_to_the_app(world, build, path, token, method, accept):
    response = await _open(build, path, world["tokens"].get(token or "", None) if token else None, method=method,
                           Accept=accept)  # fmt: skip
    assert response.text == "inner"


async def test_without_a_build_everything_goes_on_to_the_app(world, tmp_path):
    first_paint._file.cache_clear()
    assert (await _open(tmp_path, routes.DASH, world["tokens"]["alice"])).text == "inner"


async def test_the_page_is_gzipped_for_a_browser_that_takes_it_and_a_head_has_no_body(world, build):
    token = world["tokens"]["alice"]
    async with _client(build) as c:
        sent = {"Accept": "text/html", "Cookie": f"{first_paint.COOKIE}={token}", "Accept-Encoding": "gzip"}
        response = await c.send(c.build_request("GET", routes.DASH, headers=sent), stream=True)
        raw = b"".join([part async for part in response.aiter_raw()])
        assert response.headers["content-encoding"] == "gzip"
        assert "Welcome, Alice" in gzip.decompress(raw).decode()
        head = await c.head(routes.DASH, headers=sent)
        assert head.status_code == 200 and head.content == b""


async def test_the_whole_backend_draws_it_with_its_security_headers(world, build, backend, monkeypatch):
    """Through every layer the backend has (the host check, the headers, the inline scripts' hashes)."""
    from volley_app.api import security

    monkeypatch.setattr(security, "built_pages", lambda: build)
    app = security.protect(_inner)
    transport = httpx.ASGITransport(app=app, client=("203.0.113.9", 5000))
    async with httpx.AsyncClient(transport=transport, base_url=BASE) as c:
        sent = {"Accept": "text/html", "Cookie": f"{first_paint.COOKIE}={world['tokens']['alice']}"}
        response = await c.get(routes.DASH, headers=sent)
    assert "Welcome, Alice" in response.text
    policy = response.headers["content-security-policy"]
    assert inline_script_hashes(f"<script>{MODULE}</script>".encode())[0] in policy  # the module started after the paint may run
    assert "'sha256-" in policy and "'unsafe-inline'" not in policy.split("script-src", 1)[1].split(";")[0]
    assert response.headers["x-frame-options"] == "DENY"


async def test_a_copy_that_cannot_be_drawn_leaves_the_build_page_as_it_is(world, build, monkeypatch, caplog):
    def broken(*_args):
        raise RuntimeError("a template gone wrong")

    monkeypatch.setattr(first_paint, "_drawn_page", broken)
    response = await _open(build, routes.DASH, world["tokens"]["alice"])
    assert response.status_code == 200 and response.text == HOME
    assert "a first paint was not drawn" in caplog.text


async def test_a_build_whose_frame_is_not_as_expected_gets_nothing_drawn(world, build):
    (build / first_paint.HOME_FILE).write_text(HOME.replace("</footer></div>", "</footer>"))  # the root never closes
    first_paint._file.cache_clear()
    response = await _open(build, routes.DASH, world["tokens"]["alice"])
    assert response.status_code == 200 and f"<{first_paint.TAG} " not in response.text
