"""The Subs page and Invite a Sub read in one call: each part is what its own service reads."""

from __future__ import annotations

import pytest
from sqlmodel import col, select

from tests.factories import actor_of
from volley_app import demo
from volley_app.models import User
from volley_app.services.accounts import accounts, venues
from volley_app.services.core.errors import Invalid
from volley_app.services.subs import subs_list


@pytest.fixture
def demo_people(db):
    demo.seed(db)
    db.commit()
    people = db.exec(select(User).where(col(User.username).in_(("alice", "ben", "admin", "lexsports")))).all()
    return {u.username: actor_of(u) for u in people}


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
