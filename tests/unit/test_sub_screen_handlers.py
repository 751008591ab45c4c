"""The sub request form's date hint and the Subs list's empty message, through their handlers as a browser calls them."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from sqlmodel import select

from tests.factories import actor_of, login_token, make_user
from tests.harness import page_state
from volley_app.models import Rating, Role, User, utcnow
from volley_app.pages.dash.sub_requests.detail import SubRequestState
from volley_app.pages.dash.sub_requests.new import NewSubRequestState
from volley_app.pages.dash.sub_requests.open_list import SubRequestListState
from volley_app.pages.dash.subs import NO_MATCH, NO_SUBS, SubsState
from volley_app.services.subs import request_changes


@pytest.fixture
def tokens(db):
    make_user(db, "windy", Role.SVL, first_name="Windy City", last_name="Volleyball", time_zone="America/Chicago")
    make_user(db, "lex", Role.SVL, first_name="Lexington", last_name="Sportsplex")
    make_user(db, "ben", sub=True, hitter_skill_level=Rating.B)
    make_user(db, "alice")
    return {"alice": login_token(db, "alice")}


async def test_the_date_hint_follows_the_locations_venue_zone(tokens):
    _, state = page_state(NewSubRequestState, "/dash/notes/new", tokens["alice"])
    await state.load()
    assert state.when_hint == state.default_hint == "Venue time: ET (America/New York)"
    # the browser picks the hint of the location typed from these (typing sends nothing to the server)
    assert json.loads(state.venue_hints) == {
        "windy city volleyball": "Venue time: CT (America/Chicago)",  # the venue's full name
        "windy city": "Venue time: CT (America/Chicago)",  # or its first name
    }  # a venue in the default zone, and a player, need no hint of their own


async def test_the_edit_forms_date_hint_starts_at_the_requests_venue(db, tokens):
    alice = actor_of(db.exec(select(User).where(User.username == "alice")).one())
    rid = request_changes.create(db, alice, team="Net Ninjas", date=utcnow() + dt.timedelta(days=3),
                              svl="Windy City Volleyball", skill_level="C", format="6s")  # fmt: skip
    db.commit()
    _, state = page_state(SubRequestState, f"/dash/notes/{rid}", tokens["alice"])
    await state.load()
    assert state.when_hint == "Venue time: CT (America/Chicago)"
    assert state.default_hint == "Venue time: ET (America/New York)"


async def test_an_empty_subs_search_says_no_sub_matches(tokens):
    _, state = page_state(SubsState, "/dash/subs", tokens["alice"])
    await state.load()
    assert len(state.sub_rows) == 1 and state.empty_text == NO_SUBS
    await state.search({"q": "nobody by this name"})
    assert state.sub_rows == [] and state.empty_text == NO_MATCH == "No sub matches your search."
    await state.clear_search()
    assert state.empty_text == NO_SUBS == "No subs available right now."


def _open_requests(db, n: int) -> None:
    alice = actor_of(db.exec(select(User).where(User.username == "alice")).one())
    start = utcnow() + dt.timedelta(days=2)
    for i in range(n):
        request_changes.create(db, alice, team=f"Team {i:02}", date=start + dt.timedelta(hours=i), svl="Gym",
                            skill_level="C", format="6s")  # fmt: skip
    db.commit()


def _script(event) -> str:
    """The JavaScript an ``rx.call_script`` event runs."""
    return " ".join(str(getattr(value, "_var_value", "")) for _name, value in event.args if getattr(value, "_var_value", None))


async def test_the_open_list_keeps_its_page_in_the_address(db, tokens):
    _open_requests(db, 30)
    _, state = page_state(SubRequestListState, "/dash/notes", tokens["alice"])
    await state.load()
    assert state.page_summary == "Showing 1–25 of 30"
    event = await state.next_page()
    assert state.page_summary == "Showing 26–30 of 30"
    assert _script(event) == 'window.history.replaceState(window.history.state, \'\', "/dash/notes?page=2")'
    # a reload of that address opens the same page
    _, again = page_state(SubRequestListState, "/dash/notes?page=2", tokens["alice"])
    await again.load()
    assert again.page_summary == "Showing 26–30 of 30" and again.rows[0]["team"] == "Team 25"
    assert _script(await again.previous_page()).endswith('"/dash/notes")')
    for odd in ("/dash/notes?page=99", "/dash/notes?page=x", "/dash/notes?page=-1", "/dash/notes?page=0"):
        _, other = page_state(SubRequestListState, odd, tokens["alice"])
        await other.load()
        assert other.page_summary == ("Showing 26–30 of 30" if "99" in odd else "Showing 1–25 of 30")
