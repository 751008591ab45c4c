"""Paged list screens called as a browser would: the state holds one page, Previous/Next, search, refusals."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.factories import login_token, make_user, player_world
from tests.harness import call, page_state
from volley_app import routes
from volley_app.models import Gender, SkillLevel, SubFormat, SubRequest, User, utcnow
from volley_app.pages.dash.home import PlayerHomeState
from volley_app.pages.dash.sub_requests.my_requests import NotificationsState
from volley_app.pages.dash.sub_requests.open_list import NotesListState
from volley_app.pages.dash.subs import SubsState
from volley_app.pages.dash.users.list import LOAD_FAILED, UsersListState
from volley_app.services import paging

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
    s = _at(NotesListState, routes.NOTES, tokens, "ben")
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
    s = _at(NotesListState, routes.NOTES, tokens, "ben")
    await call(s.load)
    sent = s.dict()
    flat = repr(sent)
    assert s._mark_next and s._mark_next not in flat
    assert all(len(v) <= paging.PAGE_SIZE for v in sent[s.get_full_name()].values() if isinstance(v, list))


async def test_a_poll_reads_the_page_shown_again(world):
    _db, tokens = world
    s = _at(NotesListState, routes.NOTES, tokens, "ben")
    await call(s.load)
    await call(s.next_page)
    shown = [r["id"] for r in s.rows]
    await s._reload()
    assert [r["id"] for r in s.rows] == shown and s.page_summary == "Showing 26–50 of 60"


async def test_search_and_clear_open_requests(world):
    _db, tokens = world
    s = _at(NotesListState, routes.NOTES, tokens, "ben")
    await call(s.load)
    await call(s.search, {"q": "team 4", "venue": "sports", "date_from": "", "date_to": "", "other": "x"})
    assert [r["team"] for r in s.rows] == [f"Team {i}" for i in range(40, 50)]
    assert s.filters == {"q": "team 4", "venue": "sports", "date_from": "", "date_to": ""}
    assert s.page_summary == "Showing 1–10 of 10" and not s.has_next
    await call(s.search, {"date_from": "someday"})
    assert s.rows == [] and s.filter_error == "From must be a date" and s.list_error == ""
    await call(s.clear_search)
    assert len(s.rows) == 25 and s.filter_error == "" and s.filters["q"] == ""


async def test_my_requests_pages(world):
    _db, tokens = world
    s = _at(NotificationsState, routes.NOTES_NOTIFICATIONS, tokens, "alice")
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
