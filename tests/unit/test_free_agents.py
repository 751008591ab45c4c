"""Free agents: a player registers alone (profile, waiver, the league's fee through checkout), the operator places
them on a team or forms a team of several, a player withdraws themself, and those never placed by the league's start
are given back what they paid, once; two operators placing the same agent place them once."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
import sqlalchemy as sa

from tests.factories import (
    actor_of,
    add_league,
    add_league_session,
    add_teams,
    add_waiver,
    count,
    ledger_problems,
    make_user,
    rows,
)
from volley_app import db as dbmod
from volley_app.models import (
    AuditEntry,
    FreeAgent,
    League,
    LedgerEntry,
    OutboxMessage,
    Payment,
    Refund,
    Role,
    Team,
    TeamMember,
    WaiverSignature,
    utcnow,
)
from volley_app.models.ledger import CREDIT_ISSUED
from volley_app.services.core import timefmt
from volley_app.services.core.errors import Forbidden, Invalid
from volley_app.services.money import ledger
from volley_app.services.seasons import leagues
from volley_app.services.teams import free_agents, registration

CARD = {"card_number": "4242 4242 4242 4242", "expiry": "12/40", "cvc": "123"}
FEE = 4000
PROFILE = {"position": "Setter", "hitter": "B", "passer": "C", "setter": "A", "gender": "Female",
           "availability": "Mondays and Wednesdays"}  # fmt: skip
SIGN = {"typed_name": "Amy Agent", "adult": True}


@pytest.fixture
def w(db):
    svl, other, root = make_user(db, "svla", Role.SVL), make_user(db, "svlb", Role.SVL), make_user(db, "root", Role.ADMIN)
    players = {n: make_user(db, n, first_name=n.title(), last_name="Agent") for n in ("amy", "ben", "cat", "dan")}
    cap = make_user(db, "cap")
    now = utcnow()
    sid = add_league_session(db, svl, "Fall", now + dt.timedelta(days=3), now + dt.timedelta(days=80))
    lg = add_league(db, svl, sid, start=now + dt.timedelta(days=10), agent_fee_cents=FEE, max_teams=3)
    add_waiver(db, actor_of(svl), lg.id)
    (team,) = add_teams(db, lg, 1, captain_id=cap.id, paid=True)
    return {"db": db, "lid": lg.id, "team": team, "svl": actor_of(svl), "other": actor_of(other),
            "root": actor_of(root), "cap": actor_of(cap), **{n: actor_of(u) for n, u in players.items()}}  # fmt: skip


def _register(w, who: str, **extra) -> free_agents.Registered:
    sign = {"typed_name": f"{who.title()} Agent", "adult": True}
    return dbmod.call(free_agents.register, w[who], league_id=w["lid"], **(PROFILE | sign | extra))


def _paid_agent(w, who: str) -> int:
    out = _register(w, who)
    assert dbmod.call(registration.pay_offline, w[who], payment_id=out["payment_id"], **CARD)["status"] == "succeeded"
    return out["agent_id"]


def _agent(w, agent_id: int) -> FreeAgent:
    w["db"].expire_all()
    return rows(w["db"], FreeAgent, FreeAgent.id == agent_id)[0]


def test_a_player_registers_signs_the_waiver_and_pays_through_checkout(w):
    db = w["db"]
    out = _register(w, "amy")
    pay = rows(db, Payment, Payment.id == out["payment_id"])[0]
    assert (pay.purpose, pay.amount_cents, pay.team_id, pay.team_name) == ("agent", FEE, None, "Free agent")
    assert count(db, WaiverSignature, WaiverSignature.user_id == w["amy"].user_id) == 1
    seen = dbmod.call(registration.checkout, w["amy"], payment_id=out["payment_id"])
    assert (seen["total"], seen["team_name"], seen["notice"]) == ("$40", "Free agent", "")
    assert _agent(w, out["agent_id"]).status == "pending_payment"
    assert dbmod.call(registration.pay_offline, w["amy"], payment_id=out["payment_id"], **CARD)["status"] == "succeeded"
    agent = _agent(w, out["agent_id"])
    assert (agent.status, agent.position, agent.setter, agent.gender) == ("waiting", "Setter", "A", "Female")
    assert ledger.net_by_payment(db, [out["payment_id"]])[out["payment_id"]] == FEE
    assert count(db, Team, Team.league_id == w["lid"]) == 1  # an agent's payment takes no place
    assert ledger_problems(db) == []


def test_registering_again_before_paying_answers_the_same_checkout_and_after_paying_is_refused(w):
    first = _register(w, "amy")
    assert _register(w, "amy") == first
    dbmod.call(registration.pay_offline, w["amy"], payment_id=first["payment_id"], **CARD)
    with pytest.raises(Invalid, match="already a free agent"):
        _register(w, "amy")


def test_the_rules_of_registering(w):
    db = w["db"]
    with pytest.raises(Invalid) as bad:
        _register(w, "amy", position="Libero", hitter="Z", availability="x" * 301)
    assert set(bad.value.errors) == {"position", "hitter", "availability"}
    with pytest.raises(Invalid) as unsigned:
        _register(w, "amy", typed_name="Someone Else")
    assert "typed_name" in unsigned.value.errors
    with pytest.raises(Invalid, match="already on T1"):
        dbmod.call(free_agents.register, w["cap"], league_id=w["lid"], **PROFILE)
    with pytest.raises(Forbidden):
        _register(w, "svl")
    db.execute(sa.update(League).where(League.id == w["lid"]).values(agent_fee_cents=None))
    db.commit()
    with pytest.raises(Invalid, match="does not take free agents"):
        _register(w, "amy")
    assert count(db, FreeAgent) == 0 and count(db, Payment) == 0


def test_the_operator_places_an_agent_who_joins_the_roster_and_both_are_told(w):
    db = w["db"]
    aid = _paid_agent(w, "amy")
    choices = dbmod.call(free_agents.team_choices, w["svl"], league_id=w["lid"])
    assert [(c["name"], c["short"]) for c in choices] == [("T1", True)]
    page = dbmod.call(free_agents.agents_page, w["svl"], league_id=w["lid"])
    assert [(r["name"], r["status"], r["ratings"]) for r in page.rows] == [
        ("Amy Agent", "waiting", "Hitter B, Passer C, Setter A")]
    out = dbmod.call(free_agents.place, w["svl"], agent_id=aid, team_id=w["team"])
    assert out["team_name"] == "T1"
    agent = _agent(w, aid)
    assert (agent.status, agent.team_id) == ("placed", w["team"])
    assert count(db, TeamMember, TeamMember.team_id == w["team"], TeamMember.user_id == w["amy"].user_id) == 1
    subjects = [m.subject for m in rows(db, OutboxMessage)]
    assert "You are on T1" in subjects and "Amy Agent joins T1" in subjects
    assert count(db, AuditEntry, AuditEntry.action == "agent_placed") == 1
    with pytest.raises(Invalid, match="no longer waiting"):
        dbmod.call(free_agents.place, w["svl"], agent_id=aid, team_id=w["team"])


def test_the_operator_searches_the_agents_a_page_at_a_time(w):
    for who in ("amy", "ben", "cat"):
        _paid_agent(w, who)
    first = dbmod.call(free_agents.agents_page, w["svl"], league_id=w["lid"], size=2)
    assert (len(first.rows), first.total) == (2, 3) and first.next
    rest = dbmod.call(free_agents.agents_page, w["svl"], league_id=w["lid"], size=2, bookmark=first.next)
    assert [r["name"] for r in first.rows + rest.rows] == ["Amy Agent", "Ben Agent", "Cat Agent"]
    found = dbmod.call(free_agents.agents_page, w["svl"], league_id=w["lid"], filters={"q": "BEN"})
    assert [(r["name"], r["status_label"]) for r in found.rows] == [("Ben Agent", "Waiting")]
    screen = dbmod.call(free_agents.operator_screen, w["root"], league_id=w["lid"], filters={"q": "nobody"})
    assert screen.agents.value is not None and screen.agents.value.rows == []
    assert [t["name"] for t in screen.teams] == ["T1"]
    with pytest.raises(Forbidden):
        dbmod.call(free_agents.operator_screen, w["other"], league_id=w["lid"])


def test_only_the_leagues_operator_or_an_admin_places_and_nothing_changes_otherwise(w):
    aid = _paid_agent(w, "amy")
    for who in ("other", "amy", "cap"):
        with pytest.raises(Forbidden):
            dbmod.call(free_agents.place, w[who], agent_id=aid, team_id=w["team"])
        with pytest.raises(Forbidden):
            dbmod.call(free_agents.agents_page, w[who], league_id=w["lid"])
        with pytest.raises(Forbidden):
            dbmod.call(free_agents.form_team, w[who], league_id=w["lid"], agent_ids=[aid], captain_id=aid,
                       team_name="New")  # fmt: skip
    assert _agent(w, aid).status == "waiting"
    assert dbmod.call(free_agents.place, w["root"], agent_id=aid, team_id=w["team"])["team_id"] == w["team"]


def test_two_operators_placing_the_same_agent_at_once_place_them_once(w):
    db = w["db"]
    aid = _paid_agent(w, "amy")
    (other_team,) = add_teams(db, db.get(League, w["lid"]), 1, prefix="U", paid=True)
    barrier = threading.Barrier(2)
    answers: list = [None, None]

    def run(i: int) -> None:
        barrier.wait()
        try:
            answers[i] = dbmod.call(free_agents.place, (w["svl"], w["root"])[i], agent_id=aid,
                                    team_id=(w["team"], other_team)[i])  # fmt: skip
        except Invalid as exc:
            answers[i] = str(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(isinstance(a, dict) for a in answers) == 1, answers
    assert count(db, TeamMember, TeamMember.user_id == w["amy"].user_id) == 1


def test_the_operator_forms_a_team_of_agents_with_one_as_captain(w):
    db = w["db"]
    ids = [_paid_agent(w, n) for n in ("amy", "ben", "cat")]
    with pytest.raises(Invalid) as bad:
        dbmod.call(free_agents.form_team, w["svl"], league_id=w["lid"], agent_ids=ids, captain_id=999, team_name="")
    assert set(bad.value.errors) == {"team_name"} or set(bad.value.errors) == {"captain_id"}
    with pytest.raises(Invalid, match="already has that name"):
        dbmod.call(free_agents.form_team, w["svl"], league_id=w["lid"], agent_ids=ids, captain_id=ids[1],
                   team_name="T1")  # fmt: skip
    out = dbmod.call(free_agents.form_team, w["svl"], league_id=w["lid"], agent_ids=ids, captain_id=ids[1],
                     team_name="Strays")  # fmt: skip
    team = rows(db, Team, Team.id == out["team_id"])[0]
    assert (team.team_name, team.captain_id, team.paid, team.waitlist) == ("Strays", w["ben"].user_id, True, False)
    members = {m.user_id: m.role for m in rows(db, TeamMember, TeamMember.team_id == team.id)}
    assert members == {w["ben"].user_id: "Captain", w["amy"].user_id: "Player", w["cat"].user_id: "Player"}
    assert {_agent(w, i).status for i in ids} == {"placed"}


def test_a_waiting_agent_withdraws_and_is_given_back_by_the_policy(w):
    db = w["db"]
    aid = _paid_agent(w, "amy")
    with pytest.raises(Forbidden):
        dbmod.call(free_agents.withdraw, w["ben"], agent_id=aid)
    dbmod.call(free_agents.withdraw, w["amy"], agent_id=aid)
    assert _agent(w, aid).status == "withdrawn"
    pay = rows(db, Payment, Payment.user_id == w["amy"].user_id)[0]
    assert [r.amount_cents for r in rows(db, Refund, Refund.payment_id == pay.id)] == [FEE]  # no policy: in full
    assert ledger_problems(db) == []


def test_a_withdrawal_before_paying_closes_the_payment(w):
    out = _register(w, "amy")
    dbmod.call(free_agents.withdraw, w["amy"], agent_id=out["agent_id"])
    assert rows(w["db"], Payment, Payment.id == out["payment_id"])[0].status == "expired"
    paid = dbmod.call(registration.pay_offline, w["amy"], payment_id=out["payment_id"], **CARD)
    assert paid["status"] == "expired" and _agent(w, out["agent_id"]).status == "withdrawn"
    with pytest.raises(Invalid):
        dbmod.call(registration.hold_again, w["amy"], payment_id=out["payment_id"])
    assert count(w["db"], Team) == 1 and count(w["db"], LedgerEntry) == 0


def test_the_start_of_the_league_gives_back_the_unplaced_once(w):
    db = w["db"]
    placed, unplaced = _paid_agent(w, "amy"), _paid_agent(w, "ben")
    unpaid = _register(w, "cat")
    dbmod.call(lambda d: ledger.record(d, kind=CREDIT_ISSUED, amount_cents=1000, key="gift-dan",
                                       user_id=w["dan"].user_id, reason="Gift"))  # fmt: skip
    with_credit = _paid_agent(w, "dan")  # $10 of credit and $30 by card
    dbmod.call(free_agents.place, w["svl"], agent_id=placed, team_id=w["team"])
    assert free_agents.sweep(utcnow()) == 0  # before the start: nothing
    later = utcnow() + dt.timedelta(days=11)
    assert free_agents.sweep(later) == 2
    assert free_agents.sweep(later) == 0
    assert [_agent(w, i).status for i in (placed, unplaced, unpaid["agent_id"], with_credit)] == [
        "placed", "refunded", "withdrawn", "refunded"]
    ben_pay = rows(db, Payment, Payment.user_id == w["ben"].user_id)[0]
    assert [r.amount_cents for r in rows(db, Refund, Refund.payment_id == ben_pay.id)] == [FEE]
    dan_pay = rows(db, Payment, Payment.user_id == w["dan"].user_id)[0]
    assert [r.amount_cents for r in rows(db, Refund, Refund.payment_id == dan_pay.id)] == [FEE - 1000]
    credit = rows(db, LedgerEntry, LedgerEntry.payment_id == dan_pay.id, LedgerEntry.kind == CREDIT_ISSUED)
    assert [c.amount_cents for c in credit] == [1000]
    assert ledger.credit_balance(db, w["dan"].user_id) == 1000
    assert rows(db, Payment, Payment.id == unpaid["payment_id"])[0].status == "expired"
    assert ledger_problems(db) == []


def test_the_league_form_sets_the_free_agent_fee_and_blank_takes_none(w):
    db = w["db"]
    lg = db.get(League, w["lid"])
    start = timefmt.input_value(lg.start_at, leagues.zone(db, lg))
    form = {"court": "Court 1", "start": start, "number_of_weeks": "8", "time_increment": "50", "skill_level": "C",
            "format": "6s", "day": timefmt.local(lg.start_at, leagues.zone(db, lg)).strftime("%A"), "max_teams": "3", "cost": "300"}  # fmt: skip
    with pytest.raises(Invalid) as bad:
        leagues.update_league(db, w["svl"], w["lid"], **form, agent_fee="lots")
    assert set(bad.value.errors) == {"agent_fee"}
    db.rollback()
    assert leagues.update_league(db, w["svl"], w["lid"], **form, agent_fee="25.50").agent_fee_cents == 2550
    assert leagues.update_league(db, w["svl"], w["lid"], **form).agent_fee_cents == 2550  # a form without it
    assert leagues.update_league(db, w["svl"], w["lid"], **form, agent_fee="").agent_fee_cents is None
    db.commit()
    with pytest.raises(Invalid, match="does not take free agents"):
        _register(w, "amy")
