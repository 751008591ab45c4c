"""The SVL home's handler called directly, as any connected browser could: only its SVL sees its sessions."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.factories import (
    add_league_session,
    expire_logins,
    login_token,
    make_user,
    session_statuses,
)
from tests.harness import root_state, substate
from volley_app.models import Role, SessionStatus, utcnow
from volley_app.pages.dash.svl_home import SVLHomeState
from volley_app.services.accounts import auth
from volley_app.state.auth import AuthState


@pytest.fixture
def svl_world(db):
    """SVL A with a session past its start (still 'Registration' in the DB) and one ahead; SVL B; a player."""
    a, b = make_user(db, "svla", Role.SVL), make_user(db, "svlb", Role.SVL)
    make_user(db, "pat", Role.PLAYER)
    make_user(db, "root", Role.ADMIN)
    now = utcnow()
    day = dt.timedelta(days=1)
    add_league_session(db, a, "A started", now - 2 * day, now + 60 * day)
    add_league_session(db, a, "A upcoming", now + 9 * day, now + 90 * day)
    add_league_session(db, b, "B upcoming", now + 3 * day, now + 70 * day)
    return db


async def _load_svl_home(token: str | None) -> SVLHomeState:
    root = root_state("/dash/SVLHome")
    state = substate(root, SVLHomeState)
    if token is not None:
        state.token_trusted = token
    await state.load()
    return state


async def test_svl_home_without_a_token_is_refused(svl_world):
    db = svl_world
    state = await _load_svl_home(None)
    assert state.error == "Unauthorized"
    assert state.rows == []
    assert session_statuses(db)["A started"] == SessionStatus.REGISTRATION


@pytest.mark.parametrize("username", ["pat", "root"])
async def test_svl_home_with_a_non_svl_token_is_refused(svl_world, username):
    db = svl_world
    state = await _load_svl_home(login_token(db, username))
    assert state.error == "No access"
    assert state.rows == []
    assert session_statuses(db) == {
        "A started": SessionStatus.REGISTRATION,
        "A upcoming": SessionStatus.REGISTRATION,
        "B upcoming": SessionStatus.REGISTRATION,
    }


async def test_another_svl_sees_only_its_own_sessions_and_changes_nothing_of_a(svl_world):
    db = svl_world
    state = await _load_svl_home(login_token(db, "svlb"))
    assert state.error == ""
    assert [r["name"] for r in state.rows] == ["B upcoming"]
    assert not any(r["name"].startswith("A ") for r in state.rows)
    assert session_statuses(db)["A started"] == SessionStatus.REGISTRATION


async def test_the_owner_sees_its_sessions_and_the_started_one_shows_active(svl_world):
    db = svl_world
    state = await _load_svl_home(login_token(db, "svla"))
    assert state.error == ""
    assert [(r["name"], r["status"]) for r in state.rows] == [("A started", "Active"), ("A upcoming", "Registration")]
    assert all(r["href"].startswith("/dash/sessions/") and r["dates"] for r in state.rows)
    assert session_statuses(db) == {  # shown as the dates say; the sweep saves it
        "A started": SessionStatus.REGISTRATION,
        "A upcoming": SessionStatus.REGISTRATION,
        "B upcoming": SessionStatus.REGISTRATION,
    }


async def test_svl_home_with_an_expired_token_is_refused(svl_world):
    db = svl_world
    token = login_token(db, "svla")
    expire_logins(db, ago=dt.timedelta(minutes=1))
    state = await _load_svl_home(token)
    assert state.error == "Unauthorized" and state.rows == []
    assert session_statuses(db)["A started"] == SessionStatus.REGISTRATION


async def test_svl_home_with_a_revoked_token_is_refused(svl_world):
    db = svl_world
    token = login_token(db, "svla")
    assert auth.logout(db, token)
    db.commit()
    state = await _load_svl_home(token)
    assert state.error == "Unauthorized" and state.rows == []
    assert session_statuses(db)["A started"] == SessionStatus.REGISTRATION


@pytest.mark.parametrize("token", ["garbage", "x" * 5000, "svla"])
async def test_svl_home_with_a_forged_token_is_refused(svl_world, token):
    db = svl_world
    state = await _load_svl_home(token)
    assert state.error == "Unauthorized" and state.rows == []
    assert session_statuses(db)["A started"] == SessionStatus.REGISTRATION


async def test_svl_home_rows_are_dropped_when_the_tab_changes_hands(svl_world):
    db = svl_world
    root = root_state("/dash/SVLHome")
    state = substate(root, SVLHomeState)
    state.token_trusted = login_token(db, "svla")
    await state.load()
    assert len(state.rows) == 2
    state.token_trusted = login_token(db, "pat")
    await state.load()
    assert state.rows == [] and state.error == "No access"



async def test_logout_forgets_the_private_data_of_the_tab(svl_world):
    db = svl_world
    root = root_state("/dash/SVLHome")
    home = substate(root, SVLHomeState)
    home.token_trusted = login_token(db, "svla")
    await home.load()
    assert home.rows
    await substate(root, AuthState).logout()
    assert home.rows == []
    assert substate(root, AuthState).token_trusted == ""


