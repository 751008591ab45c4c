"""Discount codes over HTTP: an operator makes, lists and changes their codes; a player takes one off their pending
registration (a bad code is 422 at the field, saying why) and pays the lower price; one that covers it all is
confirmed without a card."""

from __future__ import annotations

from sqlmodel import col

from tests.api import world as w
from tests.factories import ledger_problems, rows
from volley_app.models import LedgerEntry
from volley_app.models.ledger import CHARGE, DISCOUNT
from volley_app.services.money import discounts

CARD = {"cardNumber": "4242424242424242", "expiry": "12/40", "cvc": "123"}


async def test_an_operator_makes_lists_and_changes_codes_and_a_player_pays_less_with_one(db):
    x = w.build(db)
    svl, pat = w.headers(x, "svl"), w.headers(x, "player")
    async with w.client() as c:
        made = await c.post("/api/discount-codes", json={"code": "fall10", "scope": "league", "scopeId": x["lg"],
                                                          "percent": 10, "maxUses": 5}, headers=svl)  # fmt: skip
        assert made.status_code == 201, made.text
        assert (made.json()["code"], made.json()["off"], made.json()["uses"]) == ("FALL10", "10%", "0 of 5")
        listed = await c.get("/api/discount-codes", headers=svl)
        assert [r["code"] for r in listed.json()] == ["FALL10"] and listed.headers["X-Total-Count"] == "1"
        theirs = await c.get("/api/discount-codes", headers=w.headers(x, "other_svl"))
        assert theirs.json() == []
        bad = await c.post(f"/api/payments/{x['pay']}/discount-code", json={"code": "NOPE"}, headers=pat)
        assert bad.status_code == 422 and bad.json()["errors"] == {"code": discounts.UNKNOWN}
        priced = await c.post(f"/api/payments/{x['pay']}/discount-code", json={"code": "fall10"}, headers=pat)
        assert priced.status_code == 200, priced.text
        assert (priced.json()["discount"], priced.json()["total"], priced.json()["free"]) == ("$33", "$297", False)
        used = await c.get(f"/api/discount-codes/{made.json()['id']}", headers=svl)
        assert used.json()["uses"] == "1 of 5"
        paid = await c.post(f"/api/payments/{x['pay']}/card", json=CARD, headers=pat)
        assert paid.json()["status"] == "succeeded", paid.text
        off = await c.patch(f"/api/discount-codes/{made.json()['id']}", json={"percent": 10, "active": False},
                            headers=w.headers(x, "admin"))  # fmt: skip
        assert off.status_code == 200 and off.json()["status"] == "Inactive", off.text
    found = {e.kind: e.amount_cents for e in rows(x["db"], LedgerEntry, col(LedgerEntry.payment_id) == x["pay"])}
    assert found == {CHARGE: 29700, DISCOUNT: 3300}
    assert ledger_problems(x["db"]) == []


async def test_a_code_that_covers_the_price_is_confirmed_without_a_card(db):
    x = w.build(db)
    svl, pat = w.headers(x, "svl"), w.headers(x, "player")
    async with w.client() as c:
        made = await c.post("/api/discount-codes", json={"code": "comp", "scope": "venue", "amount": "500"},
                            headers=svl)  # fmt: skip
        assert made.status_code == 201, made.text
        refused = await c.post(f"/api/payments/{x['pay']}/confirm", headers=pat)
        assert refused.status_code == 422 and "$330" in refused.json()["message"]
        priced = await c.post(f"/api/payments/{x['pay']}/discount-code", json={"code": "COMP"}, headers=pat)
        assert priced.json()["free"] is True and priced.json()["total"] == "$0"
        card = await c.post(f"/api/payments/{x['pay']}/card", json=CARD, headers=pat)
        assert card.status_code == 422
        done = await c.post(f"/api/payments/{x['pay']}/confirm", headers=pat)
        assert done.status_code == 200 and done.json()["status"] == "succeeded", done.text
    kinds = [e.kind for e in rows(x["db"], LedgerEntry, col(LedgerEntry.payment_id) == x["pay"])]
    assert kinds == [DISCOUNT]
    assert ledger_problems(x["db"]) == []


async def test_a_code_breaking_a_rule_is_422_at_its_field_and_another_venue_is_refused(db):
    x = w.build(db)
    async with w.client() as c:
        both = await c.post("/api/discount-codes", json={"code": "x1y", "scope": "league", "scopeId": x["lg"],
                                                         "percent": 10, "amount": "5"}, headers=w.headers(x, "svl"))  # fmt: skip
        assert both.status_code == 422 and both.json()["errors"]["percent"] == discounts.PERCENT_OR_AMOUNT
        other = await c.post("/api/discount-codes", json={"code": "x1y", "scope": "league", "scopeId": x["lg"],
                                                          "percent": 10}, headers=w.headers(x, "other_svl"))  # fmt: skip
        assert other.status_code == 403
        listed = await c.get("/api/discount-codes", headers=w.headers(x, "admin"))
        assert listed.json() == []
