"""Limits on actions that cost us or someone else: signups per client, sub invites, waitlist entries.

Each is tested at its edge: the last use the window allows, the first it refuses, and the first after it ends.
"""

from __future__ import annotations

import datetime as dt
import threading

import pytest
import sqlalchemy as sa
from sqlmodel import Session

from tests.factories import actor_of, add_league, add_league_session, count, make_user
from volley_app import db as dbmod
from volley_app.models import OutboxMessage, RateLimitHit, Role, SubInvite, SubRequest, SubStatus, Team, User, utcnow
from volley_app.services.accounts import accounts
from volley_app.services.core import ratelimit
from volley_app.services.core.errors import Invalid, RateLimited
from volley_app.services.subs import invites, request_changes, request_replies
from volley_app.services.teams import registration


def _age_hits(db, ago: dt.timedelta, scope: str) -> None:
    db.exec(sa.update(RateLimitHit).where(RateLimitHit.scope == scope).values(at=utcnow() - ago))
    db.commit()


# --- signups per client --------------------------------------------------------------------------------


def _signup(db, i: int, client: str = "10.2.0.1", **kw):
    form = {"username": f"player{i}", "password": "pass1", "email": f"player{i}@example.com", "first_name": "P",
            "last_name": "Q", "region": "KY"} | kw  # fmt: skip
    result = accounts.signup(db, client=client, **form)
    db.commit()
    return result


def test_signups_per_client_stop_at_the_limit_and_another_client_goes_on(db):
    limit = ratelimit.SIGNUP.limit
    for i in range(limit):
        _signup(db, i)
    with pytest.raises(RateLimited) as caught:
        _signup(db, 99)
    db.rollback()
    assert "Please wait" in caught.value.message and caught.value.status_code == 429
    assert count(db, User) == limit
    assert _signup(db, 100, client="10.2.0.2").token


def test_signups_that_find_an_address_taken_count_so_probing_addresses_is_slow(db):
    make_user(db, "owner", email="owner@example.com")
    limit = ratelimit.SIGNUP.limit
    for i in range(limit):
        with pytest.raises(Invalid) as caught:
            _signup(db, i, email="owner@example.com")
        db.rollback()
        assert caught.value.errors == {"email": "An account with this email already exists"}
    # The next probe is refused before the address is looked at.
    with pytest.raises(RateLimited):
        _signup(db, 50, email="owner@example.com")
    db.rollback()


def test_a_persons_refused_typos_and_a_taken_address_do_not_lock_the_client_out(db):
    make_user(db, "owner", email="owner@example.com")
    typos = [{"email": "player@example"}, {"password": "p"}, {"first_name": ""}, {"region": "Nowhere"},
             {"username": "a b"}, {"email": ""}, {"last_name": ""}, {"password": ""}]  # fmt: skip
    for n, typo in enumerate(typos * 2):  # 16 typos
        with pytest.raises(Invalid):
            _signup(db, n, **typo)
        db.rollback()
    for n in range(3):
        with pytest.raises(Invalid):
            _signup(db, 60 + n, email="owner@example.com")
        db.rollback()
    assert _signup(db, 99).token  # the right form from the same gym's wifi
    assert count(db, RateLimitHit, RateLimitHit.scope == ratelimit.SIGNUP.scope) == 1  # one account created


def test_a_burst_of_signup_tries_from_one_client_is_held(db):
    for n in range(ratelimit.SIGNUP_TRIES.limit):
        with pytest.raises(Invalid):
            _signup(db, n, email="not-an-address")
        db.rollback()
    with pytest.raises(RateLimited):
        _signup(db, 99)
    db.rollback()
    assert count(db, User) == 0
    assert _signup(db, 100, client="10.2.0.2").token  # another client goes on


def test_signup_limit_window_edges(db):
    limit = ratelimit.SIGNUP.limit
    for i in range(limit):
        _signup(db, i)
    _age_hits(db, ratelimit.SIGNUP.window - dt.timedelta(seconds=30), "signup")
    with pytest.raises(RateLimited) as caught:
        _signup(db, 50)
    db.rollback()
    assert "wait 1 minute " in caught.value.message
    _age_hits(db, ratelimit.SIGNUP.window + dt.timedelta(seconds=1), "signup")
    assert _signup(db, 51).token


def test_a_burst_of_simultaneous_signups_cannot_pass_the_limit(db):
    limit = ratelimit.SIGNUP.limit
    n = limit + 8
    results: list[str] = []
    lock = threading.Lock()
    start = threading.Barrier(n)

    def one(i: int) -> None:
        start.wait(10)
        try:
            with Session(dbmod.get_engine(), expire_on_commit=False) as s:
                _signup(s, i)
            outcome = "ok"
        except RateLimited:
            outcome = "limited"
        except Exception as exc:  # reported by the assertion below
            outcome = repr(exc)
        with lock:
            results.append(outcome)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert set(results) <= {"ok", "limited"}, results
    assert results.count("ok") <= limit
    assert count(db, User) == results.count("ok")


# --- targeted sub invites ---------------------------------------------------------------------------------


@pytest.fixture
def subs_world(db):
    alice = make_user(db, "alice")
    bens = [make_user(db, f"sub{i}", sub=True) for i in range(12)]
    return {"alice": actor_of(alice), "subs": bens}


def _invite(db, actor, recipient_id, **kw):
    fields = {"team": "Net Ninjas", "date": utcnow() + dt.timedelta(days=3), "svl": "Sportsplex", "skill_level": "C",
              "format": "6s"} | kw  # fmt: skip
    rid = request_changes.create(db, actor, recipient_id=recipient_id, **fields)
    db.commit()
    return rid


def test_invites_to_one_sub_stop_at_the_limit(db, subs_world):
    alice, ben = subs_world["alice"], subs_world["subs"][0]
    for _ in range(ratelimit.INVITES_PER_SUB.limit):
        _invite(db, alice, ben.id)
    with pytest.raises(RateLimited):
        _invite(db, alice, ben.id)
    db.rollback()
    assert count(db, SubRequest) == ratelimit.INVITES_PER_SUB.limit
    assert count(db, OutboxMessage, OutboxMessage.to_addr == ben.email) == ratelimit.INVITES_PER_SUB.limit
    # Another sub may still be invited, and a request open to anyone is not an invite.
    _invite(db, alice, subs_world["subs"][1].id)
    _invite(db, alice, None)


def test_invites_per_requestor_per_day(db, subs_world):
    alice = subs_world["alice"]
    limit = ratelimit.INVITES_PER_REQUESTOR.limit
    for i in range(limit):
        _invite(db, alice, subs_world["subs"][i % 11].id if i < 11 else None)
    with pytest.raises(RateLimited) as caught:
        _invite(db, alice, subs_world["subs"][11].id)
    db.rollback()
    assert "hours" in caught.value.message
    _age_hits(db, dt.timedelta(days=1, seconds=1), "invite_requestor")
    _age_hits(db, dt.timedelta(days=1, seconds=1), "invite_sub")
    _invite(db, alice, subs_world["subs"][11].id)


def test_a_refused_invite_is_not_counted(db, subs_world):
    alice, ben = subs_world["alice"], subs_world["subs"][0]
    for _ in range(5):
        with pytest.raises(Invalid):
            _invite(db, alice, ben.id, team="")
        db.rollback()
    assert count(db, RateLimitHit) == 0
    _invite(db, alice, ben.id)


def _invite_list(db, actor, sub_ids, **kw) -> int:
    rid = _invite(db, actor, None, **kw)
    invites.invite_in_order(db, actor, rid, sub_ids=[s.id for s in sub_ids], if_nobody="open")
    db.commit()
    return rid


def _invited(db, sub) -> int:
    return count(db, OutboxMessage, OutboxMessage.to_addr == sub.email, OutboxMessage.kind == "received_request")


def test_invite_lists_send_nothing_once_targeted_invites_used_the_requestors_day(db, subs_world):
    alice, subs = subs_world["alice"], subs_world["subs"]
    for i in range(ratelimit.INVITES_PER_REQUESTOR.limit):
        _invite(db, alice, subs[i].id)
    rid = _invite(db, alice, None)
    with pytest.raises(RateLimited) as caught:
        invites.invite_in_order(db, alice, rid, sub_ids=[subs[10].id, subs[11].id], if_nobody="open")
    db.rollback()
    assert "Please wait" in caught.value.message
    assert _invited(db, subs[10]) == _invited(db, subs[11]) == 0
    assert count(db, SubInvite) == 0


def test_an_invite_list_stops_inviting_when_the_requestors_day_runs_out_and_says_why(db, subs_world):
    alice, subs = subs_world["alice"], subs_world["subs"]
    for i in range(ratelimit.INVITES_PER_REQUESTOR.limit - 1):
        _invite(db, alice, subs[i].id)
    rid = _invite_list(db, alice, [subs[9], subs[10], subs[11]])
    assert _invited(db, subs[9]) == 1  # the last invitation of the day
    request_replies.decline(db, actor_of(subs[9]), rid)
    db.commit()
    assert _invited(db, subs[10]) == _invited(db, subs[11]) == 0
    req = db.get(SubRequest, rid)
    db.refresh(req)
    rows = invites.queue_rows(db, req)
    assert [(r["state"], r["when"]) for r in rows[1:]] == [(invites.NOT_SENT, invites.LIMIT_REACHED)] * 2
    assert req.status == SubStatus.OPEN and req.recipient_id is None  # the list ran out: open to anyone


def test_an_invite_list_skips_a_sub_already_invited_twice_today_by_the_requestor(db, subs_world):
    alice, ben, cara = subs_world["alice"], subs_world["subs"][0], subs_world["subs"][1]
    for _ in range(ratelimit.INVITES_PER_SUB.limit):
        _invite(db, alice, ben.id)
    rid = _invite_list(db, alice, [ben, cara])
    assert _invited(db, ben) == ratelimit.INVITES_PER_SUB.limit and _invited(db, cara) == 1
    req = db.get(SubRequest, rid)
    assert req.recipient_id == cara.id
    assert invites.queue_rows(db, req)[0]["state"] == invites.NOT_SENT


def test_reopening_a_request_to_a_sub_is_counted_as_an_invite(db, subs_world):
    alice, ben = subs_world["alice"], subs_world["subs"][0]
    rid = _invite(db, alice, ben.id)
    request_replies.decline(db, actor_of(ben), rid)
    request_changes.reopen(db, alice, rid, recipient_id=ben.id)
    request_replies.decline(db, actor_of(ben), rid)
    db.commit()
    with pytest.raises(RateLimited):
        request_changes.reopen(db, alice, rid, recipient_id=ben.id)
    db.rollback()
    assert _invited(db, ben) == ratelimit.INVITES_PER_SUB.limit


# --- waitlist entries per player per league -------------------------------------------------------------------


def test_one_player_holds_at_most_two_teams_on_a_leagues_waitlist(db):
    svl, pat, sam = make_user(db, "svl", Role.SVL), make_user(db, "pat"), make_user(db, "sam")
    now = utcnow()
    sid = add_league_session(db, svl, "Fall", now + dt.timedelta(days=3), now + dt.timedelta(days=80))
    lg = add_league(db, svl, sid, start=now + dt.timedelta(days=4), max_teams=2)
    for name in ("A", "B"):
        db.add(Team(league_id=lg.id, team_name=name, paid=True))
    db.commit()
    for i in range(ratelimit.WAITLIST_PER_PLAYER):
        joined = registration.register(db, actor_of(pat), league_id=lg.id, team_name=f"Wait {i}", waitlist=True)
        assert joined["kind"] == "waitlist"
        db.commit()
    with pytest.raises(RateLimited) as caught:
        registration.register(db, actor_of(pat), league_id=lg.id, team_name="One too many", waitlist=True)
    db.rollback()
    assert caught.value.message == "You already have 2 teams on this league's waitlist."
    assert count(db, Team, Team.waitlist.is_(True)) == 2
    # Another player is not held back by that.
    assert registration.register(db, actor_of(sam), league_id=lg.id, team_name="Sams", waitlist=True)["kind"] == "waitlist"
