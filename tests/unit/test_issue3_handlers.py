"""Issue 3 state handlers called directly, as any connected browser could call them.

A permission table: every handler of the sub request and subs
pages x {anonymous, player (owner), other player, SVL, admin}. A refused call
shows a message and changes nothing in the database.
"""

from __future__ import annotations

import datetime as dt
import inspect

import pytest

from tests.factories import actor_of, login_token, make_user, rows
from tests.unit.test_state_handlers import _redirect_target, _root, _sub
from volley_app.models import OutboxMessage, Rating, Role, SubRequest, SubStatus, User, utcnow
from volley_app.pages.dash.home import PlayerHomeState
from volley_app.pages.dash.notes import NewNoteState, NoteDetailState, NotesListState, NotificationsState
from volley_app.pages.dash.subs_page import LOAD_FAILED, SubsState
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


# --- sub request detail: accept, decline, update, delete -----------------------------------------

# (who, handler, target, refused?)
DETAIL_TABLE = [
    *[(w, "accept", "open", w in ("anonymous", "alice", "svl")) for w in WHO],
    *[(w, "accept", "targeted", w != "ben") for w in WHO],
    *[(w, "decline", "targeted", w != "ben") for w in WHO],
    *[(w, "decline", "open", True) for w in WHO],
    *[(w, "save", "open", w != "alice") for w in WHO],
    *[(w, "delete", "targeted", w != "alice") for w in WHO],
]


@pytest.mark.parametrize(("who", "handler", "target", "refused"), DETAIL_TABLE)
async def test_detail_handlers_permission_table(world, who, handler, target, refused):
    db, tokens, ids, reqs = world
    before = snapshot(db)
    path = f"/dash/notes/{reqs[target]}"
    _, state = _state(NoteDetailState, path, _token(tokens, who))
    args = ()
    if handler == "save":
        args = ({"team": "Changed", "when": "2099-01-01T19:00", "svl": "Gym", "court": "", "skill_level": "B",
                 "sub_format": "Quads", "text": ""},)  # fmt: skip
    await _call(getattr(state, handler), *args)
    after = snapshot(db)
    if refused:
        assert after == before
        assert (state.action_error or state.form_error) != ""
    else:
        assert after != before
        assert state.action_error == "" and state.form_error == ""


@pytest.mark.parametrize("who", WHO)
async def test_detail_load_visibility(world, who):
    db, tokens, ids, reqs = world
    before = snapshot(db)
    for target, visible in (("open", who not in ("anonymous", "svl")), ("targeted", who in ("alice", "ben", "root"))):
        _, state = _state(NoteDetailState, f"/dash/notes/{reqs[target]}", _token(tokens, who))
        await state.load()
        assert (state.load_error == "") is visible, (target, state.load_error)
        if visible:
            assert state.note["team"] == "Net Ninjas"
            assert not any("@" in v for v in state.note.values())
            assert state.can_edit is (who == "alice")
            assert state.can_decline is (who == "ben" and target == "targeted")
            assert state.can_accept is ((who in ("ben", "root") and target == "open") or (who == "ben" and target == "targeted"))
        else:
            assert state.note == {} and not (state.can_accept or state.can_decline or state.can_edit)
            assert state.team == ""  # the edit form holds nothing either
    assert snapshot(db) == before


async def test_detail_with_a_forged_id_shows_not_found(world):
    db, tokens, _, _ = world
    for path in ("/dash/notes/abc", "/dash/notes/99999", "/dash/notes/-1"):
        _, state = _state(NoteDetailState, path, tokens["ben"])
        await state.load()
        assert state.load_error == sub_requests.NOT_FOUND


async def test_accept_then_another_sub_is_told_it_was_taken(world):
    db, tokens, ids, reqs = world
    make_user(db, "carl", sub=True)
    _, ben = _state(NoteDetailState, f"/dash/notes/{reqs['open']}", tokens["ben"])
    await ben.load()
    _, carl = _state(NoteDetailState, f"/dash/notes/{reqs['open']}", login_token(db, "carl"))
    await carl.load()
    assert ben.can_accept and carl.can_accept
    await ben.accept()
    assert ben.note["status"] == "Accepted" and ben.notice
    await carl.accept()
    assert carl.action_error == sub_requests.TAKEN
    assert carl.load_error == sub_requests.TAKEN  # the page says why, not just 'No access'
    assert carl.note == {} and not carl.can_accept
    req = rows(db, SubRequest, SubRequest.id == reqs["open"])[0]
    assert (req.status, req.recipient_id) == (SubStatus.ACCEPTED, ids["ben"])


async def test_delete_asks_naming_team_and_date_then_goes_to_my_requests(world):
    db, tokens, _, reqs = world
    _, state = _state(NoteDetailState, f"/dash/notes/{reqs['open']}", tokens["alice"])
    await state.load()
    assert "Net Ninjas" in state.note["confirm"] and state.note["confirm"].startswith("Are you sure")
    state.ask_delete()
    assert state.confirm_open
    events = await state.delete()
    assert _redirect_target(events) == "/dash/notes/notifications"
    assert [r.id for r in rows(db, SubRequest)] == [reqs["targeted"]]


# --- lists and home ---------------------------------------------------------------------------------


@pytest.mark.parametrize("who", WHO)
async def test_lists_are_refused_to_anonymous_and_svl(world, who):
    db, tokens, _, reqs = world
    before = snapshot(db)
    refused = who in ("anonymous", "svl")
    _, open_list = _state(NotesListState, "/dash/notes", _token(tokens, who))
    await open_list.load()
    assert (open_list.open_rows == []) is refused and (open_list.list_error != "") is refused
    _, notes = _state(NotificationsState, "/dash/notes/notifications", _token(tokens, who))
    await notes.load()
    assert (notes.list_error != "") is refused
    expected = {"alice": 2, "ben": 1, "root": 0}.get(who, 0)
    assert len(notes.note_rows) == expected
    _, subs_state = _state(SubsState, "/dash/subs", _token(tokens, who))
    await subs_state._reload()
    assert (subs_state.subs_error == LOAD_FAILED) is refused
    assert not any("@" in v for r in subs_state.sub_rows for v in r.values())
    assert snapshot(db) == before


@pytest.mark.parametrize(("who", "target"), [("root", "/dash/profile"), ("svl", "/dash/sessions")])
async def test_home_sends_admins_and_svls_away(world, who, target):
    _, tokens, _, _ = world
    _, state = _state(PlayerHomeState, "/dash", tokens[who])
    assert _redirect_target(await state.load()) == target
    assert state.open_rows == []


async def test_home_lists_open_requests_for_a_player(world):
    _, tokens, ids, reqs = world
    _, state = _state(PlayerHomeState, "/dash", tokens["ben"])
    assert await state.load() is None
    assert [r["id"] for r in state.open_rows] == [str(reqs["open"])]
    assert state.is_sub is True


# --- new requests ---------------------------------------------------------------------------------------


FORM = {"team": "Dig Deep", "when": "2099-05-01T19:00", "svl": "Sportsplex", "court": "3", "skill_level": "B",
        "sub_format": "Quads", "text": "Thanks"}  # fmt: skip


@pytest.mark.parametrize("who", WHO)
async def test_new_request_permission(world, who):
    db, tokens, ids, _ = world
    before = snapshot(db)
    _, state = _state(NewNoteState, "/dash/notes/new", _token(tokens, who))
    await state.load()
    events = await _call(state.submit, dict(FORM))
    if who in ("anonymous", "svl"):
        assert snapshot(db) == before and state.form_error
    else:
        assert _redirect_target(events).startswith("/dash/notes/")
        assert len(rows(db, SubRequest)) == 3


async def test_targeted_invite_preselects_the_sub_and_resolves_the_address_on_the_server(world):
    db, tokens, ids, _ = world
    _, state = _state(NewNoteState, f"/dash/notes/newspecific?sub={ids['ben']}", tokens["alice"])
    await state.load()
    assert state.targeted and state.recipient == str(ids["ben"])
    assert state.sub_options == [{"id": str(ids["ben"]), "label": "Ben Tester"}]
    before = len(rows(db, OutboxMessage))
    # a forged recipient (not a sub) is refused
    await _call(state.submit, dict(FORM) | {"recipient": str(ids["svl"])})
    assert state.field_errors["recipient"] and len(rows(db, OutboxMessage)) == before
    await _call(state.submit, dict(FORM) | {"recipient": str(ids["ben"])})
    mails = rows(db, OutboxMessage)
    assert len(mails) == before + 1 and mails[-1].to_addr == "ben@example.com"
