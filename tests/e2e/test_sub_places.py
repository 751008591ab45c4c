"""Places on a request for several players, in two browsers: each place taken or given up shows at once on the
requestor's open page; a sub the request's needs do not fit is told why on Accept."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from playwright.sync_api import expect
from sqlmodel import select

from tests.e2e.helpers import make_user, open_as, screenshot, wait_for_watchers
from tests.e2e.test_players import PHONE, make_sub
from tests.factories import actor_of
from volley_app import db
from volley_app.models import User, utcnow
from volley_app.services.subs import request_changes

pytestmark = pytest.mark.smoke  # also run on the second database (scripts/test.sh, E2E=smoke)

LIVE_MS = 1000  # every open view of a request within a second (its page's timer is 150 s)


def _request(username: str, team: str, **needs) -> int:
    def create(session):
        user = session.exec(select(User).where(User.username == username)).one()
        when = (utcnow() + dt.timedelta(days=3)).replace(second=0, microsecond=0)
        return request_changes.create(session, actor_of(user), team=team, date=when, svl="Lexington Sportsplex",
                                   skill_level="C", format="6s", **needs)  # fmt: skip

    return db.call(create)


def _shot(page, name: str) -> None:
    screenshot(page, f"sub-places-{name}")


def test_a_place_taken_and_given_up_shows_on_the_requestors_page_at_once(new_page):
    make_user("alice", first_name="Alice")
    make_sub("carmen", "Carmen", "Diaz")
    rid = _request("alice", "Two Short", players_needed="2")

    mine = new_page()
    open_as(mine, "alice", f"/dash/notes/{rid}")
    expect(mine.get_by_text("0 of 2 places taken")).to_be_visible()

    sub = new_page(**PHONE)
    open_as(sub, "carmen", f"/dash/notes/{rid}")
    accept = sub.get_by_role("button", name="Accept")
    expect(accept).to_be_visible()
    wait_for_watchers(2)
    mine.evaluate("window.__stillHere = true")
    accept.click()
    expect(sub.get_by_text("You accepted this sub request")).to_be_visible()
    expect(sub.get_by_text("1 of 2 places taken (Carmen Diaz)")).to_be_visible()  # her own page too

    # the requestor's page, without a reload: the place and who holds it
    expect(mine.get_by_text("1 of 2 places taken (Carmen Diaz)")).to_be_visible(timeout=LIVE_MS)
    expect(mine.get_by_role("definition").filter(has_text=re.compile(r"^Carmen Diaz$"))).to_be_visible(timeout=LIVE_MS)
    _shot(mine, "requestor-1280")

    # she cannot make it after all
    give_up = sub.get_by_role("button", name="I can't make it")
    expect(give_up).to_be_visible()
    assert sub.get_by_role("button", name="Decline").count() == 0
    assert give_up.bounding_box()["height"] >= 44
    _shot(sub, "sub-390")
    sub.set_viewport_size({"width": 1280, "height": 800})
    _shot(sub, "sub-1280")
    sub.set_viewport_size(PHONE)
    give_up.click()
    confirm = sub.get_by_role("button", name="Give Up My Place")
    expect(confirm).to_be_visible()
    sub.wait_for_timeout(400)  # the dialog's opening animation scales it
    assert confirm.bounding_box()["height"] >= 44
    _shot(sub, "sub-confirm-390")
    confirm.click()
    expect(sub.get_by_text("You gave up your place on this sub request")).to_be_visible()
    expect(sub.get_by_role("button", name="Accept")).to_be_visible()  # open to anyone again, her too

    expect(mine.get_by_text("0 of 2 places taken")).to_be_visible(timeout=LIVE_MS)
    mine.set_viewport_size(PHONE)
    _shot(mine, "requestor-after-390")
    assert mine.evaluate("window.__stillHere === true")


def test_an_accept_the_needs_do_not_fit_says_why(new_page):
    make_user("alice", first_name="Alice")
    make_sub("ben", "Ben", "Carter")
    rid = _request("alice", "Needs a Passer", gender_needed="Female", position_needed="Passer", min_rating="B")
    sub = new_page(**PHONE)
    open_as(sub, "ben", f"/dash/notes/{rid}")
    sub.get_by_role("button", name="Accept").click()
    expect(sub.get_by_role("alert").filter(has_text="You cannot take this sub request")).to_contain_text(
        "rated C at passer (needs B or better); gender not given"
    )
    _shot(sub, "refused-390")
    expect(sub.get_by_text("Open", exact=True).first).to_be_visible()
