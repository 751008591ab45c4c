"""A captain invites two subs in order; the first declines from the email's link; the second is invited at once."""

from __future__ import annotations

import datetime as dt
import re

from playwright.sync_api import expect
from sqlmodel import select

from tests.e2e.helpers import PASSWORD, make_user, open_as, screenshot
from volley_app import db
from volley_app.models import Rating, SubInvite, SubRequest, User, utcnow
from volley_app.services.accounts.accounts import create_user
from volley_app.services.accounts.auth import actor_of
from volley_app.services.subs.request_changes import create

PHONE = {"width": 390, "height": 844}


def _sub(username: str, first: str) -> None:
    db.call(create_user, username=username, password=PASSWORD, email=f"{username}@example.com", first_name=first,
            last_name="Sub", region="KY", sub=True, hitter_skill_level=Rating.B)  # fmt: skip


def _request(captain: str, team: str) -> int:
    def make(session):
        user = session.exec(select(User).where(User.username == captain)).one()
        return create(session, actor_of(user), team=team, date=utcnow() + dt.timedelta(days=4), svl="Sportsplex",
                      skill_level="C", format="6s")  # fmt: skip

    return db.call(make)


def _states(rid: int) -> list[str]:
    return db.call(lambda s: [i.state for i in s.exec(select(SubInvite).where(SubInvite.request_id == rid)
                                                        .order_by(SubInvite.position)).all()])  # fmt: skip


def test_a_captain_invites_in_order_and_a_decline_by_email_invites_the_next(new_page, mailbox):
    from volley_app.settings import get_settings

    make_user("cap", first_name="Cap")
    _sub("carla", "Carla")
    _sub("dora", "Dora")
    rid = _request("cap", "Ace Squad")

    a = new_page()
    open_as(a, "cap", f"/dash/notes/{rid}")
    expect(a.get_by_role("heading", name="Invite Subs in Order")).to_be_visible()
    for name in ("Dora Sub", "Carla Sub"):
        a.get_by_label("Sub", exact=True).select_option(label=name)
        a.get_by_role("button", name="Add to List").click()
        expect(a.get_by_test_id("invite-pick").filter(has_text=name)).to_be_visible()
    a.get_by_role("button", name="Move Carla Sub up").click()  # Carla first
    expect(a.get_by_test_id("invite-pick").first).to_contain_text("Carla Sub")
    a.get_by_label("If nobody accepts").select_option("close")
    screenshot(a, "sub-invites-builder-1280")
    a.get_by_role("button", name="Invite in This Order").click()
    queue = a.get_by_test_id("invite-queue-row")
    expect(queue).to_have_count(2)
    expect(queue.nth(0)).to_contain_text("Carla Sub")
    expect(queue.nth(0)).to_contain_text("Invited")
    expect(queue.nth(1)).to_contain_text("Queued")
    screenshot(a, "sub-invites-queue-1280")

    (invite,) = mailbox.wait_for(1)
    assert invite["To"] == "carla@example.com"
    assert invite.get_body(("html",)) is not None and "Decline</a>" in invite.get_body(("html",)).get_content()
    link = re.search(r"Decline: (\S+)", invite.get_body(("plain",)).get_content()).group(1)
    assert link.startswith(get_settings().public_url.rstrip("/") + "/api/invite-answers/")

    c = new_page(**PHONE)  # no login: the link is the answer
    c.set_content(invite.get_body(("html",)).get_content())  # the mail as a mail program shows it
    c.get_by_role("link", name="Decline", exact=True).click()  # lands on the app's own page
    expect(c.get_by_role("heading", name="Decline the sub request?")).to_be_visible()
    assert _states(rid) == ["invited", "queued"]  # opening the link changes nothing
    c.get_by_role("button", name="Decline").click()
    expect(c.get_by_role("heading", name="You declined the sub request")).to_be_visible()
    assert _states(rid) == ["declined", "invited"]
    c.go_back()  # the link again: used, it answers nothing and offers the request's page
    expect(c.get_by_text("This link was already used.")).to_be_visible()
    expect(c.get_by_role("link", name="Open the sub request")).to_be_visible()

    mails = mailbox.wait_for(3)
    assert sorted(m["To"] for m in mails[1:]) == ["cap@example.com", "dora@example.com"]

    p = new_page(**PHONE)
    open_as(p, "cap", f"/dash/notes/{rid}")
    queue = p.get_by_test_id("invite-queue-row")
    expect(queue.nth(0)).to_contain_text("Declined")
    expect(queue.nth(1)).to_contain_text("Dora Sub")
    expect(queue.nth(1)).to_contain_text("holds it until")
    screenshot(p, "sub-invites-queue-390")
    # the list builder on a phone
    other = _request("cap", "Block Party")
    p.goto(f"/dash/notes/{other}")
    p.get_by_label("Sub", exact=True).select_option(label="Dora Sub")
    p.get_by_role("button", name="Add to List").click()
    expect(p.get_by_test_id("invite-pick").filter(has_text="Dora Sub")).to_be_visible()
    screenshot(p, "sub-invites-builder-390")
    req = db.call(lambda s: s.get(SubRequest, rid))
    assert req.recipient_id == db.call(lambda s: s.exec(select(User.id).where(User.username == "dora")).one())
