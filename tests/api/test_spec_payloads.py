"""The calls of spec section 7 with the payloads the spec names: a client written from the spec alone gets through.

Who may do what is still the server's: the caller is the token's user, addresses in a body are never used.
"""

from __future__ import annotations

import datetime as dt

from tests.api import world as w
from tests.factories import actor_of, rows
from volley_app.models import NEWSLETTER_SECTIONS, OutboxMessage, SubRequest, SubRequestPlace, SubStatus, User, utcnow
from volley_app.services.core import timefmt
from volley_app.services.subs import answers, request_changes

NOTE = {"team": "T7", "date": "2031-01-06T19:00", "svl": "Gym", "skillLevel": "C", "format": "6s"}


async def _call(x, role, method, path, body=None, params=None):
    async with w.client() as c:
        return await c.request(method, path, json=body, params=params, headers=w.headers(x, role))


def _request(x, *, days: int, to: str | None = None, team: str = "Spec") -> SubRequest:
    """pat's request at another time than the world's (so its date and location name it alone)."""
    db = x["db"]
    [pat] = rows(db, User, User.id == x["users"]["player"])
    when = utcnow().replace(second=0, microsecond=0) + dt.timedelta(days=days)
    rid = request_changes.create(db, actor_of(pat), recipient_id=x["users"][to] if to else None, team=team, date=when,
                              svl="Gym", skill_level="C", format="6s")  # fmt: skip
    db.commit()
    return rows(db, SubRequest, SubRequest.id == rid)[0]


# --- POST /notes: recipient is a username or 'Anyone' -------------------------------------------------------------


async def test_a_request_is_made_to_anyone_or_to_a_sub_by_their_username(db):
    x = w.build(db)
    anyone = await _call(x, "player", "POST", "/api/notes", NOTE | {"recipient": "Anyone"})
    assert anyone.status_code == 201, anyone.text
    assert anyone.json()["recipient"] == "Anyone"
    quinn = await _call(x, "player", "POST", "/api/notes", NOTE | {"team": "T8", "recipient": "quinn"})
    assert quinn.status_code == 201, quinn.text
    [open_one] = rows(db, SubRequest, SubRequest.team == "T7")
    [named] = rows(db, SubRequest, SubRequest.team == "T8")
    assert (open_one.recipient_id, named.recipient_id) == (None, x["users"]["other_player"])
    assert rows(db, OutboxMessage, OutboxMessage.kind == "received_request", OutboxMessage.to_addr == "quinn@example.com")


async def test_a_recipient_who_is_no_active_sub_is_refused_and_nothing_is_written(db):
    x = w.build(db)
    for recipient, message in (("nobody", "Choose an active sub"), ("svla", "Choose an active sub"),
                               ("pat", "Choose an active sub")):  # fmt: skip
        before = w.snapshot(db)
        response = await _call(x, "player", "POST", "/api/notes", NOTE | {"recipient": recipient})
        assert response.status_code == 422, (recipient, response.text)
        assert response.json()["errors"] == {"recipient": message}
        assert w.snapshot(db) == before


# --- the notice calls with the spec's payloads ------------------------------------------------------------------


async def test_a_sub_accepts_by_the_specs_payload_and_the_requestor_is_told_once(db):
    x = w.build(db)
    req = _request(x, days=5)
    shown = (await _call(x, "other_player", "GET", f"/api/notes/{req.id}")).json()
    body = {"requestorEmail": "someone.else@example.com", "recipient": "quinn", "date": shown["date"], "svl": "Gym"}
    response = await _call(x, "other_player", "POST", "/api/acceptedRequest", body)
    assert response.status_code == 200, response.text
    [after] = rows(db, SubRequest, SubRequest.id == req.id)
    assert (after.status, after.recipient_id) == (SubStatus.ACCEPTED, x["users"]["other_player"])
    told = rows(db, OutboxMessage, OutboxMessage.kind == "accepted_request")
    assert [m.to_addr for m in told] == ["pat@example.com"]  # the stored requestor's, never the body's
    again = await _call(x, "other_player", "POST", "/api/acceptedRequest", body)
    assert again.status_code == 200 and again.json()["result"] == answers.ALREADY_TOLD
    assert len(rows(db, OutboxMessage, OutboxMessage.kind == "accepted_request")) == 1


async def test_the_date_may_be_the_venue_time_or_the_long_text_of_the_emails(db):
    x = w.build(db)
    one = _request(x, days=6)
    two = _request(x, days=7, team="Other")
    local = timefmt.local(one.date).strftime("%Y-%m-%dT%H:%M")
    assert (await _call(x, "other_player", "POST", "/api/acceptedRequest", {"date": local, "svl": "gym"})).status_code == 200
    long = timefmt.long(two.date)
    assert (await _call(x, "admin", "POST", "/api/acceptedRequest", {"date": long, "svl": "Gym"})).status_code == 200
    assert [r.status for r in rows(db, SubRequest, SubRequest.id.in_([one.id, two.id]))] == [SubStatus.ACCEPTED] * 2


async def test_the_sub_a_request_was_made_to_declines_by_the_specs_payload(db):
    x = w.build(db)
    [invite] = rows(db, SubRequest, SubRequest.id == x["invite"])
    body = {"requestorEmail": "pat@example.com", "recipient": "quinn", "date": invite.date.isoformat(), "svl": "Gym"}
    response = await _call(x, "other_player", "POST", "/api/declinedRequest", body)
    assert response.status_code == 200, response.text
    assert rows(db, SubRequest, SubRequest.id == x["invite"])[0].status == SubStatus.DECLINED


async def test_a_several_place_request_taken_by_patch_then_told_by_the_specs_payload(db):
    x = w.build(db)
    req = _request(x, days=5)
    req.players_needed = 2
    db.add(req)
    db.commit()
    taken = await _call(x, "other_player", "PATCH", "/api/notes", {"id": req.id, "status": "Accepted"})
    assert taken.status_code == 200, taken.text
    body = {"requestorEmail": "pat@example.com", "recipient": "quinn", "date": req.date.isoformat(), "svl": "Gym"}
    told = await _call(x, "other_player", "POST", "/api/acceptedRequest", body)
    assert told.status_code == 200 and told.json()["result"] == answers.ALREADY_TOLD, told.text
    assert len(rows(db, SubRequestPlace, SubRequestPlace.request_id == req.id)) == 1


async def test_the_requestor_confirms_an_invitation_by_the_specs_payload(db):
    x = w.build(db)
    [invite] = rows(db, SubRequest, SubRequest.id == x["invite"])
    body = {"recipientEmail": "quinn@example.com", "requestor": "pat", "date": timefmt.long(invite.date), "svl": "Gym",
            "team": "T1", "court": "", "skillLevel": "C", "format": "6s", "text": ""}  # fmt: skip
    before = w.snapshot(db)
    response = await _call(x, "player", "POST", "/api/receivedRequest", body)
    assert response.status_code == 200, response.text
    assert response.json()["result"] == answers.ALREADY_TOLD
    assert w.snapshot(db) == before  # the invitation was emailed when the request was made: nothing twice


async def test_a_payload_that_names_no_request_of_the_callers_is_refused_and_changes_nothing(db):
    x = w.build(db)
    req = _request(x, days=5)
    when = req.date.isoformat()
    refused = [
        ("player", "/api/acceptedRequest", {"date": when, "svl": "Gym"}, 404),  # one's own request
        ("other_player", "/api/acceptedRequest", {"date": when, "svl": "Elsewhere"}, 404),
        ("other_player", "/api/acceptedRequest", {"date": "2031-01-01T10:00", "svl": "Gym"}, 404),
        ("other_player", "/api/acceptedRequest", {"date": "soon", "svl": "Gym"}, 404),
        ("other_player", "/api/acceptedRequest", {"svl": "Gym"}, 404),
        ("other_player", "/api/declinedRequest", {"date": when, "svl": "Gym"}, 404),  # not made to quinn
        ("admin", "/api/declinedRequest", {"date": when, "svl": "Gym"}, 404),
        ("other_player", "/api/receivedRequest", {"date": when, "svl": "Gym"}, 404),  # not quinn's request
        ("svl", "/api/acceptedRequest", {"date": when, "svl": "Gym"}, 403),
        ("anonymous", "/api/acceptedRequest", {"date": when, "svl": "Gym"}, 401),
    ]
    for role, path, body, status in refused:
        before = w.snapshot(db)
        response = await _call(x, role, "POST", path, body | {"requestorEmail": "pat@example.com"})
        assert response.status_code == status, (role, path, body, response.text)
        assert w.snapshot(db) == before, (role, path, body)


async def test_two_requests_at_the_same_time_and_place_ask_for_the_id(db):
    x = w.build(db)
    [invite] = rows(db, SubRequest, SubRequest.id == x["invite"])  # and the open one: the same date and location
    before = w.snapshot(db)
    response = await _call(x, "other_player", "POST", "/api/acceptedRequest", {"date": invite.date.isoformat(),
                                                                              "svl": "Gym"})  # fmt: skip
    assert response.status_code == 422 and set(response.json()["errors"]) == {"id"}
    assert w.snapshot(db) == before


# --- /newsletterTest by the spec's names -----------------------------------------------------------------------


def _spec_issue(**names: str) -> dict:
    spec = {"svl_news1": "sVLNews1", "svl_news2": "sVLNews2", "vs1": "vS1", "vs2": "vS2"}
    out = {}
    for s in NEWSLETTER_SECTIONS:
        name = names.get(s, spec.get(s, s))
        out[f"{name}Link"] = "https://example.com/" + s
        out[f"{name}Blurb"] = f"Blurb of {s}"
    return out


async def test_an_issue_is_sent_by_the_specs_field_names(db):
    x = w.build(db)
    response = await _call(x, "admin", "POST", "/api/newsletterTest", {"email": "fan@example.com", **_spec_issue()})
    assert response.status_code == 200, response.text
    [sent] = rows(db, OutboxMessage, OutboxMessage.kind == "newsletter")
    assert "Blurb of svl_news1" in sent.body_text and "Blurb of vs2" in sent.body_text
    old_names = _spec_issue(svl_news1="svlNews1", svl_news2="svlNews2", vs1="vs1", vs2="vs2")
    again = await _call(x, "admin", "POST", "/api/newsletterTest", {"email": "fan@example.com", **old_names})
    assert again.status_code == 200, again.text


async def test_a_missing_blurb_is_named_as_the_spec_names_it(db):
    x = w.build(db)
    issue = _spec_issue()
    del issue["sVLNews1Blurb"]
    before = w.snapshot(db)
    response = await _call(x, "admin", "POST", "/api/newsletterTest", {"email": "fan@example.com", **issue})
    assert response.status_code == 422
    assert set(response.json()["errors"]) == {"sVLNews1Blurb"}
    assert w.snapshot(db) == before


# --- lists ------------------------------------------------------------------------------------------------------


async def test_the_users_list_gives_roles_as_a_list(db):
    x = w.build(db)
    response = await _call(x, "admin", "GET", "/api/users", params={"size": 50})
    assert response.status_code == 200
    roles = {u["username"]: u["roles"] for u in response.json()}
    assert roles["root"] == ["Admin"] and roles["pat"] == ["Player"] and roles["svla"] == ["SVL"]


async def test_games_without_a_league_are_the_callers_and_paged(db):
    x = w.build(db)
    everything = await _call(x, "admin", "GET", "/api/games", params={"size": 50})
    assert everything.status_code == 200, everything.text
    total = int(everything.headers["X-Total-Count"])
    assert total == len(everything.json()) > 0
    assert all(g["leagueId"] == x["lg"] and g["week"] >= 1 for g in everything.json())
    mine = await _call(x, "player", "GET", "/api/games", params={"size": 1})
    assert mine.status_code == 200 and len(mine.json()) == 1 and mine.headers["X-Next-Page"]
    assert int(mine.headers["X-Total-Count"]) == total  # pat captains both of the league's playing teams
    nxt = await _call(x, "player", "GET", "/api/games", params={"size": 1, "page": mine.headers["X-Next-Page"]})
    assert nxt.json()[0]["id"] != mine.json()[0]["id"]
    for role in ("other_player", "other_svl"):
        none = await _call(x, role, "GET", "/api/games")
        assert none.status_code == 200 and none.json() == [] and none.headers["X-Total-Count"] == "0", role
    league = await _call(x, "other_player", "GET", "/api/games", params={"league": x["lg"], "size": 2})
    assert league.status_code == 200 and len(league.json()) == 2
    assert int(league.headers["X-Total-Count"]) == total
    assert (await _call(x, "anonymous", "GET", "/api/games")).status_code == 401


# --- errors by the names the bodies use ----------------------------------------------------------------------


async def test_error_keys_are_the_bodys_names(db):
    x = w.build(db)
    note = await _call(x, "player", "POST", "/api/notes", NOTE | {"skillLevel": "Z", "playersNeeded": 9})
    assert set(note.json()["errors"]) == {"skillLevel", "playersNeeded"}
    session = await _call(x, "svl", "POST", "/api/sessions", {"name": "S", "startDateTime": "", "endDateTime": "x"})
    assert {"startDateTime", "endDateTime"} <= set(session.json()["errors"])
    league = {"session": x["sid"], "court": "C", "startDateTime": "2031-01-06T18:30", "numberOfWeeks": 0,
              "timeIncrement": 50, "skillLevel": "B", "format": "6s", "day": "Monday", "maxTeams": "many", "cost": "3"}
    made = await _call(x, "svl", "POST", "/api/leagues", league)
    assert made.status_code == 422 and {"numberOfWeeks", "maxTeams"} <= set(made.json()["errors"])
    assert not any("_" in k for k in made.json()["errors"])
    listed = await _call(x, "player", "GET", "/api/notes", params={"date_from": "never"})
    assert listed.status_code == 422 and set(listed.json()["errors"]) == {"date_from"}  # a query's own name


async def test_a_login_flag_or_a_referral_of_another_type_is_refused(db):
    x = w.build(db)
    login = await _call(x, "anonymous", "POST", "/api/auth", {"username": "pat", "password": x["password"],
                                                              "trusted": {}})  # fmt: skip
    assert login.status_code == 422 and set(login.json()["errors"]) == {"trusted"}
    before = w.snapshot(db)
    joined = await _call(x, "anonymous", "POST", "/api/newsletter", {"email": "new.fan@example.com", "referral": {}})
    assert joined.status_code == 422 and set(joined.json()["errors"]) == {"referral"}
    assert w.snapshot(db) == before
