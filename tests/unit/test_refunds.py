"""Giving money back: refunds in full or in part, credit instead, the refund policy's proposal, and the ledger
adding up after every path (cards by the offline provider and by the Stripe stand-in)."""

from __future__ import annotations

import datetime as dt
import threading

import pytest

from tests.factories import (
    actor_of,
    add_league,
    add_league_session,
    count,
    ledger_problems,
    login_token,
    make_user,
    refund_statuses,
    rows,
)
from tests.harness import call_handler, redirect_target
from volley_app import db as dbmod
from volley_app import routes
from volley_app.models import AuditEntry, League, LedgerEntry, OutboxMessage, Payment, Refund, Role, Team, utcnow
from volley_app.pages.dash.teams.edit import TeamEditState
from volley_app.services.core.errors import Forbidden, Invalid
from volley_app.services.money import ledger, payments, refund_policy, refunds
from volley_app.services.seasons import fees
from volley_app.services.teams import registration, teams

CARD = {"card_number": "4242 4242 4242 4242", "expiry": "12/40", "cvc": "123"}


@pytest.fixture
def world(db):
    svl, other = make_user(db, "svla", Role.SVL), make_user(db, "svlb", Role.SVL)
    pat, sam, root = make_user(db, "pat"), make_user(db, "sam"), make_user(db, "root", Role.ADMIN)
    now = utcnow()
    sid = add_league_session(db, svl, "Fall", now + dt.timedelta(days=3), now + dt.timedelta(days=80))
    lg = add_league(db, svl, sid, start=now + dt.timedelta(days=5), max_teams=4)
    return {"db": db, "lid": lg.id, "svl": actor_of(svl), "other": actor_of(other), "pat": actor_of(pat),
            "sam": actor_of(sam), "root": actor_of(root)}  # fmt: skip


def _paid(w, who: str = "pat", name: str = "Aces") -> int:
    """A registration paid by card with the offline provider: its payment's id."""
    pid = dbmod.call(registration.register, w[who], league_id=w["lid"], team_name=name)["payment_id"]
    assert dbmod.call(registration.pay_offline, w[who], payment_id=pid, **CARD)["status"] == "succeeded"
    return pid


def _give(w, who: str, pid: int, **kw):
    return dbmod.call(refunds.give_back, w[who], payment_id=pid, reason=kw.pop("reason", "Left the team"), **kw)


def _left(db, pid: int) -> int:
    db.expire_all()
    found = ledger.refundable(db, rows(db, Payment, Payment.id == pid)[0])
    db.commit()
    return found


def test_a_paid_registration_is_one_charge_row_and_the_ledger_balances(world):
    db = world["db"]
    pid = _paid(world)
    [charge] = rows(db, LedgerEntry)
    pay = rows(db, Payment, Payment.id == pid)[0]
    assert (charge.kind, charge.amount_cents, charge.payment_id, charge.team_name) == ("charge", pay.amount_cents, pid, "Aces")
    assert charge.league_id == world["lid"] and charge.svl_id == world["svl"].user_id
    assert _left(db, pid) == pay.amount_cents and ledger_problems(db) == []


def test_the_operator_refunds_part_then_the_rest_and_never_more(world):
    db = world["db"]
    pid = _paid(world)
    total = rows(db, Payment, Payment.id == pid)[0].amount_cents
    done = _give(world, "svl", pid, amount="20")
    assert (done["status"], done["amount"]) == ("made", "$20") and "refunded to the card" in done["message"]
    assert _left(db, pid) == total - 2000
    with pytest.raises(Invalid) as refused:
        _give(world, "svl", pid, amount=str(total))  # more than is left
    assert refused.value.errors == {"amount": f"At most ${(total - 2000) / 100:,.0f} can be given back of this payment"}
    rest = _give(world, "root", pid)  # no amount: all that is left
    assert rest["status"] == "made" and _left(db, pid) == 0
    with pytest.raises(Invalid, match="Nothing is left to refund"):
        _give(world, "svl", pid, amount="1")
    assert [r.amount_cents for r in rows(db, LedgerEntry, LedgerEntry.kind == "refund")] == [2000, total - 2000]
    assert refund_statuses(db, pid) == ["made", "made"] and ledger_problems(db) == []
    assert count(db, OutboxMessage, OutboxMessage.kind == "refund_made") == 2
    assert count(db, AuditEntry, AuditEntry.action == "refund", AuditEntry.entity_id == pid) == 2


def test_bad_amounts_and_a_missing_reason_are_refused_where_they_were_typed(world):
    db = world["db"]
    pid = _paid(world)
    for amount, field in (("0", "amount"), ("-5", "amount"), ("twelve", "amount")):
        with pytest.raises(Invalid) as refused:
            _give(world, "svl", pid, amount=amount)
        assert set(refused.value.errors) == {field}, amount
    with pytest.raises(Invalid) as refused:
        _give(world, "svl", pid, amount="5", reason="  ")
    assert refused.value.errors == {"reason": refunds.REASON_NEEDED}
    assert count(db, Refund) == 0 and count(db, LedgerEntry) == 1


def test_two_clicks_with_one_key_are_one_refund(world):
    db = world["db"]
    pid = _paid(world)
    first = _give(world, "svl", pid, amount="10", key="form-key-1")
    again = _give(world, "svl", pid, amount="10", key="form-key-1")
    assert first == again and count(db, Refund) == 1 and ledger_problems(db) == []


def test_operators_racing_to_refund_the_whole_payment_refund_it_once(world):
    db = world["db"]
    pid = _paid(world)
    outcomes: list = []

    def click(who: str) -> None:
        try:
            outcomes.append(_give(world, who, pid)["status"])
        except Invalid as exc:
            outcomes.append(exc.message)

    threads = [threading.Thread(target=click, args=(who,)) for who in ("svl", "root", "svl", "root")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert sorted(map(str, outcomes)) == sorted(["made"] + [refunds.NOTHING_TO_REFUND] * 3), outcomes
    assert count(db, LedgerEntry, LedgerEntry.kind == "refund") == 1 and ledger_problems(db) == []


def test_credit_instead_of_a_refund_is_the_payers_to_spend_and_counts_against_the_payment(world):
    db = world["db"]
    pid = _paid(world)
    total = rows(db, Payment, Payment.id == pid)[0].amount_cents
    done = _give(world, "svl", pid, amount="50", as_credit="on", reason="Missed two weeks")
    assert done["status"] == "credit" and "as credit" in done["message"]
    assert ledger.credit_balance(db, world["pat"].user_id) == 5000 and _left(db, pid) == total - 5000
    assert count(db, Refund) == 0  # nothing asked of the card service
    [mail] = rows(db, OutboxMessage, OutboxMessage.kind == "credit_issued")
    assert "$50" in mail.body_text and "Missed two weeks" in mail.body_text
    assert count(db, AuditEntry, AuditEntry.action == "credit") == 1 and ledger_problems(db) == []


@pytest.mark.parametrize("who", ["other", "pat", "sam"])
def test_only_the_leagues_operator_and_admins_give_money_back(world, who):
    db = world["db"]
    pid = _paid(world)
    with pytest.raises(Forbidden):
        _give(world, who, pid, amount="10")
    with pytest.raises(Forbidden):
        dbmod.call(refunds.payment_screen, world[who], payment_id=pid)
    assert count(db, Refund) == 0 and count(db, LedgerEntry) == 1 and count(db, AuditEntry, AuditEntry.action == "refund") == 0


def test_a_payment_that_did_not_go_through_has_nothing_to_give_back(world):
    pid = dbmod.call(registration.register, world["pat"], league_id=world["lid"], team_name="Aces")["payment_id"]
    with pytest.raises(Invalid, match="did not go through"):
        _give(world, "svl", pid)


def test_the_payment_page_shows_its_history_and_the_policys_proposal(world):
    db = world["db"]
    pid = _paid(world)
    _give(world, "svl", pid, amount="20", reason="Short a week")
    screen = dbmod.call(refunds.payment_screen, world["svl"], payment_id=pid)
    assert [h["what"] for h in screen["history"]] == ["Paid by card", "Refunded to the card"]
    assert screen["history"][1]["by"] == "svla" and screen["history"][1]["reason"] == "Short a week"
    assert screen["may_give_back"] and screen["proposal"] == f"{screen['left_cents'] / 100:.2f}"
    assert screen["policy"] == refund_policy.NO_POLICY
    db.expire_all()


def test_the_refund_policy_proposes_in_full_then_less_the_fee_then_nothing():
    now = utcnow()
    lg = League(refund_full_until=now + dt.timedelta(days=1), refund_until=now + dt.timedelta(days=8),
                refund_fee_cents=2500)  # fmt: skip
    assert refund_policy.propose(lg, 10000, now).cents == 10000
    assert refund_policy.propose(lg, 10000, now + dt.timedelta(days=2)).cents == 7500
    assert refund_policy.propose(lg, 2000, now + dt.timedelta(days=2)).cents == 0  # the fee is more than is left
    late = refund_policy.propose(lg, 10000, now + dt.timedelta(days=9))
    assert late.cents == 0 and late.why.startswith("No refund after")
    words = refund_policy.words(lg, "America/New_York")
    assert words.startswith("Refunds: in full until") and "less a $25 fee until" in words
    assert refund_policy.propose(League(), 10000, now).cents == 10000


def test_checkout_says_the_leagues_refund_policy_in_words(world):
    db = world["db"]
    pid = dbmod.call(registration.register, world["pat"], league_id=world["lid"], team_name="Aces")["payment_id"]
    assert dbmod.call(registration.checkout, world["pat"], payment_id=pid)["refund_policy"] == refund_policy.NO_POLICY
    lg = rows(db, League, League.id == world["lid"])[0]
    lg.refund_full_until, lg.refund_until, lg.refund_fee_cents = utcnow() + dt.timedelta(days=2), utcnow() + dt.timedelta(days=9), 1500
    db.add(lg)
    db.commit()
    said = dbmod.call(registration.checkout, world["pat"], payment_id=pid)["refund_policy"]
    assert said.startswith("Refunds: in full until") and "less a $15 fee until" in said



def test_withdrawing_a_paid_team_proposes_its_policys_refund_and_tells_the_captain(world):
    db = world["db"]
    pid = _paid(world)
    lg = rows(db, League, League.id == world["lid"])[0]
    lg.refund_until, lg.refund_fee_cents = utcnow() + dt.timedelta(days=9), 2500  # less a $25 fee now
    db.add(lg)
    db.commit()
    pay = rows(db, Payment, Payment.id == pid)[0]
    paid, team_id = pay.amount_cents, pay.team_id
    with pytest.raises(Forbidden):
        dbmod.call(teams.withdraw_team, world["other"], team_id)
    out = dbmod.call(teams.withdraw_team, world["svl"], team_id)
    proposed = fees.money(paid - 2500)
    assert out == {"team_name": "Aces", "refund": f"Refund proposed per the policy: {proposed}",
                   "refund_href": routes.payment_path(pid)}  # fmt: skip
    screen = dbmod.call(refunds.payment_screen, world["svl"], payment_id=pid)
    assert screen["proposal"] == f"{(paid - 2500) / 100:.2f}"  # the payment's form starts with the same amount
    assert rows(db, Refund) == [] and _left(db, pid) == paid  # only proposed: the operator decides
    [mail] = [m for m in rows(db, OutboxMessage) if m.kind == "team_withdrawn"]
    assert mail.to_addr == "pat@example.com" and f"proposes giving back {proposed}" in mail.body_text
    [row] = dbmod.call(registration.payments_page, world["svl"], league_id=world["lid"]).rows
    assert (row["id"], row["proposed"]) == (pid, proposed)  # the league's payments say it beside the payment


def test_withdrawing_a_team_with_nothing_paid_left_proposes_nothing(world):
    db = world["db"]
    pid = _paid(world)
    _give(world, "svl", pid)  # all of it given back already
    team_id = rows(db, Payment, Payment.id == pid)[0].team_id
    assert dbmod.call(teams.withdraw_team, world["svl"], team_id)["refund"] == ""
    [mail] = [m for m in rows(db, OutboxMessage) if m.kind == "team_withdrawn"]
    assert "proposes" not in mail.body_text



async def test_the_team_page_says_the_proposed_refund_after_withdrawing_and_links_the_payment(world):
    db = world["db"]
    pid = _paid(world)
    team_id = rows(db, Payment, Payment.id == pid)[0].team_id
    path = routes.team_path(team_id)
    state, _ = await call_handler(login_token(db, "pat"), TeamEditState, path, "withdraw", "forfeit")
    assert state.error and state.refund == "" and rows(db, Team, Team.id == team_id)[0].withdrawn_at is None
    state, events = await call_handler(login_token(db, "svla"), TeamEditState, path, "withdraw", "forfeit")
    assert redirect_target(events) is None  # stays on the team's page, which says what is proposed
    assert state.refund.startswith("Refund proposed per the policy: $") and state.refund_href == routes.payment_path(pid)


# --- the card service ----------------------------------------------------------------------------------------


def _paid_by_stripe(w, stripe_env) -> int:
    pid = dbmod.call(registration.register, w["pat"], league_id=w["lid"], team_name="Aces")["payment_id"]
    dbmod.call(registration.checkout, w["pat"], payment_id=pid)
    intent = next(iter(stripe_env.intents))
    stripe_env.intents[intent]["status"] = "succeeded"
    assert dbmod.call(registration.confirm_stripe_return, w["pat"], payment_id=pid)["status"] == "succeeded"
    return pid


def test_a_partial_refund_is_asked_of_stripe_for_its_amount_once(world, stripe_env):
    db = world["db"]
    pid = _paid_by_stripe(world, stripe_env)
    done = _give(world, "svl", pid, amount="12.50", key="refund-form-a")
    assert done["status"] == "made"
    [asked] = [r for r in stripe_env.requests if r.get("path") == "/v1/refunds"]
    assert asked["form"]["amount"] == "1250" and asked["idempotency_key"] == "refund-refund-form-a"
    [row] = rows(db, LedgerEntry, LedgerEntry.kind == "refund")
    assert row.provider_ref == "re_test_1" and row.amount_cents == 1250 and ledger_problems(db) == []


def test_a_refund_stripe_does_not_answer_stays_due_and_the_sweep_makes_it_once(world, stripe_env, monkeypatch):
    from volley_app.services.teams import league_places

    db = world["db"]
    pid = _paid_by_stripe(world, stripe_env)
    monkeypatch.setattr(payments, "PROVIDER_TIMEOUT_SECONDS", 1.0)
    stripe_env.delay = 25.0
    done = _give(world, "svl", pid, amount="30")
    stripe_env.release()
    assert done["status"] == "due" and "asked again" in done["message"]
    assert _left(db, pid) == rows(db, Payment, Payment.id == pid)[0].amount_cents - 3000  # held while due
    assert ledger_problems(db) == []
    league_places.expire_holds()  # the periodic sweep asks again
    assert refund_statuses(db, pid) == ["made"] and len(stripe_env.refunded()) == 1
    assert count(db, LedgerEntry, LedgerEntry.kind == "refund") == 1 and ledger_problems(db) == []


def test_a_refund_stripe_refuses_is_failed_and_frees_its_amount(world, stripe_env):
    db = world["db"]
    pid = _paid_by_stripe(world, stripe_env)
    total = rows(db, Payment, Payment.id == pid)[0].amount_cents
    stripe_env.refunds["made-in-the-dashboard"] = {"id": "re_dash", "object": "refund", "status": "succeeded",
                                                   "payment_intent": "pi_test_1", "amount": total}  # fmt: skip
    done = _give(world, "svl", pid, amount="10")
    assert done["status"] == "failed" and "refused" in done["message"]
    assert refund_statuses(db, pid) == ["failed"] and _left(db, pid) == total and ledger_problems(db) == []


def test_a_refund_made_in_stripes_dashboard_is_recorded_once_from_its_event(world, stripe_env):
    db = world["db"]
    pid = _paid_by_stripe(world, stripe_env)
    stripe_env.refunds["dash"] = {"id": "re_dash", "object": "refund", "status": "succeeded",
                                  "payment_intent": "pi_test_1", "amount": 4000, "metadata": {}}  # fmt: skip
    event = stripe_env.charge_refunded("pi_test_1")
    assert dbmod.call(registration.handle_stripe_event, event) == "recorded"
    assert dbmod.call(registration.handle_stripe_event, event) == "known"  # a redelivery records nothing more
    [row] = rows(db, LedgerEntry, LedgerEntry.kind == "refund")
    assert (row.amount_cents, row.provider_ref, row.reason) == (4000, "re_dash", refunds.DASHBOARD)
    assert refund_statuses(db, pid) == ["made"] and ledger_problems(db) == []


def test_the_event_of_a_refund_the_app_made_records_nothing_twice(world, stripe_env):
    db = world["db"]
    pid = _paid_by_stripe(world, stripe_env)
    _give(world, "svl", pid, amount="15")
    assert dbmod.call(registration.handle_stripe_event, stripe_env.charge_refunded("pi_test_1")) == "known"
    assert count(db, LedgerEntry, LedgerEntry.kind == "refund") == 1 and count(db, Refund) == 1
    assert ledger_problems(db) == []


# --- archiving a league refunds by its policy ----------------------------------------------------------------


def test_archiving_a_league_refunds_each_payment_by_its_policy_once(world):
    from volley_app.services.operations import archive

    db = world["db"]
    aces, spikes = _paid(world, "pat", "Aces"), _paid(world, "sam", "Spikes")
    _give(world, "svl", spikes, amount="100")  # refunded in part before
    lg = rows(db, League, League.id == world["lid"])[0]
    lg.refund_until, lg.refund_fee_cents = utcnow() + dt.timedelta(days=2), 2500  # less a $25 fee now
    db.add(lg)
    db.commit()
    total = rows(db, Payment, Payment.id == aces)[0].amount_cents
    plan = dbmod.call(refunds.archive_plan, world["svl"], league_id=world["lid"])
    assert f"Aces {'$%g' % ((total - 2500) / 100)}" in plan and "Spikes" in plan
    assert dbmod.call(archive.archive_and_refund, world["svl"], league_id=world["lid"]) == lg_name(db, world["lid"])
    assert rows(db, League, League.id == world["lid"])[0].archived_at is not None
    assert _left(db, aces) == 2500 and _left(db, spikes) == 2500  # the fee kept of each
    assert count(db, OutboxMessage, OutboxMessage.kind == "refund_made") == 3
    assert ledger_problems(db) == []
    again = dbmod.call(lambda db: refunds.refund_by_policy(db, world["svl"], db.get(League, world["lid"]), reason="again"))
    assert again == 0 and count(db, Refund) == 3  # once per payment, whatever the clicks


def test_another_operator_cannot_archive_and_refund(world):
    from volley_app.services.operations import archive

    db = world["db"]
    _paid(world)
    with pytest.raises(Forbidden):
        dbmod.call(archive.archive_and_refund, world["other"], league_id=world["lid"])
    assert rows(db, League, League.id == world["lid"])[0].archived_at is None and count(db, Refund) == 0


def lg_name(db, league_id: int) -> str:
    from volley_app.services.seasons import leagues

    return leagues.display_name(rows(db, League, League.id == league_id)[0])


def test_credit_a_payment_spent_goes_back_as_credit_never_to_the_card(world):
    db = world["db"]
    first = _paid(world)
    _give(world, "svl", first, amount="50", as_credit="on", reason="Moved leagues")
    league = rows(db, League, League.id == world["lid"])[0]
    other = add_league(db, _svl_user(db, world), league.session_id, start=utcnow() + dt.timedelta(days=6),
                       court="Court 2")
    second = dbmod.call(registration.register, world["pat"], league_id=other.id, team_name="Aces Two")["payment_id"]
    assert dbmod.call(registration.pay_offline, world["pat"], payment_id=second, **CARD)["status"] == "succeeded"
    pay = rows(db, Payment, Payment.id == second)[0]
    assert pay.credit_cents == 5000 and ledger.credit_balance(db, world["pat"].user_id) == 0
    card = pay.amount_cents
    with pytest.raises(Invalid) as refused:
        _give(world, "svl", second, amount=f"{(card + 5000) / 100:.2f}")
    assert refused.value.errors == {"amount": f"At most {'$%g' % (card / 100)} can be given back of this payment"}
    assert _give(world, "svl", second, as_credit="on", amount=f"{(card + 5000) / 100:.2f}")["status"] == "credit"
    assert ledger_problems(db) == []


def _svl_user(db, w):
    from volley_app.models import User

    return rows(db, User, User.id == w["svl"].user_id)[0]
