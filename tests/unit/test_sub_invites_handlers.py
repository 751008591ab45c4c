"""The invite list and the sub request emails setting, called as any connected browser could call them."""

from __future__ import annotations

import pytest

from tests.factories import login_token, make_user, player_world, rows, snapshot
from tests.harness import call, page_state
from volley_app.models import Rating, SubInvite, User
from volley_app.state.sub_invites import INVITED, InviteQueueState, SubNotifyState
from volley_app.state.sub_matching import SuggestionsState

WHO = ["anonymous", "alice", "ben", "svl", "root"]


@pytest.fixture
def world(db):
    w = player_world(db)
    make_user(db, "carl", sub=True, hitter_skill_level=Rating.B)
    db.commit()
    w["tokens"]["carl"] = login_token(db, "carl")
    w["ids"]["carl"] = rows(db, User, User.username == "carl")[0].id
    return db, w["tokens"], w["ids"], w["requests"]


def _full_snapshot(db):
    db.expire_all()
    return snapshot(db), [(i.user_id, i.state) for i in rows(db, SubInvite)], [(u.id, u.sub_notify) for u in rows(db, User)]


async def _queue(tokens, who, rid):
    _root, state = page_state(InviteQueueState, f"/dash/notes/{rid}", tokens.get(who))
    await state.load()
    return state


async def test_the_requestor_builds_reorders_and_invites_in_order(world):
    db, tokens, ids, reqs = world
    state = await _queue(tokens, "alice", reqs["open"])
    assert state.can_invite and {c["label"].split()[0] for c in state.choices} >= {"Ben", "Carl"}
    await call(state.add_pick, {"pick": str(ids["ben"])})
    await call(state.add_pick, {"pick": str(ids["carl"])})
    await call(state.add_pick, {"pick": str(ids["carl"])})
    assert "already on the list" in state.queue_error
    await call(state.move_up, 1)
    assert [p["value"] for p in state.picks] == [str(ids["carl"]), str(ids["ben"])]
    await call(state.move_down, 0)
    await call(state.remove, 5)
    assert [p["value"] for p in state.picks] == [str(ids["ben"]), str(ids["carl"])]
    await call(state.invite, {"if_nobody": "close"})
    assert state.queue_error == "" and state.queue_notice == INVITED
    db.expire_all()
    assert [(i.user_id, i.state) for i in rows(db, SubInvite)] == [(ids["ben"], "invited"), (ids["carl"], "queued")]
    again = await _queue(tokens, "alice", reqs["open"])
    assert [q["state"] for q in again.queue] == ["Invited", "Queued"] and not again.can_invite


@pytest.mark.parametrize("who", ["anonymous", "ben", "svl", "carl"])
async def test_another_player_cannot_invite_in_the_requestors_order(world, who):
    db, tokens, ids, reqs = world
    state = await _queue(tokens, who, reqs["open"])
    assert not state.can_invite and state.queue == []
    before = _full_snapshot(db)
    state.picks = [{"value": str(ids["carl"]), "label": "Carl"}]  # a browser may send any list
    await call(state.invite, {"if_nobody": "open"})
    assert state.queue_error != ""
    assert _full_snapshot(db) == before


@pytest.mark.parametrize("junk", [None, {}, {"pick": "999999"}, {"pick": "abc"}, {"pick": ["1"]}])
async def test_junk_picks_are_refused_in_words(world, junk):
    _db, tokens, _ids, reqs = world
    state = await _queue(tokens, "alice", reqs["open"])
    await call(state.add_pick, junk)
    assert state.picks == [] and state.queue_error == "Choose a sub to add"
    for bad in (None, "x", -1, 99, True, [0]):
        await call(state.move_up, bad)
        await call(state.move_down, bad)
        await call(state.remove, bad)
    assert state.picks == []


@pytest.mark.parametrize("who", WHO)
async def test_the_email_setting_is_each_users_own(world, who):
    db, tokens, ids, _reqs = world
    _root, state = page_state(SubNotifyState, "/dash/playerinfo", tokens.get(who))
    await state.load()
    assert state.is_sub is (who == "ben")
    before = _full_snapshot(db)
    await call(state.save_notify, {"sub_notify": "none"})
    db.expire_all()
    if who == "anonymous":
        assert state.notify_error != "" and _full_snapshot(db) == before
    else:
        assert state.notify_error == "" and db.get(User, ids[who]).sub_notify == "none"
        others = [u.sub_notify for u in rows(db, User) if u.id != ids[who]]
        assert set(others) == {"invites"}
    await call(state.save_notify, {"sub_notify": "everything"})
    assert state.notify_error != ""


async def test_best_first_fills_the_list_with_the_ranked_suggestions_and_the_invite_follows_it(world):
    db, tokens, ids, reqs = world
    state = await _queue(tokens, "alice", reqs["open"])
    await call(state.add_best)
    assert state.queue_error == ""
    ranked, _f = await _ranked(tokens, reqs["open"])
    assert [p["value"] for p in state.picks] == ranked[:5] and len(state.picks) >= 2
    await call(state.add_suggested, state.picks[0]["value"])
    assert "already on the list" in state.queue_error
    await call(state.invite, {"if_nobody": "open"})
    db.expire_all()
    assert [str(i.user_id) for i in sorted(rows(db, SubInvite), key=lambda i: i.position)] == ranked[:5]


async def _ranked(tokens, rid):
    _root, s = page_state(SuggestionsState, f"/dash/notes/{rid}", tokens.get("alice"))
    await s.load()
    return [r["id"] for r in s.suggested], s.suggest_error


@pytest.mark.parametrize("who", ["anonymous", "ben", "svl", "carl"])
async def test_another_player_gets_no_best_list_and_adds_no_suggested_sub(world, who):
    db, tokens, ids, reqs = world
    state = await _queue(tokens, who, reqs["open"])
    before = _full_snapshot(db)
    await call(state.add_best)
    assert state.picks == [] and state.queue_error != ""
    await call(state.add_suggested, "not-an-id")
    assert state.picks == [] and state.queue_error == "Choose a sub to add"
    assert _full_snapshot(db) == before


async def test_a_suggested_sub_is_added_by_id_with_the_servers_name(world):
    _db, tokens, ids, reqs = world
    state = await _queue(tokens, "alice", reqs["open"])
    await call(state.add_suggested, str(ids["carl"]))
    assert [p["value"] for p in state.picks] == [str(ids["carl"])] and state.picks[0]["label"].startswith("Carl")
