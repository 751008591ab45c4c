"""Operator services: sessions, leagues, schedule generation, scores and standings, teams, uploads."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlmodel import select

from tests.factories import actor_of, add_league_session, count, make_user, rows
from volley_app.models import (
    Day,
    Game,
    League,
    LeagueFormat,
    LeagueStage,
    Role,
    SkillLevel,
    Team,
    utcnow,
)
from volley_app.services import leagues, scheduling, uploads
from volley_app.services.errors import Forbidden, Invalid
from volley_app.settings import get_settings

T0 = dt.datetime(2026, 9, 7, 22, 30, tzinfo=dt.UTC)
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + b"\x00" * 40
PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


def add_league(db, svl, session_id, *, start=T0, weeks=8, increment=50, **kw) -> League:
    row = League(
        session_id=session_id, svl_id=svl.id, court="Court 1", start_at=start, number_of_weeks=weeks,
        time_increment=increment, skill_level=SkillLevel.C, format=LeagueFormat.SIXES, day=Day.MONDAY,
        max_teams=8, cost_cents=30000, **kw,
    )  # fmt: skip
    db.add(row)
    db.commit()
    return row


def add_teams(db, league, n, prefix="T", **kw) -> list[int]:
    ids = []
    for i in range(n):
        t = Team(league_id=league.id, team_name=f"{prefix}{i + 1}", **kw)
        db.add(t)
        db.commit()
        ids.append(t.id)
    return ids


@pytest.fixture
def world(db):
    a, b = make_user(db, "svla", Role.SVL), make_user(db, "svlb", Role.SVL)
    p, adm = make_user(db, "pat"), make_user(db, "root", Role.ADMIN)
    now = utcnow()
    sid = add_league_session(db, a, "A fall", now + dt.timedelta(days=3), now + dt.timedelta(days=80))
    lg = add_league(db, a, sid, start=now + dt.timedelta(days=4))
    return {"db": db, "a": actor_of(a), "b": actor_of(b), "p": actor_of(p), "admin": actor_of(adm), "sid": sid,
            "lg": lg, "svla": a}  # fmt: skip


# --- the generator against hand-worked schedules ---------------------------------------


def test_two_teams_meet_every_week():
    assert scheduling.pairings([1, 2], 3) == [[(1, 2)], [(1, 2)], [(1, 2)]]


def test_four_teams_play_each_other_once_in_three_weeks():
    assert scheduling.pairings([1, 2, 3, 4], 3) == [
        [(1, 4), (2, 3)],
        [(1, 3), (4, 2)],
        [(1, 2), (3, 4)],
    ]


def test_five_teams_have_a_bye_each_week_and_meet_once_in_five_weeks():
    weeks = scheduling.pairings([1, 2, 3, 4, 5], 5)
    assert weeks == [
        [(1, 5), (2, 4), (3, None)],
        [(2, 1), (3, 5), (4, None)],
        [(3, 2), (4, 1), (5, None)],
        [(4, 3), (5, 2), (1, None)],
        [(5, 4), (1, 3), (2, None)],
    ]
    pairs = [frozenset(p) for w in weeks for p in w if p[1] is not None]
    assert len(pairs) == len(set(pairs)) == 10


def test_six_teams_over_more_weeks_than_rounds_repeat_the_cycle():
    weeks = scheduling.pairings([1, 2, 3, 4, 5, 6], 8)
    assert weeks[0] == [(1, 6), (2, 5), (3, 4)]
    assert weeks[1] == [(1, 5), (6, 4), (2, 3)]
    first_cycle = [frozenset(p) for w in weeks[:5] for p in w]
    assert len(set(first_cycle)) == 15  # every pair once in 5 weeks
    assert weeks[5:] == weeks[:3]


def test_generate_saves_games_with_times_types_rounds_and_byes(world):
    db, lg = world["db"], world["lg"]
    ids = add_teams(db, lg, 5)
    add_teams(db, lg, 1, prefix="W", waitlist=True)  # waitlisted teams are left out
    made = scheduling.generate(db, world["a"], lg.id)
    db.commit()
    assert made == 8 * 3
    games = rows(db, Game)
    first = [g for g in games if g.round == 1]
    assert [(g.team1_id, g.team2_id, g.match) for g in first] == [(ids[0], ids[4], 1), (ids[1], ids[3], 2), (ids[2], None, 3)]
    assert [g.start_at for g in first] == [lg.start_at + dt.timedelta(minutes=50 * i) for i in range(3)]
    week2 = [g for g in games if g.round == 2]
    assert week2[0].start_at == lg.start_at + dt.timedelta(days=7)
    assert all(g.type.value == "League" for g in games)
    saved = rows(db, League)[0]
    assert saved.schedule_generated and saved.active
    with pytest.raises(Invalid, match="already been generated"):
        scheduling.generate(db, world["a"], lg.id)


def test_weeks_keep_the_venue_wall_clock_across_dst():
    start = dt.datetime(2026, 10, 26, 22, 30, tzinfo=dt.UTC)  # Monday 6:30 PM in New York (EDT)
    after_dst = scheduling.slot(start, 1, 0, 50)  # Nov 2 is EST
    assert after_dst == dt.datetime(2026, 11, 2, 23, 30, tzinfo=dt.UTC)
    assert scheduling.slot(start, 1, 2, 50) == after_dst + dt.timedelta(minutes=100)


def test_week_numbers_count_venue_days_from_the_start():
    start = dt.datetime(2026, 10, 26, 22, 30, tzinfo=dt.UTC)  # Mon 6:30 PM EDT
    assert scheduling.week_of(start, start) == 1
    assert scheduling.week_of(start, start + dt.timedelta(minutes=100)) == 1
    assert scheduling.week_of(start, scheduling.slot(start, 1, 0, 50)) == 2  # across the DST change
    assert scheduling.week_of(start, scheduling.slot(start, 7, 2, 50)) == 8


@pytest.mark.parametrize("n", [0, 1])
def test_generate_with_fewer_than_two_teams_says_so(world, n):
    db, lg = world["db"], world["lg"]
    add_teams(db, lg, n)
    with pytest.raises(Invalid, match="at least 2 teams"):
        scheduling.generate(db, world["a"], lg.id)
    db.rollback()
    assert count(db, Game) == 0 and not rows(db, League)[0].schedule_generated


@pytest.mark.parametrize("who", ["b", "p"])
def test_generate_by_another_svl_or_a_player_is_refused(world, who):
    db, lg = world["db"], world["lg"]
    add_teams(db, lg, 4)
    with pytest.raises(Forbidden):
        scheduling.generate(db, world[who], lg.id)
    db.rollback()
    assert count(db, Game) == 0


# --- status and stage at their exact boundaries ---------------------------------------------


def test_league_stage_boundaries():
    lg = League(start_at=T0, stage=LeagueStage.REGISTRATION)
    assert leagues.stage_at(lg, T0) == LeagueStage.REGISTRATION
    assert leagues.stage_at(lg, T0 + dt.timedelta(microseconds=1)) == LeagueStage.ACTIVE
    lg.stage = LeagueStage.INACTIVE
    assert leagues.stage_at(lg, T0 + dt.timedelta(days=1)) == LeagueStage.INACTIVE


def test_listing_leagues_saves_the_stage(world):
    db, lg = world["db"], world["lg"]
    later = lg.start_at + dt.timedelta(seconds=1)
    listed = leagues.list_leagues(db, world["a"], now=later)
    db.commit()
    assert [x["stage"] for x in listed] == ["Active"]
    assert rows(db, League)[0].stage == LeagueStage.ACTIVE


# --- leagues --------------------------------------------------------------------------

LEAGUE_FIELDS = {
    "court": "Court 4", "start": "2027-03-01T18:30", "number_of_weeks": "8", "time_increment": "45",
    "skill_level": "C", "format": "6s", "day": "Monday", "max_teams": "8", "cost": "299.50",
}  # fmt: skip


def test_league_created_with_cost_in_cents_and_a_display_name(world):
    db = world["db"]
    row = leagues.create_league(db, world["a"], session_id=world["sid"], **LEAGUE_FIELDS, cash="true")
    db.commit()
    assert row.cost_cents == 29950 and row.stage == LeagueStage.REGISTRATION and row.active
    assert row.cash is False  # cash-only is for the one SVL in settings
    assert leagues.display_name(row) == "Monday C 6s"


def test_cash_only_for_the_svl_named_in_settings(world, monkeypatch):
    monkeypatch.setenv("CASH_ONLY_SVL", "svla")
    get_settings.cache_clear()
    try:
        row = leagues.create_league(world["db"], world["a"], session_id=world["sid"], **LEAGUE_FIELDS, cash="true")
        assert row.cash is True
    finally:
        monkeypatch.delenv("CASH_ONLY_SVL")
        get_settings.cache_clear()


@pytest.mark.parametrize("missing", sorted(LEAGUE_FIELDS))
def test_each_required_league_field(world, missing):
    with pytest.raises(Invalid):
        leagues.create_league(world["db"], world["a"], session_id=world["sid"], **(LEAGUE_FIELDS | {missing: ""}))


@pytest.mark.parametrize("who", ["b", "p"])
def test_others_cannot_add_edit_or_delete_leagues(world, who):
    db, lg = world["db"], world["lg"]
    with pytest.raises(Forbidden):
        leagues.create_league(db, world[who], session_id=world["sid"], **LEAGUE_FIELDS)
    with pytest.raises(Forbidden):
        leagues.update_league(db, world[who], lg.id, **LEAGUE_FIELDS)
    with pytest.raises(Forbidden):
        leagues.delete_league(db, world[who], lg.id)
    db.rollback()
    assert [x.court for x in rows(db, League)] == ["Court 1"]


def test_svls_see_only_leagues_of_their_current_session_players_all_active(world):
    db = world["db"]
    add_league(db, world["svla"], world["sid"], active=False)
    assert len(leagues.list_leagues(db, world["a"])) == 1
    assert leagues.list_leagues(db, world["b"]) == []
    assert len(leagues.list_leagues(db, world["p"])) == 1
    assert leagues.get_league(db, world["p"], world["lg"].id)["can_manage"] is False
    assert leagues.get_league(db, world["a"], world["lg"].id)["can_manage"] is True


# --- uploads --------------------------------------------------------------------------


@pytest.fixture
def upload_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("UPLOAD_DIR", str(tmp_path))
    get_settings.cache_clear()
    yield tmp_path
    get_settings.cache_clear()


@pytest.mark.parametrize(("data", "ctype"), [(PNG, "image/png"), (PDF, "application/pdf")])
def test_real_png_and_pdf_are_accepted(world, upload_dir, data, ctype):
    db = world["db"]
    leagues.upload_bracket(db, world["a"], world["lg"].id, data=data)
    db.commit()
    saved = rows(db, League)[0]
    assert saved.tournament_content_type == ctype
    assert (upload_dir / saved.tournament_file).read_bytes() == data
    assert leagues.bracket_data_url(db, world["p"], saved.id).startswith(f"data:{ctype};base64,")


def test_html_renamed_png_is_rejected(world, upload_dir):
    with pytest.raises(Invalid, match="PNG, PDF, DOC or JPEG"):
        leagues.upload_bracket(world["db"], world["a"], world["lg"].id, data=b"<!doctype html><script>x</script>")
    assert list(upload_dir.iterdir()) == []


def test_oversized_file_is_rejected_with_nothing_written(world, upload_dir):
    big = PNG + b"\x00" * get_settings().upload_max_bytes
    with pytest.raises(Invalid, match="too large"):
        leagues.upload_bracket(world["db"], world["a"], world["lg"].id, data=big)
    assert list(upload_dir.iterdir()) == []
    assert rows(world["db"], League)[0].tournament_file is None


def test_another_svl_cannot_upload(world, upload_dir):
    with pytest.raises(Forbidden):
        leagues.upload_bracket(world["db"], world["b"], world["lg"].id, data=PNG)
    assert list(upload_dir.iterdir()) == []


def test_sniff_knows_jpeg_and_doc():
    assert uploads.sniff(b"\xff\xd8\xff\xe0rest")[0] == "image/jpeg"
    assert uploads.sniff(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1rest")[0] == "application/msword"


# --- scores and standings ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "i"), [(21, 19, 0), (21, 0, 1), (22, 20, 0), (23, 21, 0), (23, 22, 1), (15, 13, 2), (17, 16, 2)]
)
def test_final_set_scores_within_the_caps(a, b, i):
    scheduling.check_set(a, b, i)
    scheduling.check_set(b, a, i)


@pytest.mark.parametrize(("a", "b", "i"), [(21, 20, 0), (24, 22, 0), (20, 18, 0), (16, 13, 2), (18, 16, 2), (15, 14, 2)])
def test_unfinished_or_capped_out_scores_are_refused(a, b, i):
    with pytest.raises(Invalid):
        scheduling.check_set(a, b, i)


def _scores(s1, s2, s3=("", "")):
    return {"team1_game1_score": s1[0], "team2_game1_score": s1[1], "team1_game2_score": s2[0],
            "team2_game2_score": s2[1], "team1_game3_score": s3[0], "team2_game3_score": s3[1]}  # fmt: skip


def test_standings_follow_entered_scores_and_corrections(world):
    db, lg = world["db"], world["lg"]
    ids = add_teams(db, lg, 4)
    scheduling.generate(db, world["a"], lg.id)
    db.commit()
    g = db.exec(select(Game).where(Game.round == 1, Game.match == 1)).one()  # T1 v T4
    start = "2027-01-01T19:00"
    scheduling.update_game(db, world["a"], g.id, team1=g.team1_id, team2=g.team2_id, start=start,
                           **_scores((21, 15), (19, 21), (15, 10)))  # fmt: skip
    db.commit()
    table = scheduling.standings(db, world["p"], lg.id)["teams"]
    assert (table[0]["team_name"], table[0]["wins"], table[0]["losses"]) == ("T1", 1, 0)
    assert (table[-1]["team_name"], table[-1]["losses"]) == ("T4", 1)
    # A correction moves the win over instead of counting twice.
    scheduling.update_game(db, world["admin"], g.id, team1=g.team1_id, team2=g.team2_id, start=start,
                           **_scores((15, 21), (19, 21)))  # fmt: skip
    db.commit()
    rec = {t.team_name: (t.wins, t.losses) for t in rows(db, Team)}
    assert rec["T1"] == (0, 1) and rec["T4"] == (1, 0)
    assert ids


def test_score_rules_on_edit(world):
    db, lg = world["db"], world["lg"]
    add_teams(db, lg, 2)
    scheduling.generate(db, world["a"], lg.id)
    db.commit()
    g = rows(db, Game)[0]
    kw = {"team1": g.team1_id, "team2": g.team2_id, "start": "2027-01-01T19:00"}
    for bad in (_scores(("x", 3), ("", "")), _scores((21, 10), ("", 5)), _scores((21, 10), (21, 5), (15, 3)),
                _scores((25, 10), ("", ""))):  # fmt: skip
        with pytest.raises(Invalid):
            scheduling.update_game(db, world["a"], g.id, **kw, **bad)
    with pytest.raises(Invalid, match="Team 1 is required"):
        scheduling.update_game(db, world["a"], g.id, **(kw | {"team1": ""}), **_scores(("", ""), ("", "")))
    with pytest.raises(Forbidden):
        scheduling.update_game(db, world["b"], g.id, **kw, **_scores((21, 10), (21, 5)))
    db.rollback()
    assert rows(db, Game)[0].team1_game1_score is None
