"""Places in a league: reservations that expire, offers to the waitlist, late card payments, the sweep.

The clock is moved with time-machine; every rule is checked on a real database session.
"""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest
import time_machine
from sqlmodel import col

from tests.factories import actor_of, add_league, add_league_session, add_teams, count, make_user, rows
from volley_app import cli, routes
from volley_app.models import AuditEntry, Game, League, OutboxMessage, Payment, Role, Team, User, utcnow
from volley_app.services.core.errors import Forbidden, Invalid
from volley_app.services.seasons import leagues, scheduling
from volley_app.services.teams import league_places, registration, teams

OK_CARD = {"card_number": "4242 4242 4242 4242", "expiry": "12/39", "cvc": "123"}
START = dt.datetime(2026, 8, 3, 16, 0, tzinfo=dt.UTC)
RESERVATION = dt.timedelta(minutes=league_places.RESERVATION_MINUTES)


@pytest.fixture
def clock():
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


@pytest.fixture
def world(db, clock):
    svl = make_user(db, "svla", Role.SVL)
    make_user(db, "svlb", Role.SVL)
    make_user(db, "root", Role.ADMIN)
    for name in ("pat", "sam", "kim"):
        make_user(db, name)
    sid = add_league_session(db, svl, "Fall", START + dt.timedelta(days=3), START + dt.timedelta(days=80))
    lg = add_league(db, svl, sid, start=START + dt.timedelta(days=5), weeks=4, max_teams=2)
    return {"db": db, "lg": lg, "sid": sid, **{u.username: actor_of(u) for u in rows(db, User)}}


def _register(w, who: str, name: str | None = None, **kw: object) -> registration.NextStep:
    out = registration.register(w["db"], w[who], league_id=w["lg"].id, team_name=name or f"{who} team", **kw)
    w["db"].commit()
    return out


def _status(db, payment_id: int) -> str:
    return rows(db, Payment, Payment.id == payment_id)[0].status


def _waitlisted(w, *names: str, captains=("pat", "sam", "kim")) -> list[int]:
    db = w["db"]
    ids = []
    for name, who in zip(names, captains, strict=False):
        team = Team(league_id=w["lg"].id, team_name=name, waitlist=True, captain_id=w[who].user_id)
        db.add(team)
        db.commit()
        assert team.id is not None
        ids.append(team.id)
    return ids


def _mail(db, kind: str) -> list[OutboxMessage]:
    return rows(db, OutboxMessage, OutboxMessage.kind == kind)


# --- reservations ----------------------------------------------------------------------------------------


def test_checkout_holds_the_place_for_15_minutes_then_it_is_released(world, clock):
    db, lg = world["db"], world["lg"]
    lg.max_teams = 1
    db.add(lg)
    db.commit()
    first = _register(world, "pat")
    assert first["kind"] == "checkout"
    pay = rows(db, Payment)[0]
    assert pay.expires_at == START + RESERVATION
    assert (pay.league_name, pay.payer_name) == ("Monday C 6s", "pat")
    assert _register(world, "sam")["kind"] == "full"  # the place is held
    clock.shift(RESERVATION - dt.timedelta(seconds=1))
    assert _register(world, "sam")["kind"] == "full"
    clock.shift(dt.timedelta(seconds=2))
    second = _register(world, "sam")  # the hold lapsed: the place is free again, and taken
    assert second["kind"] == "checkout"
    assert _status(db, first["payment_id"]) == "expired"
    assert _status(db, second["payment_id"]) == "pending"


def test_a_reserved_name_is_not_given_twice(world):
    _register(world, "pat", "Aces")
    with pytest.raises(Invalid) as err:
        _register(world, "sam", "Aces")
    assert err.value.errors == {"team_name": registration.NAME_TAKEN}


def test_new_registrants_see_full_when_the_waitlist_fills_the_free_places(world):
    db, lg = world["db"], world["lg"]
    lg.max_teams = 3
    db.add(lg)
    db.commit()
    add_teams(db, lg, 1, prefix="P")
    _waitlisted(world, "W1")
    assert _register(world, "pat")["kind"] == "checkout"  # 1 playing + 1 held + 1 waiting = 3 places
    assert registration.options(db, world["sam"], league_id=lg.id)["full"] is True
    assert _register(world, "sam")["kind"] == "full"
    assert league_places.count(db, lg) == league_places.Places(places=3, playing=1, held=1, waiting=1)


def test_paying_after_the_hold_lapsed_charges_nothing_and_says_so(world, clock):
    db = world["db"]
    pid = _register(world, "pat")["payment_id"]
    clock.shift(RESERVATION + dt.timedelta(seconds=1))
    out = registration.pay_offline(db, world["pat"], payment_id=pid, **OK_CARD)
    db.commit()
    assert out["status"] == "expired"
    pay = rows(db, Payment)[0]
    assert (pay.status, pay.provider_payment_id, count(db, Team)) == ("expired", None, 0)


def test_a_stale_checkout_on_a_full_league_offers_the_waitlist_in_place(world, clock):
    db, lg = world["db"], world["lg"]
    lg.max_teams = 1
    db.add(lg)
    db.commit()
    pid = _register(world, "pat", "Aces")["payment_id"]
    clock.shift(RESERVATION + dt.timedelta(seconds=1))
    _register(world, "sam")  # takes the released place
    page = registration.checkout(db, world["pat"], payment_id=pid)
    db.commit()
    assert (page["status"], page["full"], page["client_secret"]) == ("expired", True, "")
    assert page["notice"].startswith("The place held for Aces was released at ") and "waitlist" in page["notice"]
    with pytest.raises(Forbidden):
        registration.hold_again(db, world["sam"], payment_id=pid, waitlist="true")
    db.rollback()
    assert registration.hold_again(db, world["pat"], payment_id=pid)["kind"] == "full"
    out = registration.hold_again(db, world["pat"], payment_id=pid, waitlist="true")
    db.commit()
    assert out["kind"] == "waitlist"
    [team] = rows(db, Team, Team.team_name == "Aces")
    assert (team.waitlist, team.paid, team.captain_id) == (True, False, world["pat"].user_id)


def test_a_stale_checkout_with_a_place_still_free_holds_it_again(world, clock):
    db = world["db"]
    pid = _register(world, "pat", "Aces")["payment_id"]
    clock.shift(RESERVATION + dt.timedelta(seconds=1))
    page = registration.checkout(db, world["pat"], payment_id=pid)
    db.commit()
    assert (page["status"], page["full"]) == ("expired", False)
    out = registration.hold_again(db, world["pat"], payment_id=pid)
    db.commit()
    assert out["kind"] == "checkout" and out["payment_id"] != pid
    assert registration.pay_offline(db, world["pat"], payment_id=out["payment_id"], **OK_CARD)["status"] == "succeeded"
    db.commit()
    assert [t.team_name for t in rows(db, Team)] == ["Aces"]


# --- Promote: an offer, never a paid team ------------------------------------------------------------------


def test_promote_offers_the_place_for_the_leagues_hold_window(world):
    db, lg = world["db"], world["lg"]
    lg.offer_hold_hours = 6
    db.add(lg)
    db.commit()
    (tid,) = _waitlisted(world, "Late")
    offer = teams.promote(db, world["svla"], tid)
    db.commit()
    [pay] = rows(db, Payment)
    assert (pay.team_id, pay.status, pay.expires_at, pay.user_id) == (tid, "pending", START + dt.timedelta(hours=6),
                                                                       world["pat"].user_id)  # fmt: skip
    assert (pay.league_name, pay.payer_name, pay.amount_cents) == ("Monday C 6s", "pat", 33000)
    assert offer["until"] == "Mon Aug 3, 2026 6:00 PM ET"  # the venue's zone, named
    [team] = rows(db, Team)
    assert (team.waitlist, team.paid) == (True, False)
    [msg] = rows(db, OutboxMessage)
    assert (msg.to_addr, msg.kind) == ("pat@example.com", "place_offered")
    assert routes.absolute(routes.checkout_path(pay.id)) in msg.body_text and "Mon Aug 3, 2026 6:00 PM ET" in msg.body_text
    assert msg.subject.endswith("pay by Mon Aug 3, 2026 6:00 PM ET")
    assert teams.list_teams(db, world["svla"])[0]["offered_until"] == "Mon Aug 3, 2026 6:00 PM ET"
    [entry] = rows(db, AuditEntry)
    assert (entry.action, entry.entity, entry.entity_id, entry.league_id, entry.actor_name) == (
        "offer", "team", tid, lg.id, "svla")  # fmt: skip


def test_promote_is_refused_when_no_place_is_free_until_max_teams_is_raised(world):
    db, lg = world["db"], world["lg"]
    add_teams(db, lg, 2, prefix="P")
    (tid,) = _waitlisted(world, "Late")
    with pytest.raises(Invalid) as err:
        teams.promote(db, world["svla"], tid)
    assert err.value.message == (
        "Monday C 6s has no free place: 2 of 2 places are taken or held. To add a team, raise Max Teams on the "
        "league's edit form."
    )
    db.rollback()
    assert count(db, Payment) == 0 and count(db, OutboxMessage) == 0 and count(db, AuditEntry) == 0
    assert [(t.waitlist, t.paid) for t in rows(db, Team, Team.id == tid)] == [(True, False)]
    lg = rows(db, League)[0]
    lg.max_teams = 3
    db.add(lg)
    db.commit()
    teams.promote(db, world["root"], tid)
    db.commit()
    assert count(db, Payment) == 1


def test_promote_counts_live_holds_and_refuses_a_second_offer_to_the_same_team(world):
    db = world["db"]
    add_teams(db, world["lg"], 1, prefix="P")
    first, second = _waitlisted(world, "W1", "W2")
    teams.promote(db, world["svla"], first)
    db.commit()
    with pytest.raises(Invalid, match="W1 already has an offer, open until Wed Aug 5, 2026 12:00 PM"):
        teams.promote(db, world["svla"], first)
    db.rollback()
    with pytest.raises(Invalid, match="no free place: 2 of 2 places"):
        teams.promote(db, world["svla"], second)
    db.rollback()
    assert count(db, Payment) == 1


@pytest.mark.parametrize("who", ["svlb", "pat", "sam"])
def test_only_the_leagues_operators_promote(world, who):
    db = world["db"]
    (tid,) = _waitlisted(world, "Late")
    with pytest.raises(Forbidden):
        teams.promote(db, world[who], tid)
    db.rollback()
    assert count(db, Payment) == 0 and count(db, OutboxMessage) == 0 and count(db, AuditEntry) == 0


def test_promoting_a_withdrawn_or_captainless_team_is_refused(world):
    db = world["db"]
    gone, orphan = _waitlisted(world, "Gone", "Orphan")
    team = rows(db, Team, Team.id == gone)[0]
    team.withdrawn_at = utcnow()
    db.add(team)
    db.commit()
    other = rows(db, Team, Team.id == orphan)[0]
    other.captain_id = None
    db.add(other)
    db.commit()
    with pytest.raises(Invalid, match="withdrawn"):
        teams.promote(db, world["svla"], gone)
    db.rollback()
    with pytest.raises(Invalid, match="no captain"):
        teams.promote(db, world["svla"], orphan)
    db.rollback()
    assert count(db, Payment) == 0


def test_a_paid_offer_moves_the_team_in_and_into_the_unplayed_weeks(world):
    db, lg = world["db"], world["lg"]
    lg.max_teams = 3
    db.add(lg)
    db.commit()
    a, b = add_teams(db, lg, 2, prefix="P", paid=True)
    scheduling.generate(db, world["svla"], lg.id)
    db.commit()
    week1 = rows(db, Game, Game.round == 1)[0]
    week1.team1_game1_score, week1.team2_game1_score = 21, 15
    db.add(week1)
    db.commit()
    (tid,) = _waitlisted(world, "Late")
    offer = teams.promote(db, world["svla"], tid)
    db.commit()
    out = registration.pay_offline(db, world["pat"], payment_id=offer["payment_id"], **OK_CARD)
    db.commit()
    assert out["status"] == "succeeded"
    team = rows(db, Team, Team.id == tid)[0]
    assert (team.waitlist, team.paid) == (False, True)
    assert count(db, Team) == 3  # the waitlisted team moved in: no new team
    pay = rows(db, Payment)[0]
    assert (pay.status, pay.team_id) == ("succeeded", tid)
    games = rows(db, Game)
    assert [(g.id, g.team1_game1_score) for g in games if g.round == 1] == [(week1.id, 21)]  # played week kept
    later = [g for g in games if g.round > 1]
    assert sorted({g.round for g in later}) == [2, 3, 4]
    assert all(any(tid in (g.team1_id, g.team2_id) for g in later if g.round == r) for r in (2, 3))
    [joined] = _mail(db, "team_promoted")
    assert joined.to_addr == "pat@example.com" and "moved off the waitlist and into Monday C 6s" in joined.body_text
    assert [e.action for e in rows(db, AuditEntry, AuditEntry.entity == "team")] == ["offer", "join"]
    assert registration.result(db, world["pat"], payment_id=pay.id)["team_name"] == "Late"


# --- lapsed offers pass on ------------------------------------------------------------------------------------


def test_a_lapsed_offer_passes_to_the_next_team_in_order_and_the_sweep_is_idempotent(world, clock):
    db, lg = world["db"], world["lg"]
    add_teams(db, lg, 1, prefix="P")
    first, second, third = _waitlisted(world, "W1", "W2", "W3")
    teams.promote(db, world["svla"], first)
    db.commit()
    clock.shift(dt.timedelta(hours=47, minutes=59))
    assert league_places.expire_holds() == league_places.Sweep()
    clock.shift(dt.timedelta(minutes=2))
    assert league_places.expire_holds() == league_places.Sweep(expired=1, offered=1)
    assert league_places.expire_holds() == league_places.Sweep()  # nothing left to do
    pays = rows(db, Payment)
    assert [(p.team_id, p.status) for p in pays] == [(first, "expired"), (second, "pending")]
    assert pays[1].expires_at == START + dt.timedelta(hours=48, minutes=1) + dt.timedelta(hours=48)
    [lapsed] = _mail(db, "offer_lapsed")
    assert lapsed.to_addr == "pat@example.com" and "stays on the waitlist" in lapsed.body_text
    offers = _mail(db, "place_offered")
    assert [m.to_addr for m in offers] == ["pat@example.com", "sam@example.com"]
    assert routes.absolute(routes.checkout_path(pays[1].id)) in offers[1].body_text
    entries = rows(db, AuditEntry)
    assert [(e.action, e.entity_id, e.actor_name) for e in entries] == [
        ("offer", first, "svla"), ("offer_lapsed", first, "system"), ("offer", second, "system")]  # fmt: skip
    # the second offer lapses too: the third team is next, and a team whose offer lapsed is not offered again by itself
    clock.shift(dt.timedelta(hours=49))
    assert league_places.expire_holds() == league_places.Sweep(expired=1, offered=1)
    assert [(p.team_id, p.status) for p in rows(db, Payment)][-1] == (third, "pending")
    clock.shift(dt.timedelta(hours=49))
    assert league_places.expire_holds() == league_places.Sweep(expired=1, offered=0)
    assert all((t.waitlist, t.paid) == (True, False) for t in rows(db, Team, col(Team.waitlist).is_(True)))
    teams.promote(db, world["svla"], first)  # the operator may offer it again
    db.commit()
    assert rows(db, Payment)[-1].team_id == first


def test_a_lapsed_reservation_passes_the_place_to_the_waitlist(world, clock):
    db, lg = world["db"], world["lg"]
    add_teams(db, lg, 1, prefix="P")
    _register(world, "pat")  # holds the last place
    assert _register(world, "sam", waitlist="true")["kind"] == "waitlist"
    clock.shift(RESERVATION + dt.timedelta(seconds=1))
    assert league_places.expire_holds() == league_places.Sweep(expired=1, offered=1)
    [offer] = _mail(db, "place_offered")
    assert offer.to_addr == "sam@example.com"


def test_the_cli_and_the_periodic_sweeper_expire_holds(world, clock, capsys, monkeypatch):
    db = world["db"]
    first = _register(world, "pat")["payment_id"]
    clock.shift(RESERVATION + dt.timedelta(seconds=1))
    assert cli.main(["expire-holds"]) == 0
    assert "expired 1 hold(s), offered 0 place(s)" in capsys.readouterr().out
    assert _status(db, first) == "expired"
    second = _register(world, "sam")["payment_id"]
    clock.shift(RESERVATION + dt.timedelta(seconds=1))

    stop = asyncio.Event()
    sweep = league_places.expire_holds

    def sweep_then_stop():
        try:
            return sweep()
        finally:
            stop.set()

    monkeypatch.setattr(league_places, "expire_holds", sweep_then_stop)
    asyncio.run(league_places.run_sweeper_forever(stop, interval=30))  # one run, then the stop it was given
    assert _status(db, second) == "expired"


# --- the league's hold window --------------------------------------------------------------------------------


LEAGUE_FIELDS = {"court": "Court 1", "start": "2026-09-07T18:30", "number_of_weeks": "8", "time_increment": "50",
                 "skill_level": "C", "format": "6s", "day": "Monday", "max_teams": "8", "cost": "300"}  # fmt: skip


@pytest.mark.parametrize(
    ("value", "message"),
    [("0", "Offer hold must be between 1 and 336"), ("337", "Offer hold must be between 1 and 336"),
     ("", "Offer hold is required"), ("two", "Offer hold must be a whole number")],
)  # fmt: skip
def test_the_offer_hold_is_1_to_336_hours(world, value, message):
    db, lg = world["db"], world["lg"]
    with pytest.raises(Invalid) as err:
        leagues.update_league(db, world["svla"], lg.id, **LEAGUE_FIELDS, offer_hold_hours=value)
    assert err.value.errors == {"offer_hold_hours": message}
    db.rollback()
    assert rows(db, League)[0].offer_hold_hours == 48


def test_the_offer_hold_is_saved_and_kept_when_the_form_has_no_such_field(world):
    db, lg = world["db"], world["lg"]
    leagues.update_league(db, world["svla"], lg.id, **LEAGUE_FIELDS, offer_hold_hours=" 336 ")
    db.commit()
    assert rows(db, League)[0].offer_hold_hours == 336
    leagues.update_league(db, world["svla"], lg.id, **LEAGUE_FIELDS)
    db.commit()
    assert rows(db, League)[0].offer_hold_hours == 336
    assert leagues.get_league(db, world["svla"], lg.id)["offer_hold_hours"] == 336
    new = leagues.create_league(db, world["svla"], session_id=world["sid"], **LEAGUE_FIELDS)
    db.commit()
    assert new.offer_hold_hours == 48


# --- Stripe: cancelled when the hold lapses, refunded when paid without a place -------------------------------


def test_an_expired_stripe_reservation_cancels_its_payment_intent(world, clock, stripe_env):
    db = world["db"]
    pid = _register(world, "pat")["payment_id"]
    registration.checkout(db, world["pat"], payment_id=pid)
    db.commit()
    clock.shift(RESERVATION + dt.timedelta(seconds=1))
    assert league_places.expire_holds() == league_places.Sweep(expired=1)
    assert stripe_env.intents["pi_test_1"]["status"] == "canceled"
    assert any(r["path"] == "/v1/payment_intents/pi_test_1/cancel" for r in stripe_env.requests)
    assert _status(db, pid) == "expired"
    back = registration.confirm_stripe_return(db, world["pat"], payment_id=pid)  # a stale tab comes back
    db.commit()
    assert back["status"] == "expired" and count(db, Team) == 0


def test_a_card_that_succeeds_as_the_hold_lapses_still_gets_a_free_place(world, clock, stripe_env):
    db = world["db"]
    pid = _register(world, "pat")["payment_id"]
    registration.checkout(db, world["pat"], payment_id=pid)
    db.commit()
    stripe_env.intents["pi_test_1"]["status"] = "succeeded"  # paid, but neither webhook nor return arrived yet
    clock.shift(RESERVATION + dt.timedelta(seconds=1))
    assert league_places.expire_holds() == league_places.Sweep(paid=1)
    assert _status(db, pid) == "succeeded" and [t.team_name for t in rows(db, Team)] == ["pat team"]
    assert stripe_env.refunded() == []


def test_a_card_payment_that_succeeds_after_its_place_was_taken_is_refunded(world, clock, stripe_env):
    db, lg = world["db"], world["lg"]
    lg.max_teams = 1
    db.add(lg)
    db.commit()
    late = _register(world, "pat")["payment_id"]
    registration.checkout(db, world["pat"], payment_id=late)
    db.commit()
    clock.shift(RESERVATION + dt.timedelta(seconds=1))
    taker = _register(world, "sam")["payment_id"]  # pat's hold lapses (its intent cancelled); sam holds the place
    registration.checkout(db, world["sam"], payment_id=taker)
    db.commit()
    stripe_env.intents["pi_test_2"]["status"] = "succeeded"
    assert registration.confirm_stripe_return(db, world["sam"], payment_id=taker)["status"] == "succeeded"
    db.commit()
    # Stripe took pat's card before the cancel landed: the event arrives, there is no place for it
    stripe_env.intents["pi_test_1"]["status"] = "succeeded"
    event = {"type": "payment_intent.succeeded", "data": {"object": stripe_env.intents["pi_test_1"]}}
    assert registration.handle_stripe_event(db, event) == "refunded"
    db.commit()
    assert registration.handle_stripe_event(db, event) == "refunded"  # a redelivery refunds nothing twice
    db.commit()
    assert stripe_env.refunded() == ["pi_test_1"]
    assert [(p.id, p.status) for p in rows(db, Payment)] == [(late, "refunded"), (taker, "succeeded")]
    assert [t.team_name for t in rows(db, Team)] == ["sam team"]
    [told] = _mail(db, "payment_refunded")
    assert told.to_addr == "pat@example.com" and "refunded to your card" in told.body_text
    with pytest.raises(Invalid, match="refunded"):
        registration.result(db, world["pat"], payment_id=late)
    assert registration.checkout(db, world["pat"], payment_id=late)["notice"] == registration.REFUNDED_NOTICE
