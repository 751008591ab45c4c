"""Arranging data and common steps for the browser tests."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from volley_app import db
from volley_app.models import Role
from volley_app.services.users import create_user

PASSWORD = "secret123"


def make_user(username: str, *roles: Role, first_name: str = "Test") -> None:
    db.call(
        create_user,
        username=username,
        password=PASSWORD,
        email=f"{username}@example.com",
        first_name=first_name,
        last_name="User",
        region="KY",
        roles=roles or (Role.PLAYER,),
    )


def log_in(page: Page, username: str, password: str = PASSWORD, *, trust: bool = True) -> None:
    if "/login" not in page.url:
        page.goto("/login")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    box = page.get_by_label("Trust This Device")
    if box.is_checked() != trust:
        box.click()
    page.get_by_role("button", name="Login").click()


def expect_path(page: Page, path: str) -> None:
    expect(page).to_have_url(re.compile(re.escape(path) + r"/?(\?.*)?$"))
