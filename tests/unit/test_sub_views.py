"""What a sub sees: a request taken by someone else, their own commitments, the names on My Sub Requests."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.factories import actor_of, make_user
from volley_app.models import Rating, utcnow
from volley_app.services import sub_requests
from volley_app.services.errors import Forbidden

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
    rid = sub_requests.create(db, a["alice"], now=NOW, **fields)
    db.flush()
    return rid


@pytest.mark.parametrize("players", [1, 2])
def test_a_full_request_tells_another_sub_it_was_taken(world, players):
    db, a = world
    rid = _request(db, a, players_needed=players)
    for who in ("ben", "gina")[:players]:
        sub_requests.accept(db, a[who], rid, now=NOW)
    with pytest.raises(Forbidden, match="^This request was taken$"):
        sub_requests.detail(db, a["carmen"], rid, now=NOW)
    assert sub_requests.detail(db, a["ben"], rid, now=NOW)["status"] == "Accepted"  # its sub still reads it


def test_a_closed_request_tells_another_sub_it_was_taken(world):
    db, a = world
    rid = _request(db, a, recipient_id=a["ben"].user_id)
    with pytest.raises(Forbidden, match="^No access$"):  # named to someone else and still open: private
        sub_requests.detail(db, a["carmen"], rid, now=NOW)
    sub_requests.decline(db, a["ben"], rid, now=NOW)
    with pytest.raises(Forbidden, match="^This request was taken$"):
        sub_requests.detail(db, a["carmen"], rid, now=NOW)
