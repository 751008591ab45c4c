"""POST /api/withdrawnRequest: a sub who holds a place gives it up ("I can't make it"), and only that sub."""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest
import sqlalchemy as sa

from tests.api import world as w
from tests.factories import actor_of, make_user, rows
from volley_app.models import OutboxMessage, SubRequest, SubRequestPlace, SubStatus, SubWithdrawal, User, utcnow
from volley_app.services.accounts import tokens
from volley_app.services.subs import request_changes, request_replies
from volley_app.services.subs.access import SUB_REQUEST_NOT_FOUND, SUB_REQUEST_TAKEN

PATH = "/api/withdrawnRequest"


def _user(db, user_id: int) -> User:
    return rows(db, User, User.id == user_id)[0]


def _take(x: dict, role: str, request_id: int) -> None:
    """``role`` takes a place on the request (as an accept through the page does)."""
    db = x["db"]
    request_replies.accept(db, actor_of(_user(db, x["users"][role])), request_id)
    db.commit()


def _told(db) -> list[OutboxMessage]:
    return [m for m in rows(db, OutboxMessage) if m.kind == "sub_withdrew"]


def _state(db, request_id: int) -> tuple:
    [req] = rows(db, SubRequest, SubRequest.id == request_id)
    places = [p.user_id for p in rows(db, SubRequestPlace, SubRequestPlace.request_id == request_id)]
    return req.status, req.places_filled, places, len(rows(db, SubWithdrawal)), len(_told(db))


async def _withdraw(x: dict, role: str, body: dict):
    async with w.client() as c:
        return await c.post(PATH, json=body, headers=w.headers(x, role))


async def test_the_sub_with_the_place_gives_it_up_the_place_reopens_and_the_requestor_is_emailed(db):
    x = w.build(db)
    _take(x, "other_player", x["note"])
    assert _state(db, x["note"])[:3] == (SubStatus.ACCEPTED, 1, [x["users"]["other_player"]])
    response = await _withdraw(x, "other_player", {"id": x["note"]})
    assert response.status_code == 200, response.text
    assert response.json() == {"status": "Success", "result": "withdrawn"}
    assert _state(db, x["note"]) == (SubStatus.OPEN, 0, [], 1, 1)
    [gone] = rows(db, SubWithdrawal)
    assert (gone.request_id, gone.user_id, gone.late) == (x["note"], x["users"]["other_player"], False)
    [mail] = _told(db)
    assert mail.to_addr == "pat@example.com" and mail.reply_to == "quinn@example.com"
    assert "can't make it" in mail.subject and "open to anyone again" in mail.body_text
    async with w.client() as c:  # open to anyone again: the sub who gave it up may take it once more
        seen = await c.get(f"/api/notes/{x['note']}", headers=w.headers(x, "other_player"))
    assert seen.status_code == 200 and (seen.json()["status"], seen.json()["placesFilled"]) == ("Open", 0)


async def test_the_spec_names_are_taken_for_the_id(db):
    x = w.build(db)
    _take(x, "other_player", x["note"])
    response = await _withdraw(x, "other_player", {"_id": x["note"]})
    assert response.status_code == 200, response.text
    assert _state(db, x["note"])[:3] == (SubStatus.OPEN, 0, [])


async def test_nobody_but_the_sub_with_the_place_may_give_it_up(db):
    x = w.build(db)
    rae = make_user(db, "rae", sub=True)
    db.commit()
    x["tokens"]["rae"] = tokens.issue(db, actor_of(rae)).access
    db.commit()
    _take(x, "other_player", x["note"])
    db.commit()
    refused = {
        "player": request_replies.NO_PLACE,  # the requestor
        "rae": SUB_REQUEST_TAKEN,  # another player: the request is full, someone else's now
        "admin": request_replies.NO_PLACE,  # an operator who may see every request
        "svl": "No access",  # an operator of a venue: no sub requests at all
        "other_svl": "No access",
    }
    for role, message in refused.items():
        before = w.snapshot(db)
        response = await _withdraw(x, role, {"id": x["note"]})
        assert (response.status_code, response.json()) == (403, {"message": message}), role
        assert w.snapshot(db) == before, f"{role} was refused but data changed"
    before = w.snapshot(db)
    anonymous = await _withdraw(x, "anonymous", {"id": x["note"]})
    assert anonymous.status_code == 401 and w.snapshot(db) == before
    assert _state(db, x["note"]) == (SubStatus.ACCEPTED, 1, [x["users"]["other_player"]], 0, 0)


async def test_a_sub_cannot_give_up_another_subs_place(db):
    x = w.build(db)
    rid = request_changes.create(db, actor_of(_user(db, x["users"]["player"])), team="T1", svl="Gym", skill_level="C",
                              format="6s", date=utcnow() + dt.timedelta(days=3), players_needed=2)  # fmt: skip
    db.commit()
    _take(x, "admin", rid)
    before = w.snapshot(db)
    response = await _withdraw(x, "other_player", {"id": rid})
    assert (response.status_code, response.json()["message"]) == (403, request_replies.NO_PLACE)
    assert w.snapshot(db) == before


async def test_after_the_game_the_place_cannot_be_given_up(db):
    x = w.build(db)
    _take(x, "other_player", x["note"])
    with db.get_bind().begin() as conn:
        conn.execute(sa.update(SubRequest).where(SubRequest.id == x["note"])
                     .values(date=utcnow() - dt.timedelta(hours=1)))  # fmt: skip
    before = w.snapshot(db)
    response = await _withdraw(x, "other_player", {"id": x["note"]})
    assert (response.status_code, response.json()["message"]) == (400, request_replies.STARTED)
    assert w.snapshot(db) == before


async def test_a_second_call_changes_nothing_and_says_why(db):
    x = w.build(db)
    _take(x, "other_player", x["note"])
    assert (await _withdraw(x, "other_player", {"id": x["note"]})).status_code == 200
    before = w.snapshot(db)
    again = await _withdraw(x, "other_player", {"id": x["note"]})
    assert (again.status_code, again.json()["message"]) == (403, request_replies.NO_PLACE)
    assert w.snapshot(db) == before and len(_told(db)) == 1


async def test_two_calls_at_once_give_the_place_up_once(db):
    x = w.build(db)
    _take(x, "other_player", x["note"])
    async with w.client() as c:
        both = await asyncio.gather(*(c.post(PATH, json={"id": x["note"]}, headers=w.headers(x, "other_player"))
                                      for _ in range(2)))  # fmt: skip
    assert sorted(r.status_code for r in both) == [200, 403], [r.text for r in both]
    assert _state(db, x["note"]) == (SubStatus.OPEN, 0, [], 1, 1)


BAD = [{}, {"id": "abc"}, {"id": 0}, {"id": [1]}, {"id": None}, {"id": 1.5}, {"id": True}, {"id": 99999}, {"id": 2**40}]


@pytest.mark.parametrize("body", BAD, ids=[repr(b.get("id", "none")) for b in BAD])
async def test_a_body_naming_no_request_of_theirs_is_answered_in_words(db, body):
    x = w.build(db)
    _take(x, "other_player", x["note"])
    before = w.snapshot(db)
    response = await _withdraw(x, "other_player", body)
    assert (response.status_code, response.json()) == (404, {"message": SUB_REQUEST_NOT_FOUND})
    assert w.snapshot(db) == before


async def test_the_document_describes_the_call():
    async with w.client() as c:
        document = (await c.get("/api/openapi.json")).json()
    op = document["paths"][PATH]["post"]
    assert op["x-access"] == "logged-in"
    body = op["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    assert document["components"]["schemas"][body]["required"] == ["id"]
    assert {"200", "400", "401", "403", "404", "422"} <= set(op["responses"])
    assert "game has started" in op["responses"]["400"]["description"]
    assert "no place" in op["responses"]["403"]["description"]
    answer = op["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    assert set(document["components"]["schemas"][answer]["properties"]) == {"status", "result"}
