"""Fields a caller may not set (roles, paid, amount, svl, user, requestor...) are ignored or refused, per role."""

from __future__ import annotations

from tests.api import world as w
from tests.factories import count, rows
from volley_app.models import League, LeagueSession, Payment, SubRequest, SubRequestPlace, SubStatus, Team, User


async def _call(x, role, method, path, body):
    async with w.client() as c:
        return await c.request(method, path, json=body, headers=w.headers(x, role))


async def test_a_player_cannot_give_themselves_roles_or_reactivate(db):
    x = w.build(db)
    pid = x["users"]["player"]
    response = await _call(x, "player", "PATCH", "/api/users",
                           {"id": pid, "firstName": "Patty", "roles": ["Admin"], "active": False})  # fmt: skip
    assert response.status_code == 200, response.text
    [user] = rows(db, User, User.id == pid)
    assert (user.first_name, user.roles, user.active) == ("Patty", ["Player"], True)


async def test_an_admin_sets_roles_and_it_is_audited(db):
    x = w.build(db)
    pid = x["users"]["player"]
    response = await _call(x, "admin", "PATCH", "/api/users", {"id": pid, "roles": ["Player", "SVL"]})
    assert response.status_code == 200, response.text
    assert rows(db, User, User.id == pid)[0].roles == ["Player", "SVL"]
    from volley_app.models import AuditEntry

    assert count(db, AuditEntry, AuditEntry.entity == "user") >= 1


async def test_signup_ignores_roles(db):
    x = w.build(db)
    body = {"username": "sneaky", "password": "pass1", "email": "sneaky@example.com", "firstName": "Sn",
            "lastName": "Eaky", "region": "KY", "roles": ["Admin"], "active": True}  # fmt: skip
    assert (await _call(x, "anonymous", "POST", "/api/users", body)).status_code == 201
    assert (await _call(x, "player", "POST", "/api/users", body | {"username": "sneak2",
                                                                    "email": "s2@example.com"})).status_code == 201
    assert [u.roles for u in rows(db, User, User.username.in_(["sneaky", "sneak2"]))] == [["Player"], ["Player"]]


async def test_registering_ignores_paid_user_and_record(db):
    x = w.build(db)
    body = {"league": x["lg"], "teamName": "Freebies", "paid": True, "user": x["users"]["other_player"],
            "wins": 9, "losses": 0}  # fmt: skip
    response = await _call(x, "player", "POST", "/api/teams", body)
    assert response.status_code == 201, response.text
    assert response.json()["kind"] == "checkout"
    [pay] = rows(db, Payment, Payment.team_name == "Freebies")
    assert pay.user_id == x["users"]["player"] and pay.status == "pending"
    assert count(db, Team, Team.team_name == "Freebies") == 0  # no team until the payment succeeds


async def test_a_payment_intent_with_another_amount_is_refused_and_the_servers_is_used(db):
    x = w.build(db)
    [pay] = rows(db, Payment, Payment.id == x["pay"])
    for amount in (1, pay.amount_cents - 1, "0", -5, 1.5, "lots"):
        before = w.snapshot(db)
        response = await _call(x, "player", "POST", "/api/payment-intent", {"paymentId": x["pay"], "amount": amount})
        assert response.status_code == 422, (amount, response.text)
        assert "amount" in response.json()["errors"]
        assert w.snapshot(db) == before
    wrong_currency = await _call(x, "player", "POST", "/api/payment-intent", {"paymentId": x["pay"], "currency": "eur"})
    assert wrong_currency.status_code == 422
    response = await _call(x, "player", "POST", "/api/payment-intent",
                           {"paymentId": x["pay"], "amount": pay.amount_cents, "currency": "usd"})  # fmt: skip
    assert response.status_code == 200, response.text
    assert (response.json()["amount"], response.json()["currency"]) == (pay.amount_cents, "usd")


async def test_an_svl_cannot_mark_a_team_paid_or_rename_it(db):
    x = w.build(db)
    [before] = rows(db, Team, Team.id == x["team"])
    response = await _call(x, "svl", "PATCH", "/api/teams",
                           {"id": x["team"], "paid": not before.paid, "teamName": "Renamed", "waitlist": True,
                            "wins": 2, "losses": 0, "reason": "Forfeits"})  # fmt: skip
    assert response.status_code == 200, response.text
    [after] = rows(db, Team, Team.id == x["team"])
    assert (after.paid, after.team_name, after.waitlist) == (before.paid, before.team_name, before.waitlist)
    assert response.json()["wins"] == 2  # the record correction is the SVL's to make
    ok = await _call(x, "admin", "PATCH", "/api/teams", {"id": x["team"], "paid": True, "teamName": "Renamed"})
    assert ok.status_code == 200, ok.text
    assert rows(db, Team, Team.id == x["team"])[0].team_name == "Renamed"


async def test_an_svl_cannot_make_a_session_or_league_for_another_svl(db):
    x = w.build(db)
    response = await _call(x, "svl", "POST", "/api/sessions", {
        "name": "Mine", "startDateTime": "2031-01-01T00:00", "endDateTime": "2031-03-01T00:00",
        "svl": x["users"]["other_svl"], "status": "Inactive", "user": x["users"]["other_svl"]})  # fmt: skip
    assert response.status_code == 201, response.text
    [row] = rows(db, LeagueSession, LeagueSession.name == "Mine")
    assert row.svl_id == x["users"]["svl"] and row.status.value == "Registration"
    league = {"session": row.id, "svl": x["users"]["other_svl"], "scheduleGenerated": True, "court": "C9",
              "startDateTime": "2031-01-06T18:30", "numberOfWeeks": 8, "timeIncrement": 50, "skillLevel": "B",
              "format": "6s", "day": "Monday", "maxTeams": 8, "cost": "300"}  # fmt: skip
    made = await _call(x, "svl", "POST", "/api/leagues", league)
    assert made.status_code == 201, made.text
    [lg] = rows(db, League, League.court == "C9")
    assert (lg.svl_id, lg.schedule_generated) == (x["users"]["svl"], False)
    # another SVL's session: refused
    other = await _call(x, "other_svl", "POST", "/api/leagues", league | {"court": "C10"})
    assert other.status_code == 403
    assert count(db, League, League.court == "C10") == 0


async def test_a_sub_request_is_the_callers_whatever_the_body_says(db):
    x = w.build(db)
    body = {"team": "T9", "date": "2031-01-06T19:00", "svl": "Gym", "skillLevel": "C", "format": "6s",
            "requestor": x["users"]["other_player"], "requestorEmail": "evil@example.com", "status": "Accepted",
            "completed": True}  # fmt: skip
    response = await _call(x, "player", "POST", "/api/notes", body)
    assert response.status_code == 201, response.text
    [req] = rows(db, SubRequest, SubRequest.team == "T9")
    assert (req.requestor_id, req.status, req.completed) == (x["users"]["player"], SubStatus.OPEN, False)
    assert response.json()["id"] == response.json()["_id"] == req.id


async def test_a_sub_request_sets_its_needs_but_not_its_places_or_outcome(db):
    x = w.build(db)
    body = {"team": "T8", "date": "2031-01-06T19:00", "svl": "Gym", "skillLevel": "C", "format": "6s",
            "playersNeeded": 2, "positionNeeded": "Passer", "placesFilled": 2, "outcome": "Played",
            "ifNobody": "close", "archivedAt": "2030-01-01T00:00"}  # fmt: skip
    response = await _call(x, "player", "POST", "/api/notes", body)
    assert response.status_code == 201, response.text
    [req] = rows(db, SubRequest, SubRequest.team == "T8")
    assert (req.players_needed, req.position_needed, req.places_filled) == (2, "Passer", 0)
    assert (req.if_nobody, req.archived_at, req.status) == (None, None, SubStatus.OPEN)
    assert rows(db, SubRequestPlace, SubRequestPlace.request_id == req.id) == []  # no place, so no mark either
    changed = await _call(x, "player", "PATCH", "/api/notes", body | {"id": req.id, "placesFilled": 1,
                                                                      "playersNeeded": 3})  # fmt: skip
    assert changed.status_code == 200, changed.text
    db.expire_all()
    [req] = rows(db, SubRequest, SubRequest.team == "T8")
    assert (req.players_needed, req.places_filled) == (3, 0)
    assert rows(db, SubRequestPlace, SubRequestPlace.request_id == req.id) == []
