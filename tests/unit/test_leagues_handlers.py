"""League, schedule and game handlers × {anonymous, player, SVL A, SVL B, admin}.

Any browser can call any handler with any arguments: the wrong caller must be refused and the
database (and the upload folder) must be exactly as before.
"""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

import pytest
import reflex as rx
from sqlmodel import select

from tests.factories import add_league_session, count, login_token, make_user, rows
from tests.harness import call_handler, redirect_target
from volley_app.models import (
    AuditEntry,
    Day,
    Game,
    League,
    LeagueFormat,
    LeagueSession,
    OutboxMessage,
    Role,
    SkillLevel,
    StandingAdjustment,
    StoredFile,
    Team,
    utcnow,
)
from volley_app.pages.dash.leagues import game_edit, new, player_leagues, test_schedule
from volley_app.pages.dash.leagues import list as league_list
from volley_app.pages.dash.leagues.home import state as home
from volley_app.services.core.errors import Forbidden
from volley_app.services.operations import exports, league_home
from volley_app.services.seasons import results, score_reports
from volley_app.services.teams import registration
from volley_app.settings import get_settings

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64
WHO = ["anon", "player", "svla", "svlb", "admin"]
ALLOWED = {"svla", "admin"}
LEAGUE_FORM = {"court": "Court 9", "start": "2027-03-01T18:30", "number_of_weeks": "8", "time_increment": "45",
               "skill_level": "C", "format": "6s", "day": "Monday", "max_teams": "8", "cost": "250", "active": "true",
               "offer_hold_hours": "48"}  # fmt: skip


def FakeUpload(data: bytes) -> rx.UploadFile:  # noqa: N802 - reads like the class it stands for
    """A file as the upload endpoint hands it to the handler."""
    return rx.UploadFile(file=io.BytesIO(data), path=Path("bracket.png"), size=len(data))


@pytest.fixture
def world(db, tmp_path, monkeypatch):
    monkeypatch.setenv("UPLOAD_DIR", str(tmp_path))
    get_settings.cache_clear()
    a = make_user(db, "svla", Role.SVL)
    make_user(db, "svlb", Role.SVL)
    pat = make_user(db, "player")
    make_user(db, "admin", Role.ADMIN)
    now = utcnow()
    sid = add_league_session(db, a, "A fall", now + dt.timedelta(days=3), now + dt.timedelta(days=80))
    lg = League(session_id=sid, svl_id=a.id, court="Court 1", start_at=now + dt.timedelta(days=4), number_of_weeks=3,
                time_increment=50, skill_level=SkillLevel.C, format=LeagueFormat.SIXES, day=Day.MONDAY, max_teams=8,
                cost_cents=30000)  # fmt: skip
    db.add(lg)
    db.commit()
    for i in range(4):
        db.add(Team(league_id=lg.id, team_name=f"T{i + 1}", captain_id=pat.id))
    db.add(Team(league_id=lg.id, team_name="Late", captain_id=pat.id, waitlist=True))
    db.commit()
    tokens = {u: login_token(db, u) for u in WHO if u != "anon"}
    yield {"db": db, "sid": sid, "lid": lg.id, "tokens": tokens, "dir": tmp_path}
    get_settings.cache_clear()


def fingerprint(db, upload_dir) -> tuple:
    return (
        [(s.id, s.name, s.start_at, s.end_at) for s in rows(db, LeagueSession)],
        [(lg.id, lg.court, lg.cost_cents, lg.active, lg.schedule_generated, lg.tournament_file, lg.archived_at)
         for lg in rows(db, League)],
        [(t.id, t.team_name, t.withdrawn_at, t.paid, t.waitlist) for t in rows(db, Team)],
        count(db, StandingAdjustment),
        count(db, AuditEntry),
        [(g.id, g.team1_id, g.team2_id, g.start_at, g.team1_game1_score) for g in rows(db, Game)],
        count(db, OutboxMessage),
        sorted(p.name for p in upload_dir.iterdir()),
        [(f.name, f.size) for f in db.exec(select(StoredFile).order_by(StoredFile.name)).all()],
    )


async def call(world, who: str, cls, path: str, method: str, *args):
    return await call_handler(world["tokens"].get(who), cls, path, method, *args)


async def generate(world) -> None:
    await call(world, "svla", home.LeagueHomeState, f"/dash/leagues/{world['lid']}", "generate")


def first_game_id(db) -> int:
    db.expire_all()
    return db.exec(select(Game.id).where(Game.team2_id.is_not(None)).order_by(Game.id)).first()


def _cases(world):
    """(state class, path, method, args) of every changing league handler, on SVL A's league."""
    sid, lid = world["sid"], world["lid"]
    return {
        "league.create": (new.NewLeagueState, "/dash/leagues/new", "create", LEAGUE_FORM | {"session": str(sid)}),
        "league.save": (home.LeagueHomeState, f"/dash/leagues/{lid}", "save", LEAGUE_FORM),
        "league.delete": (home.LeagueHomeState, f"/dash/leagues/{lid}", "delete"),
        "league.generate": (home.LeagueHomeState, f"/dash/leagues/{lid}", "generate"),
        "league.upload": (home.LeagueHomeState, f"/dash/leagues/{lid}", "upload", [FakeUpload(PNG)]),
    }  # fmt: skip


CASES = ["league.create", "league.save", "league.delete", "league.generate", "league.upload"]


@pytest.mark.parametrize("who", WHO)
@pytest.mark.parametrize("case", CASES)
async def test_changing_handlers_permission_table(world, case, who):
    db = world["db"]
    cls, path, method, *args = _cases(world)[case]
    before = fingerprint(db, world["dir"])
    state, _events = await call(world, who, cls, path, method, *args)
    after = fingerprint(db, world["dir"])
    message = state.upload_error if case == "league.upload" else state.error  # an upload's message is by the upload
    if who in ALLOWED:
        assert message == "" and state.error == "", message
        assert after != before
    else:
        assert after == before
        assert message in ("Unauthorized", "No access")


@pytest.mark.parametrize("who", WHO)
async def test_game_save_permission_table(world, who):
    db = world["db"]
    await generate(world)
    gid = first_game_id(db)
    form = {"team1": "", "team2": "", "start": "2027-01-01T19:00", "team1_game1_score": "21", "team2_game1_score": "10",
            "team1_game2_score": "21", "team2_game2_score": "12"}  # fmt: skip
    game = rows(db, Game, Game.id == gid)[0]
    form |= {"team1": str(game.team1_id), "team2": str(game.team2_id)}
    before = fingerprint(db, world["dir"])
    state, events = await call(world, who, game_edit.GameEditState, f"/dash/leagues/teams/schedule/{gid}", "save", form)
    after = fingerprint(db, world["dir"])
    if who in ALLOWED:
        assert state.error == ""
        assert redirect_target(events) == f"/dash/leagues/teams/schedule?league={world['lid']}"
        assert results.records(db, [game.team1_id])[game.team1_id].wins == 1
    else:
        assert after == before and state.error in ("Unauthorized", "No access")


@pytest.mark.parametrize("who", WHO)
async def test_game_edit_page_shows_nothing_to_others(world, who):
    await generate(world)
    path = f"/dash/leagues/teams/schedule/{first_game_id(world['db'])}"
    state, _ev = await call(world, who, game_edit.GameEditState, path, "load")
    if who in ALLOWED:
        assert state.gid != "" and state.back == f"/dash/leagues/teams/schedule?league={world['lid']}"
    else:
        assert state.gid == "" and state.denied and state.error in ("Unauthorized", "No access")


async def test_a_bad_score_shows_next_to_its_set_and_saves_nothing(world):
    db = world["db"]
    await generate(world)
    gid = first_game_id(db)
    game = rows(db, Game, Game.id == gid)[0]
    form = {"team1": str(game.team1_id), "team2": str(game.team2_id), "start": "2027-01-01T19:00",
            "team1_game1_score": "21", "team2_game1_score": "24"}  # fmt: skip
    before = fingerprint(db, world["dir"])
    state, events = await call(world, "svla", game_edit.GameEditState, f"/dash/leagues/teams/schedule/{gid}", "save", form)
    assert state.errors["set1"].startswith("Set 1: play to 21") and state.error == ""
    assert redirect_target(events) is None and fingerprint(db, world["dir"]) == before


@pytest.mark.parametrize("who", WHO)
async def test_league_home_shows_actions_only_to_its_svl_and_admins(world, who):
    state, _ev = await call(world, who, home.LeagueHomeState, f"/dash/leagues/{world['lid']}", "load")
    if who == "anon":
        assert state.missing and state.info == {}
    else:
        assert state.info["name"] == "Monday C 6s"
        assert state.shows["can_manage"] is (who in ALLOWED)
        assert state.links["schedule"] == f"/dash/leagues/teams/schedule?league={world['lid']}"


@pytest.mark.parametrize("who", ["player", "svla", "admin"])
async def test_the_league_home_opens_with_one_service_call(world, who, monkeypatch):
    """Whatever the reader may see there (games, disputes, registration, exports, the bracket), one read."""
    called = []
    real = home.run_action

    async def counted(fn, /, **kwargs):
        called.append(fn)
        return await real(fn, **kwargs)

    await generate(world)  # a schedule: the captain's games show
    monkeypatch.setattr(home, "run_action", counted)
    state, _ev = await call(world, who, home.LeagueHomeState, f"/dash/leagues/{world['lid']}", "load")
    assert called == [league_home.league_home]
    assert state.info["name"] == "Monday C 6s" and state.info["teams_of"] == "4 of 8" and state.error == ""
    assert state.shows["can_manage"] is (who in ALLOWED) and bool(state.export_links) is (who in ALLOWED)
    assert len(state.my_games) == (6 if who == "player" else 0)  # the player captains every team: all 6 games


async def test_the_league_home_read_again_keeps_its_form_and_a_changed_league_draws_it_anew(world):
    """The same league read again (the page opened again, a tap on Delete before the read came back) leaves the
    form as it is drawn, a dialog open on it too; a league that changed meanwhile draws it with the new values."""
    state, _ev = await call(world, "svla", home.LeagueHomeState, f"/dash/leagues/{world['lid']}", "load")
    key = state.form_key
    await state.load()
    assert state.form_key == key
    db = world["db"]
    lg = db.get(League, world["lid"])
    lg.court = "Court 9"
    db.commit()
    await state.load()
    assert state.form_key > key and state.form["court"] == "Court 9"


@pytest.mark.parametrize("who", ["player", "svla"])
async def test_a_league_home_card_refused_is_left_empty_and_the_rest_shows(world, who, monkeypatch):
    """Each card falls back alone: a part the reader is refused shows nothing, with no message, as before."""

    def refused(*_a, **_k):
        raise Forbidden()

    await generate(world)
    for module, name in ((score_reports, "my_games"), (exports, "export_links"), (registration, "payments_page")):
        monkeypatch.setattr(module, name, refused)
    state, _ev = await call(world, who, home.LeagueHomeState, f"/dash/leagues/{world['lid']}", "load")
    payments = await state.get_state(home.LeaguePaymentsState)
    assert state.my_games == [] and state.export_links == {} and payments.payment_rows == []
    assert state.error == "" and not state.missing and payments.filter_error == ""
    assert state.info["name"] == "Monday C 6s" and state.shows["can_manage"] is (who in ALLOWED)
    assert state.show_payments is (who in ALLOWED) and state.links["schedule"]


async def test_a_league_edit_with_bad_fields_marks_them(world):
    before = fingerprint(world["db"], world["dir"])
    state, events = await call(world, "svla", home.LeagueHomeState, f"/dash/leagues/{world['lid']}", "save",
                               LEAGUE_FORM | {"court": " ", "max_teams": "1"})  # fmt: skip
    assert set(state.errors) == {"court", "max_teams"} and state.error == ""
    assert redirect_target(events) is None and fingerprint(world["db"], world["dir"]) == before


async def test_a_saved_league_goes_back_to_the_list(world):
    state, events = await call(world, "svla", home.LeagueHomeState, f"/dash/leagues/{world['lid']}", "save", LEAGUE_FORM)
    assert redirect_target(events) == "/dash/leagues"
    assert rows(world["db"], League)[0].court == "Court 9"


@pytest.mark.parametrize("who", WHO)
async def test_test_schedule_is_admin_only(world, who):
    await generate(world)
    path = f"/dash/leagues/teams/TESTschedule?league={world['lid']}"
    state, _ev = await call(world, who, test_schedule.TestScheduleState, path, "load")
    assert bool(state.game_rows) is (who == "admin")
    if who != "admin":
        assert state.error in ("Unauthorized", "No access")


async def test_test_schedule_without_a_league_lists_leagues_for_admins(world):
    state, _ev = await call(world, "admin", test_schedule.TestScheduleState, "/dash/leagues/teams/TESTschedule", "load")
    assert [x["name"] for x in state.league_links] == ["Monday C 6s (A fall)"]
    assert state.league_links[0]["href"] == f"/dash/leagues/teams/TESTschedule?league={world['lid']}"
    state, _ev = await call(world, "svla", test_schedule.TestScheduleState, "/dash/leagues/teams/TESTschedule", "load")
    assert state.league_links == [] and state.error == "No access"


@pytest.mark.parametrize("who", WHO)
async def test_player_leagues_redirects_operators(world, who):
    state, events = await call(world, who, player_leagues.PlayerLeaguesState, "/dash/playerleagues", "load")
    if who in ("svla", "svlb", "admin"):
        assert redirect_target(events) == "/dash/profile"
    elif who == "player":
        assert [r["name"] for r in state.registration] == ["Monday C 6s"]
        assert [v["name"] for v in state.venues] == ["Svla Tester", "Svlb Tester"]
    else:
        assert state.error == "Unauthorized"


async def test_uploading_html_as_png_is_refused_with_nothing_written(world):
    before = fingerprint(world["db"], world["dir"])
    state, _ev = await call(world, "svla", home.LeagueHomeState, f"/dash/leagues/{world['lid']}", "upload",
                            [FakeUpload(b"<html><script>alert(1)</script></html>")])  # fmt: skip
    assert "PNG, PDF, DOC or JPEG" in state.upload_error and state.error == ""  # under the upload, not the page top
    assert fingerprint(world["db"], world["dir"]) == before


async def test_generate_twice_says_already_generated(world):
    await generate(world)
    n = count(world["db"], Game)
    state, _ev = await call(world, "admin", home.LeagueHomeState, f"/dash/leagues/{world['lid']}", "generate")
    assert "already been generated" in state.error and count(world["db"], Game) == n


@pytest.mark.parametrize("who", WHO)
async def test_new_league_page_offers_sessions_only_to_operators(world, who):
    state, _ev = await call(world, who, new.NewLeagueState, f"/dash/leagues/new?session={world['sid']}", "load")
    if who in ALLOWED:
        assert state.chosen_session == str(world["sid"]) and not state.denied
    elif who == "svlb":
        assert state.session_options == [] and state.chosen_session == ""  # B has no sessions; A's is not offered
    else:
        assert state.denied and state.session_options == []


async def test_a_new_league_opens_its_home(world):
    n = count(world["db"], League)
    state, events = await call(world, "svla", new.NewLeagueState, "/dash/leagues/new", "create",
                               LEAGUE_FORM | {"session": str(world["sid"])})  # fmt: skip
    assert count(world["db"], League) == n + 1
    assert redirect_target(events) == f"/dash/leagues/{rows(world['db'], League)[-1].id}"


@pytest.mark.parametrize("who", WHO)
async def test_leagues_list_by_role(world, who):
    state, events = await call(world, who, league_list.LeaguesState, "/dash/leagues", "load")
    assert [r["name"] for r in state.league_rows] == ([] if who in ("anon", "svlb") else ["Monday C 6s"])
    assert state.loaded and (state.error == "Unauthorized") is (who == "anon")
    assert events is league_list.LeaguesState.poll  # the list then refreshes itself while the tab stays here


@pytest.mark.parametrize("who", WHO)
async def test_only_an_admin_sees_and_restores_an_archived_league(world, who):
    db, lid = world["db"], world["lid"]
    await call(world, "svla", home.LeagueHomeState, f"/dash/leagues/{lid}", "delete")
    assert rows(db, League)[0].archived_at is not None  # it has teams: archived, not deleted
    before = fingerprint(db, world["dir"])
    state, _e = await call(world, who, home.LeagueHomeState, f"/dash/leagues/{lid}", "restore")
    db.expire_all()
    if who == "admin":
        assert state.error == "" and rows(db, League)[0].archived_at is None
        assert state.notice.endswith("restored: it is listed again.") and not state.shows["can_restore"]
    else:
        assert fingerprint(db, world["dir"]) == before
        assert state.error in ("Unauthorized", "No access", "This league no longer exists")


@pytest.mark.parametrize("files", [[], "x"])
async def test_an_upload_without_one_file_names_the_allowed_kinds_and_the_size(world, files):
    state, _e = await call(world, "svla", home.LeagueHomeState, f"/dash/leagues/{world['lid']}", "upload", files)
    limit = get_settings().upload_max_bytes // (1024 * 1024)
    assert state.upload_error == f"Choose one file to upload: a PNG, PDF, DOC or JPEG file of at most {limit} MB"
    state, _e = await call(world, "svla", home.LeagueHomeState, f"/dash/leagues/{world['lid']}", "upload_rejected")
    assert state.upload_error == f"Upload a PNG, PDF, DOC or JPEG file of at most {limit} MB"
