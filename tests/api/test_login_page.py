"""The login page over HTTP, through the whole backend (spec section 2): the form drawn on the server, a login that
holds answered with a page that keeps the token where the app's pages look for it, and one that does not answered
with the form again and what went wrong; the failed-login ceiling, known devices, ``next``, and a form sent from
another site."""

from __future__ import annotations

import contextlib
import datetime as dt
import html
import json
import re

import pytest
import sqlalchemy as sa

from tests.api.test_security_headers import check_headers
from tests.factories import PASSWORD, count, make_user, rows
from volley_app import routes
from volley_app.models import LoginAttempt, LoginSession, OutboxMessage, Role
from volley_app.services.accounts import auth
from volley_app.services.core.errors import UNEXPECTED
from volley_app.settings import get_settings

VISITOR = "203.0.113.9"  # where the API tier's client comes from


def _origin() -> str:
    return get_settings().public_url.rstrip("/")


async def _post(client, form: dict | None = None, *, path: str = routes.LOGIN, headers: dict | None = None, **kw):
    sent = {"Origin": _origin(), **(headers or {})}
    return await client.post(path, data=form or {}, headers=sent, **kw)


async def _login(client, username: str = "bob", password: str = PASSWORD, *, trust: bool = True, next_path: str = "",
                 **kw):  # fmt: skip
    form = {"username": username, "password": password, "next": next_path, **({"trust": "on"} if trust else {})}
    return await _post(client, form, **kw)


def _error(page: str) -> str:
    found = re.search(r'<p class="alert" id="login-error" role="alert" aria-live="assertive" tabindex="-1">(.*?)</p>', page, re.S)
    assert found, page
    return html.unescape(found.group(1))


def _notice(page: str) -> str:
    found = re.search(r'<p class="sent" id="login-notice" role="status" tabindex="-1">(.*?)</p>', page, re.S)
    assert found, page
    return html.unescape(found.group(1))


def _done(page: str) -> dict:
    """What the answer to a login that holds leaves for its script: the token, the trust choice, where to go."""
    found = re.search(r'<script type="application/json" id="login-done">(.*?)</script>', page, re.S)
    assert found, page
    return json.loads(found.group(1))


async def test_the_form_is_drawn_on_the_server_with_its_fields_and_links(client):
    response = await client.get(routes.login_with_next("/dash/leagues/4"))
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    assert response.headers["cache-control"] == "no-store"
    check_headers(response)
    page = response.text
    assert "<title>Login</title>" in page and "<h1>Login</h1>" in page
    assert re.search(r'<input type="text" id="username" name="username" value=""[^>]* autofocus', page)
    assert re.search(r'<input type="password" id="password" name="password" required', page)
    assert re.search(r'<input type="checkbox" name="trust" value="on" checked>\s*Trust This Device', page)
    assert '<input type="hidden" name="next" value="/dash/leagues/4">' in page
    assert f'<a href="{_origin()}{routes.signup_with_next("/dash/leagues/4")}">Sign Up</a>' in page
    assert f'<a href="{_origin()}{routes.FORGOT_PASSWORD}">Forgot Password?</a>' in page
    assert not re.search(r"<script[^>]* src=", page)  # nothing to wait for: the form works as soon as it shows
    assert len(response.content) < 150_000
    bare = (await client.get(routes.LOGIN + "/")).text
    assert f'<a href="{_origin()}{routes.SIGNUP}">Sign Up</a>' in bare


async def test_a_login_that_holds_keeps_the_token_and_goes_to_dash(client, db):
    bob = make_user(db, "bob")
    db.commit()
    response = await _login(client, "BOB")
    assert response.status_code == 200 and response.headers["cache-control"] == "no-store"
    done = _done(response.text)
    assert done["trusted"] is True and done["target"] == routes.DASH
    assert done["keys"] == {"token": auth.BROWSER_TOKEN, "tab": auth.BROWSER_TAB_TOKEN, "trust": auth.BROWSER_TRUST,
                            "handover": auth.BROWSER_HANDOVER}
    assert done["handover"] is False  # the app's pages share this origin: the token is kept here
    resolved = auth.resolve(db, done["token"])
    assert resolved is not None and resolved.user_id == bob.id
    assert PASSWORD not in response.text
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"{auth.BROWSER_DEVICE}=") and "Path=/" in cookie and "SameSite=strict" in cookie
    assert f"Max-Age={auth.DEVICE_DAYS * 86400}" in cookie and "HttpOnly" not in cookie  # the app's pages read it
    db.expire_all()
    [session] = rows(db, LoginSession)
    assert session.trusted is True and session.client_ip == VISITOR


async def test_an_untrusted_login_keeps_the_token_for_this_tab_only(client, db):
    make_user(db, "bob")
    db.commit()
    done = _done((await _login(client, trust=False)).text)
    assert done["trusted"] is False and done["token"]
    db.expire_all()
    [session] = rows(db, LoginSession)
    assert session.trusted is False and session.expires_at - session.created_at == dt.timedelta(hours=12)


async def test_a_wrong_password_is_refused_counted_and_never_echoed(client, db):
    make_user(db, "bob")
    db.commit()
    response = await _login(client, "Bob", "wrong-secret")
    assert response.status_code == 401 and response.headers["cache-control"] == "no-store"
    assert _error(response.text) == "Unauthorized"
    assert 'value="bob"' in response.text and "wrong-secret" not in response.text  # the name kept, lower-cased
    assert 'aria-invalid="true" aria-describedby="login-error"' in response.text
    assert "login-done" not in response.text and "set-cookie" not in response.headers
    db.expire_all()
    assert count(db, LoginSession) == 0
    assert [(a.username, a.client) for a in rows(db, LoginAttempt)] == [("bob", VISITOR)]


async def test_an_unknown_user_is_answered_the_same(client, db):
    response = await _login(client, "nobody", "whatever")
    assert response.status_code == 401 and _error(response.text) == "Unauthorized"


@pytest.mark.parametrize("form", [{"username": "", "password": PASSWORD}, {"username": "bob", "password": ""}, {}])
async def test_a_missing_field_says_so(client, db, form):
    make_user(db, "bob")
    db.commit()
    response = await _post(client, form)
    assert response.status_code == 400 and _error(response.text) == "Missing Username or Password"
    db.expire_all()
    assert count(db, LoginSession) == 0


async def test_a_file_for_a_field_logs_nobody_in(client, db):
    make_user(db, "bob")
    db.commit()
    response = await _post(client, {"password": PASSWORD}, files={"username": ("bob.txt", b"bob")})
    assert response.status_code == 400 and _error(response.text) == "Missing Username or Password"
    db.expire_all()
    assert count(db, LoginSession) == 0


@pytest.mark.parametrize(
    ("next_path", "target"),
    [
        ("/dash/leagues/4", "/dash/leagues/4"),
        ("//evil.example", "/dash"),
        ("https://evil.example/x", "/dash"),
        ("/\\evil.example", "/dash"),
        ("/\t/evil.example", "/dash"),
        ("", "/dash"),
    ],
)
async def test_a_login_goes_back_only_inside_the_site(client, db, next_path, target):
    make_user(db, "bob")
    db.commit()
    assert _done((await _login(client, next_path=next_path)).text)["target"] == target


@pytest.mark.parametrize(
    ("roles", "next_path", "target"),
    [
        ((Role.PLAYER,), "/dash/sessions", "/dash"),
        ((Role.SVL,), "/dash/notes/new", "/dash/SVLHome"),
        ((Role.SVL,), "/dash/sessions/4", "/dash/sessions/4"),
        ((Role.ADMIN,), "/dash/SVLHome", "/dash/profile"),
    ],
)
async def test_a_login_sends_a_user_home_from_a_next_page_not_for_them(client, db, roles, next_path, target):
    make_user(db, "bob", *roles)
    db.commit()
    assert _done((await _login(client, next_path=next_path)).text)["target"] == target


async def test_the_form_refused_keeps_next_for_the_next_try(client, db):
    response = await _login(client, "bob", "wrong", next_path="/dash/leagues/4")
    assert '<input type="hidden" name="next" value="/dash/leagues/4">' in response.text


async def test_too_many_failures_are_throttled(client, db):
    make_user(db, "bob")
    db.commit()
    for _ in range(3):
        await _login(client, "bob", "wrong")
    response = await _login(client)
    assert response.status_code == 429
    assert "Too many failed login attempts" in _error(response.text) and "seconds" in _error(response.text)
    db.expire_all()
    assert count(db, LoginSession) == 0


@pytest.mark.parametrize("headers", [{"Origin": "https://evil.example"}, {"Origin": "null"},
                                     {"Origin": "", "Sec-Fetch-Site": "cross-site"}])  # fmt: skip
async def test_a_form_sent_from_another_site_logs_nobody_in(client, db, headers):
    make_user(db, "bob")
    db.commit()
    if headers.get("Origin") == "":
        response = await client.post(routes.LOGIN, data={"username": "bob", "password": PASSWORD, "trust": "on"},
                                     headers={"Sec-Fetch-Site": "cross-site"})  # fmt: skip
    else:
        response = await _login(client, headers=headers)
    assert response.status_code == 403 and "Please log in from this site" in _error(response.text)
    db.expire_all()
    assert count(db, LoginSession) == 0 and count(db, LoginAttempt) == 0


async def test_an_unexpected_failure_gives_the_form_back_with_a_message(client, db, monkeypatch):
    def database_down(*_args, **_kwargs):
        raise sa.exc.OperationalError("SELECT 1", {}, ConnectionError("database is down"))

    monkeypatch.setattr(auth, "login", database_down)
    response = await _login(client, "bob")
    assert response.status_code == 503 and _error(response.text) == UNEXPECTED
    assert 'value="bob"' in response.text


# --- the account's ceiling: a sign-in link, not a wait; known devices ------------------------------------------


def _spray_account(db, username: str = "bob") -> None:
    for i in range(get_settings().login_max_failures_per_account):
        with contextlib.suppress(auth.Unauthorized):
            auth.login(db, username=username, password="wrong", client=f"10.2.0.{i}")
        db.rollback()


async def test_at_the_ceiling_the_page_says_a_sign_in_link_was_emailed(client, db):
    make_user(db, "bob")
    db.commit()
    _spray_account(db)
    response = await _login(client)
    assert response.status_code == 202
    assert _notice(response.text) == auth.LINK_SENT and _error(response.text) == ""
    db.expire_all()
    assert count(db, LoginSession) == 0
    assert [m.kind for m in rows(db, OutboxMessage)] == ["sign_in_link"]


async def test_a_browser_that_logged_in_is_a_known_device_at_the_ceiling(client, db):
    make_user(db, "bob")
    db.commit()
    first = await _login(client)
    device = first.cookies[auth.BROWSER_DEVICE]
    _spray_account(db)
    client.cookies.clear()
    assert (await _login(client)).status_code == 202  # without its cookie: a browser the account does not know
    client.cookies.set(auth.BROWSER_DEVICE, device)
    again = await _login(client)
    assert again.status_code == 200 and _done(again.text)["target"] == routes.DASH


async def test_where_the_backend_has_an_origin_of_its_own_the_login_is_handed_to_the_apps(client, db, monkeypatch):
    """The dev server: the login page is the backend's (another port), the app's storage is on PUBLIC_URL's origin."""
    make_user(db, "bob")
    db.commit()
    monkeypatch.setattr(get_settings(), "backend_url", "http://localhost:8000")
    done = _done((await _login(client, next_path="/dash/leagues/4")).text)
    assert done["handover"] is True and done["keys"]["handover"] == auth.BROWSER_HANDOVER
    assert done["target"] == _origin() + "/dash/leagues/4"
    monkeypatch.setattr(get_settings(), "backend_url", _origin())
    assert _done((await _login(client)).text)["handover"] is False


# --- the app's first files, fetched once the person starts on the form--------------------------------------------

SHELL = """<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/><link href="/favicon.svg" rel="icon"/>
<link as="style" href="/assets/styles-A1.css" rel="preload"/><link rel="modulepreload" href="/assets/manifest-B2.js"/>
<link rel="modulepreload" href="/assets/entry.client-C3.js"/><link rel="modulepreload" href="/assets/react-D4.js"/>
<script>document.documentElement.classList.add("light")</script><script type="module" src="/assets/boot-E5.js"></script>
<link href="/assets/styles-A1.css" rel="stylesheet" type="text/css"/><link href="https://fonts.example/x.css" rel="stylesheet"/>
</head><body><script type="module" async="">import("/assets/entry.client-C3.js");</script></body></html>"""
SHELL_FILES = ["/assets/manifest-B2.js", "/assets/entry.client-C3.js", "/assets/react-D4.js", "/assets/boot-E5.js",
               "/assets/styles-A1.css"]  # fmt: skip


def _prefetched(page: str) -> list[str]:
    """The files the login form has the browser fetch once the person starts on it (its ``data-ahead``)."""
    found = re.search(r'<form [^>]*data-ahead="([^"]*)"', page)
    return found.group(1).split() if found else []


@pytest.fixture
def build(tmp_path, monkeypatch):
    """Where the frontend build of this test lives (REFLEX_WEB_WORKDIR), empty until the test writes its pages."""
    monkeypatch.setenv("REFLEX_WEB_WORKDIR", str(tmp_path / "web"))
    return tmp_path / "web" / "build" / "client"


async def test_the_login_page_fetches_ahead_the_files_the_builds_pages_link(client, db, build):
    build.mkdir(parents=True)
    (build / "index.html").write_text(SHELL)
    response = await client.get(routes.LOGIN)
    assert response.status_code == 200
    check_headers(response)
    assert _prefetched(response.text) == SHELL_FILES  # the page's own, in its order, each once; no other site's
    assert 'rel="prefetch"' not in response.text  # nothing fetched before the person starts on the form
    assert _prefetched((await client.get(routes.login_with_next("/dash/leagues/4"))).text) == SHELL_FILES
    refused = await _login(client, "nobody", "wrong")
    assert refused.status_code == 401 and _prefetched(refused.text) == SHELL_FILES  # the form again, to type in
    home = await client.get(routes.HOME)  # a visitor who never logs in pays nothing for the app
    assert home.status_code == 200 and _prefetched(home.text) == [] and "prefetch" not in home.text


async def test_the_players_home_adds_its_own_files_to_the_shells(client, build):
    (build / "dash").mkdir(parents=True)
    (build / "index.html").write_text(SHELL)
    dash = SHELL.replace('rel="modulepreload" href="/assets/react-D4.js"/>',
                         'rel="modulepreload" href="/assets/react-D4.js"/><link rel="modulepreload" href="/assets/_dash_._index-F6.js"/>')  # fmt: skip
    (build / "dash" / "index.html").write_text(dash)
    assert _prefetched((await client.get(routes.LOGIN)).text) == [*SHELL_FILES, "/assets/_dash_._index-F6.js"]


async def test_without_a_build_the_login_page_fetches_nothing_ahead(client, build):
    response = await client.get(routes.LOGIN)
    assert response.status_code == 200 and "<h1>Login</h1>" in response.text
    assert _prefetched(response.text) == [] and 'data-ahead=""' in response.text
    build.mkdir(parents=True)  # a build folder without its pages is no build
    assert _prefetched((await client.get(routes.LOGIN)).text) == []


async def test_where_the_apps_pages_are_on_another_origin_nothing_is_fetched_ahead(client, build, monkeypatch):
    """The dev server: its pages are not the build's, and this origin serves none of the build's files."""
    build.mkdir(parents=True)
    (build / "index.html").write_text(SHELL)
    monkeypatch.setattr(get_settings(), "backend_url", "http://localhost:8000")
    assert _prefetched((await client.get(routes.LOGIN)).text) == []
