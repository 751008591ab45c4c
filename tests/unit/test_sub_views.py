"""What a sub sees: a request taken by someone else, their own commitments, the names on My Sub Requests."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.factories import actor_of, make_user
from volley_app import routes
from volley_app.models import Rating, utcnow
from volley_app.services.core.errors import Forbidden, Unauthorized
from volley_app.services.operations import home
from volley_app.services.subs import request_changes, request_lists, request_replies

H = dt.timedelta(hours=1)
NOW = utcnow().replace(microsecond=0) + H


@pytest.fixture
def world(db):
    people = {
        "alice": make_user(db, "alice", first_name="Alice", last_name="Archer"),
        **{n: make_user(db, n, sub=True, hitter_skill_level=Rating.B, first_name=n.title(), last_name="Sub")
           for n in ("ben", "carmen", "gina")},
    }  # fmt: skip
    db.commit()
    return db, {k: actor_of(v) for k, v in people.items()}


def _request(db, a, *, hours=72, **over) -> int:
    fields = {"team": "Net Ninjas", "date": NOW + hours * H, "svl": "Lexington Sportsplex", "skill_level": "C",
              "format": "6s"} | over  # fmt: skip
    rid = request_changes.create(db, a["alice"], now=NOW, **fields)
    db.flush()
    return rid


@pytest.mark.parametrize("players", [1, 2])
def test_a_full_request_tells_another_sub_it_was_taken(world, players):
    db, a = world
    rid = _request(db, a, players_needed=players)
    for who in ("ben", "gina")[:players]:
        request_replies.accept(db, a[who], rid, now=NOW)
    with pytest.raises(Forbidden, match="^This request was taken$"):
        request_lists.detail(db, a["carmen"], rid, now=NOW)
    assert request_lists.detail(db, a["ben"], rid, now=NOW)["status"] == "Accepted"  # its sub still reads it


def test_a_closed_request_tells_another_sub_it_was_taken(world):
    db, a = world
    rid = _request(db, a, recipient_id=a["ben"].user_id)
    with pytest.raises(Forbidden, match="^No access$"):  # named to someone else and still open: private
        request_lists.detail(db, a["carmen"], rid, now=NOW)
    request_replies.decline(db, a["ben"], rid, now=NOW)
    with pytest.raises(Forbidden, match="^This request was taken$"):
        request_lists.detail(db, a["carmen"], rid, now=NOW)


def test_a_subs_home_lists_their_own_coming_games_nearest_first(world):
    db, a = world
    later = _request(db, a, hours=100, team="Later Team")
    sooner = _request(db, a, hours=30, team="Sooner Team", players_needed=2, court="3")
    named = _request(db, a, hours=50, team="Named Team", recipient_id=a["ben"].user_id)
    passed = _request(db, a, hours=2, team="Passed Team")
    _request(db, a, hours=40, team="Carmen's")  # someone else's place
    for rid in (later, sooner, named, passed):
        request_replies.accept(db, a["ben"], rid, now=NOW)
    request_replies.accept(db, a["carmen"], _request(db, a, hours=45, team="Other"), now=NOW)
    cancelled = _request(db, a, hours=60, team="Cancelled")
    request_replies.accept(db, a["ben"], cancelled, now=NOW)
    request_changes.delete(db, a["alice"], cancelled)
    mine = home.commitments(db, a["ben"], now=NOW + 3 * H)
    assert [c["team"] for c in mine] == ["Sooner Team", "Named Team", "Later Team"]
    assert mine[0]["where"] == "Lexington Sportsplex, 3" and mine[0]["href"] == routes.sub_request_path(sooner)
    assert mine[0]["when"].endswith(" ET")
    assert home.commitments(db, a["alice"], now=NOW) == []  # the requestor's own requests are not commitments
    with pytest.raises(Unauthorized):
        home.commitments(db, None)


def test_my_sub_requests_name_every_sub_holding_a_place(world):
    db, a = world
    two = _request(db, a, players_needed=2, team="Two")
    one = _request(db, a, team="One")
    _request(db, a, team="Nobody yet")
    request_replies.accept(db, a["gina"], two, now=NOW)
    request_replies.accept(db, a["ben"], two, now=NOW + H)
    request_replies.accept(db, a["carmen"], one, now=NOW)
    subs = {r["team"]: r["sub"] for r in request_lists.notifications(db, a["alice"], now=NOW).rows}
    assert subs == {"Two": "Gina Sub, Ben Sub", "One": "Carmen Sub", "Nobody yet": "Open"}
