"""Issue 3 state handlers called directly, as any connected browser could call them.

A permission table: every handler of the profile and users
pages x {anonymous, player (owner), other player, SVL, admin}. A refused call
shows a message and changes nothing in the database.
"""

from __future__ import annotations

import datetime as dt
import inspect

import pytest

from tests.factories import actor_of, login_token, make_user, rows
from tests.unit.test_state_handlers import _redirect_target, _root, _sub
from volley_app.models import LoginSession, OutboxMessage, Rating, Role, SubRequest, User, utcnow
from volley_app.pages.dash.profile import PlayerContactState, PlayerInfoState
from volley_app.pages.dash.users import EditUserState, NewSVLState, UsersListState
from volley_app.services import sub_requests

WHO = ["anonymous", "alice", "ben", "svl", "root"]


@pytest.fixture
def world(db):
    make_user(db, "alice")
    ben = make_user(db, "ben", sub=True, hitter_skill_level=Rating.A)
    make_user(db, "svl", Role.SVL, address="1 Court St", city="Lexington")
    make_user(db, "root", Role.ADMIN)
    alice = rows(db, User, User.username == "alice")[0]
    when = utcnow() + dt.timedelta(days=3)
    common = {"team": "Net Ninjas", "date": when, "svl": "Sportsplex", "skill_level": "C", "format": "6s"}
    open_id = sub_requests.create(db, actor_of(alice), **common)
    targeted_id = sub_requests.create(db, actor_of(alice), recipient_id=ben.id, **common)
    db.commit()
    tokens = {name: login_token(db, name) for name in WHO[1:]}
    ids = {u.username: u.id for u in rows(db, User)}
    return db, tokens, ids, {"open": open_id, "targeted": targeted_id}


def snapshot(db) -> tuple:
    """Everything a refused call must leave alone."""
    reqs = [(r.id, r.status, r.recipient_id, r.team, r.completed) for r in rows(db, SubRequest)]
    users = [
        (u.id, u.username, u.email, u.first_name, u.last_name, tuple(u.roles), u.sub, u.active, u.password_hash)
        for u in rows(db, User)
    ]
    mails = [(m.to_addr, m.kind) for m in rows(db, OutboxMessage)]
    return reqs, users, mails


def _state(cls, path: str, token: str | None):
    root = _root(path)
    state = _sub(root, cls)
    if token:
        state.token_trusted = token
    return root, state


async def _call(handler, *args):
    result = handler(*args)
    if inspect.isasyncgen(result):
        return [ev async for ev in result]
    if inspect.iscoroutine(result):
        return await result
    return result


def _token(tokens, who):
    return tokens.get(who)


# --- profile, users ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("who", WHO)
async def test_my_info_fields_per_role(world, who):
    db, tokens, _, _ = world
    _, state = _state(PlayerInfoState, "/dash/playerinfo", _token(tokens, who))
    await state.load()
    if who == "anonymous":
        assert state.info == {} and state.info_error
        return
    assert state.info["username"] == who
    assert state.show_address is (who in ("svl", "root"))
    assert state.show_player is (who != "svl")
    if who == "svl":
        assert state.info["last_name"] == "" and state.info["city"] == "Lexington"


# (who, target user, refused?)
EDIT_TABLE = [(w, t, not (w == t or w == "root")) for w in WHO for t in ("alice", "root")]


@pytest.mark.parametrize(("who", "target", "refused"), EDIT_TABLE)
async def test_edit_user_permission_table(world, who, target, refused):
    db, tokens, ids, _ = world
    path = f"/dash/users/{ids[target]}"
    _, state = _state(EditUserState, path, _token(tokens, who))
    await state.load()
    assert (state.edit_error != "") is refused
    if refused:
        assert state.f_email == "" and state.f_username == ""
    before = snapshot(db)
    form = {"username": target, "email": f"{target}@example.com", "first_name": "Changed", "last_name": "Renamed",
            "region": "OH", "password": ""}  # fmt: skip
    state.f_username, state.f_email, state.f_region = target, f"{target}@example.com", "OH"
    state.picked_roles = ["Admin", "Player"] if target == "root" else ["Player"]
    events = await _call(state.save, form)
    if refused:
        assert snapshot(db) == before and state.edit_error
    else:
        assert _redirect_target(events) == "/dash/playerinfo"
        user = rows(db, User, User.id == ids[target])[0]
        assert user.first_name == "Changed"
        # admin edits of another user do not change the last name
        assert user.last_name == ("Tester" if (who == "root" and target != "root") else "Renamed")
    before = snapshot(db)
    events = await _call(state.delete)
    if refused:
        assert snapshot(db) == before
    else:
        assert not rows(db, User, User.id == ids[target])
        assert _redirect_target(events) == ("/" if who == target else "/dash/playerinfo")


async def test_deleting_yourself_logs_out(world):
    db, tokens, ids, _ = world
    root, state = _state(EditUserState, f"/dash/users/{ids['ben']}", tokens["ben"])
    await state.load()
    events = await state.delete()
    assert _redirect_target(events) == "/"
    assert state.token_trusted == "" and state.user_id == 0
    assert not rows(db, User, User.id == ids["ben"])
    assert not rows(db, LoginSession, LoginSession.user_id == ids["ben"])


async def test_a_player_cannot_make_themselves_admin(world):
    db, tokens, ids, _ = world
    _, state = _state(EditUserState, f"/dash/users/{ids['alice']}", tokens["alice"])
    await state.load()
    assert state.admin_view is False
    state.picked_roles = ["Admin", "Player"]
    await _call(state.save, {"username": "alice", "email": "alice@example.com", "first_name": "A",
                             "last_name": "B", "region": "KY", "password": ""})  # fmt: skip
    assert rows(db, User, User.id == ids["alice"])[0].roles == ["Player"]


async def test_password_is_optional_but_validated(world):
    db, tokens, ids, _ = world
    _, state = _state(EditUserState, f"/dash/users/{ids['alice']}", tokens["alice"])
    await state.load()
    assert state.can_save
    state.set_password("a b")
    assert not state.can_save
    state.set_password("")
    state.set_username("x")
    assert not state.can_save


@pytest.mark.parametrize("who", WHO)
async def test_users_list_and_svl_creation_are_admin_only(world, who):
    db, tokens, _, _ = world
    before = snapshot(db)
    _, users = _state(UsersListState, "/dash/users", _token(tokens, who))
    await users.load()
    assert (users.user_rows != []) is (who == "root")
    _, new = _state(NewSVLState, "/dash/users/new", _token(tokens, who))
    await new.load()
    events = await _call(new.create, {"username": "gymowner", "password": "pw!@#1", "first_name": "Gym",
                                      "email": "gym@example.com", "region": "KY"})  # fmt: skip
    if who == "root":
        assert _redirect_target(events) == "/dash/users"
        created = rows(db, User, User.username == "gymowner")[0]
        assert created.roles == ["SVL"]
    else:
        assert snapshot(db) == before and new.svl_error


async def test_svl_creation_rules(world):
    db, tokens, _, _ = world
    _, new = _state(NewSVLState, "/dash/users/new", tokens["root"])
    await new.load()
    await _call(new.create, {"username": "gym1", "password": "pw^^", "first_name": "", "email": "x", "region": ""})
    errs = new.field_errors
    assert all(errs[k] for k in ("username", "password", "first_name", "email", "region"))
    assert not rows(db, User, User.username == "gym1")


@pytest.mark.parametrize("who", WHO)
async def test_player_contact(world, who):
    db, tokens, _, _ = world
    before = snapshot(db)
    _, state = _state(PlayerContactState, "/dash/playercontact", _token(tokens, who))
    await state.load()
    events = await _call(state.send, {"message": "   "})
    assert snapshot(db) == before and state.contact_error
    events = await _call(state.send, {"message": "Hello there"})
    if who == "anonymous":
        assert snapshot(db) == before and state.contact_error
    else:
        assert _redirect_target(events) == "/dash/playersent"
        mail = rows(db, OutboxMessage)[-1]
        assert mail.kind == "player_contact" and mail.to_addr == "hello@volley.example"
        assert "Hello there" in mail.body_text
