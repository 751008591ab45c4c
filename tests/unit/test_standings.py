"""Standings from set scores against hand-worked tables: ties broken by head-to-head, set % and point
ratio, forfeits, adjustments, and each ranking order a league may choose."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.factories import add_teams, league_world
from volley_app.models import Game, GameType, League, Ranking
from volley_app.services.core import timefmt
from volley_app.services.core.errors import Invalid
from volley_app.services.seasons import leagues, results


@pytest.fixture
def world(db):
    return league_world(db)


def _game(db, lg: League, t1: int, t2: int, *sets: tuple[int, int], forfeit: int | None = None,
          kind: GameType = GameType.LEAGUE) -> Game:  # fmt: skip
    scores = {}
    for i, (a, b) in enumerate(sets):
        scores[f"team1_game{i + 1}_score"], scores[f"team2_game{i + 1}_score"] = a, b
    g = Game(league_id=lg.id, team1_id=t1, team2_id=t2, start_at=lg.start_at + dt.timedelta(days=1), type=kind,
             round=1, match=1, forfeit_team_id=forfeit, **scores)  # fmt: skip
    db.add(g)
    db.commit()
    return g


def _table(world, ranking: Ranking | None = None) -> list[dict]:
    db, lg = world["db"], world["lg"]
    if ranking is not None:
        lg.ranking = ranking
        db.add(lg)
        db.commit()
    return results.standings(db, world["p"], lg.id)["teams"]


def _names(rows: list[dict], only: set[str] | None = None) -> list[str]:
    return [r["team_name"] for r in rows if only is None or r["team_name"] in only]


WIN = ((21, 10), (21, 10))


def test_a_three_way_tie_on_match_win_percentage_is_broken_by_head_to_head(world):
    db, lg = world["db"], world["lg"]
    a, b, c, d = add_teams(db, lg, 4, prefix="")  # named "1".."4"; renamed below for reading
    for team_id, name in zip((a, b, c, d), "ABCD", strict=True):
        row = db.get(results.Team, team_id)
        row.team_name = name
        db.add(row)
    db.commit()
    # Among A, B, C each pair met once: A beat B and C, B beat C. Against D: A lost, B won, C won 4 times.
    # A 2-1, B 2-1, C 4-2: all 66.7%. C has the best sets and points, but head-to-head comes first.
    _game(db, lg, a, b, (21, 19), (21, 19))
    _game(db, lg, b, c, (21, 19), (21, 19))
    _game(db, lg, a, c, (21, 19), (21, 19))
    _game(db, lg, d, a, (21, 0), (21, 0))
    _game(db, lg, b, d, (21, 19), (21, 19))
    for _ in range(4):
        _game(db, lg, c, d, *WIN)
    rows = _table(world)
    assert _names(rows) == ["A", "B", "C", "D"]
    assert [r["win_pct"] for r in rows[:3]] == ["66.7%"] * 3
    assert [r["tiebreak"] for r in rows] == ["head-to-head"] * 3 + [""]
    assert rows[2]["point_ratio"] > rows[0]["point_ratio"]  # C's points would have put it first


def _circle(world, *games) -> dict[str, int]:
    """Teams A, B, C, D; ``games`` as (team 1 letter, team 2 letter, sets...)."""
    db, lg = world["db"], world["lg"]
    ids = dict(zip("ABCD", add_teams(db, lg, 4, prefix="X"), strict=True))
    for letter, team_id in ids.items():
        row = db.get(results.Team, team_id)
        row.team_name = letter
        db.add(row)
    db.commit()
    for one, two, *sets in games:
        _game(db, lg, ids[one], ids[two], *sets)
    return ids


def test_a_circular_three_way_tie_is_broken_by_set_percentage(world):
    # A beat B, B beat C, C beat A (head-to-head 1-1 each: no help); all three beat D.
    _circle(
        world,
        ("A", "B", (21, 15), (21, 15)),
        ("B", "C", (21, 15), (15, 21), (15, 10)),
        ("C", "A", (21, 15), (15, 21), (15, 10)),
        ("A", "D", (21, 10), (21, 10)),
        ("B", "D", (21, 10), (21, 10)),
        ("C", "D", (21, 10), (10, 21), (15, 10)),
    )
    rows = _table(world)
    # Sets: A 5-2 (71.4%), B 4-3 (57.1%), C 5-4 (55.6%), D 1-6.
    assert [(r["team_name"], r["sets_won"], r["sets_lost"], r["set_pct"]) for r in rows] == [
        ("A", 5, 2, "71.4%"), ("B", 4, 3, "57.1%"), ("C", 5, 4, "55.6%"), ("D", 1, 6, "14.3%"),
    ]  # fmt: skip
    assert [r["tiebreak"] for r in rows] == ["set %", "set %", "set %", ""]


def test_a_tie_on_wins_and_sets_is_broken_by_point_ratio_and_the_table_adds_up(world):
    _circle(
        world,
        ("A", "B", (21, 19), (21, 19)),
        ("B", "C", (21, 10), (21, 10)),
        ("C", "A", (21, 15), (21, 15)),
        ("A", "D", (21, 10), (21, 10)),
        ("B", "D", (21, 10), (21, 10)),
        ("C", "D", (21, 10), (21, 10)),
    )
    rows = _table(world)
    # Points: A 114-100 (1.140), B 122-82 (1.488), C 104-92 (1.130), D 60-126.
    got = [(r["team_name"], r["played"], r["wins"], r["losses"], r["sets_won"], r["sets_lost"], r["points_for"],
            r["points_against"], r["point_ratio"]) for r in rows]  # fmt: skip
    assert got == [
        ("B", 3, 2, 1, 4, 2, 122, 82, "1.488"),
        ("A", 3, 2, 1, 4, 2, 114, 100, "1.140"),
        ("C", 3, 2, 1, 4, 2, 104, 92, "1.130"),
        ("D", 3, 0, 3, 0, 6, 60, 126, "0.476"),
    ]
    assert [r["tiebreak"] for r in rows] == ["point ratio"] * 3 + [""]


def test_a_split_tie_goes_through_the_order_again_among_the_still_tied(world):
    # A, B, C tied 2-1 with head-to-head circular; set % puts A first, then B and C are still tied
    # (same sets); among just those two, head-to-head (B beat C) decides before the point ratio.
    _circle(
        world,
        ("A", "B", (21, 19), (21, 19)),
        ("B", "C", (21, 19), (21, 19)),
        ("C", "A", (21, 19), (21, 19)),
        ("A", "D", (21, 0), (21, 0)),
        ("B", "D", (21, 19), (19, 21), (15, 13)),
        ("C", "D", (21, 0), (19, 21), (15, 0)),
    )
    rows = _table(world)
    assert _names(rows) == ["A", "B", "C", "D"]
    assert rows[2]["point_ratio"] > rows[1]["point_ratio"]  # C would be ahead of B on points
    assert [r["tiebreak"] for r in rows[:3]] == ["set %", "head-to-head", "head-to-head"]


def test_a_forfeit_counts_two_sets_to_nil_and_is_marked(world):
    ids = _circle(world, ("A", "B", (21, 15), (21, 15)))
    db, lg = world["db"], world["lg"]
    _game(db, lg, ids["C"], ids["D"], forfeit=ids["D"])
    rows = {r["team_name"]: r for r in _table(world)}
    assert (rows["C"]["wins"], rows["C"]["sets_won"], rows["C"]["points_for"], rows["C"]["forfeit_wins"]) == (
        1,
        2,
        42,
        1,
    )
    assert (rows["D"]["losses"], rows["D"]["sets_lost"], rows["D"]["points_against"], rows["D"]["forfeits"]) == (
        1,
        2,
        42,
        1,
    )
    assert rows["A"]["forfeits"] == rows["A"]["forfeit_wins"] == 0
    assert rows["C"]["match_points"] == 3 and rows["D"]["match_points"] == 0


def test_an_adjustment_moves_matches_not_sets_and_says_why(world):
    ids = _circle(world, ("A", "B", (21, 15), (21, 15)), ("C", "D", (21, 15), (21, 15)))
    db = world["db"]
    before = _table(world)
    assert _names(before) == ["A", "C", "B", "D"]  # A and C 1-0 (A on points: same, then name)
    team = db.get(results.Team, ids["D"])
    results.correct(db, world["a"], team, wins=2, losses=1, reason="Won two replayed games")
    db.commit()
    rows = _table(world)
    d = rows[2]
    assert (d["team_name"], d["wins"], d["losses"], d["played"], d["sets_won"], d["sets_lost"]) == ("D", 2, 1, 1, 0, 2)
    assert d["adjustment"] == "+2 W" and d["reasons"] == "Won two replayed games"
    assert d["win_pct"] == "66.7%"


@pytest.mark.parametrize("ranking", list(Ranking))
def test_a_team_with_no_result_yet_ranks_between_a_winner_and_a_loser(world, ranking):
    db, lg = world["db"], world["lg"]
    a, b, c, d = add_teams(db, lg, 4, prefix="")
    _game(db, lg, a, d, (21, 18), (21, 19))  # the loser D scored points; B and C have not played
    rows = _table(world, ranking)
    by_id = {r["id"]: r for r in rows}
    assert [r["id"] for r in rows][0] == a and [r["id"] for r in rows][-1] == d
    assert {r["id"] for r in rows[1:3]} == {b, c}
    assert by_id[b]["win_pct"] == "-" and by_id[b]["set_pct"] == "-" and by_id[d]["win_pct"] == "0.0%"


def test_playoff_games_do_not_change_the_standings(world):
    ids = _circle(world, ("A", "B", (21, 15), (21, 15)))
    db, lg = world["db"], world["lg"]
    _game(db, lg, ids["B"], ids["A"], *WIN, kind=GameType.TOURNAMENT)
    rows = {r["team_name"]: r for r in _table(world)}
    assert (rows["A"]["wins"], rows["B"]["wins"]) == (1, 0)


def _three_orders(world) -> None:
    """X 2-1 (sets 4-4, 4 match points), Y 1-1 (sets 3-2, 4 match points), Z 1-0 (sets 2-0, 3 points)."""
    db, lg = world["db"], world["lg"]
    x, y, z, f = add_teams(db, lg, 4, prefix="T")
    for team_id, name in zip((x, y, z, f), ("X", "Y", "Z", "Filler"), strict=True):
        row = db.get(results.Team, team_id)
        row.team_name = name
        db.add(row)
    db.commit()
    _game(db, lg, x, f, (21, 15), (15, 21), (15, 10))
    _game(db, lg, x, f, (21, 15), (15, 21), (15, 10))
    _game(db, lg, x, f, (15, 21), (15, 21))
    _game(db, lg, y, f, (21, 15), (21, 15))
    _game(db, lg, y, f, (21, 15), (15, 21), (10, 15))
    _game(db, lg, z, f, (21, 15), (21, 15))


@pytest.mark.parametrize(
    ("ranking", "order"),
    [
        (Ranking.STANDARD, ["Z", "X", "Y"]),  # match win %: 100, 66.7, 50
        (Ranking.FIVB, ["X", "Y", "Z"]),  # matches won 2, 1, 1; then match points Y 4, Z 3
        (Ranking.SET_PERCENT, ["Z", "Y", "X"]),  # sets 100%, 60%, 50%
    ],
)
def test_each_ranking_order(world, ranking, order):
    _three_orders(world)
    assert _names(_table(world, ranking), {"X", "Y", "Z"}) == order


def test_the_standings_say_how_they_are_calculated(world):
    db, lg = world["db"], world["lg"]
    for ranking, (label, _order) in results.RANKINGS.items():
        lg.ranking = ranking
        db.add(lg)
        db.commit()
        found = results.standings(db, world["p"], lg.id)
        assert found["ranking"] == label
        assert found["how"][0].lower().startswith("1. " + _order[0].split()[0])
        assert any("21-0" in line for line in found["how"])


def test_the_operator_chooses_the_order_on_the_league_form_and_it_is_checked(world):
    db, lg = world["db"], world["lg"]
    info = leagues.get_league(db, world["a"], lg.id)
    form = {"court": info["court"], "start": timefmt.input_value(lg.start_at), "number_of_weeks": "8",
            "time_increment": "50", "skill_level": "C", "format": "6s", "day": timefmt.local(lg.start_at).strftime("%A"), "max_teams": "8",
            "cost": "300"}  # fmt: skip
    with pytest.raises(Invalid) as err:
        leagues.update_league(db, world["a"], lg.id, **form, ranking="alphabetical")
    assert "ranking" in err.value.errors
    db.rollback()
    leagues.update_league(db, world["a"], lg.id, **form, ranking="fivb")
    db.commit()
    db.refresh(lg)
    assert lg.ranking == Ranking.FIVB
    leagues.update_league(db, world["a"], lg.id, **form)  # a form without the field keeps the order
    db.commit()
    db.refresh(lg)
    assert lg.ranking == Ranking.FIVB
