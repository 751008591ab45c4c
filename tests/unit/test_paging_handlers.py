"""Paged list screens called as a browser would: the state holds one page, Previous/Next, search, refusals."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlmodel import col, select

from tests.factories import actor_of, login_token, make_user, player_world
from tests.harness import call, page_state
from volley_app import routes
from volley_app.models import Gender, SkillLevel, SubFormat, SubRequest, User, utcnow
from volley_app.pages.dash.home import PlayerHomeState
from volley_app.pages.dash.sub_requests.my_requests import NotificationsState
from volley_app.pages.dash.sub_requests.open_list import SubRequestListState
from volley_app.pages.dash.subs import SubsState
from volley_app.pages.dash.users.list import LOAD_FAILED, UsersListState
from volley_app.services.core import paging

DAY = dt.timedelta(days=1)


@pytest.fixture
def world(db):
    w = player_world(db)  # alice's open request and her invite of ben, three days ahead
    alice = w["ids"]["alice"]
    start = (utcnow() + 5 * DAY).replace(microsecond=0)
    db.add_all(
        SubRequest(requestor_id=alice, svl="Sportsplex", team=f"Team {i:02}", date=start + i * DAY,
                   skill_level=SkillLevel.C, format=SubFormat.SIXES)
        for i in range(59)
    )  # fmt: skip
    db.add_all(
        User(username=f"sub{i:02}", password_hash="x", email=f"sub{i:02}@example.com", first_name=f"Sub{i:02}",
             last_name="Player", sub=True, gender=Gender.FEMALE)
        for i in range(40)
    )  # fmt: skip
    db.commit()
    return db, w["tokens"]


def _at(cls, path, tokens, who):
    return page_state(cls, path, tokens.get(who))[1]


async def _walk(state, rows_attr: str) -> list[tuple[str, int]]:
    """Next until the last page: each page's summary and row count (never more than a page in state)."""
    seen = [(state.page_summary, len(getattr(state, rows_attr)))]
    while state.has_next:
        await call(state.next_page)
        seen.append((state.page_summary, len(getattr(state, rows_attr))))
    return seen


async def test_open_requests_state_holds_one_page_and_pages_both_ways(world):
    _db, tokens = world
    s = _at(SubRequestListState, routes.SUB_REQUESTS, tokens, "ben")
    await call(s.load)
    assert len(s.rows) == paging.PAGE_SIZE and s.has_next and not s.has_previous
    first_ids = [r["id"] for r in s.rows]
    assert await _walk(s, "rows") == [
        ("Showing 1–25 of 60", 25), ("Showing 26–50 of 60", 25), ("Showing 51–60 of 60", 10)
    ]  # fmt: skip
    await call(s.previous_page)
    assert s.page_summary == "Showing 26–50 of 60" and len(s.rows) == 25
    await call(s.previous_page)
    assert s.page_summary == "Showing 1–25 of 60" and [r["id"] for r in s.rows] == first_ids
    await call(s.previous_page)  # nothing before the first page
    assert s.page_summary == "Showing 1–25 of 60"


async def test_the_bookmarks_stay_on_the_server(world):
    _db, tokens = world
    s = _at(SubRequestListState, routes.SUB_REQUESTS, tokens, "ben")
    await call(s.load)
    sent = s.dict()
    flat = repr(sent)
    assert s._mark_next and s._mark_next not in flat
    assert all(len(v) <= paging.PAGE_SIZE for v in sent[s.get_full_name()].values() if isinstance(v, list))


async def test_a_poll_reads_the_page_shown_again(world):
    _db, tokens = world
    s = _at(SubRequestListState, routes.SUB_REQUESTS, tokens, "ben")
    await call(s.load)
    await call(s.next_page)
    shown = [r["id"] for r in s.rows]
    await s._reload()
    assert [r["id"] for r in s.rows] == shown and s.page_summary == "Showing 26–50 of 60"


async def test_search_and_clear_open_requests(world):
    _db, tokens = world
    s = _at(SubRequestListState, routes.SUB_REQUESTS, tokens, "ben")
    await call(s.load)
    await call(s.search, {"q": "team 4", "venue": "sports", "date_from": "", "date_to": "", "other": "x"})
    assert [r["team"] for r in s.rows] == [f"Team {i}" for i in range(40, 50)]
    assert s.filters == {"q": "team 4", "venue": "sports", "date_from": "", "date_to": ""}
    assert s.page_summary == "Showing 1–10 of 10" and not s.has_next
    await call(s.search, {"date_from": "someday"})
    assert s.rows == [] and s.filter_error == "From must be a date" and s.list_error == ""
    await call(s.clear_search)
    assert len(s.rows) == 25 and s.filter_error == "" and s.filters["q"] == ""


async def test_a_load_draws_the_search_box_afresh_only_to_empty_it(world):
    _db, tokens = world
    s = _at(SubRequestListState, routes.SUB_REQUESTS, tokens, "ben")
    await call(s.load)
    key = s.filter_key
    await call(s.load)  # opened again with no search on: what the person is typing meanwhile stays in the box
    assert s.filter_key == key
    await call(s.search, {"q": "team 4"})
    await call(s.load)  # opened again after a search: the box is emptied with the filters
    assert s.filter_key == key + 1 and s.filters["q"] == ""
    await call(s.clear_search)  # Clear empties the box, even of what was typed and not sent
    assert s.filter_key == key + 2


async def test_my_requests_pages(world):
    _db, tokens = world
    s = _at(NotificationsState, routes.MY_SUB_REQUESTS, tokens, "alice")
    await call(s.load)
    assert [c for _s, c in await _walk(s, "rows")] == [25, 25, 11]


async def test_home_holds_one_page_of_open_requests(world):
    _db, tokens = world
    s = _at(PlayerHomeState, routes.DASH, tokens, "ben")
    await call(s.load)
    assert len(s.open_rows) == 25 and s.page_summary == "Showing 1–25 of 60"
    await call(s.next_page)
    assert len(s.open_rows) == 25 and s.page_summary == "Showing 26–50 of 60"


async def test_subs_search_by_name_and_pages(world):
    _db, tokens = world
    s = _at(SubsState, routes.DASH_SUBS, tokens, "alice")
    await call(s.load)
    assert [c for _s, c in await _walk(s, "sub_rows")] == [25, 16]  # ben and the 40 others
    await call(s.search, {"q": "sub1"})
    assert [r["first_name"] for r in s.sub_rows] == [f"Sub1{i}" for i in range(10)]
    await call(s.search, {"q": "", "gender": "Male"})
    assert s.sub_rows == [] and s.page_summary == ""


async def test_subs_list_refuses_nobody(world):
    _db, _tokens = world
    s = _at(SubsState, routes.DASH_SUBS, {}, "anonymous")
    await call(s.load)
    await call(s.next_page)
    await call(s.search, {"q": "sub"})
    assert s.sub_rows == []


async def test_admin_searches_users_one_page_at_a_time(world):
    _db, tokens = world
    s = _at(UsersListState, routes.USERS, tokens, "root")
    await call(s.load)
    assert len(s.user_rows) == 25 and s.page_summary == "Showing 1–25 of 44"
    await call(s.search, {"q": "ROOT"})
    assert [r["username"] for r in s.user_rows] == ["root"]
    await call(s.search, {"q": "nobody-by-this-name"})
    assert s.user_rows == [] and s.empty_text == "No users match “nobody-by-this-name”."


async def test_a_search_sent_while_the_page_opens_is_not_undone_by_its_load(world):
    """The search reached the server before the page's own load (it was typed while the page opened): the load
    shows that search, not the whole list; a later visit starts with no search."""
    _db, tokens = world
    root, s = page_state(UsersListState, routes.USERS, tokens["root"])
    root.is_hydrated = False  # the page's load is on its way
    await call(s.search, {"q": "ROOT"})
    await call(s.load)
    assert s.filters["q"] == "ROOT" and [r["username"] for r in s.user_rows] == ["root"]
    root.is_hydrated = True
    await call(s.load)  # the page opened again
    assert s.filters["q"] == "" and s.page_summary == "Showing 1–25 of 44"
    await call(s.search, {"q": "ROOT"})  # searched on an open page, then opened again: no search
    await call(s.load)
    assert s.filters["q"] == "" and s.page_summary == "Showing 1–25 of 44"


@pytest.mark.parametrize("who", ["anonymous", "alice", "svl"])
async def test_only_admins_list_users(world, who):
    db, tokens = world
    make_user(db, "zed")
    s = _at(UsersListState, routes.USERS, tokens, who)
    await call(s.load)
    await call(s.next_page)
    await call(s.search, {"q": "z"})
    assert s.user_rows == [] and s.users_error == LOAD_FAILED and s.page_summary == ""


async def test_a_logged_in_player_token_is_not_an_admin(world):
    db, _tokens = world
    make_user(db, "pat")
    s = _at(UsersListState, routes.USERS, {"pat": login_token(db, "pat")}, "pat")
    await call(s.load)
    assert s.user_rows == []


# --- operator lists: sessions, a session's leagues, teams, the waitlist; the invite's sub picker -------------------


@pytest.fixture
def operator_world(world):
    from tests.factories import add_league, add_league_session
    from volley_app.models import Team

    db, tokens = world
    svl = db.exec(select(User).where(User.username == "svl")).one()
    now = utcnow()
    sids = [add_league_session(db, svl, f"Season {i:02}", now + i * DAY, now + (i + 60) * DAY) for i in range(30)]
    league = add_league(db, svl, sids[0], start=now + 2 * DAY)
    for i in range(27):
        add_league(db, svl, sids[0], start=now + (i + 3) * DAY)
    assert league.id is not None
    db.add_all(Team(league_id=league.id, team_name=f"Crew {i:02}", waitlist=i >= 31) for i in range(60))
    db.commit()
    return db, tokens, sids[0], league.id


def _holds_one_page(state) -> None:
    sent = state.dict()[state.get_full_name()]
    assert all(len(v) <= paging.PAGE_SIZE for v in sent.values() if isinstance(v, list))


async def test_sessions_state_holds_one_page_and_searches(operator_world):
    from volley_app.pages.dash.sessions.list import SessionsState

    _db, tokens, _sid, _lid = operator_world
    s = _at(SessionsState, routes.SESSIONS, tokens, "svl")
    await call(s.load)
    _holds_one_page(s)
    assert [c for _s, c in await _walk(s, "session_rows")] == [25, 5]
    await call(s.search, {"q": "season 1"})
    assert [r["name"] for r in s.session_rows] == [f"Season {i}" for i in range(10, 20)]
    for who in ("alice", "anonymous"):
        s = _at(SessionsState, routes.SESSIONS, tokens, who)
        await call(s.load)
        await call(s.search, {"q": "season"})
        assert s.session_rows == [] and s.error


async def test_a_sessions_leagues_state_holds_one_page_for_its_svl_only(operator_world):
    from volley_app.pages.dash.sessions.leagues import SessionLeaguesState

    _db, tokens, sid, _lid = operator_world
    path = f"{routes.SESSION_LEAGUES}?session={sid}"
    s = _at(SessionLeaguesState, path, tokens, "svl")
    await call(s.load)
    _holds_one_page(s)
    assert s.session_name == "Season 00" and [c for _s, c in await _walk(s, "league_rows")] == [25, 3]
    await call(s.search, {"q": "", "day": "Tuesday"})
    assert s.league_rows == []
    for who in ("alice", "anonymous"):
        s = _at(SessionLeaguesState, path, tokens, who)
        await call(s.load)
        await call(s.next_page)
        await call(s.search, {"q": ""})
        assert s.league_rows == [] and s.sid == "" and s.error


async def test_teams_and_waitlist_states_hold_one_page(operator_world):
    from volley_app.pages.dash.teams.list import TeamsState
    from volley_app.pages.dash.teams.waitlist import WaitlistState

    _db, tokens, _sid, lid = operator_world
    s = _at(TeamsState, f"{routes.TEAMS}?league={lid}", tokens, "svl")
    await call(s.load)
    _holds_one_page(s)
    assert [c for _s, c in await _walk(s, "team_rows")] == [25, 25, 10]
    await call(s.search, {"q": "crew 4"})
    assert [r["team_name"] for r in s.team_rows] == [f"Crew {i}" for i in range(40, 50)]
    w = _at(WaitlistState, routes.WAITLIST, tokens, "svl")
    await call(w.load)
    _holds_one_page(w)
    assert [c for _s, c in await _walk(w, "team_rows")] == [25, 4]
    await call(w.previous_page)
    assert w.page_summary == "Showing 1–25 of 29" and all(r["can_promote"] for r in w.team_rows)
    p = _at(TeamsState, routes.TEAMS, tokens, "alice")  # a player sees the teams they captain: none
    await call(p.load)
    assert p.team_rows == []


async def test_the_invite_picker_holds_one_page_of_subs_and_keeps_the_chosen_one(world):
    from volley_app.pages.dash.sub_requests.new import NewSubRequestState

    db, tokens = world
    last = db.exec(select(User).where(User.username == "sub39")).one()
    s = _at(NewSubRequestState, f"{routes.SUB_REQUEST_INVITE}?sub={last.id}", tokens, "alice")
    await call(s.load)
    assert s.recipient == str(last.id) and s.sub_options[0] == {"value": str(last.id), "label": "Sub39 Player"}
    assert len(s.sub_options) == paging.PAGE_SIZE + 1 and s.has_next  # the chosen sub, then a page by name
    await call(s.next_page)
    assert s.sub_options[-1]["value"] == str(last.id) and len(s.sub_options) == 16  # ben and 40 subs: 41
    await call(s.search, {"q": "sub0"})
    assert [o["label"] for o in s.sub_options] == ["Sub39 Player"] + [f"Sub0{i} Player" for i in range(10)]
    n = _at(NewSubRequestState, routes.SUB_REQUEST_NEW, tokens, "alice")  # an open request has no picker
    await call(n.load)
    assert n.sub_options == [] and not n.has_next


async def test_the_archive_state_holds_one_page_for_admins_only(world):
    from volley_app.pages.dash.admin.archive import ArchiveState

    db, tokens = world
    for u in db.exec(select(User).where(col(User.username).like("sub%"))).all():
        u.archived_at = utcnow()
    db.commit()
    s = _at(ArchiveState, routes.ARCHIVE, tokens, "root")
    await call(s.load)
    _holds_one_page(s)
    assert [c for _s, c in await _walk(s, "archived_rows")] == [25, 15]
    await call(s.search, {"q": "sub0", "kind": "user"})
    assert len(s.archived_rows) == 10 and {r["what"] for r in s.archived_rows} == {"Accounts"}
    for who in ("alice", "svl", "anonymous"):
        s = _at(ArchiveState, routes.ARCHIVE, tokens, who)
        await call(s.load)
        await call(s.search, {"q": "sub"})
        assert s.archived_rows == [] and s.error


async def test_the_email_jobs_state_holds_one_page(world):
    from volley_app.models import EmailAllJob
    from volley_app.pages.dash.admin.email_all import EmailAllState

    db, tokens = world
    db.add_all(EmailAllJob(subject=f"Notice {i:02}", body_text="Hi") for i in range(30))
    db.commit()
    s = _at(EmailAllState, routes.EMAIL_ALL, tokens, "root")
    await call(s.load)
    _holds_one_page(s)
    assert s.jobs[0]["subject"] == "Notice 29" and [c for _s, c in await _walk(s, "jobs")] == [25, 5]
    await call(s.search, {"q": "notice 1"})
    assert len(s.jobs) == 10
    s = _at(EmailAllState, routes.EMAIL_ALL, tokens, "svl")
    await call(s.load)
    await call(s.next_page)
    assert s.jobs == [] and s.error


async def test_the_reopen_picker_searches_and_pages_and_holds_one_page(world):
    from volley_app.pages.dash.sub_requests.detail import REOPENED, SubRequestState
    from volley_app.services.subs import request_replies

    db, tokens = world
    invite = db.exec(select(SubRequest).where(col(SubRequest.recipient_id).is_not(None))).one()
    ben = db.get(User, invite.recipient_id)
    path = routes.sub_request_path(invite.id)
    s = _at(SubRequestState, path, tokens, "alice")
    await call(s.load)
    assert not s.may["can_reopen"] and s.sub_options == [] and not s.has_next  # not declined: nothing to reopen
    request_replies.decline(db, actor_of(ben), invite.id)
    db.commit()
    await call(s.load)
    assert s.may["can_reopen"] and len(s.sub_options) == paging.PAGE_SIZE and s.has_next and not s.has_previous
    assert s.page_summary == "Showing 1–25 of 41"  # ben and the 40 subs, never alice herself
    await call(s.next_page)
    assert len(s.sub_options) == 16 and s.has_previous and not s.has_next
    assert s.page_summary == "Showing 26–41 of 41"
    last = s.sub_options[-1]
    await call(s.search, {"q": "sub0"})
    assert [o["label"] for o in s.sub_options] == [f"Sub0{i} Player" for i in range(10)]
    await call(s.read_again)  # the request shown again (a poll, an invite): the search typed in the picker stays
    assert [o["label"] for o in s.sub_options] == [f"Sub0{i} Player" for i in range(10)] and s.filters["q"] == "sub0"
    await call(s.load)  # the page opened again: its picker starts over
    assert s.filters["q"] == "" and len(s.sub_options) == paging.PAGE_SIZE
    s.is_hydrated = False  # opened again, and a search typed before the page's load reached the server
    await call(s.search, {"q": "sub0"})
    await call(s.load)
    assert s.filters["q"] == "sub0" and len(s.sub_options) == 10  # the load did not undo it
    s.is_hydrated = True
    await call(s.load)
    assert s.filters["q"] == "" and len(s.sub_options) == paging.PAGE_SIZE
    await call(s.reopen, {"recipient": last["value"]})  # a sub found on the second page
    assert s.notice == REOPENED
    db.expire_all()
    assert db.get(SubRequest, invite.id).recipient_id == int(last["value"])
    assert not s.may["can_reopen"] and s.sub_options == [] and not s.has_next  # reopened: the picker is gone


async def test_the_reopen_picker_is_only_the_requestors(world):
    from volley_app.pages.dash.sub_requests.detail import SubRequestState
    from volley_app.services.subs import request_replies

    db, tokens = world
    invite = db.exec(select(SubRequest).where(col(SubRequest.recipient_id).is_not(None))).one()
    request_replies.decline(db, actor_of(db.get(User, invite.recipient_id)), invite.id)
    db.commit()
    for who in ("ben", "svl", "root"):
        s = _at(SubRequestState, routes.sub_request_path(invite.id), tokens, who)
        await call(s.load)
        await call(s.next_page)
        await call(s.search, {"q": "sub"})
        assert not s.may["can_reopen"] and s.sub_options == [] and not s.has_next


async def test_the_total_is_counted_when_the_list_opens_or_is_searched_not_on_each_page(world):
    db, tokens = world
    s = _at(SubRequestListState, routes.SUB_REQUESTS, tokens, "ben")
    await call(s.load)
    assert s.page_summary == "Showing 1–25 of 60"
    alice = db.exec(select(User).where(User.username == "alice")).one()
    start = (utcnow() + 90 * DAY).replace(microsecond=0)
    db.add_all(SubRequest(requestor_id=alice.id, svl="Sportsplex", team=f"Late {i}", date=start + i * DAY,
                          skill_level=SkillLevel.C, format=SubFormat.SIXES) for i in range(5))  # fmt: skip
    db.commit()
    await call(s.next_page)
    assert s.page_summary == "Showing 26–50 of 60"  # the total of the search shown
    await call(s.search, {"q": ""})
    assert s.page_summary == "Showing 1–25 of 65"


async def test_a_list_longer_than_the_cap_says_so(world, monkeypatch):
    monkeypatch.setattr(paging, "COUNT_CAP", 30)
    _db, tokens = world
    s = _at(SubRequestListState, routes.SUB_REQUESTS, tokens, "ben")
    await call(s.load)
    assert await _walk(s, "rows") == [
        ("Showing 1–25 of 30+", 25), ("Showing 26–50 of 50+", 25), ("Showing 51–60 of 60", 10)
    ]  # fmt: skip
