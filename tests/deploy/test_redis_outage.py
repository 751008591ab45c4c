"""Redis out of reach for ten seconds under two instances: the open pages say so and recover by themselves.

The instances reach Redis through a link the test cuts (``deployment.redis_link``);
the Redis server itself is never touched.
"""

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
from volley_app.services.core.clock import utcnow
from volley_app.services.subs import request_changes, request_replies
from volley_app.state.outage import TRY_AGAIN

OUTAGE_SECONDS = 10
GENERIC_ERROR = "Contact the website administrator"
# Set in each page once it has loaded; a reload of the page would lose it.
MARK = "window.__sameDocument = true"
SAME_DOCUMENT = "window.__sameDocument === true"
# The tab's client token: while it stays the same, the tab's state on the server is the one it had.
TAB_TOKEN = "window.sessionStorage.getItem('token')"


def _wait_until(predicate, page: Page, timeout: float, what: str) -> None:
    ends = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > ends:
            raise AssertionError(f"timed out waiting for {what}")
        page.wait_for_timeout(200)


def _requests(team: str) -> list[SubRequest]:
    return dbmod.call(lambda s: list(s.exec(select(SubRequest).where(SubRequest.team == team)).all()))


def test_a_redis_outage_passes_and_the_pages_recover_without_a_reload(deployment, browser, db):
    for n in (1, 2):  # both instances run (an earlier test may have stopped one)
        deployment.start(n)
    carla = make_user(db, "carla", password=PASSWORD, first_name="Carla")
    dario = make_user(db, "dario", first_name="Dario", sub=True, hitter_skill_level=Rating.B)
    listed = request_changes.create(db, actor_of(carla), team="Block Party", date=utcnow() + dt.timedelta(days=3),
                                 svl="Sportsplex", skill_level="C", format="6s")  # fmt: skip
    db.commit()

    context = browser.new_context(base_url=deployment.url, viewport={"width": 1280, "height": 800})
    context.set_default_timeout(20_000)
    polled = context.new_page()
    log_in(polled, "carla")
    expect_path(polled, "/dash")
    # One tab on My Sub Requests (a list refreshed by a poll), another on the Create Sub Request form.
    polled.goto("/dash/notes/notifications")
    row = polled.get_by_test_id("request-item").filter(visible=True).filter(has_text="Block Party")
    expect(row).to_be_visible()
    expect(row).not_to_contain_text("Accepted")
    form = context.new_page()
    form.goto("/dash/notes/new")
    expect(form.get_by_role("heading", name="Create Sub Request")).to_be_visible()
    form.get_by_label("Team").fill("Dig Deep")
    tokens = {}
    for page in (polled, form):
        page.evaluate(MARK)
        tokens[page] = page.evaluate(TAB_TOKEN)

    deployment.redis_link.cut()
    cut_at = time.monotonic()
    try:
        _wait_until(lambda: {deployment.health(1), deployment.health(2)} == {503}, form, 15, "/_health to answer 503")
        # Typed during the outage; the submit gets the outage message, not a call to the administrator.
        form.get_by_label("Location").fill("Lexington Sportsplex")
        form.get_by_label("Court").fill("Court 4")
        form.get_by_label("Date and Time").fill((dt.date.today() + dt.timedelta(days=5)).isoformat() + "T18:00")
        form.get_by_label("Skill Level").select_option("B")
        form.get_by_label("Format").select_option("6s")
        form.get_by_label("Message").fill("Typed while the service was away.")
        form.get_by_role("button", name="Create Sub Request").click()
        expect(form.get_by_text(TRY_AGAIN, exact=True).first).to_be_visible()
        expect(form.get_by_text(GENERIC_ERROR)).to_have_count(0)
        assert _requests("Dig Deep") == []
        # The outage lasts its full length (it is the scenario, not a wait for something).
        form.wait_for_timeout(max(0.0, OUTAGE_SECONDS - (time.monotonic() - cut_at)) * 1000)
    finally:
        deployment.redis_link.restore()
    _wait_until(lambda: {deployment.health(1), deployment.health(2)} == {200}, form, 30, "/_health to answer 200")

    # The form kept everything typed, and its submit works now: the request is created.
    expect(form.get_by_label("Team")).to_have_value("Dig Deep")
    expect(form.get_by_label("Location")).to_have_value("Lexington Sportsplex")
    expect(form.get_by_label("Court")).to_have_value("Court 4")
    expect(form.get_by_label("Message")).to_have_value("Typed while the service was away.")
    submit = form.get_by_role("button", name="Create Sub Request")
    expect(submit).to_be_enabled()
    submit.click()
    expect(form).to_have_url(re.compile(r"/dash/notes/\d+$"), timeout=30_000)
    (created,) = _requests("Dig Deep")
    assert created.requestor_id == carla.id and created.court == "Court 4"

    # The poll of My Sub Requests goes on: an acceptance made now shows up without a reload.
    dbmod.call(request_replies.accept, actor_of(dario), listed)
    assert _requests("Block Party")[0].status == SubStatus.ACCEPTED
    expect(row).to_contain_text("Accepted", timeout=45_000)
    expect_path(polled, "/dash/notes/notifications")
    expect(polled.get_by_text(GENERIC_ERROR)).to_have_count(0)
    for page in (polled, form):
        assert page.evaluate(SAME_DOCUMENT), f"{page.url} was reloaded"
        assert page.evaluate(TAB_TOKEN) == tokens[page], f"{page.url} was given a new client token (a new state)"
    context.close()
