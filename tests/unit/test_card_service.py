"""A slow card service: a clear message within ten seconds, nothing half written, no second charge, and no one
else held up while it answers (no database lock or transaction is held over a call to it).

The stripe SDK talks to the local stand-in (tests/stripe_standin.py), whose ``delay`` keeps its answers waiting.
Run on SQLite and (with DATABASE_URL) on PostgreSQL.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import threading
import time
from collections.abc import Callable
from typing import TypeVar

import pytest
import sqlalchemy as sa
from sqlmodel import col

from tests.factories import (
    actor_of,
    add_league,
    add_league_session,
    count,
    ledger_problems,
    login_token,
    make_user,
    refund_statuses,
    rows,
)
from tests.harness import as_background, call_handler, page_state
from volley_app import db as dbmod
from volley_app.models import League, OutboxMessage, Payment, Role, Team, utcnow
from volley_app.pages.dash.registration.checkout import CheckoutState
from volley_app.pages.dash.registration.success import STILL_PROCESSING, RegisteredState
from volley_app.services.money import payments
from volley_app.services.teams import league_places, registration

# Long enough that a caller who waits for the answer is plainly seen waiting; the tests release it earlier.
SLOW = 25.0


@pytest.fixture
def world(db, stripe_env):
    svl, pat, sam = make_user(db, "svla", Role.SVL), make_user(db, "pat"), make_user(db, "sam")
    now = utcnow()
    sid = add_league_session(db, svl, "Fall", now + dt.timedelta(days=3), now + dt.timedelta(days=80))
    lg = add_league(db, svl, sid, start=now + dt.timedelta(days=5), max_teams=4)
    return {"db": db, "lid": lg.id, "pat": actor_of(pat), "sam": actor_of(sam), "stripe": stripe_env}


def _register(w, who: str = "pat", name: str = "Aces") -> int:
    return dbmod.call(registration.register, w[who], league_id=w["lid"], team_name=name)["payment_id"]


def _payment(db, payment_id: int) -> Payment:
    db.expire_all()
    return rows(db, Payment, Payment.id == payment_id)[0]


def _creates(stripe_env) -> list[dict]:
    return [r for r in stripe_env.requests if r["method"] == "POST" and r["path"] == "/v1/payment_intents"]


def _outcome(fn):
    try:
        return fn()
    except Exception as exc:  # the assertions say which
        return exc


T = TypeVar("T")


def _while_the_card_service_answers(stripe_env, work: Callable[[], T], write: Callable[[], object]) -> tuple[T, float]:
    """Start ``work`` (it calls the card service) in its own thread; once its request has reached the service and
    while the answer waits, run ``write`` (another transaction) and time it. Returns what ``work`` gave, and how
    long ``write`` took (the answer still waiting all that time)."""
    stripe_env.delay = SLOW
    asked, answered = len(stripe_env.requests), stripe_env.answered
    done: dict = {}
    worker = threading.Thread(target=lambda: done.update(out=_outcome(work)))
    worker.start()
    deadline = time.monotonic() + 10
    while len(stripe_env.requests) == asked:
        assert time.monotonic() < deadline and worker.is_alive(), "the card service was never asked"
        time.sleep(0.01)
    started = time.monotonic()
    writer = threading.Thread(target=lambda: done.update(wrote=_outcome(write)))
    writer.start()
    writer.join(timeout=8)
    took = time.monotonic() - started
    still_waiting = stripe_env.answered == answered
    stripe_env.release()
    writer.join()
    worker.join(timeout=30)
    assert still_waiting, "the card service answered before the other writer was done"
    assert not isinstance(done.get("wrote"), Exception), done.get("wrote")
    if isinstance(done.get("out"), Exception):
        raise done["out"]
    return done["out"], took


def _take_the_league_lock(lid: int):
    return lambda: dbmod.call(lambda db: league_places.lock(db, lid))


# --- the client: ten seconds, no retry -----------------------------------------------------------------------


def test_the_stripe_client_waits_ten_seconds_at_most_and_never_retries(stripe_env):
    client = payments.stripe_provider().client
    assert payments.PROVIDER_TIMEOUT_SECONDS == 10
    http = client._requestor._client
    assert http is not None and vars(http)["_timeout"] == 10  # the SDK's own default is 80 s
    assert client._requestor._options.max_network_retries == 0


# --- (a) a slow answer: the message, within ten seconds, and nothing half written ---------------------------


async def test_a_card_service_that_does_not_answer_in_time_gives_a_clear_message_within_ten_seconds(world):
    db, stripe_env = world["db"], world["stripe"]
    pid = _register(world)
    before = _payment(db, pid)
    token = login_token(db, "pat")
    stripe_env.delay = SLOW
    started = time.monotonic()
    state, _events = await call_handler(token, CheckoutState, f"/dash/leagues/teams/checkout?payment={pid}", "load")
    took = time.monotonic() - started
    stripe_env.release()
    assert state.error == payments.PROVIDER_SLOW and state.stripe == {}
    assert 9 < took < 14, took  # the SDK's ten seconds, not the 80 s it would wait by itself
    after = _payment(db, pid)
    # the reservation as it was: still pending, its place held until the same time, no intent recorded
    assert (after.status, after.provider_payment_id, after.expires_at) == ("pending", None, before.expires_at)
    assert count(db, Team) == 0 and count(db, OutboxMessage) == 0
    # opening the checkout again (the card service back) gets the intent the slow call had made: one intent
    state, _events = await call_handler(token, CheckoutState, f"/dash/leagues/teams/checkout?payment={pid}", "load")
    assert state.error == "" and state.stripe["client_secret"] == "pi_test_1_secret_x"
    assert list(stripe_env.intents) == ["pi_test_1"] and _payment(db, pid).provider_payment_id == "pi_test_1"


async def test_a_slow_answer_to_the_return_from_stripe_says_the_payment_is_still_processing(world, monkeypatch):
    db, stripe_env = world["db"], world["stripe"]
    monkeypatch.setattr(payments, "PROVIDER_TIMEOUT_SECONDS", 0.5)
    pid = _register(world)
    dbmod.call(registration.checkout, world["pat"], payment_id=pid)
    stripe_env.intents["pi_test_1"]["status"] = "succeeded"
    stripe_env.delay = SLOW
    ret = f"/dash/leagues/teams/success?payment={pid}&payment_intent=pi_test_1"
    state, _events = await call_handler(login_token(db, "pat"), RegisteredState, ret, "load")
    stripe_env.release()
    assert state.error == STILL_PROCESSING and count(db, Team) == 0 and _payment(db, pid).status == "pending"
    state, _events = await call_handler(login_token(db, "pat"), RegisteredState, ret, "load")  # read again
    assert state.info["team_name"] == "Aces" and count(db, Team) == 1


async def test_the_tab_stays_free_while_its_checkout_waits_for_the_card_service(world):
    """The checkout's load is a background event: the tab's other events run while the card service is asked."""
    db, stripe_env = world["db"], world["stripe"]
    pid = _register(world)
    root, state = page_state(CheckoutState, f"/dash/leagues/teams/checkout?payment={pid}", login_token(db, "pat"))
    stripe_env.delay = SLOW
    asked = len(stripe_env.requests)
    async with as_background(root, state) as (proxy, manager):
        load = asyncio.create_task(CheckoutState.load.fn(proxy))
        deadline = time.monotonic() + 10
        while len(stripe_env.requests) == asked:
            assert time.monotonic() < deadline and not load.done(), "the card service was never asked"
            await asyncio.sleep(0.01)
        held = [lock.locked() for lock in manager._states_locks.values()]
        stripe_env.release()
        await asyncio.wait_for(load, 30)
    assert held == [False], held  # the tab's lock was taken (to read its token) and free while the answer waited
    assert state.error == "" and state.stripe["client_secret"] == "pi_test_1_secret_x"


# --- (b) nobody else waits while the card service answers ----------------------------------------------------


def test_another_captain_registers_while_the_checkout_waits_for_the_card_service(world):
    db, stripe_env = world["db"], world["stripe"]
    pid = _register(world)
    page, took = _while_the_card_service_answers(
        stripe_env,
        lambda: dbmod.call(registration.checkout, world["pat"], payment_id=pid),
        lambda: _register(world, "sam", "Sams"),  # takes the same league's lock, and writes
    )
    assert took < 3, f"the other captain waited {took:.1f} s for the card service"
    assert page["client_secret"] == "pi_test_1_secret_x" and _payment(db, pid).provider_payment_id == "pi_test_1"
    assert sorted(p.team_name for p in rows(db, Payment)) == ["Aces", "Sams"]


def test_the_return_from_stripe_holds_no_lock_while_the_card_service_answers(world):
    db, stripe_env = world["db"], world["stripe"]
    pid = _register(world)
    dbmod.call(registration.checkout, world["pat"], payment_id=pid)
    stripe_env.intents["pi_test_1"]["status"] = "succeeded"
    back, took = _while_the_card_service_answers(
        stripe_env,
        lambda: dbmod.call(registration.confirm_stripe_return, world["pat"], payment_id=pid),
        _take_the_league_lock(world["lid"]),
    )
    assert took < 3, f"the league's lock waited {took:.1f} s for the card service"
    assert back["status"] == "succeeded" and [t.team_name for t in rows(db, Team)] == ["Aces"]


def _lapse(db, payment_id: int) -> None:
    db.execute(sa.update(Payment).where(col(Payment.id) == payment_id).values(expires_at=utcnow() - dt.timedelta(seconds=1)))
    db.commit()


def test_the_sweep_cancels_a_lapsed_card_payment_holding_no_lock(world):
    db, stripe_env = world["db"], world["stripe"]
    pid = _register(world)
    dbmod.call(registration.checkout, world["pat"], payment_id=pid)
    _lapse(db, pid)
    swept, took = _while_the_card_service_answers(stripe_env, league_places.expire_holds, _take_the_league_lock(world["lid"]))
    assert took < 3, f"the league's lock waited {took:.1f} s for the card service"
    assert swept == league_places.Sweep(expired=1)
    assert stripe_env.intents["pi_test_1"]["status"] == "canceled" and _payment(db, pid).status == "expired"


def _paid_too_late(world) -> tuple[int, dict]:
    """Pat's hold lapsed (its intent cancelled) and Sam took the league's last place; then Stripe says Pat's card
    went through after all. Returns Pat's payment id and the event."""
    db, stripe_env = world["db"], world["stripe"]
    db.execute(sa.update(League).where(League.id == world["lid"]).values(max_teams=1))
    db.commit()
    late = _register(world)
    dbmod.call(registration.checkout, world["pat"], payment_id=late)
    _lapse(db, late)
    taker = _register(world, "sam", "Sams")
    assert _payment(db, late).status == "expired"
    dbmod.call(registration.checkout, world["sam"], payment_id=taker)
    stripe_env.intents["pi_test_1"]["status"] = "succeeded"
    return late, {"type": "payment_intent.succeeded", "data": {"object": dict(stripe_env.intents["pi_test_1"])}}


def test_a_refund_is_asked_for_holding_no_lock(world):
    db, stripe_env = world["db"], world["stripe"]
    late, event = _paid_too_late(world)
    outcome, took = _while_the_card_service_answers(
        stripe_env, lambda: dbmod.call(registration.handle_stripe_event, event), _take_the_league_lock(world["lid"])
    )
    assert took < 3, f"the league's lock waited {took:.1f} s for the card service"
    assert outcome == "refunded" and stripe_env.refunded() == ["pi_test_1"]
    assert (_payment(db, late).status, _payment(db, late).error) == ("refunded", league_places.PLACE_GONE)


# --- (c) a retry after a timeout, or a double click, charges once ----------------------------------------------


def test_trying_again_after_a_timeout_or_clicking_twice_makes_one_payment(world, monkeypatch):
    db, stripe_env = world["db"], world["stripe"]
    monkeypatch.setattr(payments, "PROVIDER_TIMEOUT_SECONDS", 1.0)
    pid = _register(world)
    stripe_env.delay = SLOW
    started = time.monotonic()
    with pytest.raises(payments.ProviderUnavailable, match="did not answer in time. Nothing was charged"):
        dbmod.call(registration.checkout, world["pat"], payment_id=pid)
    assert time.monotonic() - started < 5
    assert list(stripe_env.intents) == ["pi_test_1"]  # the service made it; the answer never came back
    assert _payment(db, pid).provider_payment_id is None and _payment(db, pid).status == "pending"
    stripe_env.release()
    # the retry, and two more tabs (or clicks) at once: the same intent every time
    pages = [dbmod.call(registration.checkout, world["pat"], payment_id=pid)]
    both: list = [None, None]
    clicks = [threading.Thread(target=lambda i=i: both.__setitem__(i, _outcome(
        lambda: dbmod.call(registration.checkout, world["pat"], payment_id=pid)))) for i in range(2)]  # fmt: skip
    for t in clicks:
        t.start()
    for t in clicks:
        t.join(timeout=30)
    pages += both
    assert [p["client_secret"] for p in pages] == ["pi_test_1_secret_x"] * 3, pages
    assert list(stripe_env.intents) == ["pi_test_1"] and _payment(db, pid).provider_payment_id == "pi_test_1"
    assert {r["idempotency_key"] for r in _creates(stripe_env)} == {_payment(db, pid).idempotency_key}
    stripe_env.intents["pi_test_1"]["status"] = "succeeded"
    assert dbmod.call(registration.confirm_stripe_return, world["pat"], payment_id=pid)["status"] == "succeeded"
    assert count(db, Team) == 1 and stripe_env.refunded() == []


def test_a_refund_the_card_service_does_not_answer_stays_due_and_is_made_once(world, monkeypatch):
    db, stripe_env = world["db"], world["stripe"]
    monkeypatch.setattr(payments, "PROVIDER_TIMEOUT_SECONDS", 1.0)
    late, event = _paid_too_late(world)
    stripe_env.delay = SLOW
    with pytest.raises(payments.ProviderUnavailable):  # the webhook answers 503: Stripe sends the event again
        dbmod.call(registration.handle_stripe_event, event)
    stripe_env.release()
    pay = _payment(db, late)
    assert (pay.status, refund_statuses(db, late)) == ("refunded", ["due"])  # decided, told, and the refund still due
    assert count(db, OutboxMessage, OutboxMessage.kind == "payment_refunded") == 1
    assert dbmod.call(registration.handle_stripe_event, event) == "refunded"  # Stripe's redelivery asks again
    assert refund_statuses(db, late) == ["made"] and ledger_problems(db) == []
    assert dbmod.call(registration.handle_stripe_event, event) == "refunded"  # and again: nothing more
    assert stripe_env.refunded() == ["pi_test_1"]  # one refund, whatever the retries
    assert count(db, OutboxMessage, OutboxMessage.kind == "payment_refunded") == 1


def test_the_sweep_of_a_league_asks_again_for_its_refunds_due(world, monkeypatch):
    db, stripe_env = world["db"], world["stripe"]
    monkeypatch.setattr(payments, "PROVIDER_TIMEOUT_SECONDS", 1.0)
    late, event = _paid_too_late(world)
    stripe_env.delay = SLOW
    with pytest.raises(payments.ProviderUnavailable):
        dbmod.call(registration.handle_stripe_event, event)
    stripe_env.release()
    assert refund_statuses(db, late) == ["due"]
    _lapse(db, rows(db, Payment, Payment.team_name == "Sams")[0].id)  # something for the sweep to do there
    assert league_places.expire_holds().expired == 1
    assert refund_statuses(db, late) == ["made"] and stripe_env.refunded() == ["pi_test_1"]
