"""Ten captains racing for the last place, each in its own thread and database session.

Run on SQLite and (with DATABASE_URL) on PostgreSQL: exactly one team, nine told the league is
full and offered the waitlist, and no card charge left uncaptured or unrefunded.
"""

from __future__ import annotations

import datetime as dt
import threading

import pytest
import time_machine
from sqlmodel import col

from tests.factories import actor_of, add_league, add_league_session, count, make_user, rows
from volley_app import db as dbmod
from volley_app.models import OutboxMessage, Payment, Role, Team, utcnow
from volley_app.services.teams import league_places, registration

CAPTAINS = 10
OK_CARD = {"card_number": "4242 4242 4242 4242", "expiry": "12/39", "cvc": "123"}


@pytest.fixture
def race(db):
    svl = make_user(db, "venue", Role.SVL)
    captains = [actor_of(make_user(db, f"cap{i}")) for i in range(CAPTAINS)]
    now = utcnow()
    sid = add_league_session(db, svl, "Fall", now + dt.timedelta(days=3), now + dt.timedelta(days=80))
    league = add_league(db, svl, sid, start=now + dt.timedelta(days=5), max_teams=2)
    assert league.id is not None
    db.add(Team(league_id=league.id, team_name="Already In", paid=True))
    db.commit()
    return {"db": db, "league": league, "captains": captains}


def _all_at_once(work) -> list:
    """Run ``work(i)`` for every captain in its own thread, all released together; their answers (or errors)."""
    barrier = threading.Barrier(CAPTAINS)
    answers: list = [None] * CAPTAINS

    def run(i: int) -> None:
        barrier.wait()
        try:
            answers[i] = work(i)
        except Exception as exc:  # a failure is an answer the assertions below show
            answers[i] = f"{type(exc).__name__}: {exc}"

    threads = [threading.Thread(target=run, args=(i,)) for i in range(CAPTAINS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return answers


def _register_and_pay(race, pay):
    lid = race["league"].id

    def work(i: int) -> str:
        captain = race["captains"][i]
        out = dbmod.call(registration.register, captain, league_id=lid, team_name=f"Racers {i}")
        if out["kind"] != "checkout":
            return out["kind"]
        return pay(captain, out["payment_id"])

    return _all_at_once(work)


def _nine_join_the_waitlist(race, answers) -> None:
    """Each captain told the league is full takes the waitlist it was offered."""
    for i, answer in enumerate(answers):
        if answer == "full":
            out = dbmod.call(registration.register, race["captains"][i], league_id=race["league"].id,
                             team_name=f"Racers {i}", waitlist="true")  # fmt: skip
            assert out["kind"] == "waitlist"


def test_ten_captains_paying_by_card_for_the_last_place(race):
    def pay(captain, payment_id):
        return dbmod.call(registration.pay_offline, captain, payment_id=payment_id, **OK_CARD)["status"]

    answers = _register_and_pay(race, pay)
    assert sorted(answers) == ["full"] * 9 + ["succeeded"], answers
    db = race["db"]
    playing = rows(db, Team, col(Team.waitlist).is_(False))
    assert len(playing) == 2  # the team already in, and the one winner
    charged = rows(db, Payment, col(Payment.provider_payment_id).is_not(None))
    assert [(p.status, p.team_id) for p in charged] == [("succeeded", playing[1].id)]
    assert count(db, Payment) == 1  # the nine never held a place, so never got a payment
    _nine_join_the_waitlist(race, answers)
    assert count(db, Team, col(Team.waitlist).is_(True)) == 9
    assert count(db, OutboxMessage, OutboxMessage.kind == "team_registered") == 1


def test_ten_captains_paying_with_stripe_for_the_last_place(race, stripe_env):
    def pay(captain, payment_id):
        page = dbmod.call(registration.checkout, captain, payment_id=payment_id)
        intent_id = page["client_secret"].split("_secret_")[0]
        stripe_env.intents[intent_id]["status"] = "succeeded"  # the card went through at Stripe
        return dbmod.call(registration.confirm_stripe_return, captain, payment_id=payment_id)["status"]

    answers = _register_and_pay(race, pay)
    assert sorted(answers) == ["full"] * 9 + ["succeeded"], answers
    db = race["db"]
    assert count(db, Team, col(Team.waitlist).is_(False)) == 2
    assert [i["status"] for i in stripe_env.intents.values()] == ["succeeded"]  # one charge, and it bought the place
    assert stripe_env.refunded() == []
    _nine_join_the_waitlist(race, answers)
    assert count(db, Team, col(Team.waitlist).is_(True)) == 9


def test_ten_late_card_payments_for_one_free_place(race, stripe_env):
    """Ten checkouts whose holds lapsed one after another; Stripe still takes every card, and the
    ten webhook deliveries race: one team gets the place, the nine other charges are refunded."""
    db, lid = race["db"], race["league"].id
    start = utcnow()
    with time_machine.travel(start, tick=False) as clock:
        for i, captain in enumerate(race["captains"]):
            out = dbmod.call(registration.register, captain, league_id=lid, team_name=f"Late {i}")
            assert out["kind"] == "checkout", (i, out)
            dbmod.call(registration.checkout, captain, payment_id=out["payment_id"])
            clock.shift(dt.timedelta(minutes=league_places.RESERVATION_MINUTES, seconds=1))
        assert league_places.expire_holds().expired == 1  # the last hold; the others lapsed as the next captain came
        assert [p.status for p in rows(db, Payment)] == ["expired"] * CAPTAINS
        assert {i["status"] for i in stripe_env.intents.values()} == {"canceled"}
        for intent in stripe_env.intents.values():  # each card was taken just before its cancel landed
            intent["status"] = "succeeded"
        events = [{"type": "payment_intent.succeeded", "data": {"object": dict(i)}} for i in stripe_env.intents.values()]
        answers = _all_at_once(lambda i: dbmod.call(registration.handle_stripe_event, events[i]))
    assert sorted(answers) == ["fulfilled"] + ["refunded"] * 9, answers
    assert count(db, Team, col(Team.waitlist).is_(False)) == 2
    kept = rows(db, Payment, Payment.status == "succeeded")
    refunded = rows(db, Payment, Payment.status == "refunded")
    assert len(kept) == 1 and len(refunded) == 9
    assert sorted(stripe_env.refunded()) == sorted(p.provider_payment_id for p in refunded)
    charged = {i["id"] for i in stripe_env.intents.values() if i["status"] == "succeeded"}
    assert charged == {kept[0].provider_payment_id} | set(stripe_env.refunded())  # no charge both kept and lost
    assert count(db, OutboxMessage, OutboxMessage.kind == "payment_refunded") == 9
