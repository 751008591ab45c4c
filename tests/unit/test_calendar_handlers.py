"""My Info's calendar feed: turned on, given a new address, turned off, each only for the user themself."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlmodel import select

from tests.factories import login_token, make_user
from tests.harness import call_handler
from volley_app.models import SkillLevel, SubFormat, SubRequest, SubStatus, User, utcnow
from volley_app.pages.dash.profile import my_info
from volley_app.pages.dash.sub_requests import detail
from volley_app.services.core.errors import Unauthorized
from volley_app.services.seasons import calendar

PATH = "/dash/playerinfo"


def _token(db, name: str) -> str | None:
    db.expire_all()
    return db.exec(select(User.calendar_token).where(User.username == name)).one()


async def test_a_user_turns_the_feed_on_gets_a_new_address_and_turns_it_off(db):
    make_user(db, "pat")
    token = login_token(db, "pat")
    state, _ev = await call_handler(token, my_info.PlayerInfoState, PATH, "load")
    assert state.feed_url == "" and _token(db, "pat") is None
    state, _ev = await call_handler(token, my_info.PlayerInfoState, PATH, "new_feed_address")
    first = _token(db, "pat")
    assert first and state.feed_url.endswith(calendar.personal_feed_path(first))
    assert state.feed_subscribe.startswith("webcal://")
    state, _ev = await call_handler(token, my_info.PlayerInfoState, PATH, "new_feed_address")
    second = _token(db, "pat")
    assert second and second != first
    state, _ev = await call_handler(token, my_info.PlayerInfoState, PATH, "turn_feed_off")
    assert _token(db, "pat") is None and state.feed_url == ""


async def test_nobody_logged_in_changes_no_feed(db):
    make_user(db, "pat")
    for method in ("new_feed_address", "turn_feed_off"):
        state, _ev = await call_handler(None, my_info.PlayerInfoState, PATH, method)
        assert state.feed_url == ""
    assert _token(db, "pat") is None
    with pytest.raises(Unauthorized):
        calendar.regenerate(db, None)


async def test_an_accepted_sub_request_offers_the_subs_calendar_and_nobody_elses(db):
    asker, sub, other = make_user(db, "asker"), make_user(db, "subby"), make_user(db, "olly")
    req = SubRequest(requestor_id=asker.id, recipient_id=sub.id, status=SubStatus.ACCEPTED, svl="Gym", team="Diggers",
                     date=utcnow() + dt.timedelta(days=3), skill_level=SkillLevel.C, format=SubFormat.SIXES)  # fmt: skip
    db.add(req)
    db.commit()
    path = f"/dash/notes/{req.id}"
    state, _ev = await call_handler(login_token(db, "subby"), detail.SubRequestState, path, "load")
    assert state.feed.endswith(calendar.personal_feed_path(_token(db, "subby")))
    for name in ("asker", "olly"):
        state, _ev = await call_handler(login_token(db, name), detail.SubRequestState, path, "load")
        assert state.feed == ""
    assert other.id and _token(db, "olly") is None


async def test_every_sub_who_took_a_place_on_a_request_for_several_players_has_it_in_their_calendar(db):
    from icalendar import Calendar

    from tests.factories import actor_of
    from volley_app.services.subs import request_replies

    asker, first, second, other = (make_user(db, n, sub=True) for n in ("asker", "first", "second", "olly"))
    req = SubRequest(requestor_id=asker.id, svl="Gym", team="Diggers", date=utcnow() + dt.timedelta(days=3),
                     skill_level=SkillLevel.C, format=SubFormat.SIXES, players_needed=3)  # fmt: skip
    db.add(req)
    db.commit()
    for sub in (first, second):
        request_replies.accept(db, actor_of(sub), req.id)
        db.commit()
    db.refresh(req)
    assert (req.status, req.places_filled) == (SubStatus.OPEN, 2)  # one place still free

    def events(user) -> list[str]:
        token = calendar.feed_token(db, actor_of(user))
        db.commit()
        return [str(e["summary"]) for e in Calendar.from_ical(calendar.personal_feed(db, token)).walk("VEVENT")]

    path = f"/dash/notes/{req.id}"
    for sub in (first, second):
        assert events(sub) == ["Subbing for Diggers"]
        state, _ev = await call_handler(login_token(db, sub.username), detail.SubRequestState, path, "load")
        assert state.feed.endswith(calendar.personal_feed_path(_token(db, sub.username)))
    assert events(other) == [] and events(asker) == []
    state, _ev = await call_handler(login_token(db, "olly"), detail.SubRequestState, path, "load")
    assert state.feed == ""
    req.archived_at = utcnow()  # cancelled
    db.add(req)
    db.commit()
    assert events(first) == [] and calendar.accepted_request_feed(db, actor_of(first), req.id) == ""
