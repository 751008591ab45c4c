"""The bell: a sub invited sees it count without a reload, opens the list, follows the notification to the request,
and the count goes; on a phone the bell stays in the header. The list passes axe at both widths."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from playwright.sync_api import expect
from sqlmodel import select

from tests.e2e.helpers import make_user, open_as, screenshot, wait_for_watchers
from tests.e2e.test_axe import _axe_and_targets
from tests.e2e.test_players import PHONE, make_sub
from tests.factories import actor_of
from volley_app import db
from volley_app.models import User, utcnow
from volley_app.services.subs import request_changes

pytestmark = pytest.mark.smoke

LIVE_MS = 3000  # well under the bell's timer (60 s): only a live notice brings it this soon


def _invite(requestor: str, sub: str) -> int:
    """``requestor``'s request naming ``sub`` (which tells the sub)."""

    def create(session):
        by = session.exec(select(User).where(User.username == requestor)).one()
        named = session.exec(select(User).where(User.username == sub)).one()
        when = (utcnow() + dt.timedelta(days=3)).replace(second=0, microsecond=0)
        return request_changes.create(session, actor_of(by), team="Bell Ringers", date=when, recipient_id=named.id,
                                      svl="Lexington Sportsplex", skill_level="C", format="6s")  # fmt: skip

    return db.call(create)


def test_an_invited_sub_sees_the_bell_count_opens_the_list_and_follows_it_to_the_request(new_page):
    make_user("nora", first_name="Nora")
    make_sub("sid", "Sid")

    page = new_page()
    open_as(page, "sid", "/dash")
    bell = page.get_by_role("link", name=re.compile(r"^Notifications"))
    expect(bell).to_have_attribute("aria-label", "Notifications")  # nothing unread: no count
    wait_for_watchers(1, notices=True)
    page.evaluate("window.__stillHere = true")  # gone if the page were loaded again

    rid = _invite("nora", "sid")
    expect(bell).to_have_attribute("aria-label", "Notifications, 1 unread", timeout=LIVE_MS)
    expect(bell).to_contain_text("1")
    assert page.evaluate("window.__stillHere === true")
    screenshot(page, "notifications-bell-1280")

    bell.click()
    item = page.get_by_test_id("notification")
    expect(item).to_have_count(1)
    expect(item).to_contain_text("Unread")
    expect(item).to_contain_text("Bell Ringers")
    expect(page.get_by_test_id("unread-summary")).to_have_text("1 unread")
    assert _axe_and_targets(page, "notifications", 1280) == []
    screenshot(page, "notifications-list-1280")

    item.get_by_role("link").click()
    expect(page).to_have_url(re.compile(rf"/dash/notes/{rid}/?$"))
    expect(bell).to_have_attribute("aria-label", "Notifications")

    phone = new_page(**PHONE)
    open_as(phone, "sid", "/dash")
    phone_bell = phone.get_by_role("banner").get_by_role("link", name="Notifications")
    expect(phone_bell).to_be_visible()
    expect(phone_bell).to_be_in_viewport()
    screenshot(phone, "notifications-bell-390")
    phone_bell.click()
    expect(phone.get_by_test_id("notification")).to_have_count(1)
    expect(phone.get_by_test_id("notification")).not_to_contain_text("Unread")
    assert _axe_and_targets(phone, "notifications", PHONE["width"]) == []
    screenshot(phone, "notifications-list-390")
