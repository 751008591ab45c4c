"""Team registration and card payment: fees, rules, the offline and Stripe providers, fulfilment."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.factories import actor_of, add_league_session, count, make_user, rows
from volley_app.models import (
    Day,
    League,
    LeagueFormat,
    LeagueStage,
    OutboxMessage,
    Payment,
    Role,
    SkillLevel,
    Team,
    utcnow,
)
from volley_app.services.core.errors import BadRequest, Forbidden, Invalid, NotFound, Unauthorized
from volley_app.services.money import payments
from volley_app.services.seasons import fees
from volley_app.services.teams import registration

OK_CARD = {"card_number": "4242 4242 4242 4242", "expiry": "12/34", "cvc": "123"}
DECLINE = {"card_number": "4000 0000 0000 0002", "expiry": "12/34", "cvc": "123"}
NO_FUNDS = {"card_number": "4000000000009995", "expiry": "12/34", "cvc": "1234"}


def _league(db, svl, sid, *, fmt=LeagueFormat.SIXES, cash=False, max_teams=4, cost=30000, **kw) -> League:
    lg = League(session_id=sid, svl_id=svl.id, court="Court 1", start_at=utcnow() + dt.timedelta(days=5), number_of_weeks=4,
                time_increment=50, skill_level=SkillLevel.C, format=fmt, day=Day.MONDAY, max_teams=max_teams,
                cost_cents=cost, cash=cash, **kw)  # fmt: skip
    db.add(lg)
    db.commit()
    return lg


@pytest.fixture
def world(db):
    svl, other = make_user(db, "svla", Role.SVL), make_user(db, "svlb", Role.SVL)
    pat, sam, adm = make_user(db, "pat"), make_user(db, "sam"), make_user(db, "root", Role.ADMIN)
    now = utcnow()
    sid = add_league_session(db, svl, "Fall", now + dt.timedelta(days=3), now + dt.timedelta(days=80))
    lg = _league(db, svl, sid)
    return {"svl": svl, "other": other, "pat": pat, "sam": sam, "admin": adm, "sid": sid, "league": lg}


def _actor(w, who):
    return actor_of(w[who])


# --- fees ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fmt", "players"),
    [(LeagueFormat.DOUBLES, 2), (LeagueFormat.FIVES, 5), (LeagueFormat.SIXES, 6), (LeagueFormat.QUADS, 4),
     (LeagueFormat.REVERSE_QUADS, 4)],
)  # fmt: skip
@pytest.mark.parametrize("cash", [False, True])
def test_fee_table_every_format_with_and_without_cash(fmt, players, cash):
    lg = League(format=fmt, cost_cents=30000, cash=cash, court="Court 1", number_of_weeks=4, time_increment=50,
                max_teams=8)  # fmt: skip
    b = fees.breakdown(lg)
    assert (b.players, b.fee_cents) == (players, 500 * players)
    assert b.total_cents == (500 * players if cash else 30000 + 500 * players)


def test_unknown_format_counts_four_players():
    assert fees.players_per_team("volleyball-tennis") == 4


def test_register_computes_the_amount_from_the_database_and_ignores_a_browser_amount(db, world):
    browser: dict[str, object] = {"amount_cents": 1}
    with pytest.raises(TypeError):
        registration.register(db, _actor(world, "pat"), league_id=world["league"].id, team_name="Aces", **browser)
    out = registration.register(db, _actor(world, "pat"), league_id=world["league"].id, team_name="Aces")
    db.commit()
    [pay] = rows(db, Payment)
    assert out == {"kind": "checkout", "league_id": world["league"].id, "payment_id": pay.id}
    assert (pay.amount_cents, pay.currency, pay.provider, pay.status, pay.team_id) == (
        33000,
        "usd",
        "offline",
        "pending",
        None,
    )
    assert count(db, Team) == 0


def test_cash_league_charges_only_the_fee(db, world):
    lg = _league(db, world["svl"], world["sid"], fmt=LeagueFormat.DOUBLES, cash=True)
    out = registration.register(db, _actor(world, "pat"), league_id=lg.id, team_name="Pair")
    db.commit()
    assert db.get(Payment, out["payment_id"]).amount_cents == 1000
    page = registration.checkout(db, _actor(world, "pat"), payment_id=out["payment_id"])
    assert (page["league_cost"], page["fee"], page["total"], page["cash"]) == ("$300", "$10", "$10", True)


# --- rules ----------------------------------------------------------------------------------------------


def test_team_name_required(db, world):
    for name in ("", "   ", None, 12):
        with pytest.raises(Invalid) as err:
            registration.register(db, _actor(world, "pat"), league_id=world["league"].id, team_name=name)
        assert err.value.errors == {"team_name": "team name required"}


@pytest.mark.parametrize("who", ["svl", "admin"])
def test_operators_may_not_register(db, world, who):
    with pytest.raises(Forbidden):
        registration.register(db, _actor(world, who), league_id=world["league"].id, team_name="Mine")
    assert count(db, Payment) == 0 and count(db, Team) == 0


def test_anonymous_may_not_register(db, world):
    with pytest.raises(Unauthorized):
        registration.register(db, None, league_id=world["league"].id, team_name="Mine")


def test_closed_league_refuses(db, world):
    lg = _league(db, world["svl"], world["sid"], active=False)
    lg2 = _league(db, world["svl"], world["sid"], stage=LeagueStage.INACTIVE)
    for league in (lg, lg2):
        with pytest.raises(Invalid):
            registration.register(db, _actor(world, "pat"), league_id=league.id, team_name="X")
    assert count(db, Payment) == 0


def test_full_league_offers_the_waitlist_and_puts_the_team_there_when_asked(db, world):
    lg = world["league"]
    for i in range(3):
        db.add(Team(league_id=lg.id, team_name=f"T{i}", paid=True))
    db.add(Team(league_id=lg.id, team_name="W0", waitlist=True))  # waitlisted teams count too
    db.commit()
    assert registration.options(db, _actor(world, "pat"), league_id=lg.id)["full"] is True
    out = registration.register(db, _actor(world, "pat"), league_id=lg.id, team_name="Late")
    db.commit()
    assert out == {"kind": "full", "league_id": lg.id, "message": registration.FILLED_UP}
    assert count(db, Team) == 4 and count(db, Payment) == 0
    out = registration.register(db, _actor(world, "pat"), league_id=lg.id, team_name="Late", waitlist="true")
    db.commit()
    assert out["kind"] == "waitlist"
    team = db.get(Team, out["team_id"])
    assert (team.waitlist, team.paid, team.captain_id) == (True, False, world["pat"].id)
    assert count(db, Payment) == 0


def test_duplicate_team_name_refused(db, world):
    db.add(Team(league_id=world["league"].id, team_name="Aces"))
    db.commit()
    with pytest.raises(Invalid) as err:
        registration.register(db, _actor(world, "pat"), league_id=world["league"].id, team_name=" Aces ")
    assert "team_name" in err.value.errors


@pytest.mark.parametrize(
    ("who", "refusal"),
    [("pat", ""), ("svl", registration.OPERATORS_CANNOT_REGISTER), ("admin", registration.OPERATORS_CANNOT_REGISTER)],
)
def test_options_say_why_registering_is_refused(db, world, who, refusal):
    found = registration.options(db, _actor(world, who), league_id=str(world["league"].id))
    assert found["refusal"] == refusal and found["may_register"] is (refusal == "")


def test_options_of_a_closed_league_say_it_is_not_open(db, world):
    closed = _league(db, world["svl"], world["sid"], stage=LeagueStage.INACTIVE)
    found = registration.options(db, _actor(world, "pat"), league_id=closed.id)
    assert found["refusal"] == registration.NOT_OPEN and found["may_register"] is False


@pytest.mark.parametrize("league_id", ["", "abc", "0", "-1", "99999", None])
def test_options_and_register_of_a_missing_league_are_not_found(db, world, league_id):
    with pytest.raises(NotFound, match="This league no longer exists"):
        registration.options(db, _actor(world, "pat"), league_id=league_id)
    with pytest.raises(NotFound, match="This league no longer exists"):
        registration.register(db, _actor(world, "pat"), league_id=league_id, team_name="X")


def test_team_name_at_most_100_characters(db, world):
    with pytest.raises(Invalid) as err:
        registration.register(db, _actor(world, "pat"), league_id=world["league"].id, team_name="x" * 101)
    assert err.value.errors == {"team_name": "Team name must be at most 100 characters"}


# --- offline provider ---------------------------------------------------------------------------------------


def _start(db, w, who="pat", league=None) -> int:
    out = registration.register(db, _actor(w, who), league_id=(league or w["league"]).id, team_name=f"{who} team")
    db.commit()
    return out["payment_id"]


def test_luhn_expiry_and_cvc_checks():
    assert payments.check_card("4242424242424242", "1/99", "123") == "4242424242424242"
    with pytest.raises(Invalid) as err:
        payments.check_card("4242424242424241", "13/30", "12")
    assert set(err.value.errors) == {"card_number", "expiry", "cvc"}
    with pytest.raises(Invalid) as err:
        payments.check_card("4242424242424242", "01/20", "123")
    assert err.value.errors == {"expiry": "This card has expired"}
    with pytest.raises(Invalid):
        payments.check_card("", "", "")


def test_offline_success_creates_one_paid_team_and_one_email(db, world):
    pid = _start(db, world)
    out = registration.pay_offline(db, _actor(world, "pat"), payment_id=pid, **OK_CARD)
    db.commit()
    assert out["status"] == "succeeded"
    [team] = rows(db, Team)
    assert (team.team_name, team.paid, team.waitlist, team.captain_id) == (
        "pat team", True, False, world["pat"].id)  # fmt: skip
    pay = db.get(Payment, pid)
    db.refresh(pay)
    assert (pay.status, pay.team_id, pay.provider_payment_id.startswith("offline_")) == ("succeeded", team.id, True)
    [msg] = rows(db, OutboxMessage)
    assert (msg.to_addr, msg.kind) == ("pat@example.com", "team_registered")
    assert "paid in full" in msg.body_text and "Venmo" not in msg.body_text  # the card paid league and fee
    res = registration.result(db, _actor(world, "pat"), payment_id=pid)
    assert (res["paid"], res["cash"], res["team_name"]) == ("$330", False, "pat team")


def test_double_pay_one_payment_one_team_one_email(db, world):
    pid = _start(db, world)
    first = registration.pay_offline(db, _actor(world, "pat"), payment_id=pid, **OK_CARD)
    db.commit()
    second = registration.pay_offline(db, _actor(world, "pat"), payment_id=pid, **OK_CARD)
    db.commit()
    assert first["status"] == second["status"] == "succeeded"
    assert count(db, Team) == 1 and count(db, Payment) == 1 and count(db, OutboxMessage) == 1


@pytest.mark.parametrize("card", [DECLINE, NO_FUNDS])
def test_decline_creates_nothing_and_a_retry_succeeds(db, world, card):
    pid = _start(db, world)
    out = registration.pay_offline(db, _actor(world, "pat"), payment_id=pid, **card)
    db.commit()
    assert out["status"] == "declined"
    assert count(db, Team) == 0 and count(db, OutboxMessage) == 0
    assert db.get(Payment, pid).status == "pending"  # the place stays held: the same checkout takes another card
    # Registering the same name again leads back to the same reservation, not "name taken".
    assert _start(db, world) == pid
    assert registration.pay_offline(db, _actor(world, "pat"), payment_id=pid, **OK_CARD)["status"] == "succeeded"
    db.commit()
    assert count(db, Team) == 1 and count(db, Payment) == 1


def test_invalid_card_changes_nothing(db, world):
    pid = _start(db, world)
    with pytest.raises(Invalid):
        registration.pay_offline(db, _actor(world, "pat"), payment_id=pid, card_number="1234", expiry="12/34", cvc="1")
    db.rollback()
    assert db.get(Payment, pid).status == "pending" and count(db, Team) == 0


def test_a_player_cannot_pay_or_see_someone_elses_payment(db, world):
    pid = _start(db, world)
    for fn, kw in ((registration.pay_offline, OK_CARD), (registration.checkout, {}), (registration.result, {})):
        with pytest.raises((Forbidden, NotFound)):
            fn(db, _actor(world, "sam"), payment_id=pid, **kw)
        for who in ("svl", "admin"):
            with pytest.raises(Forbidden):
                fn(db, _actor(world, who), payment_id=pid, **kw)
        with pytest.raises(Unauthorized):
            fn(db, None, payment_id=pid, **kw)
    db.rollback()
    assert count(db, Team) == 0 and db.get(Payment, pid).status == "pending"


@pytest.mark.parametrize("payment_id", ["", "abc", "0", "99999", None])
def test_a_bad_or_unknown_payment_id_is_not_found(db, world, payment_id):
    _start(db, world)
    with pytest.raises(NotFound, match="Registration not found"):
        registration.checkout(db, _actor(world, "pat"), payment_id=payment_id)


def test_checkout_after_a_decline_says_the_card_was_declined_and_still_holds_the_place(db, world):
    pid = _start(db, world)
    assert registration.checkout(db, _actor(world, "pat"), payment_id=pid)["notice"] == ""
    registration.pay_offline(db, _actor(world, "pat"), payment_id=pid, **DECLINE)
    db.commit()
    page = registration.checkout(db, _actor(world, "pat"), payment_id=str(pid))
    assert page["notice"] == registration.CARD_DECLINED and page["status"] == "pending" and page["held_until"]


def test_offline_pay_refused_when_stripe_is_configured(db, world, stripe_env):
    pid = _start(db, world)
    db.get(Payment, pid).provider = "offline"
    with pytest.raises(BadRequest):
        registration.pay_offline(db, _actor(world, "pat"), payment_id=pid, **OK_CARD)
    assert count(db, Team) == 0


def test_operators_see_the_payments_of_their_leagues(db, world):
    pid = _start(db, world)
    registration.pay_offline(db, _actor(world, "pat"), payment_id=pid, **OK_CARD)
    db.commit()
    for who in ("svl", "admin"):
        [row] = registration.list_payments(db, _actor(world, who), league_id=world["league"].id)
        assert (row["team_name"], row["user"], row["amount"], row["status"]) == ("pat team", "pat", "$330", "succeeded")
    for who in ("other", "pat"):
        with pytest.raises(Forbidden):
            registration.list_payments(db, _actor(world, who), league_id=world["league"].id)


# --- Stripe through the real SDK, against a local stand-in -----------------------------------------------


def test_stripe_intent_carries_idempotency_key_and_server_amount(db, world, stripe_env):
    pid = _start(db, world)
    pay = db.get(Payment, pid)
    assert pay.provider == "stripe"
    page = registration.checkout(db, _actor(world, "pat"), payment_id=pid)
    db.commit()
    again = registration.checkout(db, _actor(world, "pat"), payment_id=pid)  # a reload: same intent
    db.commit()
    posts = [r for r in stripe_env.requests if r["method"] == "POST"]
    assert len(posts) == 2 and {p["idempotency_key"] for p in posts} == {pay.idempotency_key}
    form = posts[0]["form"]
    assert (form["amount"], form["currency"], form["metadata[payment_id]"]) == ("33000", "usd", str(pid))
    assert "SVLA" in form["description"]
    assert posts[0]["auth"] == "Bearer sk_test_standin"
    assert page["client_secret"] == again["client_secret"] == "pi_test_1_secret_x"
    assert db.get(Payment, pid).provider_payment_id == "pi_test_1"
    assert len(stripe_env.intents) == 1


def test_stripe_return_fulfils_only_a_verified_intent(db, world, stripe_env):
    pid = _start(db, world)
    registration.checkout(db, _actor(world, "pat"), payment_id=pid)
    db.commit()
    intent = stripe_env.intents["pi_test_1"]
    out = registration.confirm_stripe_return(db, _actor(world, "pat"), payment_id=pid)  # not paid yet
    db.commit()
    assert out["status"] == "declined" and count(db, Team) == 0
    assert db.get(Payment, pid).status == "pending"  # the intent waits for another card: the place stays held
    assert _start(db, world) == pid  # registering the name again comes back to it
    registration.checkout(db, _actor(world, "pat"), payment_id=pid)
    db.commit()
    assert len(stripe_env.intents) == 1
    intent.update(status="succeeded", amount=100)  # a different amount is not this registration's payment
    out = registration.confirm_stripe_return(db, _actor(world, "pat"), payment_id=pid)
    db.commit()
    assert out["status"] == "declined" and count(db, Team) == 0 and db.get(Payment, pid).status == "failed"
    pid = _start(db, world)
    registration.checkout(db, _actor(world, "pat"), payment_id=pid)
    db.commit()
    stripe_env.intents["pi_test_2"]["status"] = "succeeded"
    assert registration.confirm_stripe_return(db, _actor(world, "pat"), payment_id=pid)["status"] == "succeeded"
    db.commit()
    assert registration.confirm_stripe_return(db, _actor(world, "pat"), payment_id=pid)["status"] == "succeeded"
    db.commit()
    assert count(db, Team) == 1 and count(db, OutboxMessage) == 1
    assert any(
        r["method"] == "GET" and r["path"].startswith("/v1/payment_intents/pi_test_2") for r in stripe_env.requests
    )
    with pytest.raises(Forbidden):
        registration.confirm_stripe_return(db, _actor(world, "sam"), payment_id=pid)


def test_stripe_event_with_metadata_of_another_payment_is_refused(db, world, stripe_env):
    pid = _start(db, world)
    registration.checkout(db, _actor(world, "pat"), payment_id=pid)
    db.commit()
    obj = dict(stripe_env.intents["pi_test_1"], status="succeeded", metadata={"payment_id": str(pid + 1)})
    assert (
        registration.handle_stripe_event(db, {"type": "payment_intent.succeeded", "data": {"object": obj}})
        == "mismatch"
    )
    assert count(db, Team) == 0


def test_concurrent_fulfilment_makes_one_team(db, world):
    """Webhook deliveries and a browser return racing on one payment: the conditional update lets one win."""
    import threading

    from volley_app import db as dbmod

    pay = Payment(league_id=world["league"].id, user_id=world["pat"].id, team_name="Racers", amount_cents=33000,
                  provider="stripe", provider_payment_id="pi_race", status="pending", idempotency_key="race-key",
                  expires_at=utcnow() + dt.timedelta(minutes=15))  # fmt: skip
    db.add(pay)
    db.commit()
    obj = {
        "id": "pi_race",
        "status": "succeeded",
        "amount": 33000,
        "currency": "usd",
        "metadata": {"payment_id": str(pay.id)},
    }
    event = {"type": "payment_intent.succeeded", "data": {"object": obj}}
    barrier = threading.Barrier(4)
    outcomes: list[str] = []

    def deliver():
        barrier.wait()
        try:
            outcomes.append(dbmod.call(registration.handle_stripe_event, event))
        except Exception as exc:  # a lock timeout would roll that delivery back; Stripe retries it
            outcomes.append(type(exc).__name__)

    threads = [threading.Thread(target=deliver) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    db.expire_all()
    assert outcomes.count("fulfilled") == 4, outcomes  # each delivery answers fulfilled, only one created the team
    assert count(db, Team) == 1 and count(db, OutboxMessage) == 1
    assert db.get(Payment, pay.id).team_id is not None
