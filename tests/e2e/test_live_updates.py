"""A sub request's change shows at once in the open tabs of the people concerned, without a reload."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from playwright.sync_api import expect
from sqlmodel import select

from tests.e2e.helpers import make_user, open_as, wait_for_watchers
from tests.e2e.test_players import PHONE, make_sub
from tests.factories import actor_of
from volley_app import db
from volley_app.models import User, utcnow
from volley_app.services.subs import request_changes

pytestmark = pytest.mark.smoke  # also run on the second database (scripts/test.sh, E2E=smoke)

# Well under the lists' polls (My Sub Requests every 15 s, a request's page and the open list every 150 s).
LIVE_MS = 2000


def _open_request(username: str, team: str) -> int:
    def create(session):
        user = session.exec(select(User).where(User.username == username)).one()
        when = (utcnow() + dt.timedelta(days=3)).replace(second=0, microsecond=0)
        return request_changes.create(session, actor_of(user), team=team, date=when, svl="Lexington Sportsplex",
                                   skill_level="C", format="6s")  # fmt: skip

    return db.call(create)


def test_the_requestor_sees_the_accept_and_the_open_list_loses_it_without_reloading(new_page):
    make_user("anna", first_name="Anna")
    make_sub("bruno", "Bruno")
    make_sub("carla", "Carla")
    rid = _open_request("anna", "Live Wires")

    # The requestor: My Sub Requests in one tab, the request's page in another.
    mine = new_page()
    open_as(mine, "anna", "/dash/notes/notifications")
    mine_row = mine.get_by_test_id("request-item").filter(visible=True).filter(has_text="Live Wires")
    expect(mine_row).to_contain_text("Open")
    detail = mine.context.new_page()
    detail.goto(f"/dash/notes/{rid}")
    expect(detail.get_by_role("button", name="Update Sub Request")).to_be_visible()
    status = detail.get_by_text("Accepted", exact=True)
    expect(status).to_have_count(0)

    # Another sub looks at the open requests (on a phone).
    other = new_page(**PHONE)
    open_as(other, "carla", "/dash/notes")
    other_row = other.get_by_test_id("request-item").filter(visible=True).filter(has_text="Live Wires")
    expect(other_row).to_have_count(1)

    # The sub accepts from the request's page.
    sub = new_page(**PHONE)
    open_as(sub, "bruno", f"/dash/notes/{rid}")
    accept = sub.get_by_role("button", name="Accept")
    expect(accept).to_be_visible()
    wait_for_watchers(4)  # the requestor's two tabs, the open list, the sub's page
    urls = (mine.url, detail.url, other.url)
    for tab in (mine, detail, other):
        tab.evaluate("window.__stillHere = true")  # gone if the page were loaded again
    accept.click()
    expect(sub.get_by_text("You accepted this sub request")).to_be_visible()

    expect(mine_row).to_contain_text("Accepted", timeout=LIVE_MS)
    expect(status).to_have_count(1, timeout=LIVE_MS)
    expect(detail.get_by_role("definition").filter(has_text=re.compile(r"^Bruno Sub$"))).to_be_visible(timeout=LIVE_MS)
    expect(detail.get_by_test_id("suggestions")).to_have_count(0, timeout=LIVE_MS)  # taken: nobody more to suggest
    expect(other_row).to_have_count(0, timeout=LIVE_MS)
    assert (mine.url, detail.url, other.url) == urls  # no reload, no navigation
    assert all(tab.evaluate("window.__stillHere === true") for tab in (mine, detail, other))
    assert re.search(rf"/dash/notes/{rid}$", detail.url)
