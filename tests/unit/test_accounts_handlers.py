"""Profile, My Info, contact, Edit user, All Users and Create New SVL handlers, called as any browser could.

A permission table: each handler x {anonymous, player (owner), other player, SVL,
admin}. A refused call shows a message and changes nothing in the database.
"""

from __future__ import annotations

import pytest
from sqlmodel import col

from tests.factories import PASSWORD, actor_of, login_token, player_world, rows, snapshot
from tests.harness import call, page_state, redirect_target
from volley_app.models import LoginSession, OutboxMessage, Rating, User
from volley_app.pages.dash.profile.contact import PlayerContactState
from volley_app.pages.dash.profile.my_info import PlayerInfoState
from volley_app.pages.dash.profile.profile import ProfileState
from volley_app.pages.dash.users.edit.page import EditUserState
from volley_app.pages.dash.users.list import UsersListState
from volley_app.pages.dash.users.new_svl import NewSVLState
from volley_app.services.accounts import accounts, auth
from volley_app.services.accounts.accounts import access_user
from volley_app.services.core.errors import Forbidden, NotFound, Unauthorized
from volley_app.services.money import ledger

WHO = ["anonymous", "alice", "ben", "svl", "root"]


@pytest.fixture
def world(db):
    w = player_world(db)
    return db, w["tokens"], w["ids"]



def _form(username: str, **extra) -> dict:
    """An Edit user form as the browser sends it (checkboxes as true/false)."""
    return {"username": username, "email": f"{username}@example.com", "first_name": "Changed", "last_name": "Renamed",
            "region": "OH", "password": ""} | extra  # fmt: skip


# --- profile and My Info ------------------------------------------------------------------------------------


PROFILE_LINKS = {
    "alice": ["Notifications", "Create Sub Request", "My Info", "Contact Us"],
    "svl": ["Add Session", "My Sessions", "Revenue", "Discounts", "My Info", "Contact Us"],
    "root": ["Notifications", "New Newsletter", "Create Sub Request", "All Open Sub Requests", "Add Session",
             "All Sessions", "Revenue", "Discounts", "All Leagues", "All Users", "Create New SVL", "Email All Users", "Inquiries", "Audit Log",
             "Archive", "My Info"],
}  # fmt: skip


@pytest.mark.parametrize("who", ["anonymous", "alice", "svl", "root"])
async def test_profile_links_per_role(world, who):
    _, tokens, _ = world
    _, state = page_state(ProfileState, "/dash/profile", tokens.get(who))
    await state.load()
    assert [link["label"] for link in state.links] == PROFILE_LINKS.get(who, [])
    assert all(link["href"].startswith("/dash/") for link in state.links)


@pytest.mark.parametrize("who", WHO)
async def test_my_info_fields_per_role(world, who):
    _, tokens, _ = world
    _, state = page_state(PlayerInfoState, "/dash/playerinfo", tokens.get(who))
    await state.load()
    if who == "anonymous":
        assert state.info == {} and state.info_error
        return
    assert state.info["username"] == who
    assert state.shows["show_address"] is (who in ("svl", "root"))
    assert state.shows["show_player"] is (who != "svl")
    if who == "svl":
        assert state.info["last_name"] == "" and state.info["city"] == "Lexington"



async def test_my_info_shows_the_players_credit_only_when_there_is_some(world):
    db, tokens, ids = world
    _, state = page_state(PlayerInfoState, "/dash/playerinfo", tokens["alice"])
    await state.load()
    assert state.credit == ""
    ledger.record(db, kind="credit_issued", amount_cents=4250, key="gift-alice", reason="Rained out",
                  user_id=ids["alice"])  # fmt: skip
    db.commit()
    await state.load()
    assert state.credit == "$42.50"
    _, other = page_state(PlayerInfoState, "/dash/playerinfo", tokens["ben"])
    await other.load()
    assert other.credit == ""  # alice's credit is hers alone


# --- Edit user ----------------------------------------------------------------------------------------------

# (who, target user, refused?)
EDIT_TABLE = [(w, t, not (w == t or w == "root")) for w in WHO for t in ("alice", "root")]


@pytest.mark.parametrize(("who", "target", "refused"), EDIT_TABLE)
async def test_edit_user_permission_table(world, who, target, refused):
    db, tokens, ids = world
    _, state = page_state(EditUserState, f"/dash/users/{ids[target]}", tokens.get(who))
    await state.load()
    assert (state.error != "") is refused
    if refused:
        assert state.record == {} and not state.loaded
    else:
        assert state.record["username"] == target and state.form_key > 0
    before = snapshot(db)
    roles = {"role-admin": True, "role-player": True} if target == "root" else {"role-player": True}
    events = await call(state.save, _form(target, **roles))
    if refused:
        assert snapshot(db) == before and state.error
    else:
        assert redirect_target(events) == "/dash/playerinfo"
        user = rows(db, User, User.id == ids[target])[0]
        assert user.first_name == "Changed"
        # admin edits of another user do not change the last name
        assert user.last_name == ("Tester" if (who == "root" and target != "root") else "Renamed")
    before = snapshot(db)
    events = await call(state.delete)
    if refused:
        assert snapshot(db) == before
    else:
        gone = rows(db, User, User.id == ids[target])  # deleted, or archived when it has history
        assert not gone or (gone[0].archived_at is not None and not gone[0].active)
        assert redirect_target(events) == ("/" if who == target else "/dash/playerinfo")


async def test_edit_user_with_a_forged_id_shows_not_found(world):
    db, tokens, _ = world
    for forged in ("abc", "0", "999999", "99999999999"):
        _, state = page_state(EditUserState, f"/dash/users/{forged}", tokens["root"])
        await state.load()
        assert state.error and not state.loaded
        before = snapshot(db)
        await call(state.save, _form("root", **{"role-admin": True}))
        assert snapshot(db) == before and state.error


async def test_deleting_yourself_logs_out(world):
    db, tokens, ids = world
    _, state = page_state(EditUserState, f"/dash/users/{ids['ben']}", tokens["ben"])
    await state.load()
    events = await state.delete()
    assert redirect_target(events) == "/"
    assert state.token_trusted == "" and state.user_id == 0
    assert not rows(db, User, User.id == ids["ben"])
    assert not rows(db, LoginSession, LoginSession.user_id == ids["ben"])


async def test_a_player_cannot_make_themselves_admin(world):
    db, tokens, ids = world
    _, state = page_state(EditUserState, f"/dash/users/{ids['alice']}", tokens["alice"])
    await state.load()
    assert state.shows["is_admin_view"] is False
    await call(state.save, _form("alice", **{"role-admin": True, "role-player": True, "active": False}))
    user = rows(db, User, User.id == ids["alice"])[0]
    assert user.roles == ["Player"] and user.active is True


async def test_an_admin_sets_roles_active_and_sub_from_the_form(world):
    db, tokens, ids = world
    _, state = page_state(EditUserState, f"/dash/users/{ids['alice']}", tokens["root"])
    await state.load()
    assert state.shows["is_admin_view"] and state.shows["last_name_locked"] and state.roles == ["Player"] and state.active
    before = snapshot(db)
    events = await call(state.save, _form("alice", active=False))  # no role ticked
    assert redirect_target(events) is None and state.errors["roles"] and snapshot(db) == before
    events = await call(state.save, _form("alice", **{"role-svl": True, "role-player": "on", "active": False,
                                                      "sub": True, "hitter": "B"}))  # fmt: skip
    assert redirect_target(events) == "/dash/playerinfo"
    user = rows(db, User, User.id == ids["alice"])[0]
    assert user.roles == ["Player", "SVL"] and user.active is False
    assert user.sub is True and user.hitter_skill_level == Rating.B


async def test_an_admin_cannot_drop_their_own_admin_role(world):
    db, tokens, ids = world
    _, state = page_state(EditUserState, f"/dash/users/{ids['root']}", tokens["root"])
    await state.load()
    before = snapshot(db)
    await call(state.save, _form("root", **{"role-player": True}))
    assert state.errors["roles"] and snapshot(db) == before


async def test_password_is_optional_but_validated_on_submit(world):
    db, tokens, ids = world
    _, state = page_state(EditUserState, f"/dash/users/{ids['alice']}", tokens["alice"])
    await state.load()
    before = snapshot(db)
    events = await call(state.save, _form("alice", password="a b"))
    assert redirect_target(events) is None and state.errors["password"] and state.error == ""  # shown once, by the field
    assert snapshot(db) == before
    events = await call(state.save, _form("x"))
    assert redirect_target(events) is None and state.errors["username"] and "password" not in state.errors
    assert snapshot(db) == before
    state.fixed("username")  # editing the field takes its message away
    assert "username" not in state.errors and state.error == ""
    events = await call(state.save, _form("alice"))
    assert redirect_target(events) == "/dash/playerinfo"
    old_hash = rows(db, User, User.id == ids["alice"])[0].password_hash
    events = await call(state.save, _form("alice", password="new-pass1", current_password=PASSWORD))
    assert redirect_target(events) == "/dash/playerinfo"
    assert rows(db, User, User.id == ids["alice"])[0].password_hash != old_hash


def _open_sessions(db, user_id: int) -> list[int]:
    return [s.id for s in rows(db, LoginSession, LoginSession.user_id == user_id, col(LoginSession.revoked_at).is_(None))]


@pytest.mark.parametrize(
    ("current", "message"),
    [("", accounts.CURRENT_PASSWORD_REQUIRED), ("not-it", accounts.CURRENT_PASSWORD_WRONG), (None, None)],
)
async def test_changing_your_own_password_needs_the_current_one(world, current, message):
    db, tokens, ids = world
    _, state = page_state(EditUserState, f"/dash/users/{ids['alice']}", tokens["alice"])
    await state.load()
    assert state.shows["own_account"]
    before = snapshot(db)
    extra = {} if current is None else {"current_password": current}
    events = await call(state.save, _form("alice", password="new-pass1", **extra))
    assert redirect_target(events) is None
    assert state.errors == {"current_password": message or accounts.CURRENT_PASSWORD_REQUIRED}
    assert snapshot(db) == before


async def test_a_new_password_ends_your_other_sessions_and_keeps_this_one(world):
    db, tokens, ids = world
    other_device = login_token(db, "alice")
    assert len(_open_sessions(db, ids["alice"])) == 2
    _, state = page_state(EditUserState, f"/dash/users/{ids['alice']}", tokens["alice"])
    await state.load()
    events = await call(state.save, _form("alice", password="new-pass1", current_password=PASSWORD))
    assert redirect_target(events) == "/dash/playerinfo"
    assert auth.resolve(db, tokens["alice"]) is not None  # this tab stays logged in
    assert auth.resolve(db, other_device) is None  # the other device is logged out
    assert len(_open_sessions(db, ids["alice"])) == 1
    # Ben's sessions are not touched.
    assert auth.resolve(db, tokens["ben"]) is not None


async def test_an_admin_setting_someones_password_needs_no_current_one_and_logs_them_out(world):
    db, tokens, ids = world
    _, state = page_state(EditUserState, f"/dash/users/{ids['alice']}", tokens["root"])
    await state.load()
    assert not state.shows["own_account"]
    events = await call(state.save, _form("alice", password="new-pass1", **{"role-player": True}))
    assert redirect_target(events) == "/dash/playerinfo"
    assert _open_sessions(db, ids["alice"]) == []
    assert auth.resolve(db, tokens["root"]) is not None


def test_passwords_never_live_in_a_state_var():
    for cls in (EditUserState, NewSVLState):
        assert not [name for name in cls.base_vars if "password" in name]


# --- All Users and Create New SVL -------------------------------------------------------------------------------


@pytest.mark.parametrize("who", WHO)
async def test_users_list_and_svl_creation_are_admin_only(world, who):
    db, tokens, _ = world
    before = snapshot(db)
    _, users = page_state(UsersListState, "/dash/users", tokens.get(who))
    await users.load()
    assert (users.user_rows != []) is (who == "root")
    assert users.can_create_svl is (who == "root")
    _, new = page_state(NewSVLState, "/dash/users/new", tokens.get(who))
    await new.load()
    assert new.allowed is (who == "root")
    events = await call(new.create, {"username": "gymowner", "password": "pw!@#1", "first_name": "Gym",
                                     "email": "gym@example.com", "region": "KY"})  # fmt: skip
    if who == "root":
        assert new.roles == ["SVL"]
        assert redirect_target(events) == "/dash/users"
        created = rows(db, User, User.username == "gymowner")[0]
        assert created.roles == ["SVL"]
    else:
        assert snapshot(db) == before and new.error


async def test_svl_creation_rules(world):
    db, tokens, _ = world
    _, new = page_state(NewSVLState, "/dash/users/new", tokens["root"])
    await new.load()
    await call(new.create, {"username": "gym1", "password": "pw^^", "first_name": "", "email": "x", "region": ""})
    errs = new.errors
    assert all(errs[k] for k in ("username", "password", "first_name", "email", "region"))
    assert not rows(db, User, User.username == "gym1")


async def test_svl_creation_takes_the_ticked_roles(world):
    db, tokens, _ = world
    _, new = page_state(NewSVLState, "/dash/users/new", tokens["root"])
    await new.load()
    events = await call(new.create, {"username": "GymTwo", "password": "pw!@#1", "first_name": "Gym",
                                     "email": "gym2@example.com", "region": "KY",
                                     "new-role-svl": True, "new-role-player": "on", "new-role-admin": False})  # fmt: skip
    assert redirect_target(events) == "/dash/users"
    assert rows(db, User, User.username == "gymtwo")[0].roles == ["Player", "SVL"]


# --- player contact ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("who", WHO)
async def test_player_contact(world, who):
    db, tokens, _ = world
    before = snapshot(db)
    _, state = page_state(PlayerContactState, "/dash/playercontact", tokens.get(who))
    await state.load()
    await call(state.send, {"message": "   "})
    assert snapshot(db) == before and (state.errors.get("message") or state.error)
    events = await call(state.send, {"message": "Hello there"})
    if who == "anonymous":
        assert snapshot(db) == before and state.error
    else:
        assert redirect_target(events) == "/dash/playersent"
        mail = rows(db, OutboxMessage)[-1]
        assert mail.kind == "player_contact" and mail.to_addr == "hello@volley.example"
        assert "Hello there" in mail.body_text


# --- the account loader -------------------------------------------------------------------------------------------


def test_access_user_says_no_access_before_whether_a_user_exists(world):
    db, _, ids = world
    alice = actor_of(rows(db, User, User.id == ids["alice"])[0])
    root = actor_of(rows(db, User, User.id == ids["root"])[0])
    assert access_user(db, alice, str(ids["alice"])).username == "alice"
    assert access_user(db, root, ids["alice"]).username == "alice"
    for forged in (ids["ben"], 999999):
        with pytest.raises(Forbidden):
            access_user(db, alice, forged)
    for forged in (999999, "abc", True, -1, 2**40):
        with pytest.raises(NotFound):
            access_user(db, root, forged)
    with pytest.raises(Unauthorized):
        access_user(db, None, ids["alice"])


# --- what Delete Account asks ---------------------------------------------------------------------------------


async def test_delete_account_asks_about_ones_own_account_or_names_the_other_person(world):
    db, tokens, ids = world
    _, own = page_state(EditUserState, f"/dash/users/{ids['alice']}", tokens["alice"])
    await own.load()
    assert own.delete_question == "Are you sure you want to delete your account?"
    _, admin = page_state(EditUserState, f"/dash/users/{ids['alice']}", tokens["root"])
    await admin.load()
    alice = db.get(User, ids["alice"])
    assert admin.delete_question == (
        f"Are you sure you want to delete the account of {alice.first_name} {alice.last_name} (alice)? "
        "This cannot be undone."
    )
    _, admin_self = page_state(EditUserState, f"/dash/users/{ids['root']}", tokens["root"])
    await admin_self.load()
    assert admin_self.delete_question == "Are you sure you want to delete your account?"
