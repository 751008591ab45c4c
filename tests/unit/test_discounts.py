"""Discount codes and credit at checkout: the rules, the limits, the scopes, who may make and change codes, the
ledger rows a fulfilled payment writes, and ten players racing for a code's last use (run on SQLite and, with
DATABASE_URL, on PostgreSQL)."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from sqlmodel import col

from tests.factories import actor_of, add_league, add_league_session, count, ledger_problems, make_user, rows
from volley_app import db as dbmod
from volley_app.models import AuditEntry, DiscountCode, LedgerEntry, Payment, Role, Team, utcnow
from volley_app.models.ledger import CHARGE, CREDIT_ISSUED, CREDIT_SPENT, DISCOUNT
from volley_app.services.core.errors import Forbidden, Invalid
from volley_app.services.money import discounts, ledger
from volley_app.services.teams import registration

OK_CARD = {"card_number": "4242 4242 4242 4242", "expiry": "12/39", "cvc": "123"}
PRICE = 33000  # a sixes league of $300 plus the $5 fee for six players


@pytest.fixture
def w(db):
    svl, other = make_user(db, "venue", Role.SVL), make_user(db, "elsewhere", Role.SVL)
    admin = make_user(db, "boss", Role.ADMIN)
    players = [make_user(db, f"player{i}") for i in range(3)]
    now = utcnow()
    fall = add_league_session(db, svl, "Fall", now + dt.timedelta(days=3), now + dt.timedelta(days=80))
    spring = add_league_session(db, svl, "Spring", now + dt.timedelta(days=3), now + dt.timedelta(days=80))
    far = add_league_session(db, other, "Away", now + dt.timedelta(days=3), now + dt.timedelta(days=80))
    start = now + dt.timedelta(days=5)
    return {
        "db": db, "svl": actor_of(svl), "other": actor_of(other), "admin": actor_of(admin),
        "players": [actor_of(p) for p in players], "fall": fall, "spring": spring,
        "lg": add_league(db, svl, fall, start=start, max_teams=20).id,
        "lg2": add_league(db, svl, fall, start=start, max_teams=20, court="Court 2").id,
        "lg_spring": add_league(db, svl, spring, start=start, max_teams=20).id,
        "lg_far": add_league(db, other, far, start=start, max_teams=20).id,
    }  # fmt: skip


def _code(w, who="svl", **fields) -> dict:
    args = {"code": "fall10", "scope": "league", "scope_id": w["lg"], "percent": 10} | fields
    return dbmod.call(discounts.create_code, w[who], **args)


def _register(w, player: int = 0, league: str = "lg", name: str = "Aces") -> int:
    out = dbmod.call(registration.register, w["players"][player], league_id=w[league], team_name=name)
    return out["payment_id"]


def _apply(w, payment_id: int, code: str, player: int = 0) -> registration.Checkout:
    return dbmod.call(registration.apply_code, w["players"][player], payment_id=payment_id, code=code)


def _refused(fn) -> str:
    with pytest.raises(Invalid) as caught:
        fn()
    return caught.value.errors.get("code", "")


def _give_credit(w, player: int, cents: int) -> None:
    dbmod.call(lambda db: ledger.record(db, kind=CREDIT_ISSUED, amount_cents=cents, key=f"gift-{player}-{cents}",
                                        user_id=w["players"][player].user_id, reason="Rained out"))  # fmt: skip


# --- the price at checkout ----------------------------------------------------------------------------------


def test_a_percent_code_takes_its_share_off_and_the_fulfilled_payment_writes_a_discount_row(w):
    _code(w)
    pid = _register(w)
    out = _apply(w, pid, " Fall10 ")
    assert (out["price"], out["discount"], out["discount_code"], out["total"]) == ("$330", "$33", "FALL10", "$297")
    assert rows(w["db"], Payment, Payment.id == pid)[0].amount_cents == 29700
    assert dbmod.call(registration.pay_offline, w["players"][0], payment_id=pid, **OK_CARD)["status"] == "succeeded"
    found = {e.kind: e.amount_cents for e in rows(w["db"], LedgerEntry, LedgerEntry.payment_id == pid)}
    assert found == {CHARGE: 29700, DISCOUNT: 3300}
    assert ledger_problems(w["db"]) == []


def test_a_fixed_amount_is_never_more_than_the_price_and_a_blank_code_takes_it_away(w):
    _code(w, code="big", percent=None, amount="500")
    pid = _register(w)
    assert _apply(w, pid, "BIG")["total"] == "$0"
    out = _apply(w, pid, "")
    assert (out["discount"], out["total"], out["free"]) == ("", "$330", False)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"expires": (utcnow() - dt.timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")}, discounts.EXPIRED),
        ({"active": False}, discounts.INACTIVE),
    ],
)
def test_an_expired_or_deactivated_code_is_refused_at_the_field(w, change, message):
    made = _code(w)
    dbmod.call(discounts.update_code, w["svl"], code_id=made["id"], **({"percent": 10} | change))
    pid = _register(w)
    assert _refused(lambda: _apply(w, pid, "FALL10")) == message
    assert rows(w["db"], Payment, Payment.id == pid)[0].amount_cents == PRICE


def test_an_unknown_code_and_a_code_for_another_league_are_refused(w):
    _code(w)
    pid = _register(w, league="lg2")
    assert _refused(lambda: _apply(w, pid, "NOPE")) == discounts.UNKNOWN
    assert _refused(lambda: _apply(w, pid, "FALL10")) == discounts.NOT_HERE


def test_a_session_code_serves_the_leagues_of_its_session_only(w):
    _code(w, code="season", scope="session", scope_id=w["fall"])
    assert _apply(w, _register(w, league="lg2"), "season")["discount"] == "$33"
    assert _refused(lambda: _apply(w, _register(w, league="lg_spring"), "season")) == discounts.NOT_HERE


def test_a_venue_code_serves_every_league_of_its_venue_and_no_other(w):
    _code(w, code="venue5", scope="venue", scope_id=None, percent=None, amount="5", per_player=None)
    assert _apply(w, _register(w, league="lg_spring"), "VENUE5")["total"] == "$325"
    assert _apply(w, _register(w, league="lg"), "VENUE5")["total"] == "$325"
    assert _refused(lambda: _apply(w, _register(w, league="lg_far"), "VENUE5")) == discounts.NOT_HERE


def test_max_uses_and_the_per_player_limit(w):
    _code(w, code="once", scope="venue", scope_id=None, max_uses=2)
    first = _register(w, 0, "lg")
    _apply(w, first, "once")
    _apply(w, first, "once")  # the same registration again: its own use is not counted twice
    assert _refused(lambda: _apply(w, _register(w, 0, "lg2"), "once")) == discounts.USED_BY_YOU
    _apply(w, _register(w, 1, "lg", "Blocks"), "once", player=1)
    assert _refused(lambda: _apply(w, _register(w, 2, "lg", "Digs"), "once", player=2)) == discounts.USED_UP


def test_a_use_held_by_a_lapsed_hold_is_freed(w):
    _code(w, max_uses=1)
    first = _register(w, 0)
    _apply(w, first, "FALL10")
    second = _register(w, 1, name="Blocks")
    assert _refused(lambda: _apply(w, second, "FALL10", player=1)) == discounts.USED_UP
    db = w["db"]
    pay = rows(db, Payment, Payment.id == first)[0]
    pay.expires_at = utcnow() - dt.timedelta(minutes=1)
    db.add(pay)
    db.commit()
    assert _apply(w, second, "FALL10", player=1)["discount"] == "$33"


# --- credit -------------------------------------------------------------------------------------------------


def test_credit_is_taken_off_after_the_discount_and_spent_when_the_payment_goes_through(w):
    _give_credit(w, 0, 5000)
    _code(w)
    pid = _register(w)
    out = _apply(w, pid, "FALL10")
    assert (out["price"], out["discount"], out["credit"], out["total"]) == ("$330", "$33", "$50", "$247")
    # a second registration of the same player cannot spend the credit the first one holds
    assert dbmod.call(registration.checkout, w["players"][0], payment_id=_register(w, league="lg2"))["credit"] == ""
    dbmod.call(registration.pay_offline, w["players"][0], payment_id=pid, **OK_CARD)
    found = {e.kind: e.amount_cents for e in rows(w["db"], LedgerEntry, LedgerEntry.payment_id == pid)}
    assert found == {CHARGE: 24700, DISCOUNT: 3300, CREDIT_SPENT: 5000}
    assert dbmod.call(ledger.credit_balance, w["players"][0].user_id) == 0
    assert ledger_problems(w["db"]) == []


def test_credit_that_covers_the_price_confirms_the_registration_without_a_card(w):
    _give_credit(w, 0, 40000)
    pid = _register(w)
    out = dbmod.call(registration.checkout, w["players"][0], payment_id=pid)
    assert (out["credit"], out["total"], out["free"]) == ("$330", "$0", True)
    with pytest.raises(Invalid):
        dbmod.call(registration.pay_offline, w["players"][0], payment_id=pid, **OK_CARD)
    assert dbmod.call(registration.confirm_free, w["players"][0], payment_id=pid)["status"] == "succeeded"
    assert dbmod.call(registration.confirm_free, w["players"][0], payment_id=pid)["status"] == "succeeded"
    assert count(w["db"], Team, Team.league_id == w["lg"], col(Team.paid).is_(True)) == 1
    found = [(e.kind, e.amount_cents) for e in rows(w["db"], LedgerEntry, LedgerEntry.payment_id == pid)]
    assert found == [(CREDIT_SPENT, PRICE)]
    assert dbmod.call(ledger.credit_balance, w["players"][0].user_id) == 40000 - PRICE
    assert ledger_problems(w["db"]) == []


def test_a_full_discount_confirms_without_a_card_and_a_priced_one_may_not(w):
    _code(w, code="free", percent=100)
    pid = _register(w)
    with pytest.raises(Invalid, match=r"\$330 to pay by card"):
        dbmod.call(registration.confirm_free, w["players"][0], payment_id=pid)
    _apply(w, pid, "free")
    assert dbmod.call(registration.confirm_free, w["players"][0], payment_id=pid)["status"] == "succeeded"
    assert [e.kind for e in rows(w["db"], LedgerEntry, LedgerEntry.payment_id == pid)] == [DISCOUNT]
    assert ledger_problems(w["db"]) == []


# --- making and changing codes: who may ---------------------------------------------------------------------


def test_the_operator_makes_and_changes_their_codes_and_each_change_is_audited(w):
    made = _code(w, max_uses=5)
    assert (made["off"], made["uses"], made["status"], made["applies_to"]) == ("10%", "0 of 5", "Active",
                                                                               "League: Monday C 6s")  # fmt: skip
    out = dbmod.call(discounts.update_code, w["svl"], code_id=made["id"], percent=None, amount="20", max_uses="",
                     active=False)  # fmt: skip
    assert (out["off"], out["uses"], out["status"]) == ("$20", "0", "Inactive")
    assert count(w["db"], AuditEntry, AuditEntry.entity == "discount_code") == 2


def test_another_venue_and_a_player_are_refused_and_nothing_changes(w):
    made = _code(w)
    before = rows(w["db"], DiscountCode)
    for who in ("other", "players"):
        actor = w[who][0] if who == "players" else w[who]
        with pytest.raises(Forbidden):
            dbmod.call(discounts.update_code, actor, code_id=made["id"], percent=100)
        with pytest.raises(Forbidden):
            dbmod.call(discounts.create_code, actor, code="mine", scope="league", scope_id=w["lg"], percent=50)
        with pytest.raises(Forbidden):
            dbmod.call(discounts.code_screen, actor, code_id=made["id"])
    with pytest.raises(Forbidden):
        dbmod.call(discounts.codes_page, w["players"][0])
    assert [(c.id, c.percent, c.active) for c in rows(w["db"], DiscountCode)] == [(c.id, c.percent, c.active) for c in before]
    assert dbmod.call(discounts.codes_page, w["other"]).rows == []


def test_an_admin_makes_codes_for_any_venue_and_sees_every_code(w):
    _code(w)
    _code(w, who="admin", code="away", scope="venue", scope_id=w["other"].user_id)
    made = _code(w, who="admin", code="theirs", scope="league", scope_id=w["lg_far"])
    assert made["venue"] == "elsewhere"
    assert [r["code"] for r in dbmod.call(discounts.codes_page, w["admin"]).rows] == ["THEIRS", "AWAY", "FALL10"]
    assert [r["code"] for r in dbmod.call(discounts.codes_page, w["svl"]).rows] == ["FALL10"]
    assert [r["code"] for r in dbmod.call(discounts.codes_page, w["admin"], filters={"q": "wa"}).rows] == ["AWAY"]


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"percent": 0}, "percent", "Percent must be between 1 and 100"),
        ({"percent": 101}, "percent", "Percent must be between 1 and 100"),
        ({"percent": 10, "amount": "5"}, "percent", discounts.PERCENT_OR_AMOUNT),
        ({"percent": None}, "percent", "Enter a percent (1 to 100) or an amount"),
        ({"code": "a b"}, "code", discounts.CODE_RULE),
        ({"max_uses": "0"}, "max_uses", "Max uses must be between 1 and 100000"),
        ({"scope": "planet"}, "scope", "Choose what the code is for"),
    ],
)
def test_a_code_that_breaks_a_rule_is_refused_at_its_field(w, fields, field, message):
    with pytest.raises(Invalid) as caught:
        _code(w, **fields)
    assert caught.value.errors[field] == message
    assert count(w["db"], DiscountCode) == 0


def test_a_venue_has_each_code_once(w):
    _code(w)
    with pytest.raises(Invalid) as caught:
        _code(w, code="FALL10", scope="venue", scope_id=None)
    assert caught.value.errors["code"] == discounts.CODE_TAKEN
    assert _code(w, who="other", scope="venue", scope_id=None)["code"] == "FALL10"  # another venue may


# --- the last use, raced ------------------------------------------------------------------------------------

RACERS = 10


def test_ten_players_racing_for_the_last_use_one_gets_it(db):
    """Each in a league of their own (a venue's code): only the code's lock stands between them."""
    svl = make_user(db, "racevenue", Role.SVL)
    players = [actor_of(make_user(db, f"racer{i}")) for i in range(RACERS)]
    now = utcnow()
    sid = add_league_session(db, svl, "Fall", now + dt.timedelta(days=3), now + dt.timedelta(days=80))
    lids = [add_league(db, svl, sid, start=now + dt.timedelta(days=5), court=f"Court {i}").id for i in range(RACERS)]
    dbmod.call(discounts.create_code, actor_of(svl), code="LAST", scope="venue", percent=50, max_uses=1)
    pids = [dbmod.call(registration.register, p, league_id=lids[i], team_name=f"Racers {i}")["payment_id"]
            for i, p in enumerate(players)]  # fmt: skip
    barrier = threading.Barrier(RACERS)
    answers: list = [None] * RACERS

    def run(i: int) -> None:
        barrier.wait()
        try:
            answers[i] = dbmod.call(registration.apply_code, players[i], payment_id=pids[i], code="last")["discount"]
        except Invalid as exc:
            answers[i] = exc.errors.get("code")
        except Exception as exc:  # a failure is an answer the assertion shows
            answers[i] = f"{type(exc).__name__}: {exc}"

    threads = [threading.Thread(target=run, args=(i,)) for i in range(RACERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(answers) == ["$165"] + [discounts.USED_UP] * (RACERS - 1)
    assert count(db, Payment, col(Payment.discount_code_id).is_not(None)) == 1


# --- with the card service (the stripe SDK against the local stand-in) ---------------------------------------


def test_a_code_taken_after_the_card_payment_started_cancels_it_and_the_checkout_starts_one_for_the_new_price(
        w, stripe_env):  # fmt: skip
    _code(w)
    pid = _register(w)
    assert dbmod.call(registration.checkout, w["players"][0], payment_id=pid)["client_secret"] == "pi_test_1_secret_x"
    out = _apply(w, pid, "FALL10")
    assert out["client_secret"] == "pi_test_2_secret_x"
    assert stripe_env.intents["pi_test_1"]["status"] == "canceled"
    assert stripe_env.intents["pi_test_2"]["amount"] == 29700
    stripe_env.intents["pi_test_2"]["status"] = "succeeded"
    assert dbmod.call(registration.confirm_stripe_return, w["players"][0], payment_id=pid)["status"] == "succeeded"
    found = {e.kind: e.amount_cents for e in rows(w["db"], LedgerEntry, LedgerEntry.payment_id == pid)}
    assert found == {CHARGE: 29700, DISCOUNT: 3300}
    assert ledger_problems(w["db"]) == []


def test_a_card_payment_finished_before_a_code_is_taken_keeps_the_registration_at_its_price(w, stripe_env):
    _code(w)
    pid = _register(w)
    assert dbmod.call(registration.checkout, w["players"][0], payment_id=pid)["client_secret"] == "pi_test_1_secret_x"
    stripe_env.intents["pi_test_1"]["status"] = "succeeded"  # paid in another window, its webhook not here yet
    with pytest.raises(Invalid) as refused:
        _apply(w, pid, "FALL10")
    assert "another window" in refused.value.errors["code"]
    pay = rows(w["db"], Payment, Payment.id == pid)[0]
    assert (pay.status, pay.amount_cents, pay.provider_payment_id) == ("succeeded", PRICE, "pi_test_1")
    found = {e.kind: e.amount_cents for e in rows(w["db"], LedgerEntry, LedgerEntry.payment_id == pid)}
    assert found == {CHARGE: PRICE}  # the charge is recorded, no discount
    assert pay.discount_cents == 0
    assert ledger_problems(w["db"]) == []


def test_with_the_card_service_a_price_the_credit_covers_starts_no_card_payment(w, stripe_env):
    _give_credit(w, 0, PRICE)
    pid = _register(w)
    out = dbmod.call(registration.checkout, w["players"][0], payment_id=pid)
    assert (out["free"], out["client_secret"]) == (True, "")
    assert dbmod.call(registration.confirm_free, w["players"][0], payment_id=pid)["status"] == "succeeded"
    assert stripe_env.intents == {}
    assert ledger_problems(w["db"]) == []
