"""A team fee shared among the roster, in Chromium: an operator sets a league to per-player shares with a $50
deposit; a captain pays the deposit with a 10% code; three teammates pay their shares from their emailed links with
no login; one leaves and the operator refunds her from the emailed proposal; the league is archived and the rest is
refunded by the policy; the revenue screen and its CSV show the ledger's totals."""

from __future__ import annotations

import csv
import io
import re

from playwright.sync_api import Page, expect
from sqlmodel import col, select

from tests.e2e.helpers import (
    add_open_league,
    expect_path,
    league_home_read,
    make_user,
    open_as,
    screenshot,
    start_weekday,
)
from tests.e2e.test_axe import _check
from tests.e2e.test_revenue import _dollars, _download
from volley_app import db, routes
from volley_app.models import League, LedgerEntry, OutboxMessage, Payment, Role, Team, User
from volley_app.services.core.actors import Actor
from volley_app.services.money import discounts, ledger
from volley_app.services.teams import rosters

CARD = (("Card number", "4242 4242 4242 4242"), ("Expiry (MM/YY)", "12/39"), ("CVC", "123"))
TEAMMATES = ("amy", "ben", "cat", "dan")


def _pay_by_card(page: Page, label: str) -> None:
    for field, value in CARD:
        page.get_by_label(field).fill(value)
    page.get_by_role("button", name=label).click()


def _last_mail_path(to: str, kind: str, pattern: str) -> str:
    """The path of the link in the newest ``kind`` email to ``to``."""
    bodies = db.call(lambda s: s.exec(select(OutboxMessage.body_text).where(
        OutboxMessage.to_addr == to, OutboxMessage.kind == kind).order_by(col(OutboxMessage.id).desc())).all())  # fmt: skip
    assert bodies, (to, kind)
    found = re.search(pattern, bodies[0])
    assert found, bodies[0]
    return found.group(0)


def _svl(s) -> Actor:
    user = s.exec(select(User).where(User.username == "venue")).one()
    return Actor(user_id=user.id, username=user.username, roles=tuple(user.roles), first_name=user.first_name)


def _on_roster(team_id: int, usernames: tuple[str, ...]) -> None:
    """Players joined the team (invitations are walked in test_rosters): each is emailed their pay link."""

    def join(s) -> None:
        team = s.get(Team, team_id)
        league = s.get(League, team.league_id)
        for name in usernames:
            rosters.add_member(s, team, league, s.exec(select(User).where(User.username == name)).one(), by=None)

    db.call(join)


def test_a_shared_fee_is_paid_by_deposit_and_links_refunded_on_leaving_and_by_policy_on_archive(new_page):
    make_user("venue", Role.SVL)
    for name in ("cap", *TEAMMATES):
        make_user(name)
    lid = add_open_league("venue")
    db.call(lambda s: discounts.create_code(s, _svl(s), code="EARLY10", scope="league", scope_id=lid, percent=10))

    op = new_page()
    open_as(op, "venue", f"/dash/leagues/{lid}")
    op.get_by_label("Who Pays").select_option("shares")
    op.get_by_label("Deposit (dollars)").fill("50")
    op.get_by_label("Refund Less Fee Until (optional)").fill("2039-12-30T12:00")
    op.get_by_label("Refund Fee (dollars)").fill("5")
    op.get_by_label("Day").select_option(start_weekday(lid))  # the helper's league starts on another day than it says
    op.get_by_role("button", name="Update League").click()
    expect(op).to_have_url(re.compile(r"/dash/leagues$"))
    assert db.call(lambda s: (s.get(League, lid).payment_mode, s.get(League, lid).deposit_cents)) == ("shares", 5000)

    # The captain pays the $50 deposit less the 10% code.
    cap = new_page()
    open_as(cap, "cap", routes.new_team_path(lid))
    cap.get_by_label("Team Name").fill("Aces")
    cap.get_by_role("button", name="Continue to Checkout").click()
    expect_path(cap, routes.TEAMS_CHECKOUT)
    expect(cap.get_by_text("Deposit now")).to_be_visible()
    cap.get_by_label("Discount code").fill("early10")
    cap.get_by_role("button", name="Apply").click()
    expect(cap.get_by_role("button", name="Pay $45")).to_be_visible()
    screenshot(cap, "shares/checkout-1280")
    _pay_by_card(cap, "Pay $45")
    expect_path(cap, "/dash/leagues/teams/success")
    tid = db.call(lambda s: s.exec(select(Team.id).where(Team.team_name == "Aces")).one())
    _on_roster(tid, TEAMMATES)

    # The team's page: who owes what; the captain sends the links again.
    cap.goto(routes.team_path(tid))
    expect(cap.get_by_role("heading", name="Team fee")).to_be_visible()
    expect(cap.get_by_test_id("share-row")).to_have_count(5)
    expect(cap.get_by_text("Owes $56")).to_have_count(5)  # $330 less $5 off, less $45 paid: $280 among five
    cap.get_by_role("button", name="Email pay links").click()
    expect(cap.get_by_text("Pay links sent to 5 players.")).to_be_visible()

    # Three teammates pay from their emailed links, with no login.
    for name in ("amy", "ben", "cat"):
        path = _last_mail_path(f"{name}@example.com", "share_due", r"/pay/\S+")
        phone = new_page(width=390, height=844)
        phone.goto(path)
        expect(phone.get_by_text(re.compile(r": Your share \$56$"))).to_be_visible()
        if name == "amy":
            screenshot(phone, "shares/pay-390")
        _pay_by_card(phone, "Pay $56")
        expect(phone.get_by_text("Paid $56. Thank you!")).to_be_visible()
    cap.reload()
    expect(cap.get_by_text("Paid $56")).to_have_count(3)
    expect(cap.get_by_text("Owes $56")).to_have_count(2)
    screenshot(cap, "shares/team-fee-1280")
    failures = _check(cap, "player", routes.team_path(tid)) + _check(cap, "player", path)
    assert failures == [], "\n".join(failures)

    # Amy leaves; her operator is proposed her refund and gives it from the emailed page.
    amy = new_page()
    open_as(amy, "amy", routes.team_path(tid))
    amy.get_by_role("button", name="Leave team").click()
    amy.get_by_role("alertdialog").get_by_role("button", name="Leave team").click()
    expect_path(amy, routes.TEAMS)
    op.goto(_last_mail_path("venue@example.com", "share_refund_proposed", r"/dash/payments/\d+"))
    expect(op.get_by_text("Paid by card")).to_be_visible()
    op.get_by_label("Reason").fill("Left the team")
    op.get_by_role("button", name="Give back").click()
    expect(op.get_by_text("$51 refunded to the card.")).to_be_visible()  # $56 less the policy's $5 fee

    # The league is archived, refunding the rest by the policy; revenue and its CSV are the ledger's.
    op.goto(f"/dash/leagues/{lid}")
    league_home_read(op, lid)
    op.get_by_role("button", name="Delete League").click()
    op.get_by_role("button", name="Archive and refund").click()
    expect(op).to_have_url(re.compile(r"/dash/leagues$"))
    paid = db.call(lambda s: [p.id for p in s.exec(select(Payment).where(Payment.league_id == lid,
                                                                        Payment.status == "succeeded")).all()])  # fmt: skip
    kept = db.call(lambda s: ledger.net_by_payment(s, paid))
    assert sorted(kept.values()) == [500, 500, 500, 500]  # the deposit and three shares: the $5 fee kept of each
    assert db.call(ledger.check) == []
    totals = db.call(lambda s: ledger.totals(s, col(LedgerEntry.svl_id) == _svl(s).user_id))
    op.goto("/dash/revenue")  # the venue's: an archived league's money stays in its venue's figures
    expect(op.locator("[data-figure=collected]")).to_have_text(_dollars(totals.collected))
    expect(op.locator("[data-figure=refunded]")).to_have_text(_dollars(totals["refund"]))
    expect(op.locator("[data-figure=net]")).to_have_text(_dollars(totals.net))
    _name, body = _download(op, "Download CSV")
    rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))
    header, total = rows[0], rows[-1]
    assert total[header.index("Collected")] == f"{totals.collected / 100:.2f}"
    assert total[header.index("Refunded")] == f"{totals['refund'] / 100:.2f}"
    assert total[header.index("Net")] == f"{totals.net / 100:.2f}"
