"""The score page's scoring rule follows the game's league: a best of three tells captains and the operator to
leave set 3 empty after a 2-0, a league that always plays 3 sets says so, and a playoff game is a best of three."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.factories import add_league, add_league_session, login_token, make_user
from tests.harness import call_handler
from volley_app.models import Game, GameType, Role, Team, utcnow
from volley_app.pages.dash.leagues import game_score
from volley_app.services.seasons import scoring

BEST_OF_THREE = "Set 3 only after a 1-1 split: leave it empty after a 2-0."
ALL_THREE = "This league plays all 3 sets."


@pytest.fixture
def world(db):
    """SVL A's league with Aces (cap1) v Blocks (cap2), begun two hours ago, and a playoff game of the same two."""
    a = make_user(db, "svla", Role.SVL)
    c1, c2 = make_user(db, "cap1"), make_user(db, "cap2")
    now = utcnow()
    sid = add_league_session(db, a, "A fall", now - dt.timedelta(days=30), now + dt.timedelta(days=30))
    lg = add_league(db, a, sid, start=now - dt.timedelta(days=14), weeks=2, schedule_generated=True)
    t1 = Team(league_id=lg.id, team_name="Aces", captain_id=c1.id)
    t2 = Team(league_id=lg.id, team_name="Blocks", captain_id=c2.id)
    db.add_all([t1, t2])
    db.commit()
    game = Game(league_id=lg.id, team1_id=t1.id, team2_id=t2.id, start_at=now - dt.timedelta(hours=2), round=1, match=1)
    playoff = Game(league_id=lg.id, team1_id=t1.id, team2_id=t2.id, start_at=now - dt.timedelta(hours=1), round=1,
                   match=1, type=GameType.TOURNAMENT)  # fmt: skip
    db.add_all([game, playoff])
    db.commit()
    return {"db": db, "lg": lg, "gid": game.id, "playoff": playoff.id}


def _plays_all_three(world) -> None:
    world["lg"].sets_to_play = scoring.ALL_THREE
    world["db"].add(world["lg"])
    world["db"].commit()


async def _rule_shown(world, who: str, game_id: int) -> tuple[str, bool]:
    """The rule the score page shows ``who``, and whether it offers them a score form at all."""
    token = login_token(world["db"], who)
    state, _ev = await call_handler(token, game_score.GameScoreState, f"/dash/leagues/games/{game_id}/score", "load")
    assert state.error == ""
    return state.game["sets_rule"], state.can_report or state.can_settle


@pytest.mark.parametrize("who", ["cap1", "svla"])
async def test_a_best_of_three_league_says_to_leave_set_3_empty_after_a_2_0(world, who):
    rule, form = await _rule_shown(world, who, world["gid"])
    assert form and rule.endswith(BEST_OF_THREE) and ALL_THREE not in rule


@pytest.mark.parametrize("who", ["cap1", "svla"])
async def test_a_league_that_always_plays_3_sets_says_so_instead(world, who):
    _plays_all_three(world)
    rule, form = await _rule_shown(world, who, world["gid"])
    assert form and rule.endswith(ALL_THREE) and "2-0" not in rule


async def test_a_playoff_game_is_a_best_of_three_whatever_the_league_plays(world):
    _plays_all_three(world)
    rule, _form = await _rule_shown(world, "svla", world["playoff"])
    assert rule.endswith(BEST_OF_THREE)


def test_the_score_page_draws_the_games_rule_not_a_fixed_one():
    page = str(game_score.game_score_page())
    assert '["sets_rule"]' in page
    assert "2-0" not in page and ALL_THREE not in page
