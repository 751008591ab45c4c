"""Money over HTTP: a payment's page, refunds and credit with an idempotency key, cash recorded, a player's credit;
every other caller is refused and changes nothing."""

from __future__ import annotations

from tests.api import world as w
from tests.factories import ledger_problems

CARD = {"cardNumber": "4242424242424242", "expiry": "12/40", "cvc": "123"}


async def _paid(c, x) -> None:
    paid = await c.post(f"/api/payments/{x['pay']}/card", json=CARD, headers=w.headers(x, "player"))
    assert paid.status_code == 200 and paid.json()["status"] == "succeeded", paid.text


async def test_an_operator_refunds_once_per_key_and_the_payer_reads_their_credit(db):
    x = w.build(db)
    async with w.client() as c:
        await _paid(c, x)
        key = {"Idempotency-Key": "refund-click-0001"}
        first = await c.post(f"/api/payments/{x['pay']}/refunds", json={"amount": "20", "reason": "Short week"},
                             headers=w.headers(x, "svl") | key)  # fmt: skip
        again = await c.post(f"/api/payments/{x['pay']}/refunds", json={"amount": "20", "reason": "Short week"},
                             headers=w.headers(x, "svl") | key)  # fmt: skip
        assert first.status_code == 201 and first.json()["status"] == "made", first.text
        assert again.json()["id"] == first.json()["id"]
        credit = await c.post(f"/api/payments/{x['pay']}/refunds",
                              json={"amount": "10", "reason": "Rained out", "asCredit": True},
                              headers=w.headers(x, "admin"))  # fmt: skip
        assert credit.status_code == 201 and credit.json()["status"] == "credit", credit.text
        too_much = await c.post(f"/api/payments/{x['pay']}/refunds", json={"amount": "9999", "reason": "All"},
                                headers=w.headers(x, "svl"))  # fmt: skip
        assert too_much.status_code == 422 and "amount" in too_much.json()["errors"]
        page = await c.get(f"/api/payments/{x['pay']}", headers=w.headers(x, "svl"))
        assert [h["what"] for h in page.json()["history"]] == ["Paid by card", "Refunded to the card",
                                                                "Given back as credit"]  # fmt: skip
        mine = await c.get("/api/me/credit", headers=w.headers(x, "player"))
        assert mine.json()["balanceCents"] == 1000 and mine.json()["rows"][0]["what"] == "Given"
        theirs = await c.get("/api/me/credit", headers=w.headers(x, "other_player"))
        assert theirs.json()["balanceCents"] == 0 and theirs.json()["rows"] == []
        totals = await c.get(f"/api/leagues/{x['lg']}/money", headers=w.headers(x, "svl"))
        assert totals.json()["refunded"] == "$20" and totals.json()["credit"] == "$10"
    assert ledger_problems(x["db"]) == []


async def test_cash_is_recorded_once_per_key_by_the_leagues_operator(db):
    x = w.build(db)
    async with w.client() as c:
        key = {"Idempotency-Key": "cash-click-00001"}
        first = await c.post(f"/api/teams/{x['team']}/cash", json={"amount": "300", "note": "At the first game"},
                             headers=w.headers(x, "svl") | key)  # fmt: skip
        again = await c.post(f"/api/teams/{x['team']}/cash", json={"amount": "300"}, headers=w.headers(x, "svl") | key)
        assert first.status_code == 201 and again.json()["id"] == first.json()["id"], first.text
        totals = await c.get(f"/api/leagues/{x['lg']}/money", headers=w.headers(x, "svl"))
        assert totals.json()["collected"] == "$300"
        bad = await c.post(f"/api/teams/{x['team']}/cash", json={"amount": "0"}, headers=w.headers(x, "svl"))
        assert bad.status_code == 422 and "amount" in bad.json()["errors"]


async def test_other_callers_give_nothing_back_and_record_no_cash(db):
    x = w.build(db)
    async with w.client() as c:
        await _paid(c, x)
        before = w.snapshot(x["db"])
        for role, status in (("player", 403), ("other_player", 403), ("other_svl", 403), ("anonymous", 401)):
            got = await c.post(f"/api/payments/{x['pay']}/refunds", json={"reason": "Mine"}, headers=w.headers(x, role))
            assert got.status_code == status, (role, got.text)
            cash = await c.post(f"/api/teams/{x['team']}/cash", json={"amount": "5"}, headers=w.headers(x, role))
            assert cash.status_code == status, (role, cash.text)
        assert w.snapshot(x["db"]) == before


async def test_a_player_pays_a_share_by_the_link_with_no_login_and_the_team_reads_who_paid(db):
    from tests.api.test_permission_matrix import _share_token, _shared
    from tests.factories import tampered

    x = w.build(db)
    team, token = _shared(x), _share_token(x)
    async with w.client() as c:
        opened = await c.get(f"/api/shares/{token}")
        assert opened.status_code == 200 and opened.json()["share"] == "$330", opened.text  # he alone, no deposit paid
        paid = await c.post(f"/api/shares/{token}/pay", json={"paymentId": opened.json()["paymentId"], **CARD})
        assert paid.status_code == 200 and paid.json()["status"] == "succeeded", paid.text
        again = await c.get(f"/api/shares/{token}")
        assert again.json()["paymentId"] == 0 and "paid its fee in full" in again.json()["notice"]
        forged = await c.get(f"/api/shares/{tampered(token)}")
        assert forged.status_code == 404
        mine = await c.get(f"/api/teams/{team}/shares", headers=w.headers(x, "player"))
        assert mine.json()["rows"][0]["paid"] == "$330" and mine.json()["confirmed"] is True
        theirs = await c.get(f"/api/teams/{team}/shares", headers=w.headers(x, "other_player"))
        assert theirs.status_code == 403
    assert ledger_problems(x["db"]) == []


async def test_the_operator_shares_a_league_s_fee_over_the_api_and_a_deposit_of_the_whole_fee_is_refused(db):
    from tests.api.test_permission_matrix import LEAGUE_FORM

    x = w.build(db)
    async with w.client() as c:
        form = LEAGUE_FORM | {"id": x["lg2"], "paymentMode": "shares"}
        big = await c.patch("/api/leagues", json=form | {"deposit": 330}, headers=w.headers(x, "svl"))
        assert big.status_code == 422 and "deposit" in big.json()["errors"], big.text
        ok = await c.patch("/api/leagues", json=form | {"deposit": 50, "sharesDue": "2031-01-05T12:00"},
                           headers=w.headers(x, "svl"))  # fmt: skip
        assert ok.status_code == 200, ok.text
        shown = await c.get(f"/api/leagues/{x['lg2']}", headers=w.headers(x, "svl"))
        assert (shown.json()["paymentMode"], shown.json()["depositCents"]) == ("shares", 5000)
