"""Calendar feeds over HTTP: parsed back with icalendar; venue TZID, stable UIDs, SEQUENCE on a move; revoked → 404."""

from __future__ import annotations

import datetime as dt

import httpx
import pytest
from icalendar import Calendar
from sqlalchemy import event
from sqlmodel import select

from tests.factories import actor_of, add_league, add_league_session, add_member, add_teams, make_user, rows
from volley_app import routes
from volley_app.models import (
    Game,
    League,
    MemberRole,
    Role,
    SkillLevel,
    SubFormat,
    SubRequest,
    SubStatus,
    Team,
    User,
    utcnow,
)
from volley_app.services.core import timefmt
from volley_app.services.seasons import calendar, games, scheduling
from volley_app.services.teams import rsvps
from volley_app.settings import get_settings


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


def _by_summary(body: bytes) -> dict[str, list]:
    out: dict[str, list] = {}
    for e in sorted(_events(body), key=lambda e: e.start):
        out.setdefault(str(e["UID"]).split("-")[0], []).append(e)
    return out


async def test_a_members_feed_carries_their_answer_and_the_link_to_answer(backend, world):
    db = world["db"]
    pat = world["pat"]
    add_member(db, world["ids"][0], pat.user_id, MemberRole.CAPTAIN)
    olly = rows(db, User, User.username == "olly")[0]
    add_member(db, world["ids"][1], olly)  # a member, not the captain: T2's games are in his feed too
    first = min(rows(db, Game, Game.league_id == world["lg"].id, Game.team1_id == world["ids"][0]),
                key=lambda g: g.start_at)  # fmt: skip
    rsvps.answer(db, pat, game_id=first.id, team_id=world["ids"][0], answer="Out")
    olly_token = calendar.feed_token(db, actor_of(olly))
    db.commit()
    games = _by_summary((await _get(backend, calendar.personal_feed_path(world["token"]))).content)["league"]
    assert len(games) == 8
    assert str(games[0]["SUMMARY"]).endswith("(You: Out)") and str(games[0]["SUMMARY"]).startswith("T1 v ")
    assert all(str(e["SUMMARY"]).endswith("(You: not answered)") for e in games[1:])
    page = routes.absolute(routes.team_games_path(world["ids"][0]))
    assert page.startswith(get_settings().public_url.rstrip("/"))
    assert f"Your answer: Out. Answer or change it: {page}" in str(games[0]["DESCRIPTION"])
    theirs = _by_summary((await _get(backend, calendar.personal_feed_path(olly_token))).content)["league"]
    assert len(theirs) == 8 and all(str(e["SUMMARY"]).startswith("T2 v ") for e in theirs)
    assert all(str(e["SUMMARY"]).endswith("(You: not answered)") for e in theirs)
    assert routes.team_games_path(world["ids"][1]) in str(theirs[0]["DESCRIPTION"])


def test_a_captain_who_is_not_on_the_team_sees_no_answer(world):
    feed = calendar.personal_feed(world["db"], world["token"]).decode().replace("\r\n ", "")
    assert "You:" not in feed and "Your answer" not in feed


def test_the_answers_are_read_in_one_query(world):
    db = world["db"]
    add_member(db, world["ids"][0], world["pat"].user_id, MemberRole.CAPTAIN)
    answered = rows(db, Game, Game.league_id == world["lg"].id, Game.team1_id == world["ids"][0])[:3]
    for g in answered:
        rsvps.answer(db, world["pat"], game_id=g.id, team_id=world["ids"][0], answer="In")
    db.commit()
    seen: list[str] = []

    def count(_conn, _cursor, statement, *_args) -> None:
        if "game_rsvps" in statement:
            seen.append(statement)

    engine = db.get_bind()
    event.listen(engine, "before_cursor_execute", count)
    try:
        feed = calendar.personal_feed(db, world["token"]).decode().replace("\r\n ", "")
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert feed.count("(You: In)") == 3 and feed.count("(You: not answered)") == 5 and len(seen) == 1
