"""A short team's sub request in one tap: filled in from the game, the shortfall from the members' answers and the
league's gender rule, one request however often it is tapped, only for those who run the team, and the subs who
take a place on the game's attendance."""

from __future__ import annotations

import concurrent.futures
import datetime as dt

import pytest

from tests.factories import actor_of, add_league, add_league_session, add_teams, count, make_user, notified, rows
from volley_app import db as dbmod
from volley_app.models import (
    Game,
    GameRsvp,
    Gender,
    GenderNeeded,
    MemberRole,
    OutboxMessage,
    Position,
    Rating,
    Role,
    RsvpAnswer,
    ShortTeamNotice,
    SubRequest,
    SubRequestPlace,
    Team,
    TeamMember,
    utcnow,
)
from volley_app.services.core.errors import BadRequest, Forbidden, NotFound
from volley_app.services.mail import notices
from volley_app.services.operations import game_requests
from volley_app.services.subs import request_replies
from volley_app.services.teams import rsvps

DAY = dt.timedelta(days=1)


@pytest.fixture
def world(db):
    """A C 6s league whose rule puts 2 women on court; team T1 (captain Cap, co-captain Cole, four players) plays T2
    in three days. Four answered In (one woman), two women answered Out (both setters)."""
    svl = make_user(db, "venue", Role.SVL, first_name="Sportsplex", last_name="North")
    now = utcnow()
    sid = add_league_session(db, svl, "Fall", now - 10 * DAY, now + 60 * DAY)
    league = add_league(db, svl, sid, start=now - 7 * DAY, women_on_court=2)
    t1, t2 = add_teams(db, league, 2)
    people = {
        "cap": make_user(db, "cap", gender=Gender.MALE),
        "cole": make_user(db, "cole", gender=Gender.MALE),
        "ann": make_user(db, "ann", gender=Gender.FEMALE),
        "bo": make_user(db, "bob", gender=Gender.MALE),
        "fay": make_user(db, "fay", gender=Gender.FEMALE, setter_skill_level=Rating.B),
        "gia": make_user(db, "gia", gender=Gender.FEMALE, setter_skill_level=Rating.C, hitter_skill_level=Rating.D),
    }
    team = db.get(Team, t1)
    team.captain_id = people["cap"].id
    db.add(team)
    roles = {"cap": MemberRole.CAPTAIN, "cole": MemberRole.CO_CAPTAIN}
    for name, user in people.items():
        db.add(TeamMember(team_id=t1, user_id=user.id, role=roles.get(name, MemberRole.PLAYER)))
    game = Game(league_id=league.id, team1_id=t1, team2_id=t2, start_at=now + 3 * DAY, court="Court 2")
    db.add(game)
    db.commit()
    for name, answer in (("cap", "In"), ("cole", "In"), ("ann", "In"), ("bo", "In"), ("fay", "Out"), ("gia", "Out")):
        db.add(GameRsvp(game_id=game.id, team_id=t1, user_id=people[name].id, answer=RsvpAnswer(answer), answered_at=now))
    db.commit()
    return {"db": db, "league": league, "t1": t1, "t2": t2, "game": game, "people": people, "svl": svl}


def _find(w, who: str = "cap", **over):
    args = {"game_id": w["game"].id, "team_id": w["t1"]} | over
    return game_requests.find_subs(w["db"], actor_of(w["people"][who]) if isinstance(who, str) else who, **args)


def test_one_tap_asks_for_the_shortfall_filled_in_from_the_game(world):
    rid = _find(world)
    req = world["db"].get(SubRequest, rid)
    assert (req.game_id, req.team_id, req.players_needed) == (world["game"].id, world["t1"], 2)
    assert (req.gender_needed, req.position_needed) == (GenderNeeded.FEMALE, Position.SETTER)  # both out: women, setters
    assert (req.team, req.svl, req.court, req.format.value, req.skill_level.value) == (
        "T1", "Sportsplex North", "Court 2", "6s", "C")
    assert req.date == world["game"].start_at and req.text == "T1 vs T2: 2 short."
    assert req.requestor_id == world["people"]["cap"].id


def test_a_second_tap_or_a_co_captain_gets_the_same_request(world):
    first = _find(world)
    assert _find(world) == first and _find(world, "cole") == first
    assert count(world["db"], SubRequest) == 1


def test_the_gender_rule_alone_can_make_a_team_short(world):
    db, people = world["db"], world["people"]
    rsvp = rows(db, GameRsvp, GameRsvp.user_id == people["fay"].id)[0]
    rsvp.answer = RsvpAnswer.IN
    db.add(rsvp)
    db.commit()
    short = game_requests.shortfall(db, world["game"], db.get(Team, world["t1"]), world["league"])
    assert (short.players, short.women, short.places, short.gender) == (1, 0, 1, GenderNeeded.FEMALE)
    world["league"].women_on_court = 3
    db.add(world["league"])
    db.commit()
    short = game_requests.shortfall(db, world["game"], db.get(Team, world["t1"]), world["league"])
    assert (short.players, short.women, short.places, short.gender) == (1, 1, 1, GenderNeeded.FEMALE)


def test_a_team_with_enough_players_or_a_past_game_is_told_so(world):
    db, people = world["db"], world["people"]
    for name in ("fay", "gia"):
        rsvp = rows(db, GameRsvp, GameRsvp.user_id == people[name].id)[0]
        rsvp.answer = RsvpAnswer.IN
        db.add(rsvp)
    db.commit()
    with pytest.raises(BadRequest, match="T1 has enough players for this game"):
        _find(world)
    with pytest.raises(BadRequest, match="This game has started"):
        _find(world, now=world["game"].start_at + dt.timedelta(minutes=1))
    assert count(db, SubRequest) == 0


@pytest.mark.parametrize("who", ["ann", "other_captain", "svl", "stranger"])
def test_only_those_who_run_the_team_may_ask_and_nothing_is_made_otherwise(world, who):
    db = world["db"]
    if who == "other_captain":
        captain = make_user(db, "rival")
        team = db.get(Team, world["t2"])
        team.captain_id = captain.id
        db.add(team)
        db.commit()
        actor = actor_of(captain)
    elif who == "svl":
        actor = actor_of(world["svl"])
    elif who == "stranger":
        actor = actor_of(make_user(db, "stranger"))
    else:
        actor = actor_of(world["people"][who])
    with pytest.raises(Forbidden):
        _find(world, actor)
    assert count(db, SubRequest) == 0


def test_a_team_not_in_the_game_or_no_game_is_not_found(world):
    with pytest.raises(NotFound):
        _find(world, team_id=world["t2"] + 100)
    with pytest.raises(NotFound):
        _find(world, game_id="nope")


def test_a_sub_who_takes_a_place_shows_on_the_attendance_and_counts_as_in(world):
    db = world["db"]
    rid = _find(world)
    sub = make_user(db, "helen", sub=True, gender=Gender.FEMALE, setter_skill_level=Rating.C)
    request_replies.accept(db, actor_of(sub), rid)
    db.commit()
    assert [p.user_id for p in rows(db, SubRequestPlace)] == [sub.id]
    row = rsvps.game_row(db, actor_of(world["people"]["cap"]), world["game"], db.get(Team, world["t1"]),
                         world["league"], now=utcnow())  # the team's games page
    assert (row["in_count"], row["subs"], row["short_reason"]) == (4, ["Helen Tester"], "1 more player needed")
    short = game_requests.shortfall(db, world["game"], db.get(Team, world["t1"]), world["league"])
    assert (short.players, short.women) == (1, 0)
    # the request still has a place open: tapping again leads to it
    assert _find(world) == rid


def test_two_taps_at_once_make_one_request(world):
    cap = actor_of(world["people"]["cap"])
    args = {"game_id": world["game"].id, "team_id": world["t1"]}
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        made = list(pool.map(lambda _: dbmod.call(game_requests.find_subs, cap, **args), range(2)))
    assert made[0] == made[1] and count(world["db"], SubRequest) == 1


# -- telling a short team, once, by its deadline --------------------------------------------------------------------


def _told(db) -> list[OutboxMessage]:
    return [m for m in rows(db, OutboxMessage) if m.kind == "team_short"]


def test_a_short_team_is_told_once_by_its_deadline_and_its_captains_get_the_email(world):
    db, game = world["db"], world["game"]
    before = game.start_at - dt.timedelta(hours=49)  # the deadline is 48 hours before
    assert game_requests.tell_short_teams(before) == 0 and _told(db) == []
    at = game.start_at - dt.timedelta(hours=47)
    assert game_requests.tell_short_teams(at) == 1
    assert game_requests.tell_short_teams(at + dt.timedelta(minutes=1)) == 0  # once
    db.expire_all()
    mails = _told(db)
    assert sorted(m.to_addr for m in mails) == ["cap@example.com", "cole@example.com"]
    assert mails[0].subject.startswith("T1 is 2 short on ")
    assert "4 are in, 2 out, 0 not answered" in mails[0].body_text
    assert f"/dash/teams/{world['t1']}/games" in mails[0].body_text
    page = f"/dash/teams/{world['t1']}/games"
    assert notified(db, notices.TEAM_SHORT) == [("cap@example.com", page), ("cole@example.com", page)]
    [notice] = rows(db, ShortTeamNotice)
    assert (notice.game_id, notice.team_id, notice.players) == (game.id, world["t1"], 2)


def test_a_team_with_enough_players_or_no_full_roster_is_not_told(world):
    db, game, people = world["db"], world["game"], world["people"]
    at = game.start_at - dt.timedelta(hours=47)
    # T2 (the other side) has no roster: it is building one, not short
    for name in ("fay", "gia"):
        rsvp = rows(db, GameRsvp, GameRsvp.user_id == people[name].id)[0]
        rsvp.answer = RsvpAnswer.IN
        db.add(rsvp)
    db.commit()
    assert game_requests.short_due(db, at) == []
    assert game_requests.tell_short_teams(at) == 0 and _told(db) == []


def test_two_sweeps_at_once_tell_the_team_once(world):
    at = world["game"].start_at - dt.timedelta(hours=47)
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        told = list(pool.map(lambda _: game_requests.tell_short_teams(at), range(2)))
    assert sum(told) == 1 and len(_told(world["db"])) == 2  # the captain and the co-captain, once each
