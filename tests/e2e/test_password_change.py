"""Changing your own password in the browser: the current one is asked for, other devices are logged out."""

from __future__ import annotations

from playwright.sync_api import expect
from sqlmodel import select

from tests.e2e.helpers import PASSWORD, expect_path, log_in, make_user, screenshot
from volley_app import db
from volley_app.models import User
from volley_app.services.accounts import auth

PHONE = {"width": 390, "height": 844}


def _user_id(username: str) -> int:
    return db.call(lambda s: s.exec(select(User.id).where(User.username == username)).one())


def test_a_new_password_needs_the_current_one_and_logs_out_the_other_device(new_page):
    make_user("paula")
    other = new_page()
    log_in(other, "paula")
    expect_path(other, "/dash")

    p = new_page(**PHONE)
    log_in(p, "paula")
    expect_path(p, "/dash")
    p.goto(f"/dash/users/{_user_id('paula')}")
    expect(p.get_by_label("Current Password")).to_be_visible()
    p.get_by_label("New Password").fill("n3w-pass")
    p.get_by_label("Current Password").fill("not-it")
    p.get_by_role("button", name="Save", exact=True).click()
    expect(p.get_by_text("The current password is not right")).to_be_visible()
    expect(p.get_by_label("Current Password")).to_have_attribute("aria-invalid", "true")
    screenshot(p, "password-change-390")

    p.get_by_label("Current Password").fill(PASSWORD)
    p.get_by_role("button", name="Save", exact=True).click()
    expect_path(p, "/dash/playerinfo")
    # This tab stays logged in; the other device's session has ended.
    p.goto("/dash")
    expect_path(p, "/dash")
    other.reload()
    expect(other.get_by_text(auth.SESSION_EXPIRED)).to_be_visible()

    wide = new_page()
    log_in(wide, "paula", "n3w-pass")
    expect_path(wide, "/dash")
    wide.goto(f"/dash/users/{_user_id('paula')}")
    expect(wide.get_by_label("Current Password")).to_be_visible()
    screenshot(wide, "password-change-1280")
