"""Players and subs in Chromium: open requests accepted, targeted invites declined, profile fields per role."""

from __future__ import annotations

import datetime as dt
import re

from playwright.sync_api import expect
from sqlmodel import select

from tests.e2e.helpers import PASSWORD, expect_path, log_in, make_user, open_as, sent_events
from volley_app import db
from volley_app.models import Rating, Role, SubRequest, SubStatus, User
from volley_app.services.accounts.accounts import create_user

PHONE = {"width": 390, "height": 844}


def make_sub(username: str, first_name: str, last_name: str = "Sub") -> None:
    db.call(
        create_user,
        username=username,
        password=PASSWORD,
        email=f"{username}@example.com",
        first_name=first_name,
        last_name=last_name,
        region="KY",
        sub=True,
        hitter_skill_level=Rating.B,
        passer_skill_level=Rating.C,
        setter_skill_level=Rating.A,
    )


def _item(page, test_id: str, text: str):
    """The visible row (wide screens) or card (phones) of a list that mentions ``text``."""
    return page.get_by_test_id(test_id).filter(visible=True).filter(has_text=text)


def _when(days: int = 4) -> str:
    return (dt.date.today() + dt.timedelta(days=days)).isoformat() + "T19:30"


def _fill_request(page, team: str) -> None:
    page.get_by_label("Team").fill(team)
    page.get_by_label("Date and Time").fill(_when())
    page.get_by_label("Location").fill("Lexington Sportsplex")
    page.get_by_label("Court").fill("Court 2")
    page.get_by_label("Skill Level").select_option("C")
    page.get_by_label("Format").select_option("6s")
    page.get_by_label("Message").fill("We need a passer.")


def _requests(team: str) -> list[SubRequest]:
    def read(session):
        return list(session.exec(select(SubRequest).where(SubRequest.team == team)).all())

    return db.call(read)


def test_open_request_is_accepted_by_a_sub_and_the_requestor_is_emailed(new_page, mailbox):
    make_user("anna", first_name="Anna")
    make_sub("bruno", "Bruno")

    a = new_page()
    sent = sent_events(a)
    log_in(a, "anna")
    expect_path(a, "/dash")
    a.get_by_role("link", name="Create Sub Request").first.click()
    expect_path(a, "/dash/notes/new")
    submit = a.get_by_role("button", name="Create Sub Request")
    expect(submit).to_be_disabled()  # nothing filled in yet
    a.wait_for_timeout(500)
    before = len(sent)
    _fill_request(a, "Spike Force")
    a.get_by_label("Format").select_option("")
    expect(submit).to_be_disabled()  # every required field but the format
    a.get_by_label("Format").select_option("6s")
    expect(submit).to_be_enabled()
    assert sent[before:] == [], "filling in the form sent events to the server"
    submit.click()
    expect(a).to_have_url(re.compile(r"/dash/notes/\d+$"))
    expect(a.get_by_role("button", name="Update Sub Request")).to_be_visible()
    expect(a.get_by_role("button", name="Accept")).to_have_count(0)

    b = new_page(**PHONE)
    log_in(b, "bruno")
    expect_path(b, "/dash")
    row = _item(b, "request-item", "Spike Force")
    expect(row).to_contain_text("Anna User")  # people by name, not username
    expect(row).to_contain_text("7:30 PM")  # venue time, not shifted by the browser
    row.get_by_role("link", name="View").click()
    expect(b).to_have_url(re.compile(r"/dash/notes/\d+$"))
    expect(b.get_by_role("button", name="Decline")).to_have_count(0)  # open to anyone: only Accept
    expect(b.get_by_role("button", name="Update Sub Request")).to_have_count(0)
    b.get_by_role("button", name="Accept").click()
    expect(b.get_by_text("You accepted this sub request")).to_be_visible()

    (req,) = _requests("Spike Force")
    assert req.status == SubStatus.ACCEPTED

    a.goto("/dash/notes/notifications")
    row = _item(a, "request-item", "Spike Force")
    expect(row).to_contain_text("Accepted")

    (mail,) = mailbox.wait_for(1)
    assert mail["To"] == "anna@example.com"
    assert "accepted" in mail["Subject"]
    assert "Bruno Sub has accepted your sub request" in mail.get_body(("plain",)).get_content()  # by name


def test_targeted_invite_from_the_subs_list_is_declined(new_page, mailbox):
    make_user("anna", first_name="Anna")
    make_sub("carla", "Carla", "Diaz")
    make_sub("dora", "Dora", "Evans")

    a = new_page()
    log_in(a, "anna")
    expect_path(a, "/dash")
    a.get_by_role("navigation", name="Main").get_by_role("link", name="Subs").click()
    expect_path(a, "/dash/subs")
    row = _item(a, "sub-item", "Carla")
    expect(row).to_contain_text("Diaz")
    expect(a.locator("body")).not_to_contain_text("carla@example.com")
    row.get_by_role("link", name="Invite Carla Diaz").click()
    expect(a).to_have_url(re.compile(r"/dash/notes/newspecific\?sub=\d+$"))
    expect(a.get_by_label("Sub")).to_have_value(str(_user_id("carla")))
    _fill_request(a, "Ace Squad")
    a.get_by_label("Sub").select_option("")
    expect(a.get_by_role("button", name="Send Invite")).to_be_disabled()  # an invite names its sub
    a.get_by_label("Sub").select_option(str(_user_id("carla")))
    a.get_by_role("button", name="Send Invite").click()
    expect(a).to_have_url(re.compile(r"/dash/notes/\d+$"))

    (invite,) = mailbox.wait_for(1)
    assert invite["To"] == "carla@example.com"
    assert "Ace Squad" in invite.get_body(("plain",)).get_content()
    (req,) = _requests("Ace Squad")

    c = new_page(**PHONE)
    log_in(c, "carla")
    expect_path(c, "/dash")
    expect(_item(c, "request-item", "Ace Squad")).to_have_count(0)  # not on the open list
    c.goto("/dash/subs")
    expect(_item(c, "sub-item", "Dora").get_by_role("link", name="Invite Dora Evans")).to_be_visible()
    expect(_item(c, "sub-item", "Carla").get_by_role("link")).to_have_count(0)  # no inviting oneself
    expect(_item(c, "sub-item", "Carla")).to_contain_text("You")
    c.goto("/dash/notes/notifications")
    mine = _item(c, "request-item", "Ace Squad")  # a card on the phone: when, and who the sub is
    expect(mine).to_contain_text("7:30 PM")
    expect(mine).to_contain_text("Sub: Carla Diaz")
    mine.get_by_role("link", name="View").click()
    expect_path(c, f"/dash/notes/{req.id}")
    expect(c.get_by_role("button", name="Accept")).to_be_visible()
    c.get_by_role("button", name="Decline").click()
    expect(c.get_by_text("You declined this sub request")).to_be_visible()
    expect(c.get_by_role("button", name="Decline")).to_have_count(0)

    mails = mailbox.wait_for(2)
    assert mails[1]["To"] == "anna@example.com" and "declined" in mails[1]["Subject"]
    (req,) = _requests("Ace Squad")
    assert req.status == SubStatus.DECLINED

    d = new_page()
    open_as(d, "dora", f"/dash/notes/{req.id}")
    expect(d.get_by_text("This request was taken")).to_be_visible()  # declined: closed to everyone else

    # A decline is not a dead end: anna invites another sub, who is emailed and may accept.
    a.reload()
    expect(a.get_by_role("heading", name="Reopen Sub Request")).to_be_visible()
    a.get_by_label("Find by name").fill("dora")  # the picker finds a sub by name, a page at a time
    a.get_by_label("Find by name").press("Enter")  # (the invite list's picker has a Search button too)
    choices = a.get_by_label("Who may take it").locator("option")
    expect(choices).to_have_count(2)  # "Anyone" and the one sub found
    expect(choices.nth(1)).to_have_attribute("value", str(_user_id("dora")))
    a.get_by_label("Who may take it").select_option(str(_user_id("dora")))
    a.get_by_role("button", name="Reopen Sub Request").click()
    expect(a.get_by_text("Sub request reopened.")).to_be_visible()
    expect(a.get_by_role("heading", name="Reopen Sub Request")).to_have_count(0)
    mails = mailbox.wait_for(3)
    assert mails[2]["To"] == "dora@example.com" and "Ace Squad" in mails[2].get_body(("plain",)).get_content()
    d.reload()
    expect(d.get_by_role("button", name="Accept")).to_be_visible()


def _user_id(username: str) -> int:
    return db.call(lambda s: s.exec(select(User.id).where(User.username == username)).one())


def test_profile_edit_fields_per_role(new_page):
    make_user("paula", first_name="Paula")
    make_user("gymop", Role.SVL, first_name="Gym")
    make_user("boss", Role.ADMIN, first_name="Boss")

    p = new_page(**PHONE)
    log_in(p, "paula")
    expect_path(p, "/dash")
    p.get_by_role("link", name="Become a Sub").click()
    expect_path(p, f"/dash/users/{_user_id('paula')}")
    expect(p.get_by_label("Last Name")).to_be_visible()
    expect(p.get_by_label("Active Sub")).to_be_visible()
    expect(p.get_by_label("Address")).to_have_count(0)
    expect(p.get_by_label("Admin")).to_have_count(0)
    p.get_by_label("Active Sub").click()
    p.get_by_label("Hitter Rating").select_option("A")
    p.get_by_label("New Password").fill("abc")
    expect(p.get_by_role("button", name="Save", exact=True)).to_be_disabled()  # a new password, if typed, must be valid
    expect(p.locator("#submit-why")).to_contain_text("To continue: New Password")  # the grey button says why
    p.get_by_label("New Password").fill("a bcd")
    p.get_by_role("button", name="Save", exact=True).click()  # the server checks its characters and marks the field
    expect(p.get_by_label("New Password")).to_have_attribute("aria-invalid", "true")
    expect(p.get_by_label("New Password")).to_be_focused()  # the message is read with the field; shown once
    # nothing covers the field that took focus (the header scrolls away on a phone)
    field_top = p.get_by_label("New Password").bounding_box()["y"]
    header_bottom = p.evaluate("document.querySelector('header').getBoundingClientRect().bottom")
    assert field_top >= header_bottom, (field_top, header_bottom)
    expect(p.get_by_role("alert").filter(has_text=re.compile("."))).to_have_count(0)
    expect_path(p, f"/dash/users/{_user_id('paula')}")
    p.get_by_label("New Password").fill("")
    p.get_by_role("button", name="Save", exact=True).click()
    expect_path(p, "/dash/playerinfo")
    expect(p.get_by_text("Hitter Rating")).to_be_visible()
    expect(p.get_by_text("Address", exact=True)).to_have_count(0)

    s = new_page()
    log_in(s, "gymop")
    expect_path(s, "/dash/sessions")  # SVLs are sent from the player home to their sessions
    s.goto("/dash/playerinfo")
    expect(s.get_by_text("Edit Info")).to_be_visible()
    expect(s.get_by_text("Last Name")).to_have_count(0)
    s.get_by_role("link", name="Edit Info").click()
    expect_path(s, f"/dash/users/{_user_id('gymop')}")
    expect(s.get_by_label("Address")).to_be_visible()
    expect(s.get_by_label("Last Name")).to_have_count(0)
    expect(s.get_by_label("Active Sub")).to_have_count(0)
    s.get_by_label("City").fill("Lexington")
    s.get_by_role("button", name="Save", exact=True).click()
    expect_path(s, "/dash/playerinfo")
    expect(s.get_by_text("Lexington")).to_be_visible()

    a = new_page()
    log_in(a, "boss")
    expect_path(a, "/dash/profile")  # admins are sent from the home to the profile
    a.get_by_role("link", name="All Users", exact=True).click()
    expect_path(a, "/dash/users")
    a.get_by_role("link", name="Edit paula").click()
    expect(a.get_by_label("Last Name")).to_be_disabled()
    expect(a.get_by_label("Address")).to_be_visible()
    expect(a.get_by_label("Admin")).to_be_visible()
    expect(a.get_by_role("button", name="Save", exact=True)).to_be_enabled()
    a.get_by_label("Player", exact=True).click()  # paula's only role
    expect(a.get_by_role("button", name="Save", exact=True)).to_be_disabled()  # a user keeps at least one role
    expect(a.locator("#submit-why")).to_have_text("To continue: Tick at least one role.")
    a.get_by_label("Player", exact=True).click()
    expect(a.get_by_role("button", name="Save", exact=True)).to_be_enabled()
    expect(a.locator("#submit-why")).to_have_text("")
    a.get_by_role("button", name="Delete Account").click()
    question = "Are you sure you want to delete the account of Paula User (paula)? This cannot be undone."
    expect(a.get_by_text(question)).to_be_visible()  # the admin is asked about paula, not about "your account"
    a.get_by_role("button", name="Cancel").click()
    expect(a.get_by_text(question)).to_have_count(0)


def test_player_contact_sends_to_the_provider(new_page, mailbox):
    make_user("quinn", first_name="Quinn")
    page = new_page(**PHONE)
    log_in(page, "quinn")
    expect_path(page, "/dash")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Profile").click()
    page.get_by_role("link", name="Contact Us").click()
    expect_path(page, "/dash/playercontact")
    send = page.get_by_role("button", name="Send")
    expect(page.get_by_label("Message")).to_have_attribute("required", "")  # the browser asks for a message
    send.click()
    expect_path(page, "/dash/playercontact")
    page.get_by_label("Message").fill("When does the winter league start?")
    send.click()
    expect_path(page, "/dash/playersent")
    expect(page.get_by_role("heading", name="Sent Successfully")).to_be_visible()
    (mail,) = mailbox.wait_for(1)
    assert mail["To"] == "hello@volley.example"
    assert mail["Reply-To"] == "quinn@example.com"
    assert "winter league" in mail.get_body(("plain",)).get_content()
