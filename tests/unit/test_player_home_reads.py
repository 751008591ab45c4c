"""The Player home of a player with teams, games, answers, open requests and sub games: what each part shows, and
the few statements it takes to read it all (every player opens it at once on league night)."""

from __future__ import annotations

import datetime as dt

import pytest
import sqlalchemy as sa
from sqlmodel import Session

from tests.factories import actor_of, add_game, add_league, add_league_session, add_member, add_teams, make_user
from volley_app import routes
from volley_app.models import (
    GameRsvp,
    LeagueStage,
    MemberRole,
    ReportStatus,
    Role,
    RsvpAnswer,
    ScoreReport,
    SkillLevel,
    Team,
    TeamMember,
)
from volley_app.services.accounts import accounts
from volley_app.services.core import timefmt
from volley_app.services.core.errors import Forbidden, Invalid, Unauthorized
from volley_app.services.operations import home
from volley_app.services.seasons import score_reports
from volley_app.services.subs import request_changes, request_lists, request_replies
from volley_app.services.teams import rsvps

NOW = dt.datetime(2026, 10, 14, 23, 0, tzinfo=dt.UTC)  # a Wednesday evening
D = dt.timedelta(days=1)
EAST, CHICAGO = "America/New_York", "America/Chicago"
# The open requests' page (its rows, their total, their venues' zones, the subs holding places), the leagues, whether
# the player is a sub, their sub games and those venues' zones, their teams, and their teams' games (26 when each
# part read its own teams and games).
MOST_STATEMENTS = 10


def _captained(db, league, names: tuple[str, ...], captains: tuple) -> list[int]:
    ids = []
    for name, captain in zip(names, captains, strict=True):
        (tid,) = add_teams(db, league, 1, prefix=name, captain_id=captain.id if captain else None)
        if captain is not None:
            add_member(db, tid, captain, MemberRole.CAPTAIN)
        ids.append(tid)
    return ids


def _report(db, game, team_id: int, by, status=ReportStatus.PENDING, **scores) -> None:
    sets = {"team1_game1_score": 21, "team2_game1_score": 17, "team1_game2_score": 19, "team2_game2_score": 21,
            "team1_game3_score": 15, "team2_game3_score": 11} | scores  # fmt: skip
    db.add(ScoreReport(game_id=game.id, team_id=team_id, reported_by_id=by.id, status=status, **sets))
    db.commit()


def _rsvp(db, game, team_id: int, user, answer: RsvpAnswer) -> None:
    db.add(GameRsvp(game_id=game.id, team_id=team_id, user_id=user.id, answer=answer, answered_at=NOW - D))
    db.commit()


@pytest.fixture
def world(db):
    """Pat: captain of Net Ninjas (Lexington, Monday C 6s, week 4), on Spike Lee (Windy Courts in Chicago, Monday B
    6s), on Early Birds (a league not scheduled yet, with one game set), off two teams (one left, one in an archived
    league); a sub with two coming sub games; open requests of others, one for two players with a place taken."""
    lex = make_user(db, "lexgym", Role.SVL, first_name="Lexington", last_name="Sportsplex", time_zone=EAST)
    windy = make_user(db, "windy", Role.SVL, first_name="Windy", last_name="Courts", time_zone=CHICAGO)
    pat = make_user(db, "pat", sub=True, first_name="Pat", last_name="Player")
    quinn, ann, alice, ben = (make_user(db, n) for n in ("quinn", "ann", "alice", "ben"))
    lex_fall = add_league_session(db, lex, "Fall", NOW - 40 * D, NOW + 60 * D)
    windy_fall = add_league_session(db, windy, "Fall", NOW - 40 * D, NOW + 60 * D)
    running = add_league(db, lex, lex_fall, start=NOW - 21 * D, stage=LeagueStage.ACTIVE, schedule_generated=True)
    chicago = add_league(db, windy, windy_fall, start=NOW - 10 * D, stage=LeagueStage.ACTIVE, schedule_generated=True,
                         skill_level=SkillLevel.B, court="Court 7")  # fmt: skip
    unscheduled = add_league(db, lex, lex_fall, start=NOW + 5 * D)
    archived = add_league(db, lex, lex_fall, start=NOW - 21 * D, schedule_generated=True, archived_at=NOW - D)
    ninjas, party, deep = _captained(db, running, ("Net Ninjas", "Block Party", "Dig Deep"), (pat, quinn, None))
    spike, chi_other = _captained(db, chicago, ("Spike Lee", "Lake Effect"), (ann, quinn))
    add_member(db, spike, pat)
    (birds,) = _captained(db, unscheduled, ("Early Birds",), (ann,))
    add_member(db, birds, pat)
    (gone,) = _captained(db, archived, ("Gone Team",), (pat,))
    (left, left_other) = _captained(db, chicago, ("Left Team", "Left Other"), (quinn, ann))
    db.get(TeamMember, add_member(db, left, pat).id).left_at = NOW - 5 * D
    db.commit()
    g = {
        "won": add_game(db, running.id, ninjas, party, NOW - 14 * D, court="Court 1", team1_game1_score=21,
                        team2_game1_score=15, team1_game2_score=21, team2_game2_score=18),
        "reported": add_game(db, running.id, party, ninjas, NOW - 7 * D, court="Court 2"),
        "next": add_game(db, running.id, ninjas, deep, NOW + 2 * D, court="Court 2"),
        "after": add_game(db, running.id, deep, ninjas, NOW + 9 * D),
        "bye": add_game(db, running.id, ninjas, None, NOW + 16 * D),
        "others": add_game(db, running.id, party, deep, NOW + 2 * D, court="Court 1"),
        "disputed": add_game(db, chicago.id, spike, chi_other, NOW - 3 * D),
        "chi_next": add_game(db, chicago.id, chi_other, spike, NOW + 4 * D, court="Court 7"),
        "chi_later": add_game(db, chicago.id, spike, chi_other, NOW + 11 * D),
        "birds": add_game(db, unscheduled.id, birds, party, NOW + 6 * D),
        "gone": add_game(db, archived.id, gone, None, NOW + 1 * D),
        "left": add_game(db, chicago.id, left, left_other, NOW + 1 * D),
    }  # fmt: skip
    _report(db, g["reported"], party, quinn)  # Block Party (team 1) says 21-17, 19-21, 15-11
    _report(db, g["disputed"], chi_other, quinn, ReportStatus.DISPUTED)
    _rsvp(db, g["next"], ninjas, pat, RsvpAnswer.IN)
    _rsvp(db, g["chi_next"], spike, pat, RsvpAnswer.MAYBE)
    _rsvp(db, g["chi_next"], spike, ann, RsvpAnswer.OUT)  # another member's answer is not Pat's
    a = {u.username: actor_of(u) for u in (pat, quinn, ann, alice, ben, lex)}
    common = {"svl": "Lexington Sportsplex", "skill_level": "C", "format": "6s"}
    requests = {
        "open": request_changes.create(db, a["alice"], now=NOW, team="Sand Sharks", date=NOW + 3 * D, **common),
        "pair": request_changes.create(db, a["quinn"], now=NOW, team="Block Party", date=NOW + 2 * D, players_needed=2,
                                       **common),
        "held": request_changes.create(db, a["alice"], now=NOW, team="Sand Sharks", date=NOW + 8 * D, court="4",
                                       players_needed=2, **common),
        "named": request_changes.create(db, a["ann"], now=NOW, team="Spike Lee", date=NOW + 5 * D,
                                        recipient_id=pat.id, svl="Windy", skill_level="B", format="6s"),
    }  # fmt: skip
    request_replies.accept(db, a["ben"], requests["pair"], now=NOW)
    request_replies.accept(db, a["pat"], requests["held"], now=NOW)
    request_replies.accept(db, a["pat"], requests["named"], now=NOW)
    db.commit()
    teams = {"ninjas": ninjas, "party": party, "deep": deep, "spike": spike, "chi_other": chi_other, "birds": birds}
    return {"db": db, "a": a, "g": {k: v.id for k, v in g.items()}, "games": g, "teams": teams, "requests": requests,
            "leagues": {"running": running.id, "chicago": chicago.id, "unscheduled": unscheduled.id}}  # fmt: skip


def _statements(engine, read) -> tuple[object, list[str]]:
    seen: list[str] = []

    def record(_conn, _cursor, statement, _parameters, _context, _executemany):
        seen.append(statement)

    sa.event.listen(engine, "before_cursor_execute", record)
    try:
        found = read()
    finally:
        sa.event.remove(engine, "before_cursor_execute", record)
    return found, seen


def _fresh_home(db, actor, **args):
    """The home read as a page's load reads it: in a session of its own (nothing cached from the world's making)."""
    engine = db.get_bind()

    def read():
        with Session(engine) as fresh:
            return home.player_home(fresh, actor, now=NOW, **args)

    return _statements(engine, read)


def test_the_player_home_reads_in_a_few_statements(world):
    screen, seen = _fresh_home(world["db"], world["a"]["pat"])
    assert screen.open_requests.value is not None and len(screen.open_requests.value.rows) == 3
    assert screen.team_cards and screen.next_games and screen.commitments and screen.is_sub
    assert [s for s in seen if not s.lstrip().upper().startswith(("SELECT", "WITH"))] == []  # a read writes nothing
    assert len(seen) <= MOST_STATEMENTS, "\n\n".join(seen)


def test_a_player_without_teams_reads_no_games(db):
    pat = actor_of(make_user(db, "pat"))
    screen, seen = _fresh_home(db, pat)
    assert (screen.team_cards, screen.next_games, screen.commitments, screen.is_sub) == ([], [], [], False)
    assert len(seen) <= 6  # the open requests' rows and total, the leagues, the player's sub flag, sub games, teams


def _when(start: dt.datetime, zone: str) -> str:
    return timefmt.date_time(start, zone, labelled=True)


def test_each_team_card_shows_its_next_game_and_its_last_result(world):
    g, t = world["games"], world["teams"]
    expected = [
        {"team": "Net Ninjas1", "team_href": routes.team_path(t["ninjas"]), "league": "Monday C 6s",
         "next": f"Net Ninjas1 v Dig Deep1, {_when(g['next'].start_at, EAST)}",
         "next_href": routes.game_score_path(g["next"].id),
         "last": f"Block Party1 v Net Ninjas1, {_when(g['reported'].start_at, EAST)}",
         "last_result": "Reported 21-17, 19-21, 15-11 by the other captain",
         "last_href": routes.game_score_path(g["reported"].id), "last_action": "Confirm or dispute"},
        {"team": "Spike Lee1", "team_href": routes.team_path(t["spike"]), "league": "Monday B 6s",
         "next": f"Lake Effect1 v Spike Lee1, {_when(g['chi_next'].start_at, CHICAGO)}",
         "next_href": routes.team_games_path(t["spike"]),
         "last": f"Spike Lee1 v Lake Effect1, {_when(g['disputed'].start_at, CHICAGO)}",
         "last_result": "Disputed: the operator decides", "last_href": routes.team_games_path(t["spike"]),
         "last_action": ""},
    ]  # fmt: skip
    screen, _seen = _fresh_home(world["db"], world["a"]["pat"])
    assert screen.team_cards == expected
    assert score_reports.team_cards(world["db"], world["a"]["pat"], now=NOW) == expected
    # the other captain waits for Pat; their last game's card shows its result once confirmed
    quinn_party, quinn_lake, _left_team = score_reports.team_cards(world["db"], world["a"]["quinn"], now=NOW)
    assert quinn_party["last_result"] == "Reported 21-17, 19-21, 15-11: waiting for the other captain"
    assert quinn_party["last_action"] == "" and quinn_party["next"].startswith("Block Party1 v Dig Deep1")
    assert quinn_lake["last_result"] == "Disputed: the operator decides"


def test_a_played_last_game_gives_the_players_own_points_first(world):
    db, g = world["db"], world["g"]
    score_reports.confirm(db, world["a"]["pat"], g["reported"], now=NOW)
    db.commit()
    ninjas = home.player_home(db, world["a"]["pat"], now=NOW).team_cards[0]
    assert (ninjas["last_result"], ninjas["last_action"]) == ("Lost 17-21, 21-19, 11-15", "")
    party = score_reports.team_cards(db, world["a"]["quinn"], now=NOW)[0]
    assert party["last_result"] == "Won 21-17, 19-21, 15-11"
    won = score_reports.team_cards(db, world["a"]["pat"], now=NOW - 10 * D)[0]  # a week before: the first game
    assert won["last_result"] == "Won 21-15, 21-18" and won["last_action"] == ""
    assert won["next"].startswith("Block Party1 v Net Ninjas1")


def test_the_next_games_are_the_nearest_of_every_team_with_the_players_answer(world):
    g, t = world["games"], world["teams"]

    def row(game, team: str, league: str, opponent: str, zone: str, where: str, mine: str) -> dict:
        return {"game_id": game.id, "team_id": t[team], "team": {"ninjas": "Net Ninjas1", "spike": "Spike Lee1",
                "birds": "Early Birds1"}[team], "league": league, "opponent": opponent,
                "when": _when(game.start_at, zone), "where": where, "mine": mine,
                "href": routes.team_games_path(t[team])}  # fmt: skip

    expected = [
        row(g["next"], "ninjas", "Monday C 6s", "Dig Deep1", EAST, "Lexington Sportsplex, Court 2", "In"),
        row(g["chi_next"], "spike", "Monday B 6s", "Lake Effect1", CHICAGO, "Windy Courts, Court 7", "Maybe"),
        row(g["birds"], "birds", "Monday C 6s", "Block Party1", EAST, "Lexington Sportsplex", ""),
        row(g["after"], "ninjas", "Monday C 6s", "Dig Deep1", EAST, "Lexington Sportsplex", ""),
        row(g["chi_later"], "spike", "Monday B 6s", "Lake Effect1", CHICAGO, "Windy Courts", ""),
    ]
    screen, _seen = _fresh_home(world["db"], world["a"]["pat"])
    assert screen.next_games == expected
    assert rsvps.my_next_games(world["db"], world["a"]["pat"], now=NOW) == expected
    assert rsvps.my_next_games(world["db"], world["a"]["pat"], now=NOW, limit=2) == expected[:2]
    assert [r["game_id"] for r in rsvps.my_next_games(world["db"], world["a"]["pat"], now=NOW, limit=9)] == [
        r["game_id"] for r in expected
    ]  # the bye is no game to answer for


def test_the_rest_of_the_home_is_what_its_parts_read(world):
    db, a, req = world["db"], world["a"], world["requests"]
    screen, _seen = _fresh_home(db, a["pat"])
    page = request_lists.list_open(db, a["pat"], now=NOW)
    assert screen.open_requests.value is not None and screen.open_requests.failure is None
    assert screen.open_requests.value.rows == page.rows
    assert [r["id"] for r in page.rows] == [req["pair"], req["open"], req["held"]]
    assert screen.leagues == home.home_leagues(db, a["pat"], now=NOW)
    running = [world["leagues"][k] for k in ("running", "chicago", "unscheduled")]
    assert [r["id"] for r in screen.leagues["all"]] == running
    assert screen.is_sub is accounts.is_sub(db, a["pat"]) is True
    assert screen.commitments == home.commitments(db, a["pat"], now=NOW)
    assert [c["id"] for c in screen.commitments] == [str(req["named"]), str(req["held"])]
    ben = home.player_home(db, a["ben"], now=NOW)
    assert (ben.team_cards, ben.next_games, ben.is_sub) == ([], [], False)


def test_a_refused_search_leaves_the_rest_of_the_home_and_others_are_refused_whole(world):
    db, a = world["db"], world["a"]
    screen, _seen = _fresh_home(db, a["pat"], filters={"date_from": "not a date"})
    assert screen.open_requests.value is None and isinstance(screen.open_requests.failure, Invalid)
    assert len(screen.team_cards) == 2 and len(screen.next_games) == 5 and screen.commitments
    with pytest.raises(Forbidden):
        home.player_home(db, a["lexgym"], now=NOW)
    with pytest.raises(Unauthorized):
        home.player_home(db, None, now=NOW)


def test_the_cards_name_the_opponent_as_it_is_named_now(world):
    db, t = world["db"], world["teams"]
    db.get(Team, t["deep"]).team_name = "Dig Deeper"
    db.commit()
    (ninjas, _spike) = home.player_home(db, world["a"]["pat"], now=NOW).team_cards
    assert ninjas["next"].startswith("Net Ninjas1 v Dig Deeper,")
