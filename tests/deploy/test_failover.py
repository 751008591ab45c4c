"""Two backend instances behind nginx: the instance holding a user's websocket dies and nobody loses a thing."""

from __future__ import annotations

import datetime as dt
import re
import time

from playwright.sync_api import Page, expect
from sqlmodel import select

from tests.e2e.helpers import PASSWORD, expect_path, log_in
from tests.factories import actor_of, make_user
from volley_app import db as dbmod
from volley_app.models import Rating, SubRequest, SubStatus
from volley_app.services.subs import request_replies


def _watch_upstreams(page: Page) -> list[str]:
    """The instance (host:port) each websocket handshake of ``page`` reached, in order (nginx names it)."""
    seen: list[str] = []
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")

    def handshake(event):
        headers = {k.lower(): v for k, v in event["response"]["headers"].items()}
        if "x-volley-upstream" in headers:
            seen.append(headers["x-volley-upstream"])

    cdp.on("Network.webSocketHandshakeResponseReceived", handshake)
    return seen


def _wait_for(predicate, page: Page, timeout: float = 30.0, what: str = "") -> None:
    ends = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > ends:
            raise AssertionError(f"timed out waiting for {what}")
        page.wait_for_timeout(100)


def _requests(team: str) -> list[SubRequest]:
    return dbmod.call(lambda s: list(s.exec(select(SubRequest).where(SubRequest.team == team)).all()))


def test_the_instance_holding_the_websocket_dies_and_the_user_carries_on(deployment, browser, db):
    anna = make_user(db, "anna", password=PASSWORD, first_name="Anna")
    bruno = make_user(db, "bruno", first_name="Bruno", sub=True, hitter_skill_level=Rating.B,
                      passer_skill_level=Rating.C, setter_skill_level=Rating.A)  # fmt: skip
    context = browser.new_context(base_url=deployment.url, viewport={"width": 1280, "height": 800})
    context.set_default_timeout(20_000)
    page = context.new_page()
    upstreams = _watch_upstreams(page)

    log_in(page, "anna")
    expect_path(page, "/dash")
    page.goto("/dash/notes/new")
    expect(page.get_by_role("heading", name="Create Sub Request")).to_be_visible()
    _wait_for(lambda: bool(upstreams), page, what="the websocket")
    page.wait_for_timeout(1000)  # the page's loads have run

    # Half the form, then the instance holding the websocket is killed (no goodbye).
    page.get_by_label("Team").fill("Spike Force")
    page.get_by_label("Location").fill("Lexington Sportsplex")
    page.get_by_label("Court").fill("Court 2")
    holder = deployment.instance_at(upstreams[-1])
    handshakes = len(upstreams)
    deployment.kill(holder)
    _wait_for(lambda: len(upstreams) > handshakes, page, what="the reconnect to the other instance")
    survivor = deployment.instance_at(upstreams[-1])
    assert survivor != holder
    page.wait_for_timeout(1500)  # the reconnect's hydrate has been answered

    # Same login, same typed values; the user carries on and the request is created.
    expect_path(page, "/dash/notes/new")
    expect(page.get_by_label("Team")).to_have_value("Spike Force")
    expect(page.get_by_label("Location")).to_have_value("Lexington Sportsplex")
    expect(page.get_by_label("Court")).to_have_value("Court 2")
    when = (dt.date.today() + dt.timedelta(days=4)).isoformat() + "T19:30"
    page.get_by_label("Date and Time").fill(when)
    page.get_by_label("Skill Level").select_option("C")
    page.get_by_label("Format").select_option("6s")
    page.get_by_label("Message").fill("We need a passer.")
    page.get_by_role("button", name="Create Sub Request").click()
    expect(page).to_have_url(re.compile(r"/dash/notes/\d+$"))
    (request,) = _requests("Spike Force")
    assert request.requestor_id == anna.id and request.svl == "Lexington Sportsplex" and request.court == "Court 2"

    # The killed instance comes back; My Sub Requests stays open while the instance it is on stops gracefully.
    deployment.start(holder)
    page.goto("/dash/notes/notifications")
    row = page.get_by_test_id("request-item").filter(visible=True).filter(has_text="Spike Force")
    expect(row).to_be_visible()
    expect(row).not_to_contain_text("Accepted")
    _wait_for(lambda: len(upstreams) > handshakes + 1, page, what="the websocket of My Sub Requests")
    page.wait_for_timeout(1000)  # its poll has started
    on = deployment.instance_at(upstreams[-1])
    handshakes = len(upstreams)
    deployment.stop(on)
    _wait_for(lambda: len(upstreams) > handshakes, page, what="the reconnect after the graceful stop")
    assert deployment.instance_at(upstreams[-1]) != on

    dbmod.call(request_replies.accept, actor_of(bruno), request.id)
    assert _requests("Spike Force")[0].status == SubStatus.ACCEPTED
    # The list refreshes on its own (every 15 s) from the instance the tab is on now.
    expect(row).to_contain_text("Accepted", timeout=40_000)
    expect_path(page, "/dash/notes/notifications")  # still logged in
    context.close()


def test_no_response_sends_the_browser_off_the_public_address(deployment):
    import http.client
    from urllib.parse import urlsplit

    public = urlsplit(deployment.url)
    for path in ("/dash", "/dash/", "/login/", "/assets", "/dash/sessions/", "/api/users/me/", "/_health", "/nope/"):
        conn = http.client.HTTPConnection(public.hostname, public.port, timeout=10)
        conn.request("GET", path, headers={"Host": public.netloc})
        response = conn.getresponse()
        location = response.getheader("Location") or ""
        conn.close()
        assert response.status < 500, (path, response.status)
        if 300 <= response.status < 400:
            assert location.startswith("/") or location.startswith(deployment.url), (path, location)
