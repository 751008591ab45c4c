"""The Subs page, Invite a Sub and a sub request's page read in one call: each part is what its own service reads."""

from __future__ import annotations

import pytest
from sqlmodel import select

from tests.factories import demo_actors
from volley_app.models import SubRequest
from volley_app.services.accounts import accounts, venues
from volley_app.services.core.errors import Invalid
from volley_app.services.seasons import calendar
from volley_app.services.subs import matching, request_lists, request_page, subs_list


@pytest.fixture
def demo_people(db):
    return demo_actors(db, "alice", "ben", "admin", "lexsports")


def test_the_subs_screen_is_what_its_parts_read(db, demo_people):
    for who in ("alice", "admin"):
        actor = demo_people[who]
        screen = subs_list.subs_screen(db, actor, filters={"q": ""})
        assert screen.is_sub == accounts.is_sub(db, actor)
        assert screen.subs.failure is None and screen.subs.value is not None
        assert screen.subs.value.rows == subs_list.list_subs(db, actor, filters={"q": ""}).rows


def test_the_subs_screen_of_nobody_shows_no_list(db, demo_people):
    screen = subs_list.subs_screen(db, None)
    assert screen.is_sub is False and screen.subs.value is None and screen.subs.failure is not None


def test_a_search_the_subs_list_refuses_keeps_its_message(db, demo_people, monkeypatch):
    def refusing(db, actor, **args):
        raise Invalid({"q": "Not a search"})

    monkeypatch.setattr(subs_list, "list_subs", refusing)
    screen = subs_list.subs_screen(db, demo_people["alice"], filters={"q": "x"})
    assert isinstance(screen.subs.failure, Invalid) and screen.is_sub == accounts.is_sub(db, demo_people["alice"])


def test_the_invite_screen_is_what_its_parts_read(db, demo_people):
    alice = demo_people["alice"]
    page = subs_list.invite_choices(db, alice)
    assert page.rows, "the demo has subs to invite"
    wanted = page.rows[0]["value"]
    screen = subs_list.invite_screen(db, alice, sub_id=wanted, filters={"q": ""})
    assert screen.chosen == subs_list.invite_choice(db, alice, wanted)
    assert screen.choices.value is not None and screen.choices.value.rows == page.rows
    assert screen.hints == venues.time_hints(db)


def test_the_invite_screen_names_no_sub_it_may_not_invite(db, demo_people):
    alice = demo_people["alice"]
    assert subs_list.invite_screen(db, alice).chosen is None
    assert subs_list.invite_screen(db, alice, sub_id=str(alice.user_id)).chosen is None  # never oneself
    assert subs_list.invite_screen(db, alice, sub_id="nobody").chosen is None


def _alices_request(db, demo_people):
    found = db.exec(select(SubRequest).where(SubRequest.requestor_id == demo_people["alice"].user_id)).first()
    assert found is not None
    return found.id


def test_the_request_page_is_what_its_parts_read(db, demo_people):
    rid = _alices_request(db, demo_people)
    for who in ("alice", "admin", "ben"):
        actor = demo_people[who]
        screen = request_page.request_page(db, actor, rid)
        try:
            expected = request_lists.detail(db, actor, rid)
        except Exception as failure:
            assert screen.detail.value is None and type(screen.detail.failure) is type(failure)
            assert screen.hints is None and screen.feed is None
            assert screen.reopen_choices is None and screen.queue_choices is None
            continue
        assert screen.detail.value == expected and screen.detail.failure is None
        assert screen.hints == (venues.time_hints(db) if expected["can_edit"] else None)
        assert screen.feed == calendar.accepted_request_feed(db, actor, rid)
        if expected["can_invite_in_order"]:
            assert screen.queue_choices is not None and screen.queue_choices.value is not None
            assert screen.queue_choices.value.rows == subs_list.invite_list_choices(db, actor, rid).rows
        else:
            assert screen.queue_choices is None
        assert (screen.reopen_choices is not None) == bool(expected["can_reopen"])
        try:
            rows = matching.suggestions(db, actor, rid, size=request_page.SUGGESTIONS_PAGE).rows
            assert screen.suggestions.value is not None and screen.suggestions.value.rows == rows
        except Exception as failure:
            assert screen.suggestions.value is None and type(screen.suggestions.failure) is type(failure)
        try:
            assert screen.outcome == matching.outcome_info(db, actor, rid)
        except Exception:
            assert screen.outcome is None


def test_the_request_page_of_a_request_not_found_shows_only_why(db, demo_people):
    screen = request_page.request_page(db, demo_people["alice"], "999999")
    assert screen.detail.value is None and screen.detail.failure is not None
    assert screen.feed is None and screen.hints is None and screen.outcome is None
