"""Playoff brackets generated from the standings: seeding order, byes, scheduling in the tournament week,
advancement, corrections, and who may do what."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlmodel import select

from tests.factories import add_teams, count, league_world
from volley_app.models import AuditEntry, Game, GameType, PlayoffSeed, utcnow
from volley_app.services.core import timefmt
from volley_app.services.core.errors import Forbidden, Invalid, Unauthorized
from volley_app.services.seasons import games, playoffs, results, schedule, scheduling, scoring
from volley_app.services.teams import teams

T1_WINS = {"team1_game1_score": 21, "team2_game1_score": 15, "team1_game2_score": 21, "team2_game2_score": 17}
T2_WINS = {"team1_game1_score": 15, "team2_game1_score": 21, "team1_game2_score": 21, "team2_game2_score": 19,
           "team1_game3_score": 13, "team2_game3_score": 15}  # fmt: skip


@pytest.fixture
def world(db):
    """The league world with its season over: the tournament week began a day ago, so results can be entered."""
    found = league_world(db)
    lg = found["lg"]
    lg.start_at = utcnow() - dt.timedelta(days=7 * lg.number_of_weeks + 1)
    db.add(lg)
    db.commit()
    return found


def _bracket_games(db, league_id: int) -> list[Game]:
    db.expire_all()
    return list(
        db.exec(
            select(Game)
            .where(Game.league_id == league_id, Game.type == GameType.TOURNAMENT)
            .order_by(Game.round, Game.match)
        ).all()
    )


def _seeds(db, league_id: int) -> dict[int, int]:
    return {s.team_id: s.seed for s in db.exec(select(PlayoffSeed).where(PlayoffSeed.league_id == league_id)).all()}


def test_the_standard_seeding_order_keeps_the_top_two_apart_until_the_final():
    assert playoffs.seeding_order(2) == [1, 2]
    assert playoffs.seeding_order(4) == [1, 4, 2, 3]
    assert playoffs.seeding_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    for size in (4, 8, 16):
        order = playoffs.seeding_order(size)
        assert sorted(order) == list(range(1, size + 1))
        half = size // 2
        assert 1 in order[:half] and 2 in order[half:]
        assert all(order[i] + order[i + 1] == size + 1 for i in range(0, size, 2))


@pytest.mark.parametrize("n", range(2, 17))
def test_a_bracket_for_n_teams_gives_byes_to_the_top_seeds_and_plays_through_to_a_champion(world, n):
    db, lg = world["db"], world["lg"]
    add_teams(db, lg, n)
    standings = [r["id"] for r in results.table(db, lg)]
    made = playoffs.generate(db, world["a"], lg.id)
    db.commit()
    assert made == n - 1
    seeds = _seeds(db, lg.id)
    assert [t for t, _s in sorted(seeds.items(), key=lambda x: x[1])] == standings  # seeded by the standings
    seed_of = seeds.get
    rounds = playoffs.rounds_for(n)
    size = 2**rounds
    games = _bracket_games(db, lg.id)
    first = [g for g in games if g.round == 1]
    assert len(first) == n - size // 2
    for g in first:
        assert seed_of(g.team1_id) + seed_of(g.team2_id) == size + 1  # 1 v N, 2 v N-1, ...
    in_round_one = {t for g in first for t in (g.team1_id, g.team2_id)}
    byes = sorted(seed_of(t) for t in seeds if t not in in_round_one)
    assert byes == list(range(1, size - n + 1))  # the top seeds, as many as the places left over
    # The tournament week (the week after the regular weeks), one increment apart, round after round.
    week = timefmt.local(lg.start_at) + dt.timedelta(days=7 * lg.number_of_weeks)
    assert [g.start_at for g in games] == [
        (week + dt.timedelta(minutes=lg.time_increment * i)).astimezone(dt.UTC) for i in range(len(games))
    ]
    # The better seed wins every game: seed 1 is the champion, and 1 meets 2 only in the final.
    for round_no in range(1, rounds + 1):
        for g in [g for g in _bracket_games(db, lg.id) if g.round == round_no]:
            assert g.team1_id is not None and g.team2_id is not None
            better_first = seed_of(g.team1_id) < seed_of(g.team2_id)
            playoffs.record_result(db, world["a"], g.id, **(T1_WINS if better_first else T2_WINS))
            db.commit()
            if round_no < rounds:
                assert {seed_of(g.team1_id), seed_of(g.team2_id)} != {1, 2}
    found = playoffs.bracket(db, world["p"], lg.id)
    final = _bracket_games(db, lg.id)[-1]
    assert {seed_of(final.team1_id), seed_of(final.team2_id)} == {1, 2}
    assert scoring.result(final) in (1, 2)
    assert found["champion"] == db.get(results.Team, standings[0]).team_name
    assert [r["name"] for r in found["rounds"]][-1] == "Final"


def test_the_bracket_follows_the_standings_ranking(world):
    db, lg = world["db"], world["lg"]
    a, b, c = add_teams(db, lg, 3)
    db.add(Game(league_id=lg.id, team1_id=c, team2_id=a, start_at=lg.start_at, type=GameType.LEAGUE, round=1,
                match=1, **T1_WINS))  # fmt: skip
    db.add(Game(league_id=lg.id, team1_id=a, team2_id=b, start_at=lg.start_at, type=GameType.LEAGUE, round=2,
                match=1, **T2_WINS))  # fmt: skip
    db.commit()
    playoffs.generate(db, world["a"], lg.id)
    db.commit()
    seeds = _seeds(db, lg.id)
    assert seeds[c] == 1 and seeds[a] == 3  # c and b won, c 2-0 in sets, b 2-1
    games = _bracket_games(db, lg.id)
    assert (games[0].team1_id, games[0].team2_id) == (b, a)  # 2 v 3 in round 1
    assert (games[1].team1_id, games[1].team2_id) == (c, None)  # seed 1 waits in the final


def test_a_correction_re_flows_until_the_next_round_has_a_score_then_is_refused(world):
    db, lg = world["db"], world["lg"]
    t = add_teams(db, lg, 4)
    playoffs.generate(db, world["a"], lg.id)
    db.commit()
    semi1, semi2, final = _bracket_games(db, lg.id)
    playoffs.record_result(db, world["a"], semi1.id, **T1_WINS)
    db.commit()
    db.refresh(final)
    assert final.team1_id == semi1.team1_id
    playoffs.record_result(db, world["a"], semi1.id, **T2_WINS)  # corrected: the other team moves on
    db.commit()
    db.refresh(final)
    assert final.team1_id == semi1.team2_id
    playoffs.record_result(db, world["a"], semi2.id, **T1_WINS)
    playoffs.record_result(db, world["a"], final.id, **T1_WINS)
    db.commit()
    with pytest.raises(Invalid, match="next round"):
        playoffs.record_result(db, world["a"], semi1.id, **T1_WINS)
    db.rollback()
    db.refresh(final)
    assert final.team1_id == semi1.team2_id
    assert len(t) == 4
    entries = db.exec(select(AuditEntry).where(AuditEntry.league_id == lg.id)).all()
    assert sum("Playoff result" in e.summary for e in entries) == 4
    assert sum("bracket generated" in e.summary for e in entries) == 1


def test_scores_follow_the_rules_and_a_game_needs_a_winner_and_both_teams(world):
    db, lg = world["db"], world["lg"]
    add_teams(db, lg, 3)
    playoffs.generate(db, world["a"], lg.id)
    db.commit()
    semi, final = _bracket_games(db, lg.id)
    with pytest.raises(Invalid):
        playoffs.record_result(db, world["a"], semi.id, team1_game1_score=21, team2_game1_score=20)  # not won by two
    with pytest.raises(Invalid, match="two sets"):
        playoffs.record_result(db, world["a"], semi.id, team1_game1_score=21, team2_game1_score=15)
    with pytest.raises(Invalid, match="not known"):
        playoffs.record_result(db, world["a"], final.id, **T1_WINS)
    db.rollback()
    assert not any(scoring.played(g) for g in _bracket_games(db, lg.id))


def test_the_game_edit_form_moves_a_playoff_game_but_sends_its_result_to_the_bracket(world):
    db, lg = world["db"], world["lg"]
    add_teams(db, lg, 4)
    playoffs.generate(db, world["a"], lg.id)
    db.commit()
    semi = _bracket_games(db, lg.id)[0]
    when = timefmt.input_value(semi.start_at + dt.timedelta(hours=3))  # after the final: the court is free
    with pytest.raises(Invalid, match="bracket page"):
        games.update_game(db, world["a"], semi.id, team1=semi.team1_id, team2=semi.team2_id,
                               start=timefmt.input_value(semi.start_at), **T1_WINS)  # fmt: skip
    with pytest.raises(Invalid, match="bracket page"):
        games.update_game(db, world["a"], semi.id, team1=semi.team2_id, team2=semi.team1_id,
                               start=timefmt.input_value(semi.start_at))  # fmt: skip
    db.rollback()
    assert not any(scoring.played(g) for g in _bracket_games(db, lg.id))
    games.update_game(db, world["a"], semi.id, team1=semi.team1_id, team2=semi.team2_id, start=when)
    db.commit()
    assert timefmt.input_value(_bracket_games(db, lg.id)[0].start_at) == when


def test_only_the_operator_generates_and_enters_results_and_once(world):
    db, lg = world["db"], world["lg"]
    add_teams(db, lg, 4)
    for actor, error in ((world["p"], Forbidden), (world["b"], Forbidden), (None, Unauthorized)):
        with pytest.raises(error):
            playoffs.generate(db, actor, lg.id)
        db.rollback()
    assert count(db, Game) == 0
    playoffs.generate(db, world["admin"], lg.id)
    db.commit()
    with pytest.raises(Invalid, match="already"):
        playoffs.generate(db, world["a"], lg.id)
    db.rollback()
    semi = _bracket_games(db, lg.id)[0]
    for actor, error in ((world["p"], Forbidden), (world["b"], Forbidden), (None, Unauthorized)):
        with pytest.raises(error):
            playoffs.record_result(db, actor, semi.id, **T1_WINS)
        db.rollback()
    assert not any(scoring.played(g) for g in _bracket_games(db, lg.id))
    assert playoffs.bracket(db, world["p"], lg.id)["can_manage"] is False
    assert playoffs.bracket(db, world["a"], lg.id)["can_manage"] is True


def test_a_league_game_is_not_a_playoff_game_and_regenerating_weeks_keeps_the_bracket(world):
    db, lg = world["db"], world["lg"]
    add_teams(db, lg, 4)
    scheduling.generate(db, world["a"], lg.id)
    playoffs.generate(db, world["a"], lg.id, early=True)
    db.commit()
    league_game = db.exec(select(Game).where(Game.type == GameType.LEAGUE)).first()
    with pytest.raises(Invalid, match="not a playoff"):
        playoffs.record_result(db, world["a"], league_game.id, **T1_WINS)
    db.rollback()
    scheduling.regenerate_unplayed(db, lg)
    db.commit()
    assert len(_bracket_games(db, lg.id)) == 3
    week = schedule.schedule(db, world["p"], lg.id)["weeks"][-1]
    assert week["week"] == lg.number_of_weeks + 1
    assert [g["team2"] for g in week["games"]][-1] == "TBD"


def test_too_few_teams(world):
    db, lg = world["db"], world["lg"]
    add_teams(db, lg, 1)
    with pytest.raises(Invalid, match="at least 2"):
        playoffs.generate(db, world["a"], lg.id)


def test_a_rounds_games_fill_the_leagues_courts_then_the_next_time(world):
    db, lg = world["db"], world["lg"]
    lg.court, lg.courts = "North", "North\nSouth"
    db.add(lg)
    add_teams(db, lg, 8)
    db.commit()
    playoffs.generate(db, world["a"], lg.id)
    db.commit()
    week = timefmt.local(lg.start_at) + dt.timedelta(days=7 * lg.number_of_weeks)

    def at(step: int) -> dt.datetime:
        return (week + dt.timedelta(minutes=lg.time_increment * step)).astimezone(dt.UTC)

    placed = [(g.round, g.match, g.court, g.start_at) for g in _bracket_games(db, lg.id)]
    assert placed == [
        (1, 1, "North", at(0)), (1, 2, "South", at(0)), (1, 3, "North", at(1)), (1, 4, "South", at(1)),
        (2, 1, "North", at(2)), (2, 2, "South", at(2)),
        (3, 1, "North", at(3)),
    ]  # fmt: skip
    shown = playoffs.bracket(db, world["p"], lg.id)["rounds"][0]["games"]
    assert [g["court"] for g in shown] == ["North", "South", "North", "South"]


def _state(db, league_id: int) -> list[tuple]:
    return [(g.id, g.team1_id, g.team2_id, g.forfeit_team_id, g.team1_game1_score) for g in _bracket_games(db, league_id)]


def test_a_forfeit_moves_the_other_team_on_and_is_corrected_like_a_score(world):
    db, lg = world["db"], world["lg"]
    add_teams(db, lg, 4)
    playoffs.generate(db, world["a"], lg.id)
    db.commit()
    semi1, semi2, final = _bracket_games(db, lg.id)
    playoffs.record_forfeit(db, world["a"], semi1.id, team=str(semi1.team1_id))  # the first team did not show
    db.commit()
    db.refresh(final)
    db.refresh(semi1)
    assert final.team1_id == semi1.team2_id and scoring.result(semi1) == 2
    assert [g["forfeit"] for g in playoffs.bracket(db, world["p"], lg.id)["rounds"][0]["games"]][0] != ""
    playoffs.record_result(db, world["a"], semi1.id, **T1_WINS)  # played after all: the score replaces the forfeit
    db.commit()
    db.refresh(final)
    db.refresh(semi1)
    assert semi1.forfeit_team_id is None and final.team1_id == semi1.team1_id
    playoffs.record_forfeit(db, world["admin"], semi2.id, team=semi2.team2_id)
    playoffs.record_result(db, world["a"], final.id, **T2_WINS)
    db.commit()
    assert playoffs.bracket(db, world["p"], lg.id)["champion"] == db.get(results.Team, semi2.team1_id).team_name
    with pytest.raises(Invalid, match="next round"):  # the final has a score
        playoffs.record_forfeit(db, world["a"], semi2.id, team=semi2.team1_id)
    db.rollback()
    for bad in ("", "x", str(final.id + 99)):
        with pytest.raises(Invalid, match="one of the two teams"):
            playoffs.record_forfeit(db, world["a"], final.id, team=bad)
        db.rollback()
    entries = db.exec(select(AuditEntry).where(AuditEntry.league_id == lg.id)).all()
    assert sum("forfeited" in e.summary for e in entries) == 2


def test_only_the_operator_records_a_playoff_forfeit(world):
    db, lg = world["db"], world["lg"]
    add_teams(db, lg, 4)
    scheduling.generate(db, world["a"], lg.id)
    playoffs.generate(db, world["a"], lg.id, early=True)
    db.commit()
    semi = _bracket_games(db, lg.id)[0]
    before, audits = _state(db, lg.id), count(db, AuditEntry)
    for actor, error in ((world["p"], Forbidden), (world["b"], Forbidden), (None, Unauthorized)):
        with pytest.raises(error):
            playoffs.record_forfeit(db, actor, semi.id, team=semi.team1_id)
        db.rollback()
    assert _state(db, lg.id) == before and count(db, AuditEntry) == audits
    league_game = db.exec(select(Game).where(Game.type == GameType.LEAGUE, Game.team2_id.is_not(None))).first()
    with pytest.raises(Invalid, match="not a playoff"):
        playoffs.record_forfeit(db, world["a"], league_game.id, team=league_game.team1_id)
    db.rollback()
    final = _bracket_games(db, lg.id)[-1]
    with pytest.raises(Invalid, match="not known"):
        playoffs.record_forfeit(db, world["a"], final.id, team=semi.team1_id)
    db.rollback()
    assert _state(db, lg.id) == before


def test_a_team_withdrawn_in_the_playoffs_forfeits_and_its_opponent_moves_on(world):
    db, lg = world["db"], world["lg"]
    add_teams(db, lg, 4)
    playoffs.generate(db, world["a"], lg.id)
    db.commit()
    semi1, semi2, final = _bracket_games(db, lg.id)
    gone = semi1.team2_id
    before = _state(db, lg.id)
    for actor, error in ((world["p"], Forbidden), (world["b"], Forbidden), (None, Unauthorized)):
        with pytest.raises(error):
            teams.withdraw_team(db, actor, gone, remaining="forfeit")
        db.rollback()
    assert _state(db, lg.id) == before and db.get(results.Team, gone).withdrawn_at is None
    teams.withdraw_team(db, world["a"], gone, remaining="remove")  # a bracket game is never removed
    db.commit()
    semi1, semi2, final = _bracket_games(db, lg.id)
    assert (semi1.forfeit_team_id, final.team1_id) == (gone, semi1.team1_id)
    withdrawn = db.exec(select(AuditEntry).where(AuditEntry.action == "withdraw")).one()
    assert withdrawn.summary.endswith("0 remaining games removed; its playoff game forfeited")
    playoffs.record_result(db, world["a"], semi2.id, **T1_WINS)
    db.commit()
    assert _bracket_games(db, lg.id)[-1].team2_id == semi2.team1_id


def test_a_team_withdrawn_while_waiting_for_its_opponent_lets_the_opponent_through_once_decided(world):
    db, lg = world["db"], world["lg"]
    add_teams(db, lg, 3)
    playoffs.generate(db, world["a"], lg.id)
    db.commit()
    semi, final = _bracket_games(db, lg.id)  # the top seed waits in the final
    top = final.team1_id
    teams.withdraw_team(db, world["a"], top, remaining="forfeit")
    db.commit()
    found = playoffs.bracket(db, world["p"], lg.id)
    assert found["champion"] == "" and found["rounds"][1]["games"][0]["winner"] == 0
    assert found["rounds"][0]["games"][0]["can_enter"] is False  # seen by a player: nothing to enter
    assert playoffs.bracket(db, world["a"], lg.id)["rounds"][0]["games"][0]["can_enter"] is True
    playoffs.record_result(db, world["a"], semi.id, **T2_WINS)
    db.commit()
    semi, final = _bracket_games(db, lg.id)
    assert (final.team1_id, final.team2_id, final.forfeit_team_id) == (top, semi.team2_id, top)
    assert playoffs.bracket(db, world["p"], lg.id)["champion"] == db.get(results.Team, semi.team2_id).team_name
    with pytest.raises(Invalid, match="next round"):  # decided in the final: corrections follow the usual rule
        playoffs.record_result(db, world["a"], semi.id, **T1_WINS)
