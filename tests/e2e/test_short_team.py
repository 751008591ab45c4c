"""A team's week on phones, from the roster to the subs who fill it.

The captain of a coed 6s team (two women on court) invites three teammates by email, one of them without an
account; they join and sign the league's waiver. The reminder goes out; the team's two women answer Out from
its link and two men answer In from theirs. The captain's games page says the game is short and offers
"Find 2 subs"; one tap makes the sub request, the captain invites two women subs in order, each accepts from
her email, and the game's attendance shows five In and the two subs.
"""

from __future__ import annotations

import datetime as dt
import re
import time
from email.message import EmailMessage
from urllib.parse import urlsplit

from playwright.sync_api import Page, expect
from sqlmodel import select

from tests import factories
from tests.e2e.helpers import PASSWORD, add_open_league, add_teams, expect_path, log_in, make_user, screenshot
from volley_app import db, routes
from volley_app.models import Gender, League, Rating, Role, RsvpAnswer, Team, User, utcnow
from volley_app.services.accounts.accounts import create_user
from volley_app.services.teams import rsvps

PHONE = {"width": 390, "height": 844}


def _shot(page: Page, name: str) -> None:
    screenshot(page, f"short-team/{name}-390")


def _person(username: str, first: str, gender: Gender, *, sub: bool = False) -> None:
    db.call(create_user, username=username, password=PASSWORD, email=f"{username}@example.com", first_name=first,
            last_name="Sub" if sub else "Player", region="KY", gender=gender, sub=sub,
            hitter_skill_level=Rating.B if sub else None)  # fmt: skip


def _world() -> int:
    """The operator's coed 6s league with its waiver; the Aces (captain cap and three members, ivy a woman) and
    the Blocks; one game two days ahead, which cap and the two men already answered In. Returns the Aces' id."""
    make_user("desk", Role.SVL)
    for username, first, gender in (("cap", "Cal", Gender.MALE), ("dan", "Dan", Gender.MALE),
                                    ("eli", "Eli", Gender.MALE), ("ivy", "Ivy", Gender.FEMALE),
                                    ("gwen", "Gwen", Gender.FEMALE), ("hank", "Hank", Gender.MALE),
                                    ("opp", "Opal", Gender.FEMALE)):  # fmt: skip
        _person(username, first, gender)
    for username, first in (("sara", "Sara"), ("tess", "Tess")):
        _person(username, first, Gender.FEMALE, sub=True)
    league_id = add_open_league("desk", fmt="6s")
    add_teams(league_id, ["Aces"], captain="cap")
    add_teams(league_id, ["Blocks"], captain="opp")

    def arrange(session):
        users = {u.username: u for u in session.exec(select(User)).all()}
        league = session.get(League, league_id)
        league.women_on_court = 2
        session.add(league)
        session.commit()
        factories.add_waiver(session, factories.actor_of(users["desk"]), league_id)
        aces, blocks = (session.exec(select(Team.id).where(Team.team_name == n)).one() for n in ("Aces", "Blocks"))
        for name in ("dan", "eli", "ivy"):
            factories.add_member(session, aces, users[name])
        start = (utcnow() + dt.timedelta(days=2)).replace(second=0, microsecond=0)
        game = factories.add_game(session, league_id, aces, blocks, start, round=1, match=1)
        for name in ("cap", "dan", "eli"):
            rsvps.answer(session, factories.actor_of(users[name]), game_id=game.id, answer=RsvpAnswer.IN.value,
                         team_id=aces)  # fmt: skip
        session.commit()
        return aces

    return db.call(arrange)


def _mail(mailbox, address: str, pattern: str) -> tuple[EmailMessage, str]:
    """The latest message to ``address`` whose text holds ``pattern`` (a regular expression with one group, the
    link), and that link; waits for it to arrive."""
    deadline = time.monotonic() + 15
    while True:
        for msg in reversed(mailbox.to(address)):
            found = re.search(pattern, msg.get_body(("plain",)).get_content())
            if found:
                return msg, found.group(1)
        assert time.monotonic() < deadline, f"no message to {address} matching {pattern!r}"
        time.sleep(0.2)


def _sign_waiver(page: Page, team_id: int, full_name: str) -> None:
    page.goto(routes.team_path(team_id))
    page.get_by_role("link", name="Sign the waiver").click()
    expect_path(page, f"{routes.team_path(team_id)}/waiver")
    page.get_by_label("Your full name").fill(full_name)
    page.get_by_label("I am 18 or older").check()
    page.get_by_role("button", name="Sign").click()
    expect(page.get_by_text("You signed version 1 on")).to_be_visible()


def _joins_with_account(new_page, mailbox, username: str, first: str, team_id: int) -> None:
    page = new_page(**PHONE)
    page.goto(_mail(mailbox, f"{username}@example.com", r"Join the team: (\S+)")[1])
    page.get_by_role("link", name="Log in and join").click()
    expect(page).to_have_url(re.compile(r"/login\?"))  # back to the invitation once logged in
    log_in(page, username)
    page.get_by_role("button", name="Join the team").click()
    expect_path(page, routes.team_path(team_id))
    expect(page.get_by_test_id("roster-member").filter(has_text=f"{first} Player")).to_be_visible()
    _sign_waiver(page, team_id, f"{first} Player")


def test_a_captain_fills_a_short_game_from_the_roster_to_two_subs(new_page, mailbox):
    team_id = _world()

    # The captain invites three teammates by email, one without an account.
    captain = new_page(**PHONE)
    log_in(captain, "cap")
    expect_path(captain, "/dash")
    captain.get_by_role("navigation", name="Main").get_by_role("link", name="Teams").click()
    captain.get_by_role("link", name="Aces").first.click()
    expect_path(captain, routes.team_path(team_id))
    for address in ("gwen@example.com", "hank@example.com", "nina@example.com"):
        captain.get_by_label("Invite by email or username").fill(address)
        captain.get_by_role("button", name="Send invitation").click()
        expect(captain.get_by_text(f"Invitation sent to {address}")).to_be_visible()
    _shot(captain, "invited")

    # Gwen and Hank have accounts: they log in from the link and join; Nina signs up from hers.
    _joins_with_account(new_page, mailbox, "gwen", "Gwen", team_id)
    _joins_with_account(new_page, mailbox, "hank", "Hank", team_id)
    nina = new_page(**PHONE)
    nina.goto(_mail(mailbox, "nina@example.com", r"Join the team: (\S+)")[1])
    nina.get_by_role("link", name="Sign up and join").click()
    expect_path(nina, routes.SIGNUP)
    expect(nina.get_by_label("Email")).to_have_value("nina@example.com")
    nina.get_by_label("Username").fill("nina")
    nina.get_by_label("Password").fill(PASSWORD)
    nina.get_by_label("First Name").fill("Nina")
    nina.get_by_label("Last Name").fill("Player")
    nina.get_by_label("State").select_option("KY")
    nina.get_by_role("button", name="Sign Up and Join the Team").click()
    expect_path(nina, routes.team_path(team_id))
    _sign_waiver(nina, team_id, "Nina Player")
    _shot(nina, "signed")

    captain.reload()
    expect(captain.get_by_test_id("roster-member")).to_have_count(7)

    # The reminder reaches those who have not answered; the women answer Out from its link, the men In.
    rsvps.send_reminders()  # the app's own sweep may have sent them first: each member gets one either way
    for username, answer, heading in (("ivy", "I'm out", "You answered Out"), ("gwen", "I'm out", "You answered Out"),
                                      ("hank", "I'm in", "You answered In"), ("nina", "I'm in", "You answered In")):  # fmt: skip
        msg, _link = _mail(mailbox, f"{username}@example.com", r"I'm out: (\S+)")
        page = new_page(**PHONE)  # no login: the link is the answer
        page.set_content(msg.get_body(("html",)).get_content())
        page.get_by_role("link", name=answer, exact=True).click()
        page.get_by_role("button", name=answer).click()
        expect(page.get_by_role("heading", name=heading)).to_be_visible()
        page.close()

    # The captain sees the game short of two women and finds two subs in one tap.
    captain.goto(f"{routes.team_path(team_id)}/games")
    card = captain.get_by_test_id("team-game").first
    expect(card.get_by_test_id("rsvp-counts")).to_contain_text("In 5 · Out 2")
    expect(card).to_contain_text("2 more women needed")
    _shot(captain, "short")
    card.get_by_role("button", name="Find 2 subs").click()
    expect(captain).to_have_url(re.compile(r"/dash/notes/\d+$"))
    request_path = urlsplit(captain.url).path
    expect(captain.get_by_text("Aces vs Blocks: 2 short.").first).to_be_visible()
    for name in ("Sara Sub", "Tess Sub"):
        captain.get_by_label("Sub", exact=True).select_option(label=name)
        captain.get_by_role("button", name="Add to List").click()
        expect(captain.get_by_test_id("invite-pick").filter(has_text=name)).to_be_visible()
    captain.get_by_role("button", name="Invite in This Order").click()
    queue = captain.get_by_test_id("invite-queue-row")
    expect(queue.nth(0)).to_contain_text("Invited")
    expect(queue.nth(1)).to_contain_text("Queued")
    _shot(captain, "invites")

    # Sara accepts from her email; then Tess is invited and accepts from hers.
    for username in ("sara", "tess"):
        msg, _link = _mail(mailbox, f"{username}@example.com", r"Accept: (\S+)")
        page = new_page(**PHONE)
        page.set_content(msg.get_body(("html",)).get_content())
        page.get_by_role("link", name="Accept", exact=True).click()
        page.get_by_role("button", name="Accept").click()
        expect(page.get_by_role("heading", name=re.compile("You accepted"))).to_be_visible()
        page.close()

    captain.goto(request_path)
    expect(captain.get_by_test_id("invite-queue-row").nth(1)).to_contain_text("Accepted")
    captain.goto(f"{routes.team_path(team_id)}/games")
    card = captain.get_by_test_id("team-game").first
    expect(card.get_by_test_id("rsvp-counts")).to_contain_text("In 5 · Out 2")
    expect(card.get_by_test_id("game-subs")).to_have_text("Subs playing: Sara Sub, Tess Sub")
    expect(card.get_by_role("button", name=re.compile(r"^Find \d"))).to_have_count(0)
    expect(card).not_to_contain_text("Short")
    assert captain.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    _shot(captain, "filled")
