"""A slow card service over HTTP: POST /api/payment-intent answers 503 with the message and changes nothing; a
webhook whose refund the service does not answer gets 503 (Stripe sends it again) and the refund is made once."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import time

import pytest
import sqlalchemy as sa
from sqlmodel import col

from tests.api import world as w
from tests.factories import (
    actor_of,
    add_league,
    add_league_session,
    count,
    ledger_problems,
    make_user,
    refund_statuses,
    rows,
)
from volley_app.models import OutboxMessage, Payment, Role, utcnow
from volley_app.services.money import payments
from volley_app.services.teams import registration

SLOW = 25.0


@pytest.fixture
def quick(monkeypatch):
    """The card service's wait cut to a second, so that these tests do not wait ten."""
    monkeypatch.setattr(payments, "PROVIDER_TIMEOUT_SECONDS", 1.0)


async def test_a_payment_intent_the_card_service_does_not_answer_is_a_503_that_changes_nothing(db, stripe_env, quick):
    x = w.build(db)
    body = {"paymentId": x["pay"], "amount": rows(db, Payment, Payment.id == x["pay"])[0].amount_cents}
    before = w.snapshot(db)
    stripe_env.delay = SLOW
    async with w.client() as c:
        response = await c.post("/api/payment-intent", json=body, headers=w.headers(x, "player"))
    stripe_env.release()
    assert response.status_code == 503, response.text
    assert response.json() == {"message": payments.PROVIDER_SLOW}
    assert w.snapshot(db) == before
    async with w.client() as c:  # again, the service answering: the intent made by the call that timed out
        response = await c.post("/api/payment-intent", json=body, headers=w.headers(x, "player"))
    assert response.status_code == 200, response.text
    assert response.json()["clientSecret"] == "pi_test_1_secret_x" and list(stripe_env.intents) == ["pi_test_1"]


def _sign(body: bytes) -> str:
    t = int(time.time())
    mac = hmac.new(b"whsec_standin", f"{t}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={t},v1={mac}"


async def test_a_webhook_whose_refund_is_not_answered_is_sent_again_and_refunds_once(db, stripe_env, quick):
    svl, pat, sam = make_user(db, "svla", Role.SVL), actor_of(make_user(db, "pat")), actor_of(make_user(db, "sam"))
    now = utcnow()
    sid = add_league_session(db, svl, "Fall", now + dt.timedelta(days=3), now + dt.timedelta(days=80))
    lid = add_league(db, svl, sid, start=now + dt.timedelta(days=5), max_teams=1).id
    late = registration.register(db, pat, league_id=lid, team_name="Late")["payment_id"]
    db.commit()
    registration.checkout(db, pat, payment_id=late)
    db.execute(sa.update(Payment).where(col(Payment.id) == late).values(expires_at=now - dt.timedelta(seconds=1)))
    db.commit()
    taker = registration.register(db, sam, league_id=lid, team_name="Taker")["payment_id"]  # pat's hold lapses
    db.commit()
    registration.checkout(db, sam, payment_id=taker)
    db.commit()
    stripe_env.intents["pi_test_1"]["status"] = "succeeded"  # pat's card went through just before the cancel
    body = json.dumps({"id": "evt_1", "object": "event", "type": "payment_intent.succeeded",
                       "data": {"object": stripe_env.intents["pi_test_1"]}}).encode()  # fmt: skip
    headers = {"Content-Type": "application/json"}
    stripe_env.delay = SLOW
    async with w.client() as c:
        response = await c.post("/api/stripe/webhook", content=body, headers=headers | {"Stripe-Signature": _sign(body)})
    stripe_env.release()
    assert response.status_code == 503, response.text
    db.expire_all()
    assert refund_statuses(db, late) == ["due"]
    async with w.client() as c:  # Stripe's redelivery
        response = await c.post("/api/stripe/webhook", content=body, headers=headers | {"Stripe-Signature": _sign(body)})
    assert response.status_code == 200 and response.json()["outcome"] == "refunded", response.text
    db.expire_all()
    assert refund_statuses(db, late) == ["made"] and ledger_problems(db) == []
    assert stripe_env.refunded() == ["pi_test_1"]
    assert count(db, OutboxMessage, OutboxMessage.kind == "payment_refunded") == 1
