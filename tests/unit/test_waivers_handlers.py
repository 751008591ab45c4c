"""The waiver pages' handlers × {anonymous, player, member, SVL A, SVL B, admin}: the wrong caller is refused and the
database is as before."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.factories import (
    WAIVER_TEXT,
    actor_of,
    add_league,
    add_league_session,
    add_member,
    add_teams,
    add_waiver,
    count,
    login_token,
    make_user,
    rows,
)
from tests.harness import CLIENT_IP, call, call_handler
from volley_app import routes
from volley_app.models import AuditEntry, Role, User, utcnow
from volley_app.models.rosters import LeagueWaiver, WaiverSignature
from volley_app.pages.dash.leagues.waiver import LeagueWaiverState
from volley_app.pages.dash.teams.waiver import TeamWaiverState
from volley_app.services.teams import waivers

WHO = ["anon", "quinn", "pat", "svla", "svlb", "root"]
OPERATORS = {"svla", "root"}


@pytest.fixture
def world(db):
    svla = make_user(db, "svla", Role.SVL)
    make_user(db, "svlb", Role.SVL)
    make_user(db, "root", Role.ADMIN)
    pat = make_user(db, "pat")
    make_user(db, "quinn")
    now = utcnow()
    sid = add_league_session(db, svla, "Fall", now + dt.timedelta(days=3), now + dt.timedelta(days=80))
    lg = add_league(db, svla, sid, start=now + dt.timedelta(days=4))
    t1, t2 = add_teams(db, lg, 2)
    add_member(db, t1, pat.id)
    tokens = {n: login_token(db, n) for n in WHO if n != "anon"}
    return {"db": db, "lg": lg.id, "t1": t1, "t2": t2, "svla": actor_of(svla), "tokens": tokens}


def _state(db) -> tuple:
    return count(db, LeagueWaiver), count(db, WaiverSignature), count(db, AuditEntry)


@pytest.mark.parametrize("who", WHO)
async def test_the_operators_page_opens_for_the_leagues_operator_only(world, who):
    db = world["db"]
    add_waiver(db, world["svla"], world["lg"])
    path = routes.league_waiver_path(world["lg"])
    state, _ = await call_handler(world["tokens"].get(who), LeagueWaiverState, path, "load")
    if who in OPERATORS:
        assert not state.denied and state.text == WAIVER_TEXT and state.version == 1
        assert state.version_line.startswith("Version 1, saved ") and state.version_line.endswith(" by svla.")
        assert f"/api/exports/leagues/{world['lg']}/signatures.csv?" in state.export_link
        assert state.signatures == [] and state.league_name == "Monday C 6s"
    else:
        assert state.denied and state.text == "" and state.export_link == "" and state.error


@pytest.mark.parametrize("who", WHO)
async def test_only_the_operator_saves_a_version_from_the_page(world, who):
    db = world["db"]
    before = _state(db)
    path = routes.league_waiver_path(world["lg"])
    state, _ = await call_handler(world["tokens"].get(who), LeagueWaiverState, path, "save", {"text": "Play nice."})
    if who in OPERATORS:
        assert state.version == 1 and state.notice.startswith("Saved as version 1.") and state.text == "Play nice."
        assert _state(db) == (1, 0, 1)
    else:
        assert state.error and state.notice == "" and _state(db) == before


async def test_an_unchanged_save_says_so_and_an_empty_text_is_named(world):
    db = world["db"]
    add_waiver(db, world["svla"], world["lg"])
    path = routes.league_waiver_path(world["lg"])
    state, _ = await call_handler(world["tokens"]["svla"], LeagueWaiverState, path, "load")
    await call(state.save, {"text": WAIVER_TEXT})
    assert state.notice.startswith("No change") and count(db, LeagueWaiver) == 1
    await call(state.save, {"text": "  "})
    assert state.errors == {"text": "Waiver text is required"} and count(db, LeagueWaiver) == 1


async def test_the_operator_searches_the_signatures(world):
    db = world["db"]
    add_waiver(db, world["svla"], world["lg"])
    add_member(db, world["t2"], _user(db, "quinn").id)
    for name, team in (("pat", world["t1"]), ("quinn", world["t2"])):
        waivers.sign_waiver(db, actor_of(_user(db, name)), team_id=team, typed_name=f"{name.title()} Tester", adult=True)
        db.commit()
    path = routes.league_waiver_path(world["lg"])
    state, _ = await call_handler(world["tokens"]["svla"], LeagueWaiverState, path, "load")
    assert {s["name"] for s in state.signatures} == {"Pat Tester", "Quinn Tester"}
    await call(state.search, {"q": "quinn"})
    assert [(s["name"], s["team"], s["age"]) for s in state.signatures] == [("Quinn Tester", "T2", "18 or older (attested)")]


def _user(db, username: str) -> User:
    [u] = rows(db, User, User.username == username)
    return u


@pytest.mark.parametrize("who", WHO)
async def test_only_a_member_opens_and_signs_the_teams_waiver(world, who):
    db = world["db"]
    add_waiver(db, world["svla"], world["lg"])
    path = routes.team_waiver_path(world["t1"])
    state, _ = await call_handler(world["tokens"].get(who), TeamWaiverState, path, "load")
    before = _state(db)
    await call(state.sign, {"typed_name": f"{who.title()} Tester", "birth_date": "1990-04-21"})
    if who == "pat":
        assert state.loaded and state.text == WAIVER_TEXT and state.version == 1 and state.full_name == "Pat Tester"
        assert state.signed_line.startswith("You signed version 1 on ") and state.notice.startswith("Thank you")
        [row] = rows(db, WaiverSignature)
        assert row.ip == CLIENT_IP and str(row.birth_date) == "1990-04-21" and row.team_id == world["t1"]
    else:
        assert not state.loaded and state.text == "" and state.error
        assert _state(db) == before


async def test_a_member_is_told_what_to_fix(world):
    db = world["db"]
    add_waiver(db, world["svla"], world["lg"])
    path = routes.team_waiver_path(world["t1"])
    state, _ = await call_handler(world["tokens"]["pat"], TeamWaiverState, path, "load")
    await call(state.sign, {"typed_name": "Pat Smith", "birth_date": "2020-01-01"})
    assert state.errors["typed_name"] == 'Type your full name as your account has it: "Pat Tester"'
    assert state.errors["birth_date"].startswith("Players must be 18 or older")
    assert state.signed_line == "" and count(db, WaiverSignature) == 0


async def test_a_member_of_a_league_without_a_waiver_is_told_there_is_nothing_to_sign(world):
    path = routes.team_waiver_path(world["t1"])
    state, _ = await call_handler(world["tokens"]["pat"], TeamWaiverState, path, "load")
    assert state.loaded and state.version == 0 and state.error == ""
    await call(state.sign, {"typed_name": "Pat Tester", "adult": "on"})
    assert "no waiver" in state.error and count(world["db"], WaiverSignature) == 0
