"""Promote, a stale checkout and a registration that finds the league full, through the page handlers.

Any browser can call any handler: a caller who may not act is refused and nothing changes.
"""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine

from tests.factories import add_league, add_league_session, add_teams, count, login_token, make_user, rows
from tests.harness import call_handler, redirect_target
from volley_app import routes
from volley_app.models import AuditEntry, League, OutboxMessage, Payment, Role, Team, utcnow
from volley_app.pages.dash.leagues.home.state import LeagueHomeState
from volley_app.pages.dash.registration.checkout import CheckoutState
from volley_app.pages.dash.registration.new_team import NewTeamState
from volley_app.pages.dash.teams.waitlist import WaitlistState
from volley_app.services.teams import league_places, registration

WHO = ["anon", "pat", "sam", "svla", "svlb", "admin"]


@pytest.fixture
def world(db):
    svl = make_user(db, "svla", Role.SVL)
    make_user(db, "svlb", Role.SVL)
    make_user(db, "admin", Role.ADMIN)
    pat, _sam = make_user(db, "pat"), make_user(db, "sam")
    now = utcnow()
    sid = add_league_session(db, svl, "Fall", now + dt.timedelta(days=3), now + dt.timedelta(days=80))
    lg = add_league(db, svl, sid, start=now + dt.timedelta(days=5), max_teams=4)
    add_teams(db, lg, 2, prefix="P", paid=True)
    (late,) = add_teams(db, lg, 1, prefix="Late", waitlist=True, captain_id=pat.id)
    tokens = {u: login_token(db, u) for u in WHO if u != "anon"}
    return {"db": db, "lid": lg.id, "late": late, "tokens": tokens}


async def call(world, who: str, cls, path: str, method: str, *args):
    return await call_handler(world["tokens"].get(who), cls, path, method, *args)


def _hold(db, league_id: int, name: str) -> None:
    """Someone else's checkout holds a place for ten more minutes."""
    db.add(Payment(league_id=league_id, team_name=name, amount_cents=1, provider="offline", idempotency_key=name,
                   expires_at=utcnow() + dt.timedelta(minutes=10)))  # fmt: skip
    db.commit()


def fingerprint(db) -> tuple:
    return (
        [(t.id, t.team_name, t.paid, t.waitlist, t.withdrawn_at) for t in rows(db, Team)],
        [(p.id, p.status, p.team_id, p.expires_at) for p in rows(db, Payment)],
        [(lg.id, lg.max_teams, lg.offer_hold_hours) for lg in rows(db, League)],
        count(db, OutboxMessage),
        count(db, AuditEntry),
    )


@pytest.mark.parametrize("who", ["anon", "pat", "sam", "svlb"])
async def test_promote_by_anyone_but_the_leagues_operators_is_refused_and_changes_nothing(world, who):
    before = fingerprint(world["db"])
    state, _ev = await call(world, who, WaitlistState, routes.WAITLIST, "promote", str(world["late"]))
    assert state.error in ("Unauthorized", "No access") and state.notice == ""
    assert fingerprint(world["db"]) == before


@pytest.mark.parametrize("who", ["svla", "admin"])
async def test_promote_by_an_operator_offers_the_place_and_shows_until_when(world, who):
    db = world["db"]
    state, _ev = await call(world, who, WaitlistState, routes.waitlist_path(world["lid"]), "promote", str(world["late"]))
    [pay] = rows(db, Payment)
    until = league_places.hold_until(pay)
    assert state.error == ""
    assert state.notice == (
        f"Late1 has been offered a place: the captain has been emailed a link to pay by {until}. The team is in once paid."
    )
    assert [(r["team_name"], r["offered_until"], r["can_promote"]) for r in state.team_rows] == [("Late1", until, "")]
    assert [(t.paid, t.waitlist) for t in rows(db, Team, Team.id == world["late"])] == [(False, True)]
    # a second click: refused with the reason, nothing more is offered
    state, _ev = await call(world, who, WaitlistState, routes.WAITLIST, "promote", str(world["late"]))
    assert state.error == f"Late1 already has an offer, open until {until}"
    assert count(db, Payment) == 1 and count(db, OutboxMessage) == 1


async def test_promote_without_a_free_place_says_to_raise_max_teams(world):
    db = world["db"]
    _hold(db, world["lid"], "One")
    _hold(db, world["lid"], "Two")
    before = fingerprint(db)
    state, _ev = await call(world, "svla", WaitlistState, routes.WAITLIST, "promote", str(world["late"]))
    assert "has no free place" in state.error and "raise Max Teams on the league's edit form" in state.error
    assert fingerprint(db) == before


async def test_a_stale_new_team_page_is_told_the_league_filled_and_offered_the_waitlist(world):
    db = world["db"]
    path = f"/dash/leagues/teams/new?league={world['lid']}"
    state, _ev = await call(world, "sam", NewTeamState, path, "load")
    assert state.full is False  # 2 playing + 1 waiting of 4 places, until a checkout holds the last one
    _hold(db, world["lid"], "Holder")
    before = fingerprint(db)
    state, events = await call(world, "sam", NewTeamState, path, "submit", {"team_name": "Sam's"})
    assert redirect_target(events) is None and state.full is True and state.full_message == registration.FILLED_UP
    assert fingerprint(db) == before
    state, events = await call(world, "sam", NewTeamState, path, "submit", {"team_name": "Sam's", "waitlist": "true"})
    assert redirect_target(events) == routes.waitlist_success_path(world["lid"])
    assert [(t.waitlist, t.paid) for t in rows(db, Team, Team.team_name == "Sam's")] == [(True, False)]


async def test_an_expired_checkout_offers_a_new_hold_only_to_its_captain(world):
    db = world["db"]
    with time_machine.travel(utcnow(), tick=False) as clock:
        _s, events = await call(world, "sam", NewTeamState, f"/dash/leagues/teams/new?league={world['lid']}",
                                "submit", {"team_name": "Sam's"})  # fmt: skip
        [pay] = rows(db, Payment)
        path = redirect_target(events)
        assert path == routes.checkout_path(pay.id)
        state, _ev = await call(world, "sam", CheckoutState, path, "load")
        assert state.info["held_until"] == league_places.hold_until(pay) and state.notice == ""
        assert state.info["held_until"].endswith(" ET")  # the venue's zone, named
        clock.shift(dt.timedelta(minutes=league_places.RESERVATION_MINUTES, seconds=1))
        state, _ev = await call(world, "sam", CheckoutState, path, "load")
        # the freed place went to the waitlisted team; one place is still free
        assert state.info["status"] == "expired" and state.may_start_again and state.full is False
        assert state.notice.startswith("The place held for Sam's was released at ")
        assert [m.to_addr for m in rows(db, OutboxMessage, OutboxMessage.kind == "place_offered")] == ["pat@example.com"]
        before = fingerprint(db)
        for who in ("anon", "pat", "svla", "admin"):
            other, events = await call(world, who, CheckoutState, path, "start_again", {})
            assert other.error and redirect_target(events) is None, who
        assert fingerprint(db) == before
        state, events = await call(world, "sam", CheckoutState, path, "start_again", {})
        newest = rows(db, Payment)[-1]
        assert redirect_target(events) == routes.checkout_path(newest.id) and newest.status == "pending"


async def test_paying_an_expired_checkout_reloads_it_instead_of_charging(world):
    db = world["db"]
    with time_machine.travel(utcnow(), tick=False) as clock:
        _s, events = await call(world, "sam", NewTeamState, f"/dash/leagues/teams/new?league={world['lid']}",
                                "submit", {"team_name": "Sam's"})  # fmt: skip
        path = redirect_target(events)
        assert path is not None
        clock.shift(dt.timedelta(minutes=league_places.RESERVATION_MINUTES, seconds=1))
        card = {"card_number": "4242424242424242", "expiry": "12/39", "cvc": "123"}
        state, events = await call(world, "sam", CheckoutState, path, "pay", card)
    assert state.error == "" and redirect_target(events) is None
    assert [(p.team_name, p.status, p.provider_payment_id) for p in rows(db, Payment)] == [
        ("Sam's", "expired", None), ("Late1", "pending", None)]  # fmt: skip  (the freed place went to the waitlist)
    assert count(db, Team, Team.team_name == "Sam's") == 0


async def test_the_league_edit_form_saves_the_offer_hold_and_marks_a_bad_one(world):
    db = world["db"]
    path = f"/dash/leagues/{world['lid']}"
    state, _ev = await call(world, "svla", LeagueHomeState, path, "load")
    assert state.form["offer_hold_hours"] == "48"
    monday = utcnow() + dt.timedelta(days=7 + (7 - utcnow().weekday()) % 7)  # a Monday inside the session
    form = dict(state.form, start=f"{monday:%Y-%m-%d}T18:30", day="Monday", offer_hold_hours="500")
    state, events = await call(world, "svla", LeagueHomeState, path, "save", form)
    assert state.errors == {"offer_hold_hours": "Offer hold must be between 1 and 336"} and state.error == ""
    assert rows(db, League)[0].offer_hold_hours == 48
    state, events = await call(world, "svla", LeagueHomeState, path, "save", dict(form, offer_hold_hours="24"))
    assert redirect_target(events) == routes.DASH_LEAGUES
    assert rows(db, League)[0].offer_hold_hours == 24
    for who in ("pat", "svlb"):
        before = fingerprint(db)
        state, _ev = await call(world, who, LeagueHomeState, path, "save", dict(form, offer_hold_hours="300"))
        assert state.error and fingerprint(db) == before


async def test_the_league_home_counts_places_held_for_payment(world):
    db, lid = world["db"], world["lid"]
    state, _e = await call(world, "pat", LeagueHomeState, f"/dash/leagues/{lid}", "load")
    assert state.info["teams_of"] == "2 of 4"
    _hold(db, lid, "Someone")
    state, _e = await call(world, "pat", LeagueHomeState, f"/dash/leagues/{lid}", "load")
    assert state.info["teams_of"] == "2 of 4 (1 more place held for payment)"
