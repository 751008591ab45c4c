"""A team's fee shared among its roster: the captain's deposit holds the place, each member pays a share by a signed
link with no login, the captain may cover the rest, the team is confirmed when paid in full, a member who leaves
after paying is proposed a refund, reminders go once; the ledger adds up after each path."""

from __future__ import annotations

import datetime as dt

import pytest
import sqlalchemy as sa

from tests.factories import (
    actor_of,
    add_league,
    add_league_session,
    add_member,
    count,
    ledger_problems,
    make_user,
    rows,
    tampered,
)
from volley_app import db as dbmod
from volley_app.models import AuditEntry, League, OutboxMessage, Payment, Refund, Role, ShareReminder, Team, utcnow
from volley_app.services.core.errors import Forbidden, Invalid, NotFound
from volley_app.services.money import credits, discounts, ledger, refunds
from volley_app.services.seasons import leagues
from volley_app.services.teams import free_agents, registration, rosters, shares

CARD = {"card_number": "4242 4242 4242 4242", "expiry": "12/40", "cvc": "123"}
FEE = 30000 + 6 * 500  # a $300 sixes league and its $5 a player


@pytest.fixture
def w(db):
    svl, root = make_user(db, "svla", Role.SVL), make_user(db, "root", Role.ADMIN)
    cap, a, b, c, d, out = (make_user(db, n) for n in ("cap", "amy", "ben", "cat", "dan", "eve"))
    now = utcnow()
    sid = add_league_session(db, svl, "Fall", now + dt.timedelta(days=3), now + dt.timedelta(days=80))
    lg = add_league(db, svl, sid, start=now + dt.timedelta(days=10), payment_mode="shares", deposit_cents=5000,
                    shares_due_at=now + dt.timedelta(days=7))  # fmt: skip
    dbmod.call(discounts.create_code, actor_of(svl), code="EARLY10", scope="league", scope_id=lg.id, percent=10)
    pid = dbmod.call(registration.register, actor_of(cap), league_id=lg.id, team_name="Aces")["payment_id"]
    dbmod.call(registration.apply_code, actor_of(cap), payment_id=pid, code="EARLY10")
    assert dbmod.call(registration.pay_offline, actor_of(cap), payment_id=pid, **CARD)["status"] == "succeeded"
    team_id = rows(db, Payment, Payment.id == pid)[0].team_id
    for u in (a, b, c, d):
        add_member(db, team_id, u)
    users = {"svla": svl, "cap": cap, "amy": a, "ben": b, "cat": c, "dan": d, "eve": out}
    return {"db": db, "lid": lg.id, "team": team_id, "deposit": pid, "svl": actor_of(svl), "root": actor_of(root),
            "users": users, **{k: actor_of(u) for k, u in users.items()}}  # fmt: skip


def _token(w, who: str, kind: str = shares.SHARE_LINK) -> str:
    return shares.pay_token(w["team"], w["users"][who].id, kind)


def _open(w, who: str, kind: str = shares.SHARE_LINK) -> shares.ShareScreen:
    return dbmod.call(shares.screen, token=_token(w, who, kind))


def _pay(w, who: str, kind: str = shares.SHARE_LINK) -> shares.Paid:
    found = _open(w, who, kind)
    return dbmod.call(shares.pay_offline, token=_token(w, who, kind), payment_id=found["payment_id"], **CARD)


def _balance(w) -> shares.Balance:
    db = w["db"]
    db.expire_all()
    team, league = db.get(Team, w["team"]), db.get(League, w["lid"])
    found = shares.balance(db, team, league)
    db.commit()
    return found


def test_the_deposit_with_a_code_holds_the_place_and_the_rest_is_split_among_the_roster(w):
    db = w["db"]
    deposit = rows(db, Payment, Payment.id == w["deposit"])[0]
    assert (deposit.amount_cents, deposit.discount_cents, deposit.purpose) == (4500, 500, "place")
    assert rows(db, Team, Team.id == w["team"])[0].paid is False  # held by the deposit, not yet confirmed
    b = _balance(w)
    assert (b.price, b.discount, b.paid, b.due) == (FEE, 500, 4500, FEE - 5000)
    screen = _open(w, "amy")
    assert screen["share"] == "$56" and screen["notice"] == "" and screen["due"] == "$280"  # 5 members split $280
    assert ledger_problems(db) == []


def test_three_teammates_pay_by_link_and_the_captain_covers_the_rest(w):
    db = w["db"]
    for who in ("amy", "ben", "cat"):
        assert _pay(w, who)["status"] == "succeeded"
    assert _balance(w).due == FEE - 5000 - 3 * 5600
    again = _open(w, "amy")
    assert again["share"] == "" and "You have paid your share" in again["notice"]
    mine = dbmod.call(rosters.team_shares, w["cap"], w["team"])
    assert [r["paid"] for r in mine["rows"]] == ["", "$56", "$56", "$56", ""]
    assert mine["cover_link"] and mine["confirmed"] is False
    assert _pay(w, "cap", shares.REST_LINK)["status"] == "succeeded"
    assert _balance(w).due == 0 and rows(db, Team, Team.id == w["team"])[0].paid is True
    assert count(db, OutboxMessage, OutboxMessage.kind == "team_paid_up") == 1
    assert "has paid its fee in full" in _open(w, "dan")["notice"]
    assert ledger_problems(db) == []


def test_a_free_agent_placed_on_the_team_owes_no_share_and_the_rest_split_it(w):
    db = w["db"]
    db.execute(sa.update(League).where(League.id == w["lid"]).values(agent_fee_cents=4000))
    db.commit()
    joined = dbmod.call(free_agents.register, w["eve"], league_id=w["lid"], position="Setter")
    assert dbmod.call(registration.pay_offline, w["eve"], payment_id=joined["payment_id"], **CARD)["status"] == "succeeded"
    dbmod.call(free_agents.place, w["svl"], agent_id=joined["agent_id"], team_id=w["team"])
    assert count(db, OutboxMessage, OutboxMessage.kind == "share_due", OutboxMessage.to_addr == w["users"]["eve"].email) == 0
    assert _balance(w).due == FEE - 5000  # the agent's own fee is not the team's
    assert _open(w, "amy")["share"] == "$56"  # still five to split $280: the agent is not one of them
    seen = _open(w, "eve")
    assert seen["share"] == "" and "your own fee as a free agent" in seen["notice"]
    mine = dbmod.call(rosters.team_shares, w["cap"], w["team"])
    eve = next(r for r in mine["rows"] if r["user_id"] == w["eve"].user_id)
    assert (eve["paid"], eve["share"], eve["link"]) == ("Own fee (free agent)", "", "")
    assert ledger_problems(db) == []


def test_a_second_click_pays_once(w):
    db = w["db"]
    found = _open(w, "amy")
    first = dbmod.call(shares.pay_offline, token=_token(w, "amy"), payment_id=found["payment_id"], **CARD)
    second = dbmod.call(shares.pay_offline, token=_token(w, "amy"), payment_id=found["payment_id"], **CARD)
    assert first == second and first["status"] == "succeeded"
    assert count(db, Payment, Payment.purpose == "share", Payment.status == "succeeded") == 1
    assert ledger.totals(db)["charge"] == 4500 + 5600


def test_a_link_that_is_not_ours_or_for_someone_off_the_roster_pays_nothing(w):
    with pytest.raises(NotFound) as bad:
        dbmod.call(shares.screen, token=tampered(_token(w, "amy")))
    assert bad.value.message == shares.BAD_LINK
    with pytest.raises(NotFound):  # amy's signature on ben's id
        dbmod.call(shares.screen, token=_token(w, "amy").replace(f".{w['users']['amy'].id}.", f".{w['users']['ben'].id}."))
    stranger = _open(w, "eve")
    assert stranger["share"] == "" and "no longer on Aces" in stranger["notice"]
    refused = _open(w, "amy", shares.REST_LINK)  # only the captain covers the rest
    assert refused["share"] == "" and refused["notice"] == shares.ONLY_CAPTAIN
    assert count(w["db"], Payment, Payment.purpose == "share") == 0


def test_a_share_that_changed_since_the_page_opened_is_refused(w):
    amy = _open(w, "amy")
    assert _pay(w, "cap", shares.REST_LINK)["status"] == "succeeded"
    with pytest.raises(Invalid) as late:
        dbmod.call(shares.pay_offline, token=_token(w, "amy"), payment_id=amy["payment_id"], **CARD)
    assert "paid its fee in full" in late.value.message
    assert ledger_problems(w["db"]) == []


def test_a_card_payment_verified_after_the_team_was_paid_up_is_refunded(w):
    db = w["db"]
    amy = _open(w, "amy")
    dbmod.call(credits.record_cash, w["svl"], team_id=w["team"], amount=str((FEE - 5000) / 100))  # paid up in cash
    db.execute(sa.update(Payment).where(Payment.id == amy["payment_id"]).values(provider_payment_id="pi_late"))
    db.commit()
    pay = rows(db, Payment, Payment.id == amy["payment_id"])[0]
    shares.fulfil(db, pay)
    db.commit()
    assert [r.amount_cents for r in rows(db, Refund, Refund.payment_id == pay.id)] == [5600]
    assert ledger_problems(db) == []


def test_a_teammate_who_paid_and_leaves_is_proposed_a_refund_and_the_operator_gives_it(w):
    db = w["db"]
    assert _pay(w, "amy")["status"] == "succeeded"
    paid = rows(db, Payment, Payment.purpose == "share")[0]
    dbmod.call(rosters.leave, w["amy"], w["team"])
    [told] = rows(db, OutboxMessage, OutboxMessage.kind == "share_refund_proposed")
    assert told.to_addr == w["users"]["svla"].email and f"/dash/payments/{paid.id}" in told.body_text
    assert count(db, AuditEntry, AuditEntry.action == "share_refund_proposed") == 1
    listed = {r["id"]: r["proposed"] for r in dbmod.call(registration.payments_page, w["svl"], league_id=w["lid"]).rows}
    assert listed == {paid.id: "$56", w["deposit"]: ""}  # the share given up, not the deposit of a team that plays
    done = dbmod.call(refunds.give_back, w["svl"], payment_id=paid.id, reason="Left the team")
    assert done["status"] == "made"
    assert dbmod.call(registration.payments_page, w["svl"], league_id=w["lid"]).rows[0]["proposed"] == ""
    assert _balance(w).due == FEE - 5000  # the team owes her share again, split among the four left
    assert _open(w, "ben")["share"] == "$70"
    assert ledger_problems(db) == []


def test_reminders_go_once_before_the_due_date_and_once_after(w):
    db = w["db"]
    _pay(w, "amy")
    due = rows(db, League, League.id == w["lid"])[0].shares_due_at
    assert shares.remind(db, due - dt.timedelta(days=2)) == 4  # all but amy
    assert shares.remind(db, due - dt.timedelta(days=1)) == 0
    assert shares.remind(db, due + dt.timedelta(hours=1)) == 4
    db.commit()
    assert count(db, ShareReminder) == 8
    assert count(db, OutboxMessage, OutboxMessage.kind == "share_overdue") == 4


def test_who_sees_the_links_and_who_sends_them(w):
    mine = dbmod.call(rosters.team_shares, w["amy"], w["team"])
    assert [bool(r["link"]) for r in mine["rows"]] == [False, True, False, False, False]  # her own only
    assert mine["cover_link"] == ""
    captain = dbmod.call(rosters.team_shares, w["cap"], w["team"])
    assert all(r["link"] for r in captain["rows"])
    with pytest.raises(Forbidden):
        dbmod.call(rosters.team_shares, w["eve"], w["team"])
    before = count(w["db"], OutboxMessage, OutboxMessage.kind == "share_due")
    with pytest.raises(Forbidden):
        dbmod.call(rosters.send_share_links, w["amy"], w["team"])
    assert count(w["db"], OutboxMessage, OutboxMessage.kind == "share_due") == before
    assert dbmod.call(rosters.send_share_links, w["cap"], w["team"]) == 5
    assert dbmod.call(rosters.send_share_links, w["svl"], w["team"]) == 5


def test_a_player_who_joins_gets_their_link(w):
    db = w["db"]
    team, league = db.get(Team, w["team"]), db.get(League, w["lid"])
    rosters.add_member(db, team, league, w["users"]["eve"], by=w["cap"])
    db.commit()
    [mail] = rows(db, OutboxMessage, OutboxMessage.kind == "share_due")
    assert mail.to_addr == w["users"]["eve"].email and "/pay/" in mail.body_text


def _form(**over) -> dict:
    base = {"court": "Court 1", "start": "2026-09-07T18:30", "number_of_weeks": "8", "time_increment": "45",
            "skill_level": "C", "format": "6s", "day": "Monday", "max_teams": "8", "cost": "300"}  # fmt: skip
    return base | over


def test_the_league_form_sets_shares_and_refuses_a_deposit_of_the_whole_fee(w):
    db = w["db"]
    with pytest.raises(Invalid) as big:
        leagues.update_league(db, w["svl"], w["lid"], **_form(payment_mode="shares", deposit="330"))
    assert big.value.errors == {"deposit": "The deposit must be less than the team's fee of $330"}
    db.rollback()
    with pytest.raises(Invalid) as bad:
        leagues.update_league(db, w["svl"], w["lid"], **_form(payment_mode="cheque"))
    assert bad.value.errors == {"payment_mode": leagues.BAD_MODE}
    db.rollback()
    row = leagues.update_league(db, w["svl"], w["lid"], **_form(payment_mode="shares", deposit="75",
                                                               shares_due="2026-09-01T12:00"))  # fmt: skip
    assert (row.payment_mode, row.deposit_cents) == ("shares", 7500) and row.shares_due_at is not None
    row = leagues.update_league(db, w["svl"], w["lid"], **_form(payment_mode="captain", deposit="75"))
    assert (row.payment_mode, row.deposit_cents, row.shares_due_at) == ("captain", 0, None)


def test_a_share_paid_through_stripe_is_verified_on_return_and_counts_once_whatever_the_webhook_replays(w, stripe_env):
    db = w["db"]
    opened = _open(w, "amy")
    assert opened["provider"] == "stripe" and opened["client_secret"]
    [intent] = [i for i in stripe_env.intents.values() if i["metadata"].get("team_id") == str(w["team"])]
    assert intent["amount"] == 5600
    waiting = dbmod.call(shares.confirm_return, token=_token(w, "amy"), payment_id=opened["payment_id"])
    assert waiting["status"] == "declined"  # not paid yet: nothing counts
    stripe_env.intents[intent["id"]]["status"] = "succeeded"
    done = dbmod.call(shares.confirm_return, token=_token(w, "amy"), payment_id=opened["payment_id"])
    assert done["status"] == "succeeded"
    event = {"type": "payment_intent.succeeded", "data": {"object": dict(stripe_env.intents[intent["id"]])}}
    for _ in range(2):  # the webhook, and its replay
        dbmod.call(registration.handle_stripe_event, event)
    assert ledger.totals(db)["charge"] == 4500 + 5600 and ledger_problems(db) == []
    with pytest.raises(NotFound):  # ben's link does not confirm amy's payment
        dbmod.call(shares.confirm_return, token=_token(w, "ben"), payment_id=opened["payment_id"])
