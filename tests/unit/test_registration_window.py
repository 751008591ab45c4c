"""The registration window: a league's deadline (default its start) closes registration and the waitlist."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.factories import actor_of, add_league, add_league_session, count, make_user
from volley_app.models import League, Payment, Role, Team, utcnow
from volley_app.services.core.errors import Invalid
from volley_app.services.seasons import leagues
from volley_app.services.teams import registration


@pytest.fixture
def world(db):
    svl, pat = make_user(db, "svla", Role.SVL), make_user(db, "pat")
    now = utcnow()
    sid = add_league_session(db, svl, "Fall", now - dt.timedelta(days=10), now + dt.timedelta(days=80))
    return {"db": db, "svl": svl, "pat": actor_of(pat), "sid": sid, "now": now}


def _league(w, **columns) -> League:
    return add_league(w["db"], w["svl"], w["sid"], **columns)


def test_a_league_that_started_is_closed_with_a_message(world):
    db = world["db"]
    lg = _league(world, start=world["now"] - dt.timedelta(days=7))
    found = registration.options(db, world["pat"], league_id=lg.id)
    assert not found["may_register"] and found["refusal"].startswith("Registration for this league closed on ")
    with pytest.raises(Invalid, match="closed on"):
        registration.register(db, world["pat"], league_id=lg.id, team_name="Aces")
    with pytest.raises(Invalid, match="closed on"):
        registration.register(db, world["pat"], league_id=lg.id, team_name="Aces", waitlist=True)
    db.rollback()
    assert count(db, Team) == 0 and count(db, Payment) == 0


def test_an_earlier_deadline_closes_before_the_start_and_a_later_one_keeps_it_open(world):
    db, now = world["db"], world["now"]
    early = _league(world, start=now + dt.timedelta(days=5), registration_deadline=now - dt.timedelta(hours=1))
    assert registration.options(db, world["pat"], league_id=early.id)["may_register"] is False
    late = _league(world, start=now - dt.timedelta(days=2), registration_deadline=now + dt.timedelta(days=1))
    assert registration.options(db, world["pat"], league_id=late.id)["may_register"] is True
    got = registration.register(db, world["pat"], league_id=late.id, team_name="Aces")
    assert got["kind"] == "checkout"


def test_the_league_form_sets_and_checks_the_deadline(world):
    db = world["db"]
    lg = _league(world, start=world["now"] + dt.timedelta(days=5))
    form = {"court": "Court 1", "start": "2027-03-01T18:30", "number_of_weeks": "8", "time_increment": "45",
            "skill_level": "C", "format": "6s", "day": "Monday", "max_teams": "8", "cost": "300"}  # fmt: skip
    row = leagues.update_league(db, actor_of(world["svl"]), lg.id, **form, registration_deadline="2027-02-20T12:00")
    assert leagues.registration_closes(row) < row.start_at
    row = leagues.update_league(db, actor_of(world["svl"]), lg.id, **form, registration_deadline="")
    assert row.registration_deadline is None and leagues.registration_closes(row) == row.start_at
    with pytest.raises(Invalid) as caught:
        leagues.update_league(db, actor_of(world["svl"]), lg.id, **form, registration_deadline="2027-06-01T12:00")
    assert "registration_deadline" in caught.value.errors
