"""In the browser: every page and static file carries the security headers, no page can be framed,
and the policy blocks nothing the app itself uses."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import log_in, make_user, screenshot
from volley_app import registry, routes

pytestmark = pytest.mark.smoke  # also run on the second database (scripts/test.sh, E2E=smoke)


def _page_paths() -> list[str]:
    """Every declared page, dynamic segments filled with 1, and the pages the backend draws."""
    drawn = [routes.HOME, routes.LOGIN, routes.public_leagues_base]
    return [re.sub(r"\[[^\]]+\]", "1", p.route) or "/" for p in registry.discover()] + drawn


def _check(response) -> None:
    h = response.headers
    assert h.get("x-content-type-options") == "nosniff", response.url
    assert h.get("referrer-policy") == "strict-origin-when-cross-origin", response.url
    assert h.get("x-frame-options") == "DENY", response.url
    assert "frame-ancestors 'none'" in h.get("content-security-policy", ""), response.url
    assert "camera=()" in h.get("permissions-policy", ""), response.url


def test_every_page_and_static_file_has_the_security_headers(page, app_url):
    paths = _page_paths()
    assert "/login" in paths and len(paths) > 30
    for path in paths:
        response = page.request.get(app_url.rstrip("/") + path)
        assert response.status == (404 if path == routes.NOT_FOUND else 200), path  # the page for unknown addresses
        _check(response)
    html = page.request.get(app_url + "contact").text()  # a page of the app, with the build's files
    assets = sorted(set(re.findall(r'(?:src|href)="(/[^"]+\.(?:js|css|svg))"', html)))
    assert assets
    for asset in assets:
        response = page.request.get(app_url.rstrip("/") + asset)
        assert response.status == 200, asset
        _check(response)


def test_a_foreign_page_cannot_frame_the_login(page, app_url):
    page.set_content(f'<iframe id="f" src="{app_url}login" width="600" height="400"></iframe>')
    page.wait_for_load_state("load")
    [child] = [f for f in page.frames if f != page.main_frame]
    # The browser refuses to show the page inside a foreign one: the frame holds its error page instead.
    assert child.url.startswith("chrome-error://"), child.url
    expect(page.frame_locator("#f").get_by_role("button", name="Login")).to_have_count(0)


def test_the_policy_blocks_nothing_the_app_uses(page):
    violations: list[str] = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    make_user("cspuser")
    page.goto("/")
    log_in(page, "cspuser")
    expect(page).to_have_url(re.compile(r"/dash/?$"))
    page.goto("/dash/playerinfo")
    expect(page.get_by_text("cspuser").first).to_be_visible()
    assert violations == []


def _guessed(username: str) -> None:
    """The account's failed-login ceiling reached, by guessers at other addresses."""
    from volley_app import db
    from volley_app.services.accounts import auth
    from volley_app.services.core import errors
    from volley_app.settings import get_settings

    for i in range(get_settings().login_max_failures_per_account):
        try:
            db.call(auth.login, username=username, password="wrong", client=f"10.4.0.{i}")
        except errors.Unauthorized:
            pass


def test_at_the_ceiling_the_owner_follows_the_emailed_link_in(new_page, mailbox):

    make_user("erinsec")
    _guessed("erinsec")
    for width in (1280, 390):
        page = new_page(width=width, height=800)
        page.goto("/login")
        log_in(page, "erinsec")
        notice = page.locator("#login-notice")
        expect(notice).to_contain_text("we emailed you a sign-in link")
        expect(page).to_have_url(re.compile(r"/login"))
        screenshot(page, f"login-sign-in-link-{width}")
    messages = mailbox.wait_for(2, timeout=20)
    assert [m["To"] for m in messages] == ["erinsec@example.com"] * 2
    body = messages[-1].get_body(preferencelist=("plain",)).get_content()
    link = re.search(r"https?://\S+/signIn/\d+/\S+", body).group(0)
    page = new_page(width=390, height=800)
    page.goto(link)
    expect(page).to_have_url(re.compile(r"/dash/?$"))
    expect(page.get_by_text("erinsec").first).to_be_visible()
    # Used once: the same link again, in another browser, says so and signs nobody in.
    other = new_page(width=390, height=800)
    other.goto(link)
    expect(other.get_by_text("This sign-in link is invalid, used or expired.")).to_be_visible()
    screenshot(other, "sign-in-link-used-390")


def test_inline_scripts_run_by_hash_and_an_injected_one_does_not(page):
    response = page.goto("/login")
    script_src = re.search(r"script-src ([^;]*)", response.headers["content-security-policy"]).group(1).split()
    assert "'unsafe-inline'" not in script_src and any(s.startswith("'sha256-") for s in script_src)
    expect(page.get_by_role("button", name="Login")).to_be_visible()  # the page's own inline scripts ran
    page.evaluate("() => { const s = document.createElement('script');"
                  " s.textContent = 'window.__injected = 1'; document.head.appendChild(s); }")  # fmt: skip
    assert page.evaluate("() => window.__injected === undefined")
