"""Team registration and card payment in Chromium with the offline provider."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import select

from tests.e2e.helpers import add_open_league, add_teams, expect_path, log_in, make_user, open_as, screenshot
from volley_app import db
from volley_app.models import Game, League, Payment, Role, Team

pytestmark = pytest.mark.smoke  # also run on the second database (scripts/test.sh, E2E=smoke)


def _shot(page: Page, name: str) -> None:
    screenshot(page, f"registration/{name}-{page.viewport_size['width']}")


def _teams() -> list[tuple[str, bool, bool]]:
    return db.call(
        lambda s: [(t.team_name, t.paid, t.waitlist) for t in s.exec(select(Team).order_by(Team.id))]
    )


def _pay(page: Page, number: str) -> None:
    expect(page.get_by_role("button", name=re.compile(r"^Pay \$\d"))).to_be_visible()  # the checkout has loaded
    page.get_by_label("Card number").fill(number)
    page.get_by_label("Expiry (MM/YY)").fill("12/39")
    page.get_by_label("CVC").fill("123")
    page.get_by_role("button", name=re.compile(r"^Pay ")).dblclick()  # a double click pays once


def _register(page: Page, lid: int, name: str) -> None:
    page.goto(f"/dash/leagues/{lid}")
    page.get_by_role("link", name="Register a Team").click()
    expect_path(page, "/dash/leagues/teams/new")
    expect(page.get_by_text(re.compile(r"League cost \$"))).to_be_visible()  # the page has loaded
    page.get_by_role("button", name="Continue to Checkout").click()
    expect(page.get_by_text("team name required").first).to_be_visible()
    page.get_by_label("Team Name").fill(name)
    page.get_by_role("button", name="Continue to Checkout").click()
    expect_path(page, "/dash/leagues/teams/checkout")
    expect(page.get_by_text("Total due now")).to_be_visible()


def test_decline_then_retry_then_success(new_page, mailbox):
    make_user("venue", Role.SVL)
    make_user("cap")
    lid = add_open_league("venue")
    page = new_page()
    to_stripe: list[str] = []  # without Stripe keys nothing is fetched from Stripe's host
    page.on("request", lambda r: to_stripe.append(r.url) if "stripe.com" in r.url else None)
    log_in(page, "cap")
    expect(page).not_to_have_url(re.compile(r"/login"))

    _register(page, lid, "Spike Force")
    expect(page.get_by_text("$330").first).to_be_visible()  # $300 + $5 x 6 players
    expect(page.get_by_text("Fee ($5 × 6 players)")).to_be_visible()
    _shot(page, "checkout")
    _pay(page, "4000 0000 0000 0002")
    expect_path(page, "/dash/leagues/teams/decline")
    expect(page.get_by_text("There was an error processing the payment card")).to_be_visible()
    expect(page.get_by_text("Please confirm card number, expiration date, and CVC and try again")).to_be_visible()
    _shot(page, "decline")
    assert _teams() == []
    phone = new_page(width=390, height=844)
    open_as(phone, "cap", f"/dash/leagues/teams/decline?league={lid}")
    expect(phone.get_by_role("link", name="Return to League")).to_have_attribute("href", f"/dash/leagues/{lid}")
    _shot(phone, "decline")

    # Try Again: the same checkout, its place still held and the team name kept, takes another card.
    page.get_by_role("link", name="Try Again").click()
    expect_path(page, "/dash/leagues/teams/checkout")
    expect(page.get_by_text("The card was declined. Check the card number, expiry and CVC and try again.")).to_be_visible()
    expect(page.get_by_text(re.compile(r"held for you until .* (ET|CT|MT|PT)"))).to_be_visible()
    expect(page.get_by_text("This payment was already processed")).to_have_count(0)
    _shot(page, "checkout-after-decline")
    _pay(page, "4242 4242 4242 4242")
    expect_path(page, "/dash/leagues/teams/success")
    expect(page.get_by_text("Spike Force is registered in Monday C 6s.")).to_be_visible()
    expect(page.get_by_text("Paid by card: $330")).to_be_visible()
    expect(page.get_by_text(re.compile(r"Nothing more is due. See you at the first game, "))).to_be_visible()
    expect(page.get_by_text(re.compile("Venmo"))).to_have_count(0)  # paid in full by card
    assert to_stripe == [], f"requests to Stripe without Stripe keys: {to_stripe}"
    _shot(page, "success")
    assert _teams() == [("Spike Force", True, False)]
    assert db.call(lambda s: sorted(p.status for p in s.exec(select(Payment)))) == ["succeeded"]
    [msg] = mailbox.wait_for(1)
    assert msg["To"] == "cap@example.com" and "Spike Force" in msg["Subject"]

    page.goto(f"/dash/teams?league={lid}")
    row = page.get_by_role("row").filter(has_text="Spike Force")
    expect(row).to_contain_text("Yes")
    expect(row).to_contain_text("Registered")

    # the SVL sees the payments of the league
    svl = new_page()
    open_as(svl, "venue", f"/dash/leagues/{lid}")
    expect(svl.get_by_role("heading", name="Payments")).to_be_visible()
    _shot(svl, "league-home-svl")
    expect(svl.get_by_role("row").filter(has_text="succeeded")).to_contain_text("$330")
    expect(svl.get_by_role("link", name="Register a Team")).to_have_count(0)


def test_cash_league_success_says_cash_at_first_game(new_page):
    make_user("cashvenue", Role.SVL)
    make_user("cashcap")
    lid = add_open_league("cashvenue", cash=True, fmt="doubles", cost_cents=12000)
    for width, height in ((1280, 800), (390, 844)):
        page = new_page(width=width, height=height)
        log_in(page, "cashcap")
        expect(page).not_to_have_url(re.compile(r"/login"))
        _register(page, lid, f"Pair {width}")
        expect(page.get_by_text("Cash-only league: only the fee is charged now.", exact=False)).to_be_visible()
        _shot(page, "checkout-cash")
        _pay(page, "4242424242424242")
        expect_path(page, "/dash/leagues/teams/success")
        expect(page.get_by_text(f"Pair {width} is registered in Monday C Doubles.")).to_be_visible()
        expect(
            page.get_by_text(re.compile(r"The league amount of \$120 is due in cash at the first game, "))
        ).to_be_visible()
        expect(page.get_by_text("Paid by card: $10")).to_be_visible()
        _shot(page, "success-cash")
    assert [t[:2] for t in _teams()] == [("Pair 1280", True), ("Pair 390", True)]


def _monday_league(lid: int) -> None:
    """The league starts on the Monday 10 to 16 days from now (its day), and its schedule is generated."""
    import datetime as dt

    from tests.factories import actor_of
    from volley_app.models import User
    from volley_app.services.seasons import scheduling

    def _arrange(s):
        lg = s.get(League, lid)
        start = lg.start_at + dt.timedelta(days=(7 - lg.start_at.weekday()) % 7)
        lg.start_at = start.replace(hour=22, minute=30, second=0, microsecond=0)
        s.add(lg)
        s.flush()
        scheduling.generate(s, actor_of(s.get(User, lg.svl_id)), lid)

    db.call(_arrange)


def _scheduled(lid: int, name: str) -> int:
    def _count(s):
        tid = s.exec(select(Team.id).where(Team.league_id == lid, Team.team_name == name)).one()
        return len(s.exec(select(Game).where(Game.league_id == lid, (Game.team1_id == tid) | (Game.team2_id == tid))).all())

    return db.call(_count)


def test_full_league_waitlist_then_the_svl_offers_a_place_and_the_captain_pays_from_the_email(new_page, mailbox):
    make_user("fullvenue", Role.SVL)
    make_user("latecap")
    lid = add_open_league("fullvenue", max_teams=2)
    add_teams(lid, ["One", "Two"])
    _monday_league(lid)
    page = new_page(width=390, height=844)
    open_as(page, "latecap", f"/dash/leagues/{lid}")
    full = "Max teams for this league has been reached. Enter your team name to join our waitlist and we will let you know if an opening becomes available."
    expect(page.get_by_text(full)).to_be_visible()
    _shot(page, "league-home-full")
    page.get_by_role("link", name="Join the Waitlist").click()
    expect(page.get_by_text(full)).to_be_visible()
    page.get_by_label("Team Name").fill("Bench Warmers")
    _shot(page, "waitlist-form")
    page.get_by_role("button", name="Join Waitlist").click()
    expect_path(page, "/dash/leagues/teams/waitlistSuccess")
    expect(page.get_by_text("We will let you know if an opening becomes available.")).to_be_visible()
    _shot(page, "waitlist-success")
    assert ("Bench Warmers", False, True) in _teams()
    assert db.call(lambda s: len(s.exec(select(Payment)).all())) == 0

    # the league is full: Promote says so, and how to add a team
    svl = new_page()
    open_as(svl, "fullvenue", f"/dash/leagues/teams/waitlist?league={lid}")
    row = svl.get_by_role("row").filter(has_text="Bench Warmers")
    row.get_by_role("button", name="Promote").click()
    expect(svl.get_by_text(re.compile(r"has no free place: 2 of 2 places .* raise Max Teams"))).to_be_visible()
    assert ("Bench Warmers", False, True) in _teams()
    # the SVL raises Max Teams and sets how long an offer is held
    svl.goto(f"/dash/leagues/{lid}")
    svl.get_by_label("Max Teams").fill("3")
    svl.get_by_label("Offer Hold (hours)").fill("24")
    _shot(svl, "league-edit-offer-hold")
    svl.get_by_role("button", name="Update League").click()
    expect_path(svl, "/dash/leagues")
    assert db.call(lambda s: (s.get(League, lid).max_teams, s.get(League, lid).offer_hold_hours)) == (3, 24)
    svl.goto(f"/dash/leagues/teams/waitlist?league={lid}")
    row = svl.get_by_role("row").filter(has_text="Bench Warmers")
    row.get_by_role("button", name="Promote").click()
    expect(svl.get_by_text(re.compile(r"Bench Warmers has been offered a place: the captain has been emailed"))).to_be_visible()
    expect(row).to_contain_text("Offered until")
    _shot(svl, "waitlist-offered")
    assert ("Bench Warmers", False, True) in _teams()  # offered, not paid: still on the waitlist

    # the captain opens the link in the email, pays, and the team is in the schedule
    [offer] = mailbox.wait_for(1, timeout=15)
    assert offer["To"] == "latecap@example.com" and "Bench Warmers" in offer["Subject"]
    link = re.search(r"Pay for your place: (\S+)", offer.get_body(("plain",)).get_content()).group(1)
    assert "/dash/leagues/teams/checkout?payment=" in link
    page.goto(link)
    expect(page.get_by_text("Your place is held for you until")).to_be_visible()
    _shot(page, "checkout-offer")
    _pay(page, "4242 4242 4242 4242")
    expect_path(page, "/dash/leagues/teams/success")
    expect(page.get_by_text("Bench Warmers is registered in Monday C 6s.")).to_be_visible()
    assert ("Bench Warmers", True, False) in _teams()
    assert _scheduled(lid, "Bench Warmers") > 0
    page.goto(f"/dash/leagues/teams/schedule?league={lid}")
    expect(page.get_by_role("cell", name="Bench Warmers").first).to_be_visible()
    _shot(page, "schedule-with-promoted-team")
    joined = mailbox.wait_for(2, timeout=15)[1]
    assert joined["To"] == "latecap@example.com" and joined["Subject"] == "Bench Warmers is in Monday C 6s"


def test_a_checkout_whose_hold_lapsed_on_a_now_full_league_offers_the_waitlist(new_page):
    import datetime as dt

    make_user("stalevenue", Role.SVL)
    make_user("slowcap")
    for width, height in ((1280, 800), (390, 844)):
        lid = add_open_league("stalevenue", max_teams=1)
        page = new_page(width=width, height=height)
        log_in(page, "slowcap")
        expect(page).not_to_have_url(re.compile(r"/login"))
        _register(page, lid, f"Slow {width}")
        expect(page.get_by_text("Your place is held for you until")).to_be_visible()

        def lapse_and_fill(s, name=f"Slow {width}", taker=f"Quicker {width}"):
            pay = s.exec(select(Payment).where(Payment.team_name == name)).one()
            pay.expires_at = pay.created_at - dt.timedelta(seconds=1)  # the hold ran out while the tab stayed open
            s.add(pay)
            s.add(Team(league_id=pay.league_id, team_name=taker, paid=True))  # someone took the place

        db.call(lapse_and_fill)
        _pay(page, "4242 4242 4242 4242")
        expect(page.get_by_text(re.compile(rf"The place held for Slow {width} was released at .* waitlist"))).to_be_visible()
        expect(page.get_by_role("button", name=re.compile(r"^Pay "))).to_have_count(0)
        _shot(page, "checkout-lapsed-full")
        page.get_by_role("button", name="Join the Waitlist").click()
        expect_path(page, "/dash/leagues/teams/waitlistSuccess")
        assert (f"Slow {width}", False, True) in _teams()
    assert db.call(lambda s: sorted(p.status for p in s.exec(select(Payment)))) == ["expired", "expired"]
