"""POST /api/stripe/webhook: the signature is checked on the raw body; payment_intent.succeeded fulfils once."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import time

import httpx
import pytest

from tests.factories import actor_of, add_league, add_league_session, count, make_user, rows
from volley_app.api.app import create_api
from volley_app.models import OutboxMessage, Payment, Role, Team, utcnow
from volley_app.services.teams import registration

SECRET = "whsec_standin"


def _sign(body: bytes, *, secret: str = SECRET, at: int | None = None) -> str:
    t = int(time.time()) if at is None else at
    mac = hmac.new(secret.encode(), f"{t}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={t},v1={mac}"


@pytest.fixture
def world(db):
    """A player and a league of an SVL open for registration."""
    svl, pat = make_user(db, "svla", Role.SVL), make_user(db, "pat")
    now = utcnow()
    sid = add_league_session(db, svl, "Fall", now + dt.timedelta(days=3), now + dt.timedelta(days=80))
    return {"pat": pat, "league": add_league(db, svl, sid, start=now + dt.timedelta(days=5), max_teams=4)}


@pytest.fixture
async def client(db, stripe_env):
    transport = httpx.ASGITransport(app=create_api(), client=("198.51.100.4", 50000))
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
        yield c


@pytest.fixture
def paid_intent(db, world, stripe_env):
    """A registration whose PaymentIntent exists and has succeeded at Stripe; returns (payment id, event body)."""
    pat = actor_of(world["pat"])
    pid = registration.register(db, pat, league_id=world["league"].id, team_name="Hooks")["payment_id"]
    db.commit()
    registration.checkout(db, pat, payment_id=pid)
    db.commit()
    intent = stripe_env.intents["pi_test_1"]
    intent["status"] = "succeeded"
    event = {"id": "evt_1", "object": "event", "type": "payment_intent.succeeded", "data": {"object": intent}}
    return pid, json.dumps(event).encode()


def _post(client, body: bytes, sig: str | None):
    headers = {"Content-Type": "application/json"}
    if sig is not None:
        headers["Stripe-Signature"] = sig
    return client.post("/api/stripe/webhook", content=body, headers=headers)


async def test_valid_signature_fulfils(client, db, paid_intent):
    pid, body = paid_intent
    response = await _post(client, body, _sign(body))
    assert response.status_code == 200, response.text
    assert response.json()["outcome"] == "fulfilled"
    db.expire_all()
    [team] = rows(db, Team)
    assert (team.team_name, team.paid, team.waitlist) == ("Hooks", True, False)
    assert db.get(Payment, pid).team_id == team.id


async def test_rejected_requests_change_nothing(client, db, paid_intent):
    pid, body = paid_intent
    tampered = body.replace(b'"amount": 33000', b'"amount": 33001')
    assert tampered != body
    stale = int(time.time()) - 3600
    for payload, sig in (
        (tampered, _sign(body)),  # body changed after signing
        (body, None),  # missing header
        (body, _sign(body, at=stale)),  # stale timestamp
        (body, _sign(body, secret="whsec_wrong")),
    ):
        response = await _post(client, payload, sig)
        assert response.status_code == 400, response.text
    db.expire_all()
    assert count(db, Team) == 0 and count(db, OutboxMessage) == 0
    assert db.get(Payment, pid).status == "pending"


async def test_same_event_twice_plus_browser_return_make_one_team(client, db, world, paid_intent):
    pid, body = paid_intent
    for _ in range(2):
        response = await _post(client, body, _sign(body))
        assert response.status_code == 200
    db.expire_all()
    out = registration.confirm_stripe_return(db, actor_of(world["pat"]), payment_id=pid)
    db.commit()
    assert out["status"] == "succeeded"
    assert count(db, Team) == 1 and count(db, OutboxMessage) == 1


async def test_return_first_then_webhook_make_one_team(client, db, world, paid_intent):
    pid, body = paid_intent
    assert registration.confirm_stripe_return(db, actor_of(world["pat"]), payment_id=pid)["status"] == "succeeded"
    db.commit()
    response = await _post(client, body, _sign(body))
    assert response.status_code == 200
    db.expire_all()
    assert count(db, Team) == 1 and count(db, OutboxMessage) == 1
