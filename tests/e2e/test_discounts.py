"""Discount codes in Chromium: an operator makes a 10% code for a league from their navigation, a captain registers,
is told why a wrong code will not do, takes the code off at checkout and pays the lower price; the ledger holds the
discount. Both screens pass axe at desktop and phone width."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect
from sqlmodel import select

from tests.e2e.conftest import ROOT
from tests.e2e.helpers import add_open_league, expect_path, log_in, make_user, open_as, screenshot
from volley_app import db
from volley_app.models import LedgerEntry, Role, User
from volley_app.services.money import discounts, ledger, refund_policy

AXE = ROOT / ".tools" / "node_modules" / "axe-core" / "axe.min.js"
_AXE_RUN = """async () => {
  const r = await axe.run(document, {resultTypes: ['violations']});
  return r.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => v.id + ': ' + v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', '));
}"""


def _checked(page: Page, name: str) -> None:
    """No critical or serious axe violation, and no sideways scrolling, at 1280 and at 390 px (a screenshot of each)."""
    for width, height in ((1280, 800), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(300)
        page.evaluate(AXE.read_text() + "\n;undefined")
        assert page.evaluate(_AXE_RUN) == [], (name, width)
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1"), (name, width)
        screenshot(page, f"discounts/{name}-{width}")
    page.set_viewport_size({"width": 1280, "height": 800})


def _ledger(kind: str) -> list[int]:
    return db.call(lambda s: [e.amount_cents for e in s.exec(select(LedgerEntry).where(LedgerEntry.kind == kind))])


def test_an_operator_makes_a_code_and_a_captain_pays_less_with_it(new_page):
    make_user("venue", Role.SVL)
    make_user("cap")
    lid = add_open_league("venue")

    op = new_page()
    log_in(op, "venue")
    expect(op.get_by_role("heading", name="My Sessions")).to_be_visible()
    op.goto("/dash/profile")  # the operator's profile lists the money screens too
    expect(op.get_by_role("main").get_by_role("link", name="Revenue")).to_have_attribute("href", "/dash/revenue")
    expect(op.get_by_role("main").get_by_role("link", name="Discounts")).to_have_attribute("href", "/dash/discounts")
    _checked(op, "profile")
    op.get_by_role("navigation", name="Main").get_by_role("link", name="Discounts").click()
    expect_path(op, "/dash/discounts")
    expect(op.get_by_label("League", exact=True).locator("option", has_text="Monday C 6s")).to_have_count(1)  # loaded
    expect(op.get_by_text("No discount codes yet.").first).to_be_visible()
    op.get_by_label("Code", exact=True).fill("fall10")
    op.get_by_label("League", exact=True).select_option(str(lid))
    op.get_by_label("Percent off").fill("150")
    op.get_by_role("button", name="Create code").click()
    expect(op.get_by_text("Percent must be between 1 and 100")).to_be_visible()
    op.get_by_label("Percent off").fill("10")
    op.get_by_role("button", name="Create code").click()
    expect(op.get_by_text(re.compile(r"Discount code FALL10 made: 10% off"))).to_be_visible()
    expect(op.get_by_role("cell", name="FALL10", exact=True)).to_be_visible()
    expect(op.get_by_role("cell", name="League: Monday C 6s")).to_be_visible()
    _checked(op, "codes")

    cap = new_page()
    open_as(cap, "cap", f"/dash/leagues/{lid}")
    cap.get_by_role("link", name="Register a Team").click()
    expect_path(cap, "/dash/leagues/teams/new")
    expect(cap.get_by_text(re.compile(r"League cost \$"))).to_be_visible()
    cap.get_by_label("Team Name").fill("Spike Force")
    cap.get_by_role("button", name="Continue to Checkout").click()
    expect_path(cap, "/dash/leagues/teams/checkout")
    expect(cap.get_by_role("button", name="Pay $330")).to_be_visible()
    expect(cap.get_by_text(refund_policy.NO_POLICY)).to_be_visible()  # the league's refund policy, in words

    cap.get_by_label("Discount code").fill("SPRING")
    cap.get_by_role("button", name="Apply").click()
    expect(cap.get_by_text(discounts.UNKNOWN)).to_be_visible()
    cap.get_by_label("Discount code").fill("fall10")
    cap.get_by_role("button", name="Apply").click()
    expect(cap.get_by_text("Discount (FALL10)")).to_be_visible()
    expect(cap.get_by_text("−$33")).to_be_visible()
    expect(cap.get_by_text(discounts.UNKNOWN)).to_have_count(0)
    expect(cap.get_by_role("button", name="Pay $297")).to_be_visible()
    _checked(cap, "checkout-with-code")

    cap.get_by_label("Card number").fill("4242 4242 4242 4242")
    cap.get_by_label("Expiry (MM/YY)").fill("12/39")
    cap.get_by_label("CVC").fill("123")
    cap.get_by_role("button", name="Pay $297").click()
    expect_path(cap, "/dash/leagues/teams/success")
    expect(cap.get_by_text("$297").first).to_be_visible()
    assert _ledger("discount") == [3300]
    assert _ledger("charge") == [29700]
    assert db.call(ledger.check) == []

    op.reload()
    expect(op.get_by_role("cell", name="FALL10", exact=True)).to_be_visible()
    expect(op.locator('td[data-label="Uses"]')).to_have_text("1")  # its one use
    _checked(op, "codes-used")

    # The operator deactivates the code: it is shown inactive, and the next captain is told so at the field.
    op.get_by_role("button", name="Edit FALL10").click()
    expect(op.get_by_role("heading", name="Edit code FALL10")).to_be_visible()
    op.get_by_label("Active (players may use it)").uncheck()
    op.get_by_role("button", name="Save code").click()
    expect(op.get_by_text(re.compile(r"Discount code FALL10 saved"))).to_be_visible()
    expect(op.locator('td[data-label="Status"]')).to_have_text("Inactive")


def test_credit_that_covers_the_price_confirms_the_registration_without_a_card(new_page):
    make_user("venue", Role.SVL)
    make_user("cap")
    lid = add_open_league("venue")
    db.call(lambda s: ledger.record(s, kind="credit_issued", amount_cents=40000, key="gift-cap", reason="Rained out",
                                    user_id=s.exec(select(User.id).where(User.username == "cap")).one()))  # fmt: skip
    cap = new_page()
    open_as(cap, "cap", "/dash/playerinfo")  # My Info says what credit is left and that it is spent by itself
    expect(cap.locator("#my-credit")).to_have_text("You have $400 of credit.")
    expect(cap.get_by_text("It is spent automatically at your next registration.")).to_be_visible()
    _checked(cap, "my-info-credit")
    cap.goto(f"/dash/leagues/{lid}")
    cap.get_by_role("link", name="Register a Team").click()
    expect(cap.get_by_text(re.compile(r"League cost \$"))).to_be_visible()
    cap.get_by_label("Team Name").fill("Free Ballers")
    cap.get_by_role("button", name="Continue to Checkout").click()
    expect_path(cap, "/dash/leagues/teams/checkout")
    expect(cap.get_by_text("Your credit")).to_be_visible()
    expect(cap.get_by_text("−$330")).to_be_visible()
    expect(cap.get_by_label("Card number")).to_have_count(0)
    _checked(cap, "checkout-credit")
    cap.get_by_role("button", name="Confirm registration").click()
    expect_path(cap, "/dash/leagues/teams/success")
    assert _ledger("credit_spent") == [33000]
    assert _ledger("charge") == []
    assert db.call(ledger.check) == []
