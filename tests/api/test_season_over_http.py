"""A whole season driven over real HTTP by a client that knows only spec section 7."""

from __future__ import annotations

import datetime as dt
import re
import socket
import threading
import time

import pytest
import uvicorn

from tests.api.spec_client import LOGIN_EXPIRED, SpecClient
from tests.factories import make_user, rows
from volley_app.api.app import create_api
from volley_app.models import NEWSLETTER_SECTIONS, OutboxMessage, Role, Team, utcnow
from volley_app.services.core import timefmt


@pytest.fixture
def server(db):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = uvicorn.Config(create_api(), host="127.0.0.1", port=port, log_level="warning", lifespan="off")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/api"
    srv.should_exit = True
    thread.join(10)


@pytest.fixture
def clients(server):
    made: list[SpecClient] = []

    def new() -> SpecClient:
        made.append(SpecClient(server))
        return made[-1]

    yield new
    for c in made:
        c.close()


def _ok(result, *codes):
    assert result.status in (codes or (200, 201, 204)), (result.status, result.data)
    return result.data


def _next_monday(days_ahead: int) -> dt.date:
    day = timefmt.local(utcnow()).date() + dt.timedelta(days=days_ahead)
    return day + dt.timedelta(days=(7 - day.weekday()) % 7)


def _mail(db, kind: str, to: str) -> OutboxMessage:
    found = [m for m in rows(db, OutboxMessage) if m.kind == kind and m.to_addr == to]
    assert found, (kind, to, [(m.kind, m.to_addr) for m in rows(db, OutboxMessage)])
    return found[-1]


def test_a_season(db, clients):
    make_user(db, "root", Role.ADMIN)

    # --- players sign up; a sub turns on "sub" ---------------------------------------------------------
    pat, quinn, admin, svl, visitor = clients(), clients(), clients(), clients(), clients()
    for c, name in ((pat, "pat"), (quinn, "quinn")):
        made = _ok(c.call("POST", "/users", {"username": name, "password": "pass1", "email": f"{name}@example.com",
                                               "firstName": name.title(), "lastName": "Player", "region": "KY"}), 201)  # fmt: skip
        assert made["accessToken"]
        _ok(c.login(name, "pass1"))
    me = _ok(quinn.call("GET", "/users/me"))
    _ok(quinn.call("PATCH", "/users", {"id": me["id"], "sub": True}))
    assert _ok(quinn.call("GET", f"/users/{me['id']}"))["sub"] is True
    assert pat.login("pat", "wrong").status == 401 and pat.login("pat", "wrong").message == "Unauthorized"
    _ok(pat.login("pat", "pass1"))

    # --- sub requests: one to anyone (accepted), one to quinn (declined) ----------------------------------
    when = (utcnow() + dt.timedelta(days=3)).replace(microsecond=0).isoformat()
    note = {"team": "Pats", "date": when, "svl": "Downtown Gym", "skillLevel": "C", "format": "6s", "text": "Setter"}
    anyone = _ok(pat.call("POST", "/notes", note), 201)
    assert anyone["id"] == anyone["_id"]
    listed = pat.call("GET", "/notes")
    assert int(listed.headers["X-Total-Count"]) == 1 and listed.data[0]["_id"] == anyone["id"]
    _ok(quinn.call("POST", "/acceptedRequest", {"id": anyone["id"], "requestorEmail": "x@evil.example"}))
    assert _mail(db, "accepted_request", "pat@example.com")
    again = _ok(quinn.call("POST", "/acceptedRequest", {"id": anyone["id"]}))
    assert again["result"] == "already told"
    assert len([m for m in rows(db, OutboxMessage) if m.kind == "accepted_request"]) == 1
    invite = _ok(pat.call("POST", "/notes", note | {"recipient": me["id"], "team": "Pats B"}), 201)
    _ok(pat.call("POST", "/receivedRequest", {"id": invite["id"]}))
    _ok(quinn.call("POST", "/declinedRequest", {"id": invite["id"]}))
    assert _ok(pat.call("GET", f"/notes/{invite['id']}"))["status"] == "Declined"

    # --- the admin makes an SVL; the SVL makes a session and a league ----------------------------------
    _ok(admin.login("root", "pass1"))
    _ok(admin.call("POST", "/users", {"username": "gym", "password": "pass1", "firstName": "Gym",
                                      "email": "gym@example.com", "region": "KY", "roles": ["SVL"]}), 201)  # fmt: skip
    _ok(svl.login("gym", "pass1"))
    start = _next_monday(14)
    session = _ok(svl.call("POST", "/sessions", {"name": "Winter", "startDateTime": f"{start - dt.timedelta(days=7)}T00:00",
                                                 "endDateTime": f"{start + dt.timedelta(days=90)}T00:00"}), 201)  # fmt: skip
    league = _ok(svl.call("POST", "/leagues", {
        "session": session["id"], "court": "Court 1", "startDateTime": f"{start}T18:30", "numberOfWeeks": 4,
        "timeIncrement": 50, "skillLevel": "C", "format": "6s", "genderRequirement": "Coed", "day": "Monday",
        "maxTeams": 4, "cost": "300"}), 201)  # fmt: skip
    assert league["id"] == league["_id"]
    assert pat.call("POST", "/leagues", {"session": session["id"]}).status == 403

    # --- teams register and pay through /payment-intent (the offline provider) ----------------------------
    for c, team in ((pat, "Pats"), (quinn, "Quinns")):
        held = _ok(c.call("POST", "/teams", {"league": league["id"], "teamName": team, "paid": True}), 201)
        assert held["kind"] == "checkout"
        refused = c.call("POST", "/payment-intent", {"paymentId": held["paymentId"], "amount": 1, "currency": "usd"})
        assert refused.status == 422 and "amount" in refused.data["errors"]
        intent = _ok(c.call("POST", "/payment-intent", {"paymentId": held["paymentId"], "currency": "usd"}))
        assert intent["amount"] > 30000 and intent["provider"] == "offline"
        paid = _ok(c.call("POST", f"/payments/{held['paymentId']}/card",
                          {"cardNumber": "4242424242424242", "expiry": "12/40", "cvc": "123"}))  # fmt: skip
        assert paid["status"] == "succeeded", paid
    assert {t.team_name: t.paid for t in rows(db, Team)} == {"Pats": True, "Quinns": True}
    mine = pat.call("GET", "/teams")
    assert mine.headers["X-Total-Count"] == "1" and mine.data[0]["teamName"] == "Pats"

    # --- the schedule, a result, the standings ----------------------------------------------------------
    made = _ok(svl.call("POST", "/games", {"league": league["id"]}), 201)
    assert made["games"] > 0
    games = _ok(pat.call("GET", "/games", params={"league": league["id"]}))
    first = next(g for g in games if g["team2Id"] is not None)
    scored = _ok(svl.call("PATCH", "/games", {"id": first["id"], "team1Game1Score": 21, "team2Game1Score": 15,
                                              "team1Game2Score": 21, "team2Game2Score": 17}))  # fmt: skip
    assert scored["sets"] == "21-15, 21-17"
    table = _ok(quinn.call("GET", f"/leagues/{league['id']}/standings"))
    top = table["teams"][0]
    assert (top["teamName"], top["wins"], top["losses"]) == (first["team1"], 1, 0)

    # --- newsletter, contact, the refresh rule, password recovery ----------------------------------------
    _ok(visitor.call("POST", "/newsletter", {"email": "fan@example.com", "referral": "A friend"}), 201)
    _ok(visitor.call("POST", "/contact", {"name": "Ann", "email": "ann@example.com", "body": "Thursdays?"}), 201)
    subscribers = admin.call("GET", "/newsletter")
    assert subscribers.headers["X-Total-Count"] == "1"
    issue = {f"{s}_{p}": ("https://example.com/a" if p == "link" else "News")
             for s in NEWSLETTER_SECTIONS for p in ("link", "blurb")}  # fmt: skip
    for sub in subscribers.data:
        _ok(admin.call("POST", "/newsletterTest", {"email": sub["email"], **issue}))
    assert _mail(db, "newsletter", "fan@example.com")

    pat.token = "an.expired.token"  # as after 15 minutes: 403, then refresh, then the call again
    assert _ok(pat.call("GET", "/users/me"))["username"] == "pat"
    assert pat.token != "an.expired.token"

    assert _ok(visitor.call("POST", "/send_recovery_email", {"recipient_email": "pat@example.com"}))["status"] == "Success"
    link = re.search(r"https?://\S+/(\d+)/([\w-]+)", _mail(db, "password_reset", "pat@example.com").body_text)
    done = _ok(visitor.call("POST", f"/resetPassword/{link[1]}/{link[2]}", {"password": "fresh1"}))
    assert done["status"] == "Success"
    expired = pat.call("GET", "/users/me")  # the reset ended every login of pat's
    assert (expired.status, expired.message) == (403, LOGIN_EXPIRED)
    _ok(pat.login("pat", "fresh1"))
    _ok(pat.logout(), 204)
    assert pat.call("GET", "/teams").status == 401
