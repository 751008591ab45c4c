"""Bracket and game score handlers × {anonymous, a player of neither team, SVL A, SVL B, admin, the captains}:
any browser may call them with any arguments; the wrong caller is refused and nothing changes."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlmodel import select

from tests.factories import add_league, add_league_session, count, login_token, make_user, rows
from tests.harness import call_handler
from volley_app.models import AuditEntry, Game, GameType, OutboxMessage, PlayoffSeed, Role, ScoreReport, Team, utcnow
from volley_app.pages.dash.leagues import bracket, game_edit, game_score
from volley_app.pages.dash.leagues.home.state import LeagueHomeState

WHO = ["anon", "player", "svla", "svlb", "admin", "cap1", "cap2"]
OPERATORS = {"svla", "admin"}
SCORES = {"team1_game1_score": "21", "team2_game1_score": "15", "team1_game2_score": "21", "team2_game2_score": "19"}


@pytest.fixture
def world(db):
    a = make_user(db, "svla", Role.SVL)
    make_user(db, "svlb", Role.SVL)
    make_user(db, "player")
    make_user(db, "admin", Role.ADMIN)
    c1, c2 = make_user(db, "cap1"), make_user(db, "cap2")
    now = utcnow()
    sid = add_league_session(db, a, "A fall", now - dt.timedelta(days=30), now + dt.timedelta(days=30))
    lg = add_league(db, a, sid, start=now - dt.timedelta(days=14), weeks=2, schedule_generated=True)
    t1 = Team(league_id=lg.id, team_name="Aces", captain_id=c1.id)
    t2 = Team(league_id=lg.id, team_name="Blocks", captain_id=c2.id)
    db.add_all([t1, t2])
    db.commit()
    game = Game(league_id=lg.id, team1_id=t1.id, team2_id=t2.id, start_at=now - dt.timedelta(hours=2), round=1, match=1)
    db.add(game)
    db.commit()
    tokens = {u: login_token(db, u) for u in WHO if u != "anon"}
    return {"db": db, "lid": lg.id, "gid": game.id, "tokens": tokens}


def fingerprint(db) -> tuple:
    db.expire_all()
    return (
        [(g.id, g.team1_id, g.team2_id, g.team1_game1_score, g.team2_game2_score) for g in rows(db, Game)],
        [(r.id, r.status, r.team1_game1_score) for r in rows(db, ScoreReport)],
        count(db, PlayoffSeed), count(db, AuditEntry), count(db, OutboxMessage),
    )  # fmt: skip


async def call(world, who, cls, path, method, *args):
    return await call_handler(world["tokens"].get(who), cls, path, method, *args)


@pytest.mark.parametrize("who", WHO)
async def test_only_the_operator_generates_the_bracket(world, who):
    before = fingerprint(world["db"])
    state, _ev = await call(world, who, bracket.BracketState, f"/dash/leagues/{world['lid']}/bracket", "generate", True)
    if who in OPERATORS:
        assert state.error == "" and state.generated and len(state.rounds) == 1
        assert fingerprint(world["db"]) != before
    else:
        assert fingerprint(world["db"]) == before
        assert state.error in ("Unauthorized", "No access")


@pytest.mark.parametrize("who", WHO)
async def test_only_the_operator_enters_a_playoff_result(world, who):
    db = world["db"]
    await call(world, "svla", bracket.BracketState, f"/dash/leagues/{world['lid']}/bracket", "generate", True)
    final = db.exec(select(Game).where(Game.type == GameType.TOURNAMENT)).one()
    before = fingerprint(db)
    path = f"/dash/leagues/{world['lid']}/bracket"
    state, _ev = await call(world, who, bracket.BracketState, path, "save", {"game": str(final.id), **SCORES})
    if who in OPERATORS:
        assert state.error == "" and state.errors == {}
        db.expire_all()
        assert db.get(Game, final.id).team1_game1_score == 21
    else:
        assert fingerprint(db) == before and state.error in ("Unauthorized", "No access")


@pytest.mark.parametrize("who", WHO)
async def test_the_bracket_page_shows_to_whoever_may_see_the_league(world, who):
    await call(world, "svla", bracket.BracketState, f"/dash/leagues/{world['lid']}/bracket", "generate", True)
    state, _ev = await call(world, who, bracket.BracketState, f"/dash/leagues/{world['lid']}/bracket", "load")
    if who == "anon":
        assert state.rounds == [] and state.error == "Unauthorized"
    else:
        assert state.error == "" and len(state.rounds) == 1
        assert state.can_manage is (who in OPERATORS)
        assert bool(state.open_games) is (who in OPERATORS)


@pytest.mark.parametrize("who", WHO)
async def test_only_a_captain_of_the_game_reports_its_score(world, who):
    before = fingerprint(world["db"])
    path = f"/dash/leagues/games/{world['gid']}/score"
    state, _ev = await call(world, who, game_score.GameScoreState, path, "load")
    assert state.can_report is (who in ("cap1", "cap2"))
    assert state.can_settle is (who in OPERATORS)
    state, _ev = await call(world, who, game_score.GameScoreState, path, "save", SCORES)
    after = fingerprint(world["db"])
    if who in ("cap1", "cap2"):
        assert state.error == "" and state.errors == {} and after != before
    else:
        assert after == before and state.error in ("Unauthorized", "No access")


@pytest.mark.parametrize("who", WHO)
async def test_only_the_other_captain_confirms_or_disputes(world, who):
    db = world["db"]
    path = f"/dash/leagues/games/{world['gid']}/score"
    await call(world, "cap1", game_score.GameScoreState, path, "save", SCORES)
    before = fingerprint(db)
    state, _ev = await call(world, who, game_score.GameScoreState, path, "load")
    assert state.can_answer is (who == "cap2")
    state, _ev = await call(world, who, game_score.GameScoreState, path, "dispute", {"note": "No"})
    if who == "cap2":
        assert state.error == "" and fingerprint(db) != before
    else:
        assert fingerprint(db) == before and state.error != ""


async def test_a_captain_sees_a_bad_score_by_its_set_and_nothing_is_saved(world):
    before = fingerprint(world["db"])
    path = f"/dash/leagues/games/{world['gid']}/score"
    state, _ev = await call(
        world, "cap1", game_score.GameScoreState, path, "save", SCORES | {"team2_game1_score": "20"}
    )
    assert state.errors["set1"].startswith("Set 1: play to 21") and fingerprint(world["db"]) == before


@pytest.mark.parametrize("who", WHO)
async def test_only_the_operator_settles_a_score(world, who):
    db = world["db"]
    path = f"/dash/leagues/games/{world['gid']}/score"
    await call(world, "cap1", game_score.GameScoreState, path, "save", SCORES)
    await call(world, "cap2", game_score.GameScoreState, path, "dispute", {"note": "No"})
    before = fingerprint(db)
    state, _ev = await call(world, who, game_score.GameScoreState, path, "settle", SCORES)
    if who in OPERATORS:
        assert state.error == "" and fingerprint(db) != before
        assert rows(db, ScoreReport)[0].status == "settled"
    else:
        assert fingerprint(db) == before and state.error in ("Unauthorized", "No access")


@pytest.mark.parametrize("who", WHO)
async def test_the_operators_game_edit_settles_a_disputed_score(world, who):
    db = world["db"]
    score_path, home_path = f"/dash/leagues/games/{world['gid']}/score", f"/dash/leagues/{world['lid']}"
    await call(world, "cap1", game_score.GameScoreState, score_path, "save", SCORES)
    await call(world, "cap2", game_score.GameScoreState, score_path, "dispute", {"note": "We won set 2"})
    shown, _ev = await call(world, "svla", LeagueHomeState, home_path, "load")
    assert [d["note"] for d in shown.disputed] == ["We won set 2"]
    game = db.get(Game, world["gid"])
    form = {"team1": str(game.team1_id), "team2": str(game.team2_id), "start": "2027-01-01T19:00",
            "team1_game1_score": "15", "team2_game1_score": "21", "team1_game2_score": "19",
            "team2_game2_score": "21"}  # fmt: skip
    before = fingerprint(db)
    state, _ev = await call(world, who, game_edit.GameEditState, f"/dash/leagues/teams/schedule/{world['gid']}", "save", form)
    if who in OPERATORS:
        assert state.error == ""
        assert rows(db, ScoreReport)[0].status == "settled" and db.get(Game, world["gid"]).team2_game1_score == 21
        shown, _ev = await call(world, "svla", LeagueHomeState, home_path, "load")
        assert shown.disputed == []
        told = rows(db, OutboxMessage, OutboxMessage.kind == "score_settled")
        assert sorted(m.to_addr for m in told) == ["cap1@example.com", "cap2@example.com"]
        assert "15-21, 19-21" in told[0].body_text
        assert count(db, AuditEntry, AuditEntry.entity == "score_report", AuditEntry.action == "settle") == 1
    else:
        assert fingerprint(db) == before and state.error in ("Unauthorized", "No access")
        assert rows(db, ScoreReport)[0].status == "disputed"


@pytest.mark.parametrize("who", WHO)
async def test_only_the_operator_records_a_playoff_forfeit(world, who):
    db = world["db"]
    path = f"/dash/leagues/{world['lid']}/bracket"
    shown, _ev = await call(world, "svla", bracket.BracketState, path, "generate", True)
    final = db.exec(select(Game).where(Game.type == GameType.TOURNAMENT)).one()
    assert [o["value"] for o in shown.forfeit_options] == [f"{final.id}:{final.team1_id}", f"{final.id}:{final.team2_id}"]
    before = fingerprint(db)
    state, _ev = await call(world, who, bracket.BracketState, path, "forfeit", {"team": f"{final.id}:{final.team2_id}"})
    if who in OPERATORS:
        assert state.error == "" and state.errors == {}
        shown, _ev = await call(world, who, bracket.BracketState, path, "load")
        assert shown.champion == "Aces"  # the final may still be corrected: its choices stay
        assert shown.rounds[0][0]["sets"] == "Forfeit: Blocks did not show" and shown.rounds[0][0]["winner"] == "1"
        db.expire_all()
        assert db.get(Game, final.id).forfeit_team_id == final.team2_id
    else:
        assert fingerprint(db) == before and state.error in ("Unauthorized", "No access")
        assert db.get(Game, final.id).forfeit_team_id is None


async def test_a_forfeit_needs_a_game_and_team_chosen(world):
    db = world["db"]
    path = f"/dash/leagues/{world['lid']}/bracket"
    await call(world, "svla", bracket.BracketState, path, "generate", True)
    before = fingerprint(db)
    for sent in ({}, {"team": "x"}, {"team": ":"}):
        state, _ev = await call(world, "svla", bracket.BracketState, path, "forfeit", sent)
        assert state.errors == {"team": bracket.CHOOSE_FORFEIT}
    state, _ev = await call(world, "svla", bracket.BracketState, path, "forfeit", {"team": "999:1"})
    assert state.error != ""
    assert fingerprint(db) == before
