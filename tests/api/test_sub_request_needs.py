"""What a team needs over the API: playersNeeded, positionNeeded, genderNeeded, minRating on /api/notes."""

from __future__ import annotations

import pytest

from tests.api import world as w
from tests.factories import actor_of, rows
from volley_app.models import GenderNeeded, Position, Rating, SubRequest, User
from volley_app.services.subs import request_replies

NOTE = {"team": "Setters Wanted", "date": "2031-01-09T19:00", "svl": "Gym", "skillLevel": "B", "format": "6s"}
NEEDS = {"playersNeeded": 2, "positionNeeded": "Setter", "genderNeeded": "Female", "minRating": "B"}


async def _call(x, role, method, body):
    async with w.client() as c:
        return await c.request(method, "/api/notes", json=body, headers=w.headers(x, role))


def _needs(answer: dict) -> dict:
    return {k: answer[k] for k in NEEDS}


def _stored(db, team: str) -> tuple:
    db.expire_all()
    [req] = rows(db, SubRequest, SubRequest.team == team)
    return req.players_needed, req.position_needed, req.gender_needed, req.min_rating


async def test_a_request_made_with_needs_keeps_and_answers_them(db):
    x = w.build(db)
    made = await _call(x, "player", "POST", NOTE | NEEDS)
    assert made.status_code == 201, made.text
    assert _needs(made.json()) == NEEDS
    assert made.json()["needs"] == "female setter, B or better" and made.json()["placesFilled"] == 0
    assert _stored(db, "Setters Wanted") == (2, Position.SETTER, GenderNeeded.FEMALE, Rating.B)
    async with w.client() as c:
        read = await c.get(f"/api/notes/{made.json()['id']}", headers=w.headers(x, "player"))
        listed = await c.get("/api/notes", params={"search": "Setters Wanted"}, headers=w.headers(x, "other_player"))
    assert _needs(read.json()) == NEEDS
    assert [_needs(r) for r in listed.json()] == [NEEDS]


async def test_a_body_without_needs_asks_for_one_player_of_any_kind(db):
    x = w.build(db)
    made = await _call(x, "player", "POST", NOTE)
    assert made.status_code == 201, made.text
    assert _needs(made.json()) == {"playersNeeded": 1, "positionNeeded": "Any", "genderNeeded": "Any", "minRating": ""}
    assert made.json()["needs"] == "anyone"
    assert _stored(db, "Setters Wanted") == (1, Position.ANY, GenderNeeded.ANY, None)
    blank = await _call(x, "player", "POST", NOTE | {"team": "Blanks", "playersNeeded": "", "positionNeeded": "",
                                                     "genderNeeded": None, "minRating": ""})  # fmt: skip
    assert blank.status_code == 201, blank.text
    assert _stored(db, "Blanks") == (1, Position.ANY, GenderNeeded.ANY, None)


async def test_the_requestor_changes_the_needs_and_a_body_without_them_keeps_them(db):
    x = w.build(db)
    rid = (await _call(x, "player", "POST", NOTE | NEEDS)).json()["id"]
    changed = await _call(x, "player", "PATCH", NOTE | {"id": rid, "positionNeeded": "Hitter", "minRating": "A",
                                                        "playersNeeded": "3"})  # fmt: skip
    assert changed.status_code == 200, changed.text
    assert _needs(changed.json()) == {"playersNeeded": 3, "positionNeeded": "Hitter", "genderNeeded": "Female",
                                      "minRating": "A"}  # fmt: skip
    assert _stored(db, "Setters Wanted") == (3, Position.HITTER, GenderNeeded.FEMALE, Rating.A)
    # a client that knows no needs changes the team's name only
    old = await _call(x, "player", "PATCH", NOTE | {"id": rid, "team": "Renamed"})
    assert old.status_code == 200, old.text
    assert _stored(db, "Renamed") == (3, Position.HITTER, GenderNeeded.FEMALE, Rating.A)
    # any rating again, and anyone
    cleared = await _call(x, "player", "PATCH", NOTE | {"id": rid, "minRating": "", "positionNeeded": "Any",
                                                        "genderNeeded": "Any", "playersNeeded": 1})  # fmt: skip
    assert cleared.status_code == 200, cleared.text
    assert _stored(db, "Setters Wanted") == (1, Position.ANY, GenderNeeded.ANY, None)


BAD = [
    ({"playersNeeded": 0}, "playersNeeded", "Choose 1 to 4 players"),
    ({"playersNeeded": 5}, "playersNeeded", "Choose 1 to 4 players"),
    ({"playersNeeded": "two"}, "playersNeeded", "Choose 1 to 4 players"),
    ({"playersNeeded": 1.5}, "playersNeeded", "Choose 1 to 4 players"),
    ({"playersNeeded": True}, "playersNeeded", "Choose 1 to 4 players"),
    ({"positionNeeded": "Libero"}, "positionNeeded", "Choose a position needed"),
    ({"positionNeeded": ["Setter"]}, "positionNeeded", "Choose a position needed"),
    ({"genderNeeded": "Other"}, "genderNeeded", "Choose a gender needed"),
    ({"genderNeeded": 7}, "genderNeeded", "Choose a gender needed"),
    ({"minRating": "B+"}, "minRating", "Choose a lowest rating"),
    ({"minRating": {"rating": "A"}}, "minRating", "Choose a lowest rating"),
]


@pytest.mark.parametrize(("bad", "field", "message"), BAD, ids=[f"{k}={v!r}" for (b, *_r) in BAD for k, v in b.items()])
async def test_a_need_that_is_not_one_is_refused_in_words_and_nothing_is_written(db, bad, field, message):
    x = w.build(db)
    rid = (await _call(x, "player", "POST", NOTE | NEEDS)).json()["id"]
    db.commit()
    before = w.snapshot(db)
    for method, body in (("POST", NOTE | {"team": "Other"} | bad), ("PATCH", NOTE | {"id": rid, "team": "Other"} | bad)):
        response = await _call(x, "player", method, body)
        assert response.status_code == 422, (method, response.text)
        assert response.json()["errors"] == {field: message}, method
        assert response.json()["message"] == message
        assert w.snapshot(db) == before, f"{method} wrote something"


async def test_every_bad_need_is_named_at_once(db):
    x = w.build(db)
    before = w.snapshot(db)
    response = await _call(x, "player", "POST", NOTE | {"playersNeeded": 9, "positionNeeded": "Libero",
                                                        "genderNeeded": "?", "minRating": "Z", "team": ""})  # fmt: skip
    assert response.status_code == 422
    assert set(response.json()["errors"]) == {"playersNeeded", "positionNeeded", "genderNeeded", "minRating", "team"}
    assert w.snapshot(db) == before


async def test_fewer_places_than_subs_who_accepted_is_refused(db):
    x = w.build(db)
    rid = (await _call(x, "player", "POST", NOTE | {"playersNeeded": 3})).json()["id"]  # needs anyone fits
    for who in ("other_player", "admin"):
        request_replies.accept(db, actor_of(rows(db, User, User.id == x["users"][who])[0]), rid)
    db.commit()
    before = w.snapshot(db)
    response = await _call(x, "player", "PATCH", NOTE | {"id": rid, "playersNeeded": 1})
    assert response.status_code == 422
    assert response.json()["errors"] == {"playersNeeded": "2 subs have already accepted"}
    assert w.snapshot(db) == before
    ok = await _call(x, "player", "PATCH", NOTE | {"id": rid, "playersNeeded": 4})
    assert ok.status_code == 200 and (ok.json()["placesFilled"], ok.json()["playersNeeded"]) == (2, 4)


async def test_only_the_requestor_changes_the_needs(db):
    x = w.build(db)
    rid = (await _call(x, "player", "POST", NOTE | NEEDS)).json()["id"]
    db.commit()
    for role in ("other_player", "admin", "svl", "anonymous"):
        before = w.snapshot(db)
        response = await _call(x, role, "PATCH", {"id": rid, "positionNeeded": "Hitter", "playersNeeded": 4})
        assert response.status_code in (401, 403, 404), (role, response.text)
        assert w.snapshot(db) == before, role


async def test_an_accept_the_needs_do_not_fit_is_refused_with_the_reason(db):
    x = w.build(db)
    rid = (await _call(x, "player", "POST", NOTE | NEEDS)).json()["id"]
    db.commit()
    before = w.snapshot(db)
    refused = await _call(x, "other_player", "PATCH", {"id": rid, "status": "Accepted"})
    assert refused.status_code == 400, refused.text
    assert refused.json()["message"].startswith(f"{request_replies.CANNOT_TAKE}: ")
    async with w.client() as c:
        notice = await c.post("/api/acceptedRequest", json={"id": rid}, headers=w.headers(x, "other_player"))
    assert notice.status_code == 400 and notice.json()["message"] == refused.json()["message"]
    assert w.snapshot(db) == before
