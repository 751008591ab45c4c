"""Registration state handlers: only the player who owns a registration gets anywhere with it."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.factories import add_league_session, count, login_token, make_user, rows
from tests.harness import call_handler, redirect_target, root_state, substate
from volley_app.models import Day, League, LeagueFormat, OutboxMessage, Payment, Role, SkillLevel, Team, utcnow
from volley_app.pages.dash.leagues.home import state as league_pages
from volley_app.pages.dash.leagues.home.payments import LeaguePaymentsState
from volley_app.pages.dash.registration.checkout import CheckoutState
from volley_app.pages.dash.registration.new_team import NewTeamState
from volley_app.pages.dash.registration.results import LeagueLinkState
from volley_app.pages.dash.registration.success import RegisteredState
from volley_app.services.teams import registration

WHO = ["anon", "pat", "sam", "svla", "admin"]
CARD = {"card_number": "4242424242424242", "expiry": "12/34", "cvc": "123", "amount": "1", "amount_cents": 1}


@pytest.fixture
def world(db):
    svl = make_user(db, "svla", Role.SVL)
    for name in ("pat", "sam"):
        make_user(db, name)
    make_user(db, "admin", Role.ADMIN)
    now = utcnow()
    sid = add_league_session(db, svl, "Fall", now + dt.timedelta(days=3), now + dt.timedelta(days=80))
    assert svl.id is not None
    lg = League(session_id=sid, svl_id=svl.id, court="Court 1", start_at=now + dt.timedelta(days=5), number_of_weeks=4,
                time_increment=50, skill_level=SkillLevel.C, format=LeagueFormat.QUADS, day=Day.MONDAY, max_teams=2,
                cost_cents=20000)  # fmt: skip
    db.add(lg)
    db.commit()
    tokens = {u: login_token(db, u) for u in WHO if u != "anon"}
    return {"db": db, "lid": lg.id, "tokens": tokens}


async def call(world, who: str, cls, path: str, method: str, *args):
    return await call_handler(world["tokens"].get(who), cls, path, method, *args)


def _fingerprint(db):
    db.expire_all()
    return (
        [(t.id, t.team_name, t.paid, t.waitlist) for t in rows(db, Team)],
        [(p.id, p.status, p.team_id, p.amount_cents) for p in rows(db, Payment)],
        count(db, OutboxMessage),
    )


async def _register(world, who="pat", name="Aces"):
    return await call(world, who, NewTeamState, f"/dash/leagues/teams/new?league={world['lid']}", "submit",
                      {"team_name": name, "amount": "1"})  # fmt: skip


async def test_player_registers_pays_and_lands_on_success(world):
    db = world["db"]
    state, events = await _register(world)
    [pay] = rows(db, Payment)
    assert redirect_target(events) == f"/dash/leagues/teams/checkout?payment={pay.id}"
    assert pay.amount_cents == 22000  # 200 + 4 x 5 from the league, the browser's "amount" is ignored
    state, events = await call(
        world, "pat", CheckoutState, f"/dash/leagues/teams/checkout?payment={pay.id}", "load"
    )
    assert (state.info["total"], state.info["fee"], state.info["league_cost"]) == ("$220", "$20", "$200")
    _s, events = await call(
        world, "pat", CheckoutState, f"/dash/leagues/teams/checkout?payment={pay.id}", "pay", CARD
    )
    assert redirect_target(events) == f"/dash/leagues/teams/success?payment={pay.id}"
    [team] = rows(db, Team)
    assert team.paid is True
    state, _e = await call(world, "pat", RegisteredState, f"/dash/leagues/teams/success?payment={pay.id}", "load")
    assert state.info["team_name"] == "Aces" and state.cash is False and state.error == ""


async def test_empty_team_name_shows_team_name_required(world):
    state, events = await _register(world, name="  ")
    assert state.errors == {"team_name": "team name required"} and state.error == ""
    assert redirect_target(events) is None and count(world["db"], Payment) == 0


async def test_full_league_goes_to_waitlist_success(world):
    db = world["db"]
    db.add(Team(league_id=world["lid"], team_name="A"))
    db.add(Team(league_id=world["lid"], team_name="B", waitlist=True))
    db.commit()
    state, _e = await call(world, "pat", NewTeamState, f"/dash/leagues/teams/new?league={world['lid']}", "load")
    assert state.full is True and state.may_register is True
    _s, events = await call(world, "pat", NewTeamState, f"/dash/leagues/teams/new?league={world['lid']}", "submit",
                            {"team_name": "Late", "waitlist": "true"})  # fmt: skip
    assert redirect_target(events) == f"/dash/leagues/teams/waitlistSuccess?league={world['lid']}"
    late = [t for t in rows(db, Team) if t.team_name == "Late"]
    assert len(late) == 1 and late[0].waitlist is True and late[0].paid is False


async def test_decline_card_goes_to_decline_and_creates_nothing(world):
    db = world["db"]
    await _register(world)
    [pay] = rows(db, Payment)
    _s, events = await call(world, "pat", CheckoutState, f"/dash/leagues/teams/checkout?payment={pay.id}", "pay",
                            CARD | {"card_number": "4000000000000002"})  # fmt: skip
    decline = f"/dash/leagues/teams/decline?league={world['lid']}&payment={pay.id}"
    assert redirect_target(events) == decline
    assert count(db, Team) == 0
    # The decline page leads back to the same checkout: its place and team name are kept.
    state, _e = await call(world, "pat", LeagueLinkState, decline, "load")
    assert state.retry_href == f"/dash/leagues/teams/checkout?payment={pay.id}"


async def test_pay_while_paying_is_ignored(world):
    db = world["db"]
    await _register(world)
    [pay] = rows(db, Payment)
    state = substate(root_state(f"/dash/leagues/teams/checkout?payment={pay.id}"), CheckoutState)
    state.token_trusted = world["tokens"]["pat"]
    first = state.pay(CARD)
    await first.__anext__()  # the first click set paying and yielded
    assert [ev async for ev in state.pay(CARD)] == []  # the second click does nothing
    rest = [ev async for ev in first]
    assert redirect_target(rest) == f"/dash/leagues/teams/success?payment={pay.id}"
    assert count(db, Team) == 1 and count(db, Payment) == 1 and count(db, OutboxMessage) == 1


@pytest.mark.parametrize("who", ["anon", "svla", "admin"])
async def test_only_players_register(world, who):
    before = _fingerprint(world["db"])
    state, events = await _register(world, who=who)
    assert redirect_target(events) is None and state.error
    assert _fingerprint(world["db"]) == before


@pytest.mark.parametrize("who", ["anon", "sam", "svla", "admin"])
async def test_nobody_else_pays_or_sees_a_players_registration(world, who):
    db = world["db"]
    await _register(world)
    [pay] = rows(db, Payment)
    before = _fingerprint(db)
    path = f"/dash/leagues/teams/checkout?payment={pay.id}"
    state, events = await call(world, who, CheckoutState, path, "pay", CARD)
    assert redirect_target(events) is None and state.error
    state, _e = await call(world, who, CheckoutState, path, "load")
    assert state.info == {} and state.missing
    assert _fingerprint(db) == before
    # and after it is paid, nobody else sees the result
    await call(world, "pat", CheckoutState, path, "pay", CARD)
    state, _e = await call(world, who, RegisteredState, f"/dash/leagues/teams/success?payment={pay.id}", "load")
    assert state.info == {} and state.error


@pytest.mark.parametrize("who", WHO)
async def test_league_home_offers_registration_to_players_and_payments_to_operators(world, who):
    state, _e = await call(world, who, league_pages.LeagueHomeState, f"/dash/leagues/{world['lid']}", "load")
    assert state.registration["may_register"] is (who in ("pat", "sam"))
    await _register(world)
    state, _e = await call(world, who, league_pages.LeagueHomeState, f"/dash/leagues/{world['lid']}", "load")
    payments = await state.get_state(LeaguePaymentsState)  # its first page comes with the league home
    assert bool(payments.payment_rows) is (who in ("svla", "admin"))
    assert state.show_payments is (who in ("svla", "admin"))


# --- Stripe: checkout mounts the Payment Element; the return is verified on the server -----------------


async def test_stripe_checkout_and_return(world, stripe_env):
    db = world["db"]
    await _register(world)
    [pay] = rows(db, Payment)
    path = f"/dash/leagues/teams/checkout?payment={pay.id}"
    state, _events = await call(world, "pat", CheckoutState, path, "load")
    # what the Stripe Payment Element component gets: this user's own intent, and where Stripe returns
    stripe = state.stripe
    assert stripe["publishable_key"] == "pk_test_standin" and stripe["client_secret"] == "pi_test_1_secret_x"
    assert stripe["return_url"] == f"/dash/leagues/teams/success?payment={pay.id}"
    assert stripe["decline_url"] == f"/dash/leagues/teams/decline?league={world['lid']}&payment={pay.id}"
    assert state.offline is False and state.info["total"] == "$220"
    # the offline card form cannot be used to skip Stripe
    state, events = await call(world, "pat", CheckoutState, path, "pay", CARD)
    assert redirect_target(events) is None and state.error and count(db, Team) == 0
    # back from Stripe before the card went through: the decline page
    ret = f"/dash/leagues/teams/success?payment={pay.id}&payment_intent=pi_test_1"
    _s, events = await call(world, "pat", RegisteredState, ret, "load")
    assert redirect_target(events) == f"/dash/leagues/teams/decline?league={world['lid']}&payment={pay.id}"
    assert count(db, Team) == 0 and db.get(Payment, pay.id).status == "pending"  # another card may follow
    # a new try that Stripe confirms: the return creates the team once
    await _register(world, name="Aces Again")
    pay2 = [p for p in rows(db, Payment) if p.team_name == "Aces Again"][0]
    await call(world, "pat", CheckoutState, f"/dash/leagues/teams/checkout?payment={pay2.id}", "load")
    stripe_env.intents["pi_test_2"]["status"] = "succeeded"
    ret = f"/dash/leagues/teams/success?payment={pay2.id}&payment_intent=pi_test_2"
    for who in ("sam", "svla"):  # nobody else's return fulfils it
        state, _e = await call(world, who, RegisteredState, ret, "load")
        assert state.info == {} and count(db, Team) == 0
    for _ in range(2):
        state, _e = await call(world, "pat", RegisteredState, ret, "load")
        assert state.info["team_name"] == "Aces Again"
    assert count(db, Team) == 1 and count(db, OutboxMessage) == 1


# --- why registering is refused, and the way back to the league ------------------------------------------


@pytest.mark.parametrize("who", WHO)
async def test_new_team_page_says_why_registering_is_refused(world, who):
    state, _e = await call(world, who, NewTeamState, f"/dash/leagues/teams/new?league={world['lid']}", "load")
    expected = {"anon": "Unauthorized", "pat": "", "sam": "", "svla": registration.OPERATORS_CANNOT_REGISTER,
                "admin": registration.OPERATORS_CANNOT_REGISTER}[who]  # fmt: skip
    assert state.error == expected and state.may_register is (expected == "")
    assert state.league_href == f"/dash/leagues/{world['lid']}"


async def test_new_team_page_of_a_closed_league_says_it_is_not_open(world):
    db = world["db"]
    (lg,) = rows(db, League)
    lg.start_at = utcnow() - dt.timedelta(days=400)
    lg.stage = "Inactive"
    db.add(lg)
    db.commit()
    state, _e = await call(world, "pat", NewTeamState, f"/dash/leagues/teams/new?league={world['lid']}", "load")
    assert state.error == registration.NOT_OPEN and state.may_register is False


@pytest.mark.parametrize("league", ["", "abc", "-2", "99999"])
async def test_new_team_page_for_a_missing_league_offers_nothing(world, league):
    state, _e = await call(world, "pat", NewTeamState, f"/dash/leagues/teams/new?league={league}", "load")
    assert state.may_register is False and state.error == "This league no longer exists"


@pytest.mark.parametrize(
    ("query", "href"), [("?league=7", "/dash/leagues/7"), ("?league=x", "/dash/leagues"), ("", "/dash/leagues")]
)
async def test_waitlist_success_and_decline_lead_back_to_the_league(world, query, href):
    for path in ("/dash/leagues/teams/waitlistSuccess", "/dash/leagues/teams/decline"):
        state, _e = await call(world, "pat", LeagueLinkState, path + query, "load")
        assert state.league_href == href


async def test_checkout_after_a_declined_card_takes_another_card_with_the_team_name_kept(world):
    db = world["db"]
    await _register(world)
    [pay] = rows(db, Payment)
    path = f"/dash/leagues/teams/checkout?payment={pay.id}"
    await call(world, "pat", CheckoutState, path, "pay", CARD | {"card_number": "4000000000000002"})
    state, _e = await call(world, "pat", CheckoutState, path, "load")
    assert state.error == registration.CARD_DECLINED and state.info["status"] == "pending"
    assert state.info["team_name"] == pay.team_name and state.info["held_until"].endswith(" ET")
    assert state.league_href == f"/dash/leagues/{world['lid']}"
    state, events = await call(world, "pat", CheckoutState, path, "pay", CARD)
    assert redirect_target(events) == f"/dash/leagues/teams/success?payment={pay.id}"
    assert [(t.team_name, t.paid) for t in rows(db, Team)] == [(pay.team_name, True)] and count(db, Payment) == 1
