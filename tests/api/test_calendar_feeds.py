"""Calendar feeds over HTTP: parsed back with icalendar; venue TZID, stable UIDs, SEQUENCE on a move; revoked → 404."""

from __future__ import annotations

import datetime as dt

import httpx
import pytest
from icalendar import Calendar
from sqlmodel import select

from tests.factories import actor_of, add_league, add_league_session, add_teams, make_user
from volley_app.models import Game, League, Role, SkillLevel, SubFormat, SubRequest, SubStatus, Team, utcnow
from volley_app.services.core import timefmt
from volley_app.services.seasons import calendar, games, scheduling


@pytest.fixture
def world(db):
    svl, pat, other = make_user(db, "svla", Role.SVL, first_name="Gym"), make_user(db, "pat"), make_user(db, "olly")
    now = utcnow().replace(minute=30, second=0, microsecond=0)
    sid = add_league_session(db, svl, "Fall", now + dt.timedelta(days=3), now + dt.timedelta(days=80))
    lg = add_league(db, svl, sid, start=now + dt.timedelta(days=4), courts="Court 1\nCourt 2", address="1 Main St",
                    city="Lexington")  # fmt: skip
    hidden = add_league(db, svl, sid, start=now + dt.timedelta(days=4), court="Court 4", active=False)
    ids = add_teams(db, lg, 4)
    team = db.get(Team, ids[0])
    team.captain_id = pat.id
    db.add(team)
    add_teams(db, hidden, 2, prefix="H")
    db.add(SubRequest(requestor_id=other.id, recipient_id=pat.id, status=SubStatus.ACCEPTED, svl="Gym", team="Diggers",
                      date=now + dt.timedelta(days=6), court="Court 3", skill_level=SkillLevel.C, format=SubFormat.SIXES))
    db.commit()
    scheduling.generate(db, actor_of(svl), lg.id)
    scheduling.generate(db, actor_of(svl), hidden.id)
    hidden.active = False  # made inactive after its schedule was drawn
    db.add(hidden)
    db.commit()
    token = calendar.feed_token(db, actor_of(pat))
    db.commit()
    return {"db": db, "lg": lg, "hidden": hidden, "ids": ids, "pat": actor_of(pat), "svl": actor_of(svl), "token": token}


async def _get(backend, path: str) -> httpx.Response:
    _app, asgi = backend
    transport = httpx.ASGITransport(app=asgi, client=("203.0.113.9", 5000))
    async with httpx.AsyncClient(transport=transport, base_url="http://localhost:3000") as client:
        return await client.get(path)


def _events(body: bytes) -> list:
    return Calendar.from_ical(body).walk("VEVENT")


async def test_the_personal_feed_has_my_games_and_my_accepted_subs(backend, world):
    got = await _get(backend, calendar.personal_feed_path(world["token"]))
    assert got.status_code == 200 and got.headers["content-type"].startswith("text/calendar")
    cal = Calendar.from_ical(got.content)
    assert [tz["TZID"] for tz in cal.walk("VTIMEZONE")] == ["America/New_York"]
    events = cal.walk("VEVENT")
    games = [e for e in events if str(e["UID"]).startswith("league-")]
    assert len(games) == 8  # four teams: one game a week for eight weeks
    first = min(games, key=lambda e: e.start)
    assert first["DTSTART"].params["TZID"] == "America/New_York"
    assert first.start == timefmt.local(world["lg"].start_at)  # the venue's wall clock
    assert str(first["SUMMARY"]).startswith("T1 v ")
    assert "Court 1" in str(first["LOCATION"]) and "1 Main St" in str(first["LOCATION"])
    assert "Opponent: T4" in str(first["DESCRIPTION"])
    subs = [e for e in events if str(e["UID"]).startswith("sub-request-")]
    assert len(subs) == 1 and "Court 3" in str(subs[0]["LOCATION"]) and "Diggers" in str(subs[0]["SUMMARY"])


async def test_league_and_team_feeds_for_a_reader_of_the_league(backend, world):
    league = _events((await _get(backend, calendar.league_feed_path(world["token"], world["lg"].id))).content)
    assert len(league) == 2 * 8
    assert {str(e["LOCATION"]).rsplit(" · ", 1)[1] for e in league} == {"Court 1", "Court 2"}
    assert len({str(e["UID"]) for e in league}) == len(league)
    team = _events((await _get(backend, calendar.team_feed_path(world["token"], world["ids"][1]))).content)
    assert len(team) == 8
    # an inactive league is not for a player to read: no such calendar
    assert (await _get(backend, calendar.league_feed_path(world["token"], world["hidden"].id))).status_code == 404
    assert (await _get(backend, calendar.league_feed_path(world["token"], "nope"))).status_code == 404


async def test_a_moved_game_keeps_its_uid_and_counts_a_sequence(backend, world):
    db = world["db"]
    path = calendar.league_feed_path(world["token"], world["lg"].id)
    before = {str(e["UID"]): e for e in _events((await _get(backend, path)).content)}
    game = db.exec(select(Game).where(Game.league_id == world["lg"].id, Game.round == 2)).first()
    games.move_game(db, world["svl"], game.id, start="2031-05-05T20:00", court="Court 2")
    db.commit()
    after = {str(e["UID"]): e for e in _events((await _get(backend, path)).content)}
    assert before.keys() == after.keys()
    uid = calendar.game_uid(game)
    assert int(before[uid]["SEQUENCE"]) == 0 and int(after[uid]["SEQUENCE"]) == 1
    assert after[uid].start.replace(tzinfo=None) == dt.datetime(2031, 5, 5, 20, 0)
    # a redrawn schedule keeps the UIDs of the same places (league, week, match)
    scheduling.regenerate_unplayed(db, db.get(League, world["lg"].id), world["svl"])
    db.commit()
    again = {str(e["UID"]) for e in _events((await _get(backend, path)).content)}
    assert again == set(after)


async def test_a_revoked_or_replaced_address_answers_404(backend, world):
    db = world["db"]
    old = calendar.personal_feed_path(world["token"])
    new = calendar.regenerate(db, world["pat"])
    db.commit()
    assert (await _get(backend, old)).status_code == 404
    assert (await _get(backend, calendar.league_feed_path(world["token"], world["lg"].id))).status_code == 404
    assert (await _get(backend, new)).status_code == 200
    calendar.revoke(db, world["pat"])
    db.commit()
    assert (await _get(backend, new)).status_code == 404
    assert (await _get(backend, "/api/calendar/short.ics")).status_code == 404
