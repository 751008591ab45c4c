"""What players and subs read, in Chromium at desktop and phone widths: a sub's coming games on their home,
who holds each place on My Sub Requests, a request taken by others, the date hint of the venue typed, an empty
Subs search, a signup message said once, the open list's page kept over a reload, an invitation mail on a phone."""

from __future__ import annotations

import datetime as dt

from playwright.sync_api import expect
from sqlmodel import select

from tests.e2e.helpers import PASSWORD, log_in, open_as, screenshot
from volley_app import db
from volley_app.models import OutboxMessage, Rating, Role, User, utcnow
from volley_app.services.accounts.accounts import create_user
from volley_app.services.core.actors import Actor
from volley_app.services.core.validation import USERNAME_RULE
from volley_app.services.subs import request_changes, request_replies

WIDTHS = (1280, 390)


def _person(username: str, first: str, last: str, *roles: Role, **extra) -> None:
    db.call(create_user, username=username, password=PASSWORD, email=f"{username}@example.com", first_name=first,
            last_name=last, region="KY", roles=roles or (Role.PLAYER,), **extra)  # fmt: skip


def _sub(username: str, first: str) -> None:
    _person(username, first, "Sub", sub=True, hitter_skill_level=Rating.B, passer_skill_level=Rating.B)


def _actor(username: str) -> Actor:
    user = db.call(lambda s: s.exec(select(User).where(User.username == username)).one())
    return Actor(user_id=user.id, username=user.username, roles=tuple(user.roles), first_name=user.first_name)


def _world() -> dict[str, int]:
    _person("alice", "Alice", "Archer")
    _person("windy", "Windy City", "Volleyball", Role.SVL, time_zone="America/Chicago")
    for username, first in (("ben", "Ben"), ("gina", "Gina"), ("carmen", "Carmen")):
        _sub(username, first)
    alice = _actor("alice")
    start = utcnow() + dt.timedelta(days=3)

    def arrange(s) -> dict[str, int]:
        full = request_changes.create(s, alice, team="Net Ninjas", date=start, svl="Lexington Sportsplex", court="2",
                                   skill_level="C", format="6s", players_needed=2)  # fmt: skip
        request_replies.accept(s, _actor("ben"), full)
        request_replies.accept(s, _actor("gina"), full)
        for i in range(27):
            request_changes.create(s, alice, team=f"Open Team {i:02}", date=start + dt.timedelta(days=1, hours=i),
                                svl="Lexington Sportsplex", skill_level="C", format="6s")  # fmt: skip
        named = request_changes.create(s, alice, recipient_id=_actor("carmen").user_id, team="Dig Deep",
                                    date=start + dt.timedelta(days=2), svl="Windy City Volleyball", skill_level="C",
                                    format="6s")  # fmt: skip
        return {"full": full, "named": named}

    return db.call(arrange)


def _shot(page, name: str, width: int) -> None:
    screenshot(page, f"{name}-{width}")
    if width < 600:  # a phone's first screen, as it opens
        screenshot(page, f"{name}-{width}-top", full_page=False)


def test_sub_screens_at_desktop_and_phone_widths(new_page):
    ids = _world()
    for width in WIDTHS:
        ben = new_page(width, 900)
        log_in(ben, "ben")
        mine = ben.get_by_test_id("my-commitments")
        expect(mine).to_contain_text("Net Ninjas")
        expect(mine).to_contain_text("Lexington Sportsplex, 2")
        _shot(ben, "home-commitments", width)

        alice = new_page(width, 900)
        open_as(alice, "alice", "/dash/notes/notifications")
        item = alice.get_by_test_id("request-item").filter(visible=True).filter(has_text="Net Ninjas")
        expect(item).to_contain_text("Ben Sub, Gina Sub")
        if width == 1280:
            expect(alice.get_by_role("columnheader", name="Sub", exact=True)).to_be_visible()
        _shot(alice, "my-sub-requests", width)

        alice.goto("/dash/notes/new")
        hint = alice.get_by_text("Venue time: ET (America/New York)")
        expect(hint).to_be_visible()
        alice.get_by_label("Location").fill("Windy City Volleyball")
        alice.get_by_label("Court").click()  # leaving the location
        expect(alice.get_by_text("Venue time: CT (America/Chicago)")).to_be_visible()
        _shot(alice, "new-request-hint", width)

        alice.goto("/dash/notes")
        expect(alice.get_by_text("Showing 1–25 of 27")).to_be_visible()
        alice.get_by_role("button", name="Next page of open sub requests").click()
        expect(alice.get_by_text("Showing 26–27 of 27")).to_be_visible()
        alice.wait_for_function("() => window.location.search === '?page=2'")
        alice.reload()
        expect(alice.get_by_text("Showing 26–27 of 27")).to_be_visible()
        _shot(alice, "open-requests-page-2", width)

        alice.goto("/dash/subs")
        expect(alice.get_by_test_id("sub-item").filter(visible=True)).to_have_count(3)
        alice.get_by_placeholder("First or last name").fill("Nobody Like This")
        alice.get_by_role("button", name="Search").first.click()
        expect(alice.get_by_text("No sub matches your search.")).to_be_visible()
        expect(alice.get_by_text("No subs available right now.")).to_have_count(0)
        _shot(alice, "subs-empty-search", width)

        carmen = new_page(width, 900)
        open_as(carmen, "carmen", f"/dash/notes/{ids['full']}")
        expect(carmen.get_by_text("This request was taken")).to_be_visible()
        expect(carmen.get_by_text("No access")).to_have_count(0)
        _shot(carmen, "request-taken", width)

        visitor = new_page(width, 900)
        visitor.goto("/new")
        visitor.get_by_label("Username").fill("no spaces")
        visitor.get_by_label("Password").fill("pass1234")
        visitor.get_by_label("Email").fill(f"someone{width}@example.com")
        visitor.get_by_label("First Name").fill("Sam")
        visitor.get_by_label("Last Name").fill("Smith")
        visitor.get_by_label("State").select_option("OH")
        visitor.get_by_role("button", name="Sign Up").click()
        expect(visitor.locator("#username-error")).to_have_text(USERNAME_RULE)
        expect(visitor.get_by_text(USERNAME_RULE, exact=True)).to_have_count(1)
        _shot(visitor, "signup-error", width)

        invitation = db.call(lambda s: s.exec(select(OutboxMessage).where(OutboxMessage.to_addr == "carmen@example.com",
                                                                          OutboxMessage.kind == "received_request")).one())  # fmt: skip
        letter = new_page(width, 900)
        letter.set_content(invitation.body_html)
        expect(letter.get_by_role("link", name="Accept")).to_be_visible()
        expect(letter.get_by_role("link", name="Decline")).to_be_visible()
        assert letter.evaluate("() => document.documentElement.scrollWidth") <= width
        _shot(letter, "invitation-mail", width)
