"""Suggested subs in Chromium: a captain asks for "female setter, B or better", sees ranked subs with reasons,
looks at the ones who cannot take it and why, and invites one; after a game, marks each sub who played; at
desktop and phone width, checked by axe."""

from __future__ import annotations

import datetime as dt
import re

from playwright.sync_api import expect
from sqlmodel import select

from tests.e2e.helpers import make_sub, make_user, next_thursday_evening, open_as
from tests.e2e.test_axe import _check
from volley_app import db
from volley_app.models import Gender, Rating, SubRequest, SubRequestPlace, SubStatus, User
from volley_app.services.subs import sub_records


def _request(team: str) -> SubRequest:
    def read(session):
        return session.exec(select(SubRequest).where(SubRequest.team == team)).one()

    return db.call(read)


def _user_id(username: str) -> int:
    return db.call(lambda s: s.exec(select(User.id).where(User.username == username)).one())


def test_captain_sees_ranked_suggestions_with_reasons_and_invites_one(new_page, mailbox):
    make_user("cora", first_name="Cora")
    make_sub("fay", "Fay", Gender.FEMALE, Rating.B)
    make_sub("gwen", "Gwen", Gender.FEMALE, Rating.A)
    make_sub("hal", "Hal", Gender.MALE, Rating.A)
    make_sub("ivy", "Ivy", Gender.FEMALE, Rating.C)

    a = new_page()
    open_as(a, "cora", "/dash/notes/new")
    a.get_by_label("Team").fill("Setters Wanted")
    a.get_by_label("Date and Time").fill(next_thursday_evening())
    a.get_by_label("Location").fill("Lexington Sportsplex")
    a.get_by_label("Skill Level").select_option("B")
    a.get_by_label("Format").select_option("6s")
    a.get_by_label("Position Needed").select_option("Setter")
    a.get_by_label("Gender Needed").select_option("Female")
    a.get_by_label("Lowest Rating").select_option("B")
    expect(a.get_by_text("6s: at least 2 men and 2 women on court", exact=False)).to_be_visible()
    a.get_by_role("button", name="Create Sub Request").click()
    expect(a).to_have_url(re.compile(r"/dash/notes/\d+$"))
    req = _request("Setters Wanted")
    assert (req.position_needed, req.gender_needed, req.min_rating) == ("Setter", "Female", Rating.B)

    panel = a.get_by_test_id("suggestions")
    expect(panel.get_by_role("heading", name="Suggested subs")).to_be_visible()
    expect(panel).to_contain_text("Needs: female setter, B or better")
    expect(a.get_by_text("female setter, B or better", exact=True).first).to_be_visible()  # the details' Needs line
    rows = panel.get_by_test_id("suggested-sub")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("Fay Sub")  # the B first: the closest at or above the minimum
    expect(rows.nth(0)).to_contain_text("Setter B, free Thursdays, 0 played, 0 no-shows, never subbed")
    expect(rows.nth(1)).to_contain_text("Gwen Sub")
    expect(a.locator("body")).not_to_contain_text("fay@example.com")

    panel.get_by_role("button", name="Show ineligible").click()
    expect(panel.get_by_role("heading", name="Subs who cannot take it")).to_be_visible()
    expect(rows.filter(has_text="Hal Sub")).to_contain_text("not female")
    expect(rows.filter(has_text="Ivy Sub")).to_contain_text("rated C at setter (needs B or better)")
    expect(panel.get_by_role("button", name=re.compile("^Invite"))).to_have_count(0)
    panel.get_by_role("button", name="Show suggested subs").click()
    expect(rows.nth(0)).to_contain_text("Fay Sub")

    failures = _check(a, "player", a.url.replace(a.url.split("/dash")[0], ""))
    assert failures == []

    a.set_viewport_size({"width": 1280, "height": 800})
    a.get_by_role("button", name="Invite Fay Sub").click()
    expect(panel).to_contain_text("Invited. The sub has been emailed.")
    expect(panel).to_contain_text("Waiting for the invited sub's answer.")
    expect(panel.get_by_role("button", name=re.compile("^Invite"))).to_have_count(0)
    req = _request("Setters Wanted")
    assert req.recipient_id == _user_id("fay") and req.status == SubStatus.OPEN
    expect(a.get_by_text("Fay Sub", exact=True).first).to_be_visible()  # the details' Sub line
    (mail,) = mailbox.wait_for(1)
    assert mail["To"] == "fay@example.com"

    b = new_page(390, 844)  # another player opens the request: no suggestions for them
    make_user("dina", first_name="Dina")
    open_as(b, "dina", f"/dash/notes/{req.id}")
    expect(b.get_by_role("heading", name="Sub Request")).to_be_visible()
    expect(b.get_by_test_id("suggestions")).to_have_count(0)


def test_a_sub_sets_when_they_can_play_on_edit_info(new_page):
    make_sub("josie", "Josie", Gender.FEMALE, Rating.B)
    uid = _user_id("josie")
    a = new_page()
    open_as(a, "josie", f"/dash/users/{uid}")
    card = a.get_by_test_id("availability")
    expect(card).to_contain_text("Requestors see you suggested on these days: every day.")
    for day in ("Monday", "Wednesday", "Friday", "Saturday", "Sunday"):
        card.get_by_label(day, exact=True).uncheck()
    card.get_by_label("Weekly cap").fill("2")
    card.get_by_role("button", name="Save Availability").click()
    expect(card).to_contain_text("Availability saved.")
    expect(card).to_contain_text("Tuesdays and Thursdays.")
    day = (dt.date.today() + dt.timedelta(days=9)).isoformat()
    card.get_by_label("Date you cannot play").fill(day)
    card.get_by_role("button", name="Add Date").click()
    expect(card.get_by_test_id("unavailable-date")).to_have_text(re.compile(day))
    user = db.call(lambda s: s.get(User, uid))
    assert (user.sub_days, user.sub_weekly_cap) == (0b0001010, 2)

    failures = _check(a, "player", f"/dash/users/{uid}")
    assert failures == []
    a.set_viewport_size({"width": 1280, "height": 800})
    a.get_by_test_id("availability").get_by_role("button", name=f"Remove {day}").click()
    expect(a.get_by_test_id("availability")).to_contain_text("No dates you cannot play.")


def test_the_captain_marks_each_sub_of_a_request_for_two(new_page):
    """The morning after a game two subs played for, the captain marks one Played and the other No-show, then
    changes their mind; each sub's record follows (the phone width, checked by axe)."""
    make_user("nora", first_name="Nora")
    make_sub("opal", "Opal", Gender.FEMALE, Rating.B)
    make_sub("pia", "Pia", Gender.FEMALE, Rating.B)
    ids = {name: _user_id(name) for name in ("nora", "opal", "pia")}
    game = dt.datetime.now(dt.UTC) - dt.timedelta(hours=14)

    def past_request(session) -> int:
        req = SubRequest(requestor_id=ids["nora"], recipient_id=ids["pia"], status=SubStatus.ACCEPTED, svl="Gym",
                         team="Two Short", date=game, skill_level="C", format="6s", completed=True, players_needed=2,
                         places_filled=2)  # fmt: skip
        session.add(req)
        session.flush()
        for name in ("opal", "pia"):
            session.add(SubRequestPlace(request_id=req.id, user_id=ids[name], accepted_at=game - dt.timedelta(days=2)))
        sub_records.refresh(session, [ids["opal"], ids["pia"]])
        return req.id

    rid = db.call(past_request)
    a = new_page(390, 844)
    open_as(a, "nora", f"/dash/notes/{rid}")
    marks = a.get_by_test_id("sub-mark")
    expect(marks).to_have_count(2)
    expect(marks.nth(0)).to_contain_text("Opal Sub")
    expect(marks.nth(0)).to_contain_text("Not marked yet")
    a.get_by_role("button", name="Played: Opal Sub").click()
    expect(marks.nth(0)).to_contain_text("Marked: Played")
    a.get_by_role("button", name="No-show: Pia Sub").click()
    expect(marks.nth(1)).to_contain_text("Marked: No-show")
    expect(a.get_by_text("Saved: Pia Sub No-show.")).to_be_visible()
    failures = _check(a, "player", f"/dash/notes/{rid}")
    assert failures == []
    a.get_by_role("button", name="Played: Pia Sub").click()  # changed their mind
    expect(marks.nth(1)).to_contain_text("Marked: Played")
    records = db.call(lambda s: {u.username: (u.sub_played, u.sub_no_shows) for u in s.exec(select(User)).all()})
    assert (records["opal"], records["pia"]) == ((1, 0), (1, 0))
