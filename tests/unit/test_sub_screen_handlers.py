"""The sub request form's date hint and the Subs list's empty message, through their handlers as a browser calls them."""

from __future__ import annotations

import pytest

from tests.factories import login_token, make_user
from tests.harness import page_state
from volley_app.models import Rating, Role
from volley_app.pages.dash.sub_requests.new import NewNoteState
from volley_app.pages.dash.subs import NO_MATCH, NO_SUBS, SubsState


@pytest.fixture
def tokens(db):
    make_user(db, "windy", Role.SVL, first_name="Windy City", last_name="Volleyball", time_zone="America/Chicago")
    make_user(db, "lex", Role.SVL, first_name="Lexington", last_name="Sportsplex")
    make_user(db, "ben", sub=True, hitter_skill_level=Rating.B)
    make_user(db, "alice")
    return {"alice": login_token(db, "alice")}


async def test_the_date_hint_follows_the_locations_venue_zone(tokens):
    _, state = page_state(NewNoteState, "/dash/notes/new", tokens["alice"])
    await state.load()
    assert state.when_hint == "Venue time: ET (America/New York)"
    await state.location_changed("Windy City Volleyball")
    assert state.when_hint == "Venue time: CT (America/Chicago)"
    await state.location_changed("windy city")  # the venue's first name, any case
    assert state.when_hint == "Venue time: CT (America/Chicago)"
    await state.location_changed("Lexington Sportsplex")
    assert state.when_hint == "Venue time: ET (America/New York)"
    await state.location_changed("Somewhere nobody runs")
    assert state.when_hint == "Venue time: ET (America/New York)"


async def test_an_empty_subs_search_says_no_sub_matches(tokens):
    _, state = page_state(SubsState, "/dash/subs", tokens["alice"])
    await state.load()
    assert len(state.sub_rows) == 1 and state.empty_text == NO_SUBS
    await state.search({"q": "nobody by this name"})
    assert state.sub_rows == [] and state.empty_text == NO_MATCH == "No sub matches your search."
    await state.clear_search()
    assert state.empty_text == NO_SUBS == "No subs available right now."
