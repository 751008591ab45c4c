"""Giving money back in Chromium: an operator opens a paid team's payment from the league's payments card, refunds
part of it, gives part as credit, sets a refund policy, and archives the league refunding what the policy gives
back; the payer is emailed each time and the ledger balances."""

from __future__ import annotations

import re
import time

from playwright.sync_api import Page, expect
from sqlmodel import select

from tests.e2e.helpers import add_open_league, log_in, make_user, open_as, screenshot, start_weekday
from volley_app import db
from volley_app.models import LedgerEntry, Payment, Role, User
from volley_app.services.core.actors import Actor
from volley_app.services.money import ledger
from volley_app.services.seasons import fees
from volley_app.services.teams import registration


def _shot(page: Page, name: str) -> None:
    screenshot(page, f"refunds/{name}-{page.viewport_size['width']}")


def _paid(username: str, league_id: int, team: str) -> int:
    """A team registered and paid by card (the offline provider), as its captain would at checkout."""

    def pay(s) -> int:
        user = s.exec(select(User).where(User.username == username)).one()
        actor = Actor(user_id=user.id, username=user.username, roles=tuple(user.roles), first_name=user.first_name)
        pid = registration.register(s, actor, league_id=league_id, team_name=team)["payment_id"]
        registration.pay_offline(s, actor, payment_id=pid, card_number="4242424242424242", expiry="12/39", cvc="123")
        return pid

    return db.call(pay)


def _refund_rows() -> list[int]:
    return db.call(lambda s: [e.amount_cents for e in s.exec(select(LedgerEntry).where(LedgerEntry.kind == "refund")
                                                              .order_by(LedgerEntry.id))])  # fmt: skip


def _mail(mailbox, to: str, subject: str, timeout: float = 30) -> bool:
    """Whether a message to ``to`` whose subject starts with ``subject`` arrives in time (among the others sent)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(m["Subject"].startswith(subject) for m in mailbox.to(to)):
            return True
        time.sleep(0.2)
    return False


def test_an_operator_refunds_part_gives_credit_and_archives_refunding_by_the_policy(new_page, mailbox):
    make_user("venue", Role.SVL)
    make_user("cap")
    make_user("other")
    lid = add_open_league("venue")
    aces, spikes = _paid("cap", lid, "Aces"), _paid("other", lid, "Spikes")
    total = db.call(lambda s: s.get(Payment, aces).amount_cents)
    page = new_page()
    log_in(page, "venue")
    expect(page).not_to_have_url(re.compile(r"/login"))
    # Cash the captain paid at the venue, on the team's page: it counts in the league's totals.
    team = db.call(lambda s: s.get(Payment, aces).team_id)
    page.goto(f"/dash/teams/{team}")
    page.get_by_label("Amount ($)").fill("40")
    page.get_by_label("Note").fill("Paid at the net")
    page.get_by_role("button", name="Record cash").click()
    expect(page.get_by_text("$40 in cash recorded for Aces.")).to_be_visible()
    expect(page.get_by_label("Amount ($)")).to_have_value("")  # a new form for the next cash
    _shot(page, "cash")
    page.set_viewport_size({"width": 390, "height": 844})
    _shot(page, "cash")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"/dash/leagues/{lid}")
    expect(page.get_by_text(f"Collected {fees.money(2 * total + 4000)}", exact=False)).to_be_visible()
    page.get_by_role("link", name="Aces").click()
    expect(page).to_have_url(re.compile(rf"/dash/payments/{aces}$"))
    expect(page.get_by_text("Paid by card")).to_be_visible()
    expect(page.get_by_text("No refund policy is set")).to_be_visible()
    _shot(page, "payment")

    # Part of it back to the card; a double click is one refund.
    page.get_by_label("Amount ($)").fill("20")
    page.get_by_label("Reason").fill("Missed the first week")
    page.get_by_role("button", name="Give back").dblclick()
    expect(page.get_by_text("$20 refunded to the card.")).to_be_visible()
    expect(page.get_by_role("cell", name="Refunded to the card")).to_be_visible()
    assert _refund_rows() == [2000]
    assert _mail(mailbox, "cap@example.com", "$20 refunded for Aces")

    # More than is left is refused at the field, and nothing changes.
    page.get_by_label("Amount ($)").fill(str(total))
    page.get_by_label("Reason").fill("Too much")
    page.get_by_role("button", name="Give back").click()
    expect(page.get_by_text(re.compile(r"At most \$[\d,]+ can be given back"))).to_be_visible()
    assert _refund_rows() == [2000]

    # Credit instead.
    page.get_by_label("Amount ($)").fill("15")
    page.get_by_label("Reason").fill("Rained out night")
    page.get_by_text("Give it as credit").click()
    page.get_by_role("button", name="Give back").click()
    expect(page.get_by_text("$15 given as credit for a later registration.")).to_be_visible()
    expect(page.get_by_role("cell", name="Given back as credit")).to_be_visible()
    phone = new_page(width=390, height=844)
    open_as(phone, "venue", f"/dash/payments/{aces}")
    expect(phone.get_by_role("cell", name="Given back as credit").first).to_be_visible()
    _shot(page, "payment-after")
    _shot(phone, "payment-after")

    # A refund policy with a fee now, then archive and refund by it.
    page.goto(f"/dash/leagues/{lid}")
    page.get_by_label("Refund Less Fee Until (optional)").fill("2039-12-30T12:00")
    page.get_by_label("Refund Fee (dollars)").fill("25")
    page.get_by_label("Day").select_option(start_weekday(lid))  # the helper's league starts on another day than it says
    page.get_by_role("button", name="Update League").click()
    expect(page).to_have_url(re.compile(r"/dash/leagues$"))
    # Spikes withdraws: its page says what the policy proposes and links the payment, its form filled in with it.
    page.goto(f"/dash/teams/{db.call(lambda s: s.get(Payment, spikes).team_id)}")
    # This tab showed Aces' page before: Spikes' form replaces it once read, and a dialog opened on Aces' goes with it.
    expect(page.get_by_role("heading", name="Spikes", level=2)).to_be_visible()
    page.get_by_role("button", name="Withdraw Team").click()
    page.get_by_role("button", name="Forfeit remaining games").click()
    said = page.get_by_role("status").filter(has_text=f"Refund proposed per the policy: {fees.money(total - 2500)}")
    expect(said).to_be_visible()
    for width, height in ((1280, 800), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        _shot(page, "withdrawn")
    page.set_viewport_size({"width": 1280, "height": 800})
    said.get_by_role("link", name="Open the payment to refund it").click()
    expect(page).to_have_url(re.compile(rf"/dash/payments/{spikes}$"))
    expect(page.get_by_label("Amount ($)")).to_have_value(f"{(total - 2500) / 100:.2f}")
    assert _mail(mailbox, "other@example.com", "Spikes has withdrawn")
    assert _refund_rows() == [2000]  # only proposed: nothing is given back until the operator does
    page.goto(f"/dash/leagues/{lid}")
    expect(page.get_by_label("Refund Fee (dollars)")).to_have_value("25.00")  # the league is read: its form is drawn
    page.get_by_role("button", name="Delete League").click()
    expect(page.get_by_text(re.compile(r"The refund policy gives back now: Aces \$[\d,.]+, Spikes"))).to_be_visible()
    _shot(page, "archive")
    page.get_by_role("button", name="Archive and refund").click()
    expect(page).to_have_url(re.compile(r"/dash/leagues$"))
    kept = db.call(lambda s: ledger.net_by_payment(s, [aces, spikes]))
    assert kept == {aces: 2500, spikes: 2500}  # the fee kept of each, the rest given back
    assert db.call(ledger.check) == []
