"""Long lists in Chromium: a page at a time, Previous and Next, search; on a phone and on a wide screen."""

from __future__ import annotations

import datetime as dt

from playwright.sync_api import expect
from sqlmodel import select

from tests.e2e.helpers import PASSWORD, make_user, open_as, screenshot
from volley_app import db
from volley_app.models import Gender, Rating, Role, SkillLevel, SubFormat, SubRequest, User, utcnow
from volley_app.services.accounts import passwords

PHONE = {"width": 390, "height": 844}


def _open_requests(username: str, n: int) -> None:
    def add(session):
        uid = session.exec(select(User.id).where(User.username == username)).one()
        start = (utcnow() + dt.timedelta(days=2)).replace(microsecond=0)
        session.add_all(
            SubRequest(requestor_id=uid, svl="Sportsplex", team=f"Team {i:02}", date=start + dt.timedelta(days=i),
                       skill_level=SkillLevel.C, format=SubFormat.SIXES)
            for i in range(n)
        )  # fmt: skip

    db.call(add)


def _subs(n: int, **named: str) -> None:
    hashed = passwords.hash_password(PASSWORD)

    def add(session):
        people = [(f"sub{i:02}", f"Sub{i:02}", "Player") for i in range(n)] + [(u, *nm.split()) for u, nm in named.items()]
        session.add_all(
            User(username=u, password_hash=hashed, email=f"{u}@example.com", first_name=first, last_name=last,
                 sub=True, gender=Gender.FEMALE, hitter_skill_level=Rating.B)
            for u, first, last in people
        )  # fmt: skip

    db.call(add)


def _shown(page, test_id: str):
    return page.get_by_test_id(test_id).filter(visible=True)


def test_a_player_pages_through_open_requests_on_a_phone(new_page):
    make_user("anna", first_name="Anna")
    make_user("olga", first_name="Olga")
    _open_requests("olga", 30)
    p = new_page(**PHONE)
    open_as(p, "anna", "/dash/notes")
    expect(_shown(p, "request-item")).to_have_count(25)
    expect(p.get_by_role("status").filter(has_text="Showing")).to_have_text("Showing 1–25 of 30")
    expect(p.get_by_role("button", name="Previous page of open sub requests")).to_be_disabled()
    p.get_by_role("button", name="Next page of open sub requests").click()
    expect(p.get_by_role("status").filter(has_text="Showing")).to_have_text("Showing 26–30 of 30")
    expect(_shown(p, "request-item")).to_have_count(5)
    expect(_shown(p, "request-item").first).to_contain_text("Team 25")
    expect(p.get_by_role("button", name="Next page of open sub requests")).to_be_disabled()
    p.get_by_role("button", name="Previous page of open sub requests").click()
    expect(_shown(p, "request-item").first).to_contain_text("Team 00")
    p.get_by_label("Search requests").fill("team 29")
    p.get_by_role("button", name="Search").click()
    expect(_shown(p, "request-item")).to_have_count(1)
    expect(_shown(p, "request-item")).to_contain_text("Team 29")
    screenshot(p, "lists-open-requests-390")


def test_a_player_searches_subs_by_name_on_a_phone(new_page):
    make_user("anna", first_name="Anna")
    _subs(30, carla="Carla Diaz", dora="Dora Evans")
    p = new_page(**PHONE)
    open_as(p, "anna", "/dash/subs")
    expect(_shown(p, "sub-item")).to_have_count(25)
    p.get_by_label("Search subs by name").fill("carla d")
    p.get_by_role("button", name="Search").click()
    expect(_shown(p, "sub-item")).to_have_count(1)
    expect(_shown(p, "sub-item")).to_contain_text("Carla Diaz")
    p.get_by_label("Search subs by name").fill("")
    p.get_by_label("Rating").select_option("B")
    p.get_by_label("Position").select_option("hitter")
    p.get_by_role("button", name="Search").click()
    expect(p.get_by_role("status").filter(has_text="Showing")).to_have_text("Showing 1–25 of 32")
    screenshot(p, "lists-subs-390")
    p.get_by_role("button", name="Clear").click()
    expect(p.get_by_label("Rating")).to_have_value("")


def test_an_admin_searches_users(new_page):
    make_user("root", Role.ADMIN, first_name="Root")
    for i in range(30):
        make_user(f"player{i:02}")
    make_user("zelda", first_name="Zelda")
    p = new_page()
    open_as(p, "root", "/dash/users")
    rows = p.locator("table tbody tr")
    expect(rows).to_have_count(25)
    expect(p.get_by_role("status").filter(has_text="Showing")).to_have_text("Showing 1–25 of 32")
    p.get_by_label("Search users").fill("zelda")
    p.get_by_role("button", name="Search").click()
    expect(rows).to_have_count(1)
    expect(rows).to_contain_text("zelda")
    screenshot(p, "lists-users-1280")
