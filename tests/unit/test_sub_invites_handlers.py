"""The invite list and the sub request emails setting, called as any connected browser could call them."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.factories import actor_of, login_token, make_user, player_world, rows, snapshot
from tests.harness import call, page_state
from volley_app.models import NotificationPreference, Rating, SubInvite, User, utcnow
from volley_app.pages.dash.profile.my_info import PlayerInfoState
from volley_app.pages.dash.sub_requests.detail import SubRequestState
from volley_app.services.core import paging, ratelimit
from volley_app.services.mail import mail_lists
from volley_app.services.subs import request_changes
from volley_app.state.notifications import SubNotifyState
from volley_app.state.sub_invites import INVITED, InviteQueueState
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
    return snapshot(db), [(i.user_id, i.state) for i in rows(db, SubInvite)], [(p.user_id, p.kind, p.email) for p in rows(db, NotificationPreference)]


async def _queue(tokens, who, rid):
    """The invite list of the request page ``rid`` as ``who`` opens it (the page's load shows its list)."""
    _root, detail = page_state(SubRequestState, f"/dash/notes/{rid}", tokens.get(who))
    await call(detail.load)
    return await detail.get_state(InviteQueueState)


async def test_the_requestor_builds_reorders_and_invites_in_order(world):
    db, tokens, ids, reqs = world
    state = await _queue(tokens, "alice", reqs["open"])
    assert state.can_invite and {c["label"].split()[0] for c in state.sub_options} >= {"Ben", "Carl"}
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
    _root, info = page_state(PlayerInfoState, "/dash/playerinfo", tokens.get(who))
    await info.load()  # My Info shows the setting it read
    state = await info.get_state(SubNotifyState)
    assert state.is_sub is (who == "ben")
    before = _full_snapshot(db)
    await call(state.save_notify, {"sub_notify": "none"})
    db.expire_all()
    if who == "anonymous":
        assert state.notify_error != "" and _full_snapshot(db) == before
    else:
        assert state.notify_error == "" and mail_lists.setting_of(db, ids[who]) == "none"
        others = [mail_lists.setting_of(db, u.id) for u in rows(db, User) if u.id != ids[who]]
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


async def test_an_invite_list_sends_nothing_once_the_requestors_invites_are_used_and_says_why(world):
    db, tokens, ids, reqs = world
    spent = 1  # the world's targeted request
    while spent < ratelimit.INVITES_PER_REQUESTOR.limit:  # the rest of the day's targeted invites, to other subs
        ratelimit.sub_invite(db, ids["alice"], 10_000 + spent)
        spent += 1
    db.commit()
    state = await _queue(tokens, "alice", reqs["open"])
    await call(state.add_suggested, str(ids["carl"]))
    before = _full_snapshot(db)
    await call(state.invite, {"if_nobody": "open"})
    assert state.queue_error.startswith("Too many requests. Please wait") and state.queue_notice == ""
    assert _full_snapshot(db) == before and rows(db, SubInvite) == []


@pytest.fixture
def crowd(world):
    """The world and 1,200 more active subs: "Crowd0000 Sub" to "Crowd1199 Sub" (every one after Ben and Carl)."""
    db, tokens, ids, reqs = world
    db.add_all(
        User(username=f"crowd{i:04}", password_hash="x", email=f"crowd{i:04}@example.com", first_name=f"Crowd{i:04}",
             last_name="Sub", sub=True)
        for i in range(1200)
    )  # fmt: skip
    db.commit()
    return world


def _holds_a_page(state) -> None:
    """The browser's copy of the picker is one page: no more options than a page, no bookmark in it."""
    sent = state.dict()[state.get_full_name()]
    assert len(state.sub_options) <= paging.PAGE_SIZE
    assert all(len(v) <= paging.PAGE_SIZE for v in sent.values() if isinstance(v, list))
    assert state._mark_next not in repr(sent) or not state._mark_next


async def test_the_invite_picker_holds_one_page_and_finds_any_sub_by_name(crowd):
    db, tokens, ids, reqs = crowd
    state = await _queue(tokens, "alice", reqs["open"])
    assert state.can_invite and state.has_next and not state.has_previous
    _holds_a_page(state)
    assert state.page_summary == "Showing 1–25 of 1,000+"  # the total is counted up to a cap
    assert [o["label"] for o in state.sub_options[:2]] == ["Ben Tester", "Carl Tester"]
    for _ in range(3):
        await call(state.next_page)
        _holds_a_page(state)
    assert state.page_summary == "Showing 76–100 of 1,000+" and state.has_previous
    assert state.sub_options[0]["label"] == "Crowd0073 Sub"
    await call(state.previous_page)
    assert state.sub_options[0]["label"] == "Crowd0048 Sub"
    await call(state.search, {"q": "crowd1187"})  # far past any first page
    assert state.sub_options == [{"value": state.sub_options[0]["value"], "label": "Crowd1187 Sub"}]
    assert state.page_summary == "Showing 1–1 of 1" and not state.has_next and state.queue_error == ""
    await call(state.add_pick, {"pick": state.sub_options[0]["value"]})
    await call(state.search, {"q": "carl"})
    await call(state.add_pick, {"pick": str(ids["carl"])})
    assert [p["label"] for p in state.picks] == ["Crowd1187 Sub", "Carl Tester"]
    await call(state.search, {"q": "sub"})  # a last name: every crowd sub, a page at a time
    _holds_a_page(state)
    assert state.has_next and state.sub_options[0]["label"] == "Crowd0000 Sub"
    await call(state.clear_search)
    assert state.sub_options[0]["label"] == "Ben Tester" and state.filters == {"q": ""}
    await call(state.invite, {"if_nobody": "open"})
    assert state.queue_notice == INVITED
    db.expire_all()
    invited = sorted(rows(db, SubInvite), key=lambda i: i.position)
    crowd1187 = rows(db, User, User.username == "crowd1187")[0].id
    assert [(i.user_id, i.state) for i in invited] == [(crowd1187, "invited"), (ids["carl"], "queued")]


async def test_a_search_that_finds_nobody_offers_nobody(crowd):
    _db, tokens, _ids, reqs = crowd
    state = await _queue(tokens, "alice", reqs["open"])
    await call(state.search, {"q": "nobody by this name"})
    assert state.sub_options == [] and not state.has_next and state.page_summary == ""
    await call(state.search, {"q": ["crowd"]})  # not text: no search
    assert len(state.sub_options) == paging.PAGE_SIZE


@pytest.mark.parametrize("who", ["anonymous", "ben", "svl", "carl", "root"])
async def test_the_invite_picker_is_only_the_requestors(crowd, who):
    db, tokens, ids, reqs = crowd
    state = await _queue(tokens, who, reqs["open"])
    assert not state.can_invite and state.sub_options == [] and not state.has_next
    before = _full_snapshot(db)
    await call(state.search, {"q": "crowd1187"})
    await call(state.next_page)
    await call(state.clear_search)
    assert state.sub_options == [] and not state.has_next and state.page_summary == ""
    await call(state.add_pick, {"pick": str(ids["carl"])})
    assert state.picks == [] and state.queue_error == "Choose a sub to add"
    await call(state.add_suggested, str(ids["carl"]))
    assert state.picks == []
    state.picks = [{"value": str(ids["carl"]), "label": "Carl"}]  # a browser may send any list
    await call(state.invite, {"if_nobody": "open"})
    assert state.queue_error != ""
    assert _full_snapshot(db) == before


async def test_a_picker_opened_on_ones_own_request_lists_nothing_for_anothers(crowd):
    """A player who may invite on their own request, sending the picker's events from another's request page."""
    from tests.harness import navigate

    db, tokens, ids, reqs = crowd
    carls = request_changes.create(db, actor_of(rows(db, User, User.id == ids["carl"])[0]), team="Carl's Crew",
                                date=utcnow() + dt.timedelta(days=2), svl="Gym", skill_level="C", format="6s")  # fmt: skip
    db.commit()
    root, detail = page_state(SubRequestState, f"/dash/notes/{carls}", tokens["carl"])
    await call(detail.load)
    state = await detail.get_state(InviteQueueState)
    assert state.can_invite and len(state.sub_options) == paging.PAGE_SIZE
    navigate(root, f"/dash/notes/{reqs['open']}")  # alice's request, without loading its page
    before = _full_snapshot(db)
    await call(state.search, {"q": "crowd1187"})
    assert state.sub_options == [] and state.queue_error != ""
    await call(state.add_pick, {"pick": str(ids["ben"])})
    assert state.picks == []
    await call(state.add_suggested, str(ids["ben"]))
    assert state.picks == []
    assert _full_snapshot(db) == before
