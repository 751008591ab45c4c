"""The payment page's handlers × {anonymous, the payer, another player, the league's SVL, another SVL, admin}: only
the league's operator and admins read the payment and give money back; any other caller is refused and the ledger
is as before."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.factories import actor_of, add_league, add_league_session, count, ledger_problems, login_token, make_user
from tests.harness import call_handler
from volley_app import routes
from volley_app.models import AuditEntry, LedgerEntry, Refund, Role, utcnow
from volley_app.pages.dash.leagues.payment import PaymentState
from volley_app.services.teams import registration

WHO = ["anon", "pat", "quinn", "svla", "svlb", "root"]
OPERATORS = {"svla", "root"}


@pytest.fixture
def world(db):
    svla = make_user(db, "svla", Role.SVL)
    make_user(db, "svlb", Role.SVL)
    make_user(db, "root", Role.ADMIN)
    pat = make_user(db, "pat")
    make_user(db, "quinn")
    now = utcnow()
    sid = add_league_session(db, svla, "Fall", now + dt.timedelta(days=3), now + dt.timedelta(days=80))
    lg = add_league(db, svla, sid, start=now + dt.timedelta(days=4))
    pid = registration.register(db, actor_of(pat), league_id=lg.id, team_name="Aces")["payment_id"]
    registration.pay_offline(db, actor_of(pat), payment_id=pid, card_number="4242424242424242", expiry="12/39",
                             cvc="123")  # fmt: skip
    db.commit()
    tokens = {n: login_token(db, n) for n in WHO if n != "anon"}
    return {"db": db, "pid": pid, "tokens": tokens}


def _state(db) -> tuple:
    return count(db, LedgerEntry), count(db, Refund), count(db, AuditEntry)


@pytest.mark.parametrize("who", WHO)
async def test_only_the_leagues_operator_and_admins_open_a_payment(world, who):
    path = routes.payment_path(world["pid"])
    state, _ = await call_handler(world["tokens"].get(who), PaymentState, path, "load")
    if who in OPERATORS:
        assert state.found["team_name"] == "Aces" and state.may_give_back and len(state.history) == 1
    else:
        assert state.error and state.found == {} and not state.may_give_back and state.history == []


@pytest.mark.parametrize("who", WHO)
async def test_only_the_leagues_operator_and_admins_give_money_back_from_the_page(world, who):
    db = world["db"]
    before = _state(db)
    path = routes.payment_path(world["pid"])
    form = {"amount": "25", "reason": "Left the team", "as_credit": ""}
    state, _ = await call_handler(world["tokens"].get(who), PaymentState, path, "give_back", form)
    if who in OPERATORS:
        assert state.notice == "$25 refunded to the card." and not state.error
        assert _state(db) == (before[0] + 1, 1, before[2] + 1) and ledger_problems(db) == []
    else:
        assert state.error and state.notice == "" and _state(db) == before


async def test_the_form_sent_twice_is_one_refund_even_after_the_page_was_read_again(world):
    """A double click's second submit may come after the first was done and the page read again (with a new key for
    a new form): it carries the key of the form it was sent from, so it is the same refund."""
    db = world["db"]
    path = routes.payment_path(world["pid"])
    token = world["tokens"].get("svla")
    shown, _ = await call_handler(token, PaymentState, path, "load")
    form = {"amount": "25", "reason": "Left the team", "as_credit": "", "key": shown.refund_key}
    first, _ = await call_handler(token, PaymentState, path, "give_back", form)
    again, _ = await call_handler(token, PaymentState, path, "give_back", form)
    assert first.notice == again.notice == "$25 refunded to the card."
    assert count(db, Refund) == 1 and ledger_problems(db) == []
    assert first.refund_key != shown.refund_key  # the form drawn anew has a key of its own
