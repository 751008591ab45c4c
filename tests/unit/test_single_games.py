"""Adding one game to a league's schedule and taking an unplayed one off: checked, audited, captains told."""

from __future__ import annotations

import pytest
from sqlmodel import select

from tests.factories import add_teams, count, league_world, make_user, rows
from volley_app.models import AuditEntry, Game, GameType, OutboxMessage, ScoreReport, Team
from volley_app.services.core.errors import Forbidden, Invalid, Unauthorized
from volley_app.services.seasons import games, schedule


@pytest.fixture
def world(db):
    w = league_world(db)
    ids = add_teams(db, w["lg"], 4)
    for i, tid in enumerate(ids):
        team = db.get(Team, tid)
        team.captain_id = make_user(db, f"cap{i}", email=f"cap{i}@example.com").id
        db.add(team)
    [w["waiting"]] = add_teams(db, w["lg"], 1, prefix="W", waitlist=True)
    db.commit()
    w["ids"] = ids
    return w


def _games(db):
    db.expire_all()
    return sorted(rows(db, Game), key=lambda g: g.id)


def _mail(db, kind):
    return db.exec(select(OutboxMessage).where(OutboxMessage.kind == kind)).all()


def _add(w, actor=None, **over):
    fields = {"team1": w["ids"][0], "team2": w["ids"][1], "start": "2030-01-08T19:00"} | over
    return games.add_game(w["db"], actor or w["a"], w["lg"].id, **fields)


def test_an_operator_adds_one_game_audited_and_both_captains_told(world):
    db = world["db"]
    game = _add(world, game_type="tournament", round_number="3", match=2, court="court 1")
    db.commit()
    [stored] = _games(db)
    assert (stored.team1_id, stored.team2_id, stored.type, stored.round, stored.match, stored.court) == (
        world["ids"][0], world["ids"][1], GameType.TOURNAMENT, 3, 2, "Court 1")
    assert stored.id == game.id
    assert {m.to_addr for m in _mail(db, "game_added")} == {"cap0@example.com", "cap1@example.com"}
    [entry] = rows(db, AuditEntry, AuditEntry.entity == "game", AuditEntry.action == "create")
    assert entry.entity_id == game.id and "T1 v T2" in entry.summary


def test_round_defaults_to_the_week_and_match_to_the_next_free_one(world):
    db = world["db"]
    first = _add(world)
    second = _add(world, team1=world["ids"][2], team2=world["ids"][3])
    db.commit()
    week = schedule.week_of(world["lg"].start_at, first.start_at)
    assert (first.round, first.match, second.round, second.match) == (week, 1, week, 2)


def test_an_admin_adds_a_bye(world):
    game = _add(world, world["admin"], team2="BYE", court="Court 1")
    assert game.team2_id is None and game.court is None


@pytest.mark.parametrize(
    ("over", "field"),
    [
        ({"team1": ""}, "team1"),
        ({"team1": "abc"}, "team1"),
        ({"team2": None}, "team2"),
        ({"team2": 99999}, "team2"),
        ({"team1": "BYE"}, "team1"),
        ({"team2": "SELF"}, "team2"),
        ({"start": "next tuesday"}, "start"),
        ({"start": ""}, "start"),
        ({"game_type": "Friendly"}, "type"),
        ({"round_number": "0"}, "round"),
        ({"round_number": "x"}, "round"),
        ({"match": 500}, "match"),
        ({"court": "Court 9"}, "court"),
    ],
)
def test_bad_input_is_refused_by_the_field_and_nothing_is_added(world, over, field):
    db = world["db"]
    if over.get("team2") == "SELF":
        over = {"team2": world["ids"][0]}
    with pytest.raises(Invalid) as caught:
        _add(world, **over)
    assert field in caught.value.errors
    db.rollback()
    assert _games(db) == [] and count(db, OutboxMessage) == 0


def test_waitlisted_or_other_leagues_teams_are_not_playing_teams(world):
    with pytest.raises(Invalid) as caught:
        _add(world, team2=world["waiting"])
    assert "team2" in caught.value.errors


def test_the_same_game_twice_is_refused(world):
    db = world["db"]
    _add(world)
    db.commit()
    with pytest.raises(Invalid) as caught:
        _add(world)
    assert caught.value.errors == {"start": games.ALREADY_ON_SCHEDULE}
    db.rollback()
    assert len(_games(db)) == 1


@pytest.mark.parametrize(("who", "error"), [("b", Forbidden), ("p", Forbidden), (None, Unauthorized)])
def test_others_cannot_add_or_delete_games(world, who, error):
    db = world["db"]
    game = _add(world)
    db.commit()
    outbox = count(db, OutboxMessage)
    actor = world[who] if who else None
    with pytest.raises(error):
        games.add_game(db, actor, world["lg"].id, team1=world["ids"][2], team2=world["ids"][3],
                            start="2030-01-09T19:00")  # fmt: skip
    db.rollback()
    with pytest.raises(error):
        games.delete_game(db, actor, game.id)
    db.rollback()
    assert [g.id for g in _games(db)] == [game.id]
    assert count(db, OutboxMessage) == outbox


def test_an_unplayed_game_is_deleted_audited_and_captains_told(world):
    db = world["db"]
    game = _add(world)
    db.commit()
    assert games.delete_game(db, world["a"], game.id) == "Game deleted."
    db.commit()
    assert _games(db) == []
    assert {m.to_addr for m in _mail(db, "game_cancelled")} == {"cap0@example.com", "cap1@example.com"}
    [entry] = rows(db, AuditEntry, AuditEntry.entity == "game", AuditEntry.action == "delete")
    assert entry.entity_id == game.id and entry.before["team1_id"] == world["ids"][0]


@pytest.mark.parametrize("how", ["score", "forfeit", "report"])
def test_a_game_with_a_result_is_never_deleted(world, how):
    db = world["db"]
    game = _add(world)
    if how == "score":
        game.team1_game1_score, game.team2_game1_score = 21, 10
    elif how == "forfeit":
        game.forfeit_team_id = world["ids"][1]
    else:
        db.add(ScoreReport(game_id=game.id, team_id=world["ids"][0], team1_game1_score=21, team2_game1_score=10,
                           team1_game2_score=21, team2_game2_score=10))  # fmt: skip
    db.add(game)
    db.commit()
    with pytest.raises(Invalid) as caught:
        games.delete_game(db, world["a"], game.id)
    assert "never deleted" in caught.value.message or "report" in caught.value.message
    db.rollback()
    assert [g.id for g in _games(db)] == [game.id]
    assert _mail(db, "game_cancelled") == []

