"""Courts: a league plays on one or more named courts; each week's games fill the courts, then the next time."""

from __future__ import annotations

import datetime as dt
from collections import Counter

import pytest

from tests.factories import add_teams, league_world, rows
from volley_app.models import Game, League
from volley_app.services.core.errors import Invalid
from volley_app.services.seasons import leagues, scheduling


@pytest.fixture
def world(db):
    return league_world(db)


def _with_courts(db, lg: League, names: list[str]) -> League:
    lg.court, lg.courts = names[0], ("\n".join(names) if len(names) > 1 else None)
    db.add(lg)
    db.commit()
    return lg


@pytest.mark.parametrize("courts", [1, 2, 3, 4])
@pytest.mark.parametrize("teams", range(2, 13))
def test_each_week_fills_the_courts_then_the_next_time_keeping_the_pairings(world, teams, courts):
    db, lg = world["db"], world["lg"]
    names = [f"Court {i + 1}" for i in range(courts)]
    _with_courts(db, lg, names)
    ids = add_teams(db, lg, teams)
    scheduling.generate(db, world["a"], lg.id)
    db.commit()
    games = sorted(rows(db, Game), key=lambda g: (g.round, g.match))
    expected = scheduling.pairings(ids, lg.number_of_weeks)
    for week_index, week in enumerate(expected):
        played = [g for g in games if g.round == week_index + 1]
        assert [(g.team1_id, g.team2_id) for g in played] == week  # the pairing rule, unchanged
        matches = [g for g in played if g.team2_id is not None]
        base = scheduling.slot(lg.start_at, week_index, 0, lg.time_increment)
        for i, g in enumerate(matches):
            assert g.court == names[i % courts]
            assert g.start_at == base + dt.timedelta(minutes=lg.time_increment * (i // courts))
        # no court holds two games at once, and every time but the last is full
        assert len({(g.start_at, g.court) for g in matches}) == len(matches)
        per_time = Counter(g.start_at for g in matches)
        full = sorted(per_time.items())
        assert all(n == min(courts, len(matches)) for _t, n in full[:-1])
        byes = [g for g in played if g.team2_id is None]
        assert all(g.court is None for g in byes)
        assert len(byes) == teams % 2


def test_one_court_is_the_schedule_of_old(world):
    db, lg = world["db"], world["lg"]
    add_teams(db, lg, 6)
    scheduling.generate(db, world["a"], lg.id)
    db.commit()
    first = sorted((g for g in rows(db, Game) if g.round == 1), key=lambda g: g.match)
    assert [g.start_at for g in first] == [lg.start_at + dt.timedelta(minutes=50 * i) for i in range(3)]
    assert {g.court for g in first} == {"Court 1"}


def test_two_courts_put_two_games_at_each_time(world):
    db, lg = world["db"], world["lg"]
    _with_courts(db, lg, ["North", "South"])
    add_teams(db, lg, 8)
    scheduling.generate(db, world["a"], lg.id)
    db.commit()
    first = sorted((g for g in rows(db, Game) if g.round == 1), key=lambda g: g.match)
    step = dt.timedelta(minutes=50)
    assert [(g.start_at - lg.start_at, g.court) for g in first] == [
        (dt.timedelta(0), "North"), (dt.timedelta(0), "South"), (step, "North"), (step, "South"),
    ]  # fmt: skip


def _form(**over) -> dict:
    base = {"court": "Court 1", "start": "2026-09-07T18:30", "number_of_weeks": "8", "time_increment": "45",
            "skill_level": "C", "format": "6s", "day": "Monday", "max_teams": "8", "cost": "300"}  # fmt: skip
    return base | over


def test_the_league_form_takes_more_courts_one_a_line(world):
    db, lg = world["db"], world["lg"]
    row = leagues.update_league(db, world["a"], lg.id, **_form(more_courts="Court 2\n\n court 1 \nCourt 3, Court 2"))
    db.commit()
    assert leagues.court_names(row) == ["Court 1", "Court 2", "Court 3"]
    assert row.court == "Court 1"
    shown = leagues.get_league(db, world["a"], lg.id)
    assert shown["first_court"] == "Court 1" and shown["more_courts"] == "Court 2\nCourt 3"
    # a form (or API call) without the field keeps the other courts; a new first court leads them
    row = leagues.update_league(db, world["a"], lg.id, **_form(court="Court 2"))
    assert leagues.court_names(row) == ["Court 2", "Court 3"]
    row = leagues.update_league(db, world["a"], lg.id, **_form(court="Court 2", more_courts=""))
    assert leagues.court_names(row) == ["Court 2"] and row.courts is None


def test_too_many_or_too_long_courts_are_refused_by_the_field(world):
    db, lg = world["db"], world["lg"]
    many = "\n".join(f"C{i}" for i in range(20))
    with pytest.raises(Invalid) as caught:
        leagues.update_league(db, world["a"], lg.id, **_form(more_courts=many))
    assert "more_courts" in caught.value.errors
    with pytest.raises(Invalid) as caught:
        leagues.update_league(db, world["a"], lg.id, **_form(more_courts="x" * 101))
    assert "more_courts" in caught.value.errors
    db.rollback()
    assert rows(db, League)[0].courts is None
