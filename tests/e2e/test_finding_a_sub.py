"""Finding a sub from start to finish, as a captain and three subs live it.

The captain posts "1 female setter, B or better, Thursday 7 pm" on the form, sees the subs ranked with reasons,
builds an invite list of three in order (one from the suggestions, two found by name in the picker) and invites
them. The first declines from the email's link, the second accepts from theirs, and the captain's open page shows
the accept without a reload. The day before the game, the captain and the sub are reminded.
"""

from __future__ import annotations

import datetime as dt
import re
import time
from email.message import EmailMessage

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import select

from tests.e2e.helpers import (
    expect_path,
    log_in,
    make_sub,
    make_user,
    next_thursday_evening,
    screenshot,
    wait_for_watchers,
)
from tests.e2e.test_axe import _check
from volley_app import db
from volley_app.models import Gender, OutboxMessage, Rating, SubInvite, SubRequest, SubStatus, User
from volley_app.services.subs import sub_reminders

pytestmark = pytest.mark.smoke  # also run on the second database (scripts/test.sh, E2E=smoke)

PHONE = {"width": 390, "height": 844}
LIVE_MS = 2000  # well under the request page's poll (150 s): only a live update shows it this soon
TEAM = "Thursday Setters"


def _request() -> SubRequest:
    return db.call(lambda s: s.exec(select(SubRequest).where(SubRequest.team == TEAM)).one())


def _user_id(username: str) -> int:
    return db.call(lambda s: s.exec(select(User.id).where(User.username == username)).one())


def _invites(rid: int) -> list[tuple[int, str]]:
    return db.call(lambda s: [(i.user_id, i.state) for i in s.exec(
        select(SubInvite).where(SubInvite.request_id == rid).order_by(SubInvite.position)).all()])  # fmt: skip


def _mail(mailbox, to: str, subject: str, seconds: float = 20) -> EmailMessage:
    """The first message to ``to`` whose subject holds ``subject``, waiting for it to arrive."""
    deadline = time.monotonic() + seconds
    while True:
        found = [m for m in mailbox.messages if m["To"] == to and subject in str(m["Subject"])]
        if found:
            return found[0]
        assert time.monotonic() < deadline, f"no mail to {to} about {subject!r}: {[m['Subject'] for m in mailbox.messages]}"
        time.sleep(0.2)


def _link(message: EmailMessage, verb: str) -> str:
    """The invitation's Accept or Decline link, as mailed: on the app's public address."""
    return re.search(rf"{verb}: (\S+)", message.get_body(("plain",)).get_content()).group(1)


def _answer(page: Page, link: str, verb: str) -> None:
    """Open an invitation link (no login) and press its one button."""
    page.goto(link)
    expect(page.get_by_role("heading", name=f"{verb} the sub request?")).to_be_visible()
    page.get_by_role("button", name=verb).click()
    done = {"Accept": "accepted", "Decline": "declined"}[verb]
    expect(page.get_by_role("heading", name=f"You {done} the sub request")).to_be_visible()


def _post_the_request(a: Page) -> None:
    """The captain fills in the form the way a person does: from the home page's link, field by field."""
    a.get_by_role("link", name="Create Sub Request").filter(visible=True).first.click()
    expect_path(a, "/dash/notes/new")
    a.get_by_label("Team").fill(TEAM)
    a.get_by_label("Date and Time").fill(next_thursday_evening())
    a.get_by_label("Location").fill("Lexington Sportsplex")
    a.get_by_label("Skill Level").select_option("B")
    a.get_by_label("Format").select_option("6s")
    a.get_by_label("How Many Players").select_option("1")
    a.get_by_label("Position Needed").select_option("Setter")
    a.get_by_label("Gender Needed").select_option("Female")
    a.get_by_label("Lowest Rating").select_option("B")
    a.get_by_role("button", name="Create Sub Request").click()
    expect(a).to_have_url(re.compile(r"/dash/notes/\d+$"))


def _pick_by_name(a: Page, search: str, name: str) -> None:
    """Find a sub by name in the invite list's picker and add them to the end of the list."""
    a.get_by_label("Find a sub by name").fill(search)
    a.get_by_label("Find a sub by name").press("Enter")
    expect(a.locator("#pick option").filter(has_text=name)).to_have_count(1)
    expect(a.locator("#pick option:not([value=''])")).to_have_count(1)  # the search found only them
    a.get_by_label("Sub", exact=True).select_option(label=name)
    a.get_by_role("button", name="Add to List", exact=True).click()
    expect(a.get_by_test_id("invite-pick").filter(has_text=name)).to_be_visible()


def test_a_captain_finds_a_female_setter_for_thursday_from_post_to_reminder(new_page, mailbox):
    make_user("cleo", first_name="Cleo")
    make_sub("fay", "Fay", Gender.FEMALE, Rating.B)
    make_sub("gwen", "Gwen", Gender.FEMALE, Rating.A)
    make_sub("iris", "Iris", Gender.FEMALE, Rating.A)
    make_sub("hal", "Hal", Gender.MALE, Rating.A)  # not female: never suggested
    make_sub("ivy", "Ivy", Gender.FEMALE, Rating.C)  # rated below B at setter

    # 1. The captain posts the request through the form.
    a = new_page()
    log_in(a, "cleo")
    expect_path(a, "/dash")
    _post_the_request(a)
    req = _request()
    assert (req.players_needed, req.position_needed, req.gender_needed, req.min_rating) == (1, "Setter", "Female",
                                                                                             Rating.B)  # fmt: skip
    path = f"/dash/notes/{req.id}"

    # 2. Ranked suggestions, each with its reason; the page passes axe at 1280 and 390 px, picker included.
    panel = a.get_by_test_id("suggestions")
    expect(panel).to_contain_text("Needs: female setter, B or better")
    rows = panel.get_by_test_id("suggested-sub")
    expect(rows).to_have_count(3)
    expect(rows.nth(0)).to_contain_text("Fay Sub")  # the B first: the closest at or above the minimum
    expect(rows.nth(0)).to_contain_text("Setter B, free Thursdays, 0 played, 0 no-shows, never subbed")
    for i in (1, 2):
        expect(rows.nth(i)).to_contain_text(re.compile(r"(Gwen|Iris) Sub"))
        expect(rows.nth(i)).to_contain_text("Setter A, free Thursdays")
    expect(panel).not_to_contain_text("Hal Sub")
    expect(a.get_by_label("Find a sub by name")).to_be_visible()
    assert _check(a, "player", path) == []
    a.set_viewport_size({"width": 1280, "height": 800})

    # 3. The invite list, in order: Fay from the suggestions, Gwen and Iris found by name in the picker.
    expect(rows.nth(0)).to_contain_text("Fay Sub")
    panel.get_by_role("button", name="Add Fay Sub to the invite list").click()
    expect(a.get_by_test_id("invite-pick").filter(has_text="Fay Sub")).to_be_visible()
    _pick_by_name(a, "gwen", "Gwen Sub")
    _pick_by_name(a, "iri", "Iris Sub")
    expect(a.get_by_test_id("invite-pick")).to_have_text([re.compile("Fay Sub"), re.compile("Gwen Sub"),
                                                          re.compile("Iris Sub")])  # fmt: skip
    screenshot(a, "finding-a-sub-picker-1280")
    a.set_viewport_size(PHONE)
    a.get_by_label("Find a sub by name").scroll_into_view_if_needed()
    screenshot(a, "finding-a-sub-picker-390")
    assert not a.evaluate("document.documentElement.scrollWidth > window.innerWidth + 1")
    a.set_viewport_size({"width": 1280, "height": 800})
    a.get_by_role("button", name="Invite in This Order").click()
    queue = a.get_by_test_id("invite-queue-row")
    expect(queue).to_have_count(3)
    expect(queue.nth(0)).to_contain_text("Fay Sub")
    expect(queue.nth(0)).to_contain_text("Invited")
    expect(queue.nth(1)).to_contain_text("Queued")
    fay, gwen, iris = _user_id("fay"), _user_id("gwen"), _user_id("iris")
    assert _invites(req.id) == [(fay, "invited"), (gwen, "queued"), (iris, "queued")]

    # 4. Fay declines from her email's link (no login); Gwen is invited at once.
    phone = new_page(**PHONE)
    _answer(phone, _link(_mail(mailbox, "fay@example.com", "Sub request"), "Decline"), "Decline")
    assert _invites(req.id) == [(fay, "declined"), (gwen, "invited"), (iris, "queued")]
    expect(queue.nth(1)).to_contain_text("Invited")  # the captain's page follows, too

    # 5. Gwen accepts from hers while the captain's page stays open: it shows the accept without a reload.
    accept = _link(_mail(mailbox, "gwen@example.com", "Sub request"), "Accept")
    wait_for_watchers(1)
    url = a.url
    a.evaluate("window.__stillHere = true")  # gone if the page were loaded again
    _answer(new_page(**PHONE), accept, "Accept")
    expect(a.get_by_role("definition").filter(has_text=re.compile(r"^Gwen Sub$"))).to_be_visible(timeout=LIVE_MS)
    expect(queue.nth(1)).to_contain_text("Accepted", timeout=LIVE_MS)
    expect(a.get_by_text("Accepted", exact=True).first).to_be_visible(timeout=LIVE_MS)  # the status badge
    assert a.url == url and a.evaluate("window.__stillHere === true")
    req = _request()
    assert (req.status, req.recipient_id, req.places_filled) == (SubStatus.ACCEPTED, gwen, 1)
    assert "accepted" in str(_mail(mailbox, "cleo@example.com", "accepted")["Subject"])
    screenshot(a, "finding-a-sub-accepted-1280")

    # 6. The day before the game the reminder sweep runs: the captain and Gwen are reminded, once.
    assert sub_reminders.send_reminders(now=req.date - dt.timedelta(days=1)) == 2
    assert sub_reminders.send_reminders(now=req.date - dt.timedelta(hours=20)) == 0
    kept = db.call(lambda s: sorted(m.to_addr for m in s.exec(
        select(OutboxMessage).where(OutboxMessage.kind == f"sub_reminder_{sub_reminders.DAY_BEFORE}")).all()))  # fmt: skip
    assert kept == ["cleo@example.com", "gwen@example.com"]
    assert "Gwen Sub subs for Thursday Setters" in str(_mail(mailbox, "cleo@example.com", "Reminder")["Subject"])
    assert "you sub for Thursday Setters" in str(_mail(mailbox, "gwen@example.com", "Reminder")["Subject"])
