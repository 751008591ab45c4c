"""A request's page and the places on it, called as any browser could: a place taken shows on the requestor's open
page when it reads again; "I can't make it" only for the sub who holds the place."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.factories import actor_of, login_token, make_user, player_world, rows, snapshot
from tests.harness import call, page_state, redirect_target
from volley_app.models import SubRequest, SubRequestPlace, SubStatus, SubWithdrawal, User, utcnow
from volley_app.pages.dash.sub_requests.detail import WITHDRAWN, SubRequestState
from volley_app.services.subs import request_changes, request_replies
from volley_app.state.sub_invites import InviteQueueState


@pytest.fixture
def world(db):
    """player_world, carl (a sub), and alice's request for three players, ben holding one place."""
    w = player_world(db)
    make_user(db, "carl", sub=True, first_name="Carl", last_name="Diaz")
    alice = rows(db, User, User.username == "alice")[0]
    fields = {"team": "Spikers", "date": utcnow() + dt.timedelta(days=3), "svl": "Sportsplex", "skill_level": "C",
              "format": "6s"}  # fmt: skip
    rid = request_changes.create(db, actor_of(alice), players_needed="3", **fields)
    request_replies.accept(db, actor_of(rows(db, User, User.username == "ben")[0]), rid)
    db.commit()
    tokens = w["tokens"] | {"carl": login_token(db, "carl")}
    return db, tokens, rid


def _everything(db) -> tuple:
    db.expire_all()
    places = sorted((p.request_id, p.user_id) for p in rows(db, SubRequestPlace))
    reqs = [(r.id, r.status, r.recipient_id, r.places_filled) for r in rows(db, SubRequest)]
    return snapshot(db), places, reqs, len(rows(db, SubWithdrawal))


async def test_a_place_taken_shows_on_the_requestors_open_page_when_it_reads_again(world):
    db, tokens, rid = world
    root, detail = page_state(SubRequestState, f"/dash/notes/{rid}", tokens["alice"])
    await call(detail.load)
    queue = await detail.get_state(InviteQueueState)  # the page's load showed its invite list
    assert queue.players == "1 of 3 places taken" and detail.note["sub"] == "Ben Tester"
    request_replies.accept(db, actor_of(rows(db, User, User.username == "carl")[0]), rid)
    db.commit()
    await detail._reload()  # what a live update (or the timer) runs: the request is still Open
    assert queue.players == "2 of 3 places taken" and queue.places == ["Ben Tester", "Carl Diaz"]
    assert detail.note["sub"] == "Ben Tester, Carl Diaz" and detail.note["status"] == "Open"


@pytest.mark.parametrize("who", ["anonymous", "alice", "carl", "svl", "root"])
async def test_only_the_sub_with_the_place_can_say_they_cannot_make_it(world, who):
    db, tokens, rid = world
    before = _everything(db)
    state = page_state(SubRequestState, f"/dash/notes/{rid}", tokens.get(who))[1]
    await call(state.load)
    assert state.may["can_withdraw"] is False
    await call(state.withdraw)
    assert _everything(db) == before
    assert state.action_error != "" or state.load_error != ""
    assert state.notice != WITHDRAWN


async def test_the_sub_with_the_place_gives_it_up(world):
    db, tokens, rid = world
    state = page_state(SubRequestState, f"/dash/notes/{rid}", tokens["ben"])[1]
    await call(state.load)
    assert state.may["can_withdraw"] is True and state.may["can_accept"] is False and state.may["can_decline"] is False
    events = await call(state.withdraw)
    assert state.action_error == ""
    db.expire_all()
    req = db.get(SubRequest, rid)
    assert (req.status, req.places_filled, req.recipient_id) == (SubStatus.OPEN, 0, None)
    assert state.notice == WITHDRAWN and redirect_target(events) is None  # still open to anyone: they still see it
    assert state.may["can_withdraw"] is False and state.may["can_accept"] is True
    # a second click changes nothing more
    before = _everything(db)
    await call(state.withdraw)
    assert _everything(db) == before and state.action_error == request_replies.NO_PLACE
