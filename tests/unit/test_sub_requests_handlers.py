"""Sub request, subs list and player home handlers called directly, as any connected browser could call them.

A permission table: every handler of these pages x {anonymous, player (owner),
other player, SVL, admin}. A refused call shows a message and changes nothing in the database.
"""

from __future__ import annotations

import pytest

from tests.factories import login_token, make_user, player_world, rows, snapshot
from tests.harness import call, page_state, redirect_target, substate
from volley_app import registry, routes
from volley_app.models import OutboxMessage, SubRequest, SubStatus
from volley_app.pages.dash.home import PlayerHomeState
from volley_app.pages.dash.sub_requests.detail import SubRequestState
from volley_app.pages.dash.sub_requests.my_requests import NotificationsState
from volley_app.pages.dash.sub_requests.new import NewSubRequestState
from volley_app.pages.dash.sub_requests.open_list import SubRequestListState
from volley_app.pages.dash.subs import LOAD_FAILED, SubsState
from volley_app.services.subs import request_lists, request_replies
from volley_app.services.subs.access import SUB_REQUEST_NOT_FOUND
from volley_app.state.sub_invites import InviteQueueState

WHO = ["anonymous", "alice", "ben", "svl", "root"]


@pytest.fixture
def world(db):
    w = player_world(db)
    return db, w["tokens"], w["ids"], w["requests"]



def _state(cls, path: str, tokens: dict, who: str):
    return page_state(cls, path, tokens.get(who))[1]


# --- sub request detail: accept, decline, update, delete -----------------------------------------

EDITED = {"team": "Changed", "when": "2099-01-01T19:00", "svl": "Gym", "court": "", "skill_level": "B",
          "sub_format": "Quads", "text": ""}  # fmt: skip

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
    state = _state(SubRequestState, f"/dash/notes/{reqs[target]}", tokens, who)
    args = (dict(EDITED),) if handler == "save" else ()
    await call(getattr(state, handler), *args)
    after = snapshot(db)
    if refused:
        assert after == before
        assert (state.action_error or state.error) != ""
    else:
        assert after != before
        assert state.action_error == "" and state.error == ""


@pytest.mark.parametrize("who", WHO)
async def test_detail_load_visibility(world, who):
    db, tokens, ids, reqs = world
    before = snapshot(db)
    for target, visible in (("open", who not in ("anonymous", "svl")), ("targeted", who in ("alice", "ben", "root"))):
        state = _state(SubRequestState, f"/dash/notes/{reqs[target]}", tokens, who)
        await state.load()
        assert (state.load_error == "") is visible, (target, state.load_error)
        if visible:
            assert state.note["team"] == "Net Ninjas"
            assert not any("@" in v for v in state.note.values())
            assert state.may["can_edit"] is (who == "alice")
            assert state.may["can_decline"] is (who == "ben" and target == "targeted")
            assert state.may["can_accept"] is ((who in ("ben", "root") and target == "open") or (who == "ben" and target == "targeted"))
            assert (state.record != {}) is (who == "alice")  # only the requestor's page holds the edit form
        else:
            assert state.note is None and not (state.may["can_accept"] or state.may["can_decline"] or state.may["can_edit"])
            assert state.record == {}  # the edit form holds nothing either
    assert snapshot(db) == before


async def test_detail_with_a_forged_id_shows_not_found(world):
    db, tokens, _, _ = world
    for path in ("/dash/notes/abc", "/dash/notes/99999", "/dash/notes/-1"):
        state = _state(SubRequestState, path, tokens, "ben")
        await state.load()
        assert state.load_error == SUB_REQUEST_NOT_FOUND


async def test_opening_a_request_reads_it_once_for_the_page_and_its_invite_list(world, monkeypatch):
    db, tokens, _ids, reqs = world
    reads = []
    service = request_lists.detail

    def counted(*args, **kwargs):
        reads.append(kwargs.get("request_id"))
        return service(*args, **kwargs)

    monkeypatch.setattr(request_lists, "detail", counted)
    root, detail = page_state(SubRequestState, f"/dash/notes/{reqs['open']}", tokens["alice"])
    opened = next(p for p in registry.discover() if p.route == routes.SUB_REQUEST)
    for load in opened.on_load:  # every load the page runs when it opens
        await call(getattr(substate(root, load.state), load.fn.__name__))
    assert reads == [str(reqs["open"])]
    queue = substate(root, InviteQueueState)
    assert detail.note is not None and detail.note["team"] == "Net Ninjas" and detail.may["can_edit"]
    assert queue.can_invite and queue.queue == [] and queue.sub_options != []  # the list shows the same read


async def test_accept_then_another_sub_is_told_it_was_taken(world):
    db, tokens, ids, reqs = world
    make_user(db, "carl", sub=True)
    ben = _state(SubRequestState, f"/dash/notes/{reqs['open']}", tokens, "ben")
    await ben.load()
    _root, carl = page_state(SubRequestState, f"/dash/notes/{reqs['open']}", login_token(db, "carl"))
    await carl.load()
    assert ben.may["can_accept"] and carl.may["can_accept"]
    await ben.accept()
    assert ben.note["status"] == "Accepted" and ben.notice
    await carl.accept()
    assert carl.action_error == request_replies.TAKEN
    assert carl.load_error == request_replies.TAKEN  # the page says why, not just 'No access'
    assert carl.note is None and not carl.may["can_accept"]
    req = rows(db, SubRequest, SubRequest.id == reqs["open"])[0]
    assert (req.status, req.recipient_id) == (SubStatus.ACCEPTED, ids["ben"])


async def test_delete_asks_naming_team_and_date_then_goes_to_my_requests(world):
    db, tokens, _, reqs = world
    state = _state(SubRequestState, f"/dash/notes/{reqs['open']}", tokens, "alice")
    await state.load()
    assert "Net Ninjas" in state.note["confirm"] and state.note["confirm"].startswith("Are you sure")
    events = await state.delete()
    assert redirect_target(events) == "/dash/notes/notifications"
    assert [r.id for r in rows(db, SubRequest)] == [reqs["targeted"]]


async def test_the_edit_form_shows_the_request_and_saves_the_submitted_form(world):
    db, tokens, _, reqs = world
    state = _state(SubRequestState, f"/dash/notes/{reqs['open']}", tokens, "alice")
    await state.load()
    assert state.record["team"] == "Net Ninjas" and state.record["sub_format"] == "6s"
    assert state.record["when"].count("T") == 1  # a datetime-local value, venue time
    key = state.form_key
    await call(state.save, dict(EDITED))
    assert state.notice == "Sub request updated." and not state.busy
    assert state.record["team"] == "Changed" and state.form_key > key
    req = rows(db, SubRequest, SubRequest.id == reqs["open"])[0]
    assert (req.team, req.svl, req.court) == ("Changed", "Gym", None)


async def test_an_edit_with_bad_fields_marks_them_under_their_inputs(world):
    db, tokens, _, reqs = world
    state = _state(SubRequestState, f"/dash/notes/{reqs['open']}", tokens, "alice")
    await state.load()
    before = snapshot(db)
    await call(state.save, dict(EDITED) | {"team": " ", "when": "2000-01-01T10:00", "sub_format": "7s"})
    assert state.error == "" and state.notice == ""
    assert set(state.errors) == {"team", "when", "sub_format"}  # the inputs' names, not the service's
    state.fixed("when")
    assert set(state.errors) == {"team", "sub_format"} and state.error == ""
    assert snapshot(db) == before


# --- lists and home ---------------------------------------------------------------------------------


@pytest.mark.parametrize("who", WHO)
async def test_lists_are_refused_to_anonymous_and_svl(world, who):
    db, tokens, _, reqs = world
    before = snapshot(db)
    refused = who in ("anonymous", "svl")
    open_list = _state(SubRequestListState, "/dash/notes", tokens, who)
    await open_list.load()
    assert (open_list.rows == []) is refused and (open_list.list_error != "") is refused
    notes = _state(NotificationsState, "/dash/notes/notifications", tokens, who)
    await notes.load()
    assert (notes.list_error != "") is refused
    expected = {"alice": 2, "ben": 1, "root": 0}.get(who, 0)
    assert len(notes.rows) == expected
    subs_state = _state(SubsState, "/dash/subs", tokens, who)
    await subs_state._reload()
    assert (subs_state.subs_error == LOAD_FAILED) is refused
    assert not any("@" in v for r in subs_state.sub_rows for v in r.values())
    assert snapshot(db) == before


async def test_subs_list_sends_svls_to_their_sessions_and_shows_players_the_subs(world):
    db, tokens, ids, _ = world
    svl = _state(SubsState, "/dash/subs", tokens, "svl")
    assert redirect_target(await svl.load()) == "/dash/sessions"
    assert svl.sub_rows == []
    alice = _state(SubsState, "/dash/subs", tokens, "alice")
    await alice.load()
    assert [r["first_name"] for r in alice.sub_rows] == ["Ben"]
    assert alice.sub_rows[0]["invite"] == f"/dash/notes/newspecific?sub={ids['ben']}"
    assert alice.is_sub is False and alice.sub_rows[0]["me"] == ""
    ben = _state(SubsState, "/dash/subs", tokens, "ben")
    await ben.load()
    assert [(r["first_name"], r["me"]) for r in ben.sub_rows] == [("Ben", "1")]  # no Invite on one's own row


@pytest.mark.parametrize(("who", "target"), [("root", "/dash/profile"), ("svl", "/dash/sessions")])
async def test_home_sends_admins_and_svls_away(world, who, target):
    _, tokens, _, _ = world
    state = _state(PlayerHomeState, "/dash", tokens, who)
    assert redirect_target(await state.load()) == target
    assert state.open_rows == []


async def test_home_lists_open_requests_for_a_player(world):
    _, tokens, ids, reqs = world
    state = _state(PlayerHomeState, "/dash", tokens, "ben")
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
    state = _state(NewSubRequestState, "/dash/notes/new", tokens, who)
    await state.load()
    events = await call(state.submit, dict(FORM))
    if who in ("anonymous", "svl"):
        assert snapshot(db) == before and state.error
    else:
        assert redirect_target(events).startswith("/dash/notes/")
        assert len(rows(db, SubRequest)) == 3


async def test_targeted_invite_preselects_the_sub_and_resolves_the_address_on_the_server(world):
    db, tokens, ids, _ = world
    state = _state(NewSubRequestState, f"/dash/notes/newspecific?sub={ids['ben']}", tokens, "alice")
    await state.load()
    assert state.targeted and state.recipient == str(ids["ben"])
    assert state.sub_options == [{"value": str(ids["ben"]), "label": "Ben Tester"}]
    before = len(rows(db, OutboxMessage))
    # a forged recipient (not a sub) is refused
    await call(state.submit, dict(FORM) | {"recipient": str(ids["svl"])})
    assert state.errors["recipient"] and len(rows(db, OutboxMessage)) == before
    await call(state.submit, dict(FORM) | {"recipient": str(ids["ben"])})
    mails = rows(db, OutboxMessage)
    assert len(mails) == before + 1 and mails[-1].to_addr == "ben@example.com"


async def test_an_invite_leaves_the_inviter_off_the_list_and_ignores_an_unknown_sub(world):
    _, tokens, ids, _ = world
    state = _state(NewSubRequestState, f"/dash/notes/newspecific?sub={ids['svl']}", tokens, "ben")
    await state.load()
    assert state.sub_options == [] and state.recipient == ""


def test_the_request_form_has_no_handler_that_follows_typing():
    # Create is enabled by the browser once the required fields are filled (tests/e2e/test_players.py).
    assert "edit" not in NewSubRequestState.event_handlers
    assert not any(name.startswith("set_") and name != "setvar" for name in NewSubRequestState.event_handlers)


async def test_a_new_request_with_bad_fields_marks_them_and_typing_clears_the_mark(world):
    db, tokens, _, _ = world
    before = snapshot(db)
    state = _state(NewSubRequestState, "/dash/notes/new", tokens, "alice")
    await state.load()
    await call(state.submit, dict(FORM) | {"when": "", "skill_level": "Z"})
    assert state.error == "" and set(state.errors) == {"when", "skill_level"}
    state.fixed("when")  # the date field, edited while its message shows
    assert set(state.errors) == {"skill_level"} and state.error == ""
    assert snapshot(db) == before
