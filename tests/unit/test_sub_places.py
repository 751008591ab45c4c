"""Places on a sub request: a sub with a place is never asked again and cannot decline it; an accept checks the
request's needs and the sub's own games at that time; a sub gives a place up before the game ("I can't make it")."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.factories import actor_of, make_user, rows
from tests.unit.test_matching import rules_world  # noqa: F401 - the fixture: a sub failing each rule
from volley_app.models import (
    OutboxMessage,
    Rating,
    Role,
    SubInvite,
    SubRequest,
    SubRequestPlace,
    SubStatus,
    SubWithdrawal,
    User,
    utcnow,
)
from volley_app.services.core import live
from volley_app.services.core.errors import BadRequest, DomainError, Forbidden, Invalid
from volley_app.services.operations import account_lifecycle
from volley_app.services.subs import (
    answers,
    invites,
    matching,
    request_changes,
    request_lists,
    request_replies,
    sub_records,
    subs_list,
)

H = dt.timedelta(hours=1)
NOW = utcnow().replace(microsecond=0) + H


def _fields(when: dt.datetime, **over) -> dict:
    base = {"team": "Net Ninjas", "date": when, "svl": "Lexington Sportsplex", "skill_level": "C", "format": "6s"}
    return base | over


@pytest.fixture
def world(db):
    people = {
        "alice": make_user(db, "alice"),
        "dave": make_user(db, "dave"),
        "svl": make_user(db, "svl", Role.SVL),
        "root": make_user(db, "root", Role.ADMIN),
        **{n: make_user(db, n, sub=True, hitter_skill_level=Rating.B, first_name=n.capitalize(), last_name="Sub")
           for n in ("ben", "carmen", "eve")},
    }  # fmt: skip
    db.commit()
    return db, {k: actor_of(v) for k, v in people.items()}


def _request(db, a, *, hours: float = 72, **over) -> int:
    rid = request_changes.create(db, a["alice"], now=NOW, **_fields(NOW + hours * H, **over))
    db.commit()
    return rid


def _req(db, rid) -> SubRequest:
    db.expire_all()
    return db.get(SubRequest, rid)


def _state(db, rid) -> tuple:
    """What a refused call must leave alone."""
    db.expire_all()
    req = db.get(SubRequest, rid)
    return ((req.status, req.recipient_id, req.places_filled, req.if_nobody),
            sorted((p.user_id, p.accepted_at) for p in rows(db, SubRequestPlace)),
            sorted((i.user_id, i.state) for i in rows(db, SubInvite)), len(rows(db, OutboxMessage)),
            len(rows(db, SubWithdrawal)), [(u.id, u.sub_late_withdrawals, u.sub_last_date) for u in rows(db, User)])  # fmt: skip


# -- a sub with a place is not asked again -------------------------------------------------------------------


def test_a_sub_with_a_place_is_not_suggested_nor_invited_again(world):
    db, a = world
    rid = _request(db, a, players_needed="2")
    request_replies.accept(db, a["carmen"], rid, now=NOW)
    db.commit()
    carmen = a["carmen"].user_id
    eligible = [r["id"] for r in matching.suggestions(db, a["alice"], rid, size=50, now=NOW).rows]
    assert carmen not in eligible and a["ben"].user_id in eligible
    why = {r["id"]: r["reason"] for r in matching.suggestions(db, a["alice"], rid, show="ineligible", size=50, now=NOW).rows}
    assert why[carmen] == "has a place on this request already"
    before = _state(db, rid)
    with pytest.raises(Invalid) as refused:
        matching.invite(db, a["alice"], rid, sub_id=carmen, now=NOW)
    assert "has a place on this request already" in refused.value.errors["sub"]
    db.rollback()
    assert _state(db, rid) == before
    # the invite list's picker and its check by id
    listed = [o["value"] for o in subs_list.invite_list_choices(db, a["alice"], rid, size=50).rows]
    assert str(carmen) not in listed and str(a["ben"].user_id) in listed
    assert subs_list.invite_list_choice(db, a["alice"], rid, carmen) is None
    assert subs_list.invite_list_choice(db, a["alice"], rid, a["ben"].user_id) is not None
    with pytest.raises(Invalid):
        invites.invite_in_order(db, a["alice"], rid, sub_ids=[carmen], now=NOW)


def test_a_sub_with_a_place_cannot_decline_it(world):
    """Named on the request while holding a place (as an invite from before could leave it): her decline is
    refused, and the request stays as it was."""
    db, a = world
    rid = _request(db, a, players_needed="2")
    request_replies.accept(db, a["carmen"], rid, now=NOW)
    req = _req(db, rid)
    req.recipient_id = a["carmen"].user_id
    db.add(req)
    db.commit()
    before = _state(db, rid)
    with pytest.raises(BadRequest) as refused:
        request_replies.decline(db, a["carmen"], rid, now=NOW)
    assert refused.value.message == request_replies.HOLDS_PLACE
    db.rollback()
    assert _state(db, rid) == before
    assert _req(db, rid).status == SubStatus.OPEN


def test_a_decline_on_a_request_with_places_taken_opens_it_to_anyone(world):
    db, a = world
    rid = _request(db, a, players_needed="2")
    request_replies.accept(db, a["carmen"], rid, now=NOW)
    db.commit()
    matching.invite(db, a["alice"], rid, sub_id=a["ben"].user_id, now=NOW)
    db.commit()
    assert _req(db, rid).recipient_id == a["ben"].user_id
    request_replies.decline(db, a["ben"], rid, now=NOW)
    db.commit()
    req = _req(db, rid)
    assert (req.status, req.recipient_id, req.places_filled) == (SubStatus.OPEN, None, 1)
    # still open to others: eve takes the last place
    request_replies.accept(db, a["eve"], rid, now=NOW)
    db.commit()
    assert _req(db, rid).status == SubStatus.ACCEPTED
    assert request_lists.detail(db, a["alice"], rid, now=NOW)["sub"] == "Carmen Sub, Eve Sub"


def test_a_decline_without_places_still_declines(world):
    db, a = world
    rid = request_changes.create(db, a["alice"], recipient_id=a["ben"].user_id, now=NOW, **_fields(NOW + 72 * H))
    db.commit()
    request_replies.decline(db, a["ben"], rid, now=NOW)
    db.commit()
    assert _req(db, rid).status == SubStatus.DECLINED


# -- an accept checks the needs and the sub's own games -----------------------------------------------------


@pytest.mark.parametrize(("who", "why"), [
    ("gender", "not female"),
    ("nogender", "gender not given"),
    ("rating", "rated C at setter (needs B or better)"),
    ("unrated", "not rated at setter (needs B or better)"),
    ("playing", "playing at that time"),
    ("subbing", "subbing another game at that time"),
])  # fmt: skip
def test_an_accept_is_refused_when_the_sub_does_not_fit(rules_world, who, why):  # noqa: F811
    db, cap, subs, rid, when = rules_world
    now = when - 72 * H
    before = (_state(db, rid), len(rows(db, SubRequestPlace)))
    with pytest.raises(BadRequest) as refused:
        request_replies.accept(db, actor_of(subs[who]), rid, now=now)
    assert refused.value.message == f"{request_replies.CANNOT_TAKE}: {why}"
    db.rollback()
    assert (_state(db, rid), len(rows(db, SubRequestPlace))) == before


def test_an_accept_by_a_fitting_sub_goes_through_their_own_preferences_too(rules_world):  # noqa: F811
    """Their weekday, unavailable date and weekly cap are theirs to change their mind on: not refused."""
    db, cap, subs, rid, when = rules_world
    request_replies.accept(db, actor_of(subs["weekday"]), rid, now=when - 72 * H)
    db.commit()
    assert _req(db, rid).status == SubStatus.ACCEPTED


def test_a_taken_request_still_says_taken_before_any_fit(rules_world):  # noqa: F811
    db, cap, subs, rid, when = rules_world
    request_replies.accept(db, actor_of(subs["good"]), rid, now=when - 72 * H)
    db.commit()
    with pytest.raises(BadRequest) as refused:
        request_replies.accept(db, actor_of(subs["gender"]), rid, now=when - 72 * H)
    assert refused.value.message == request_replies.TAKEN


def test_an_accept_from_the_email_link_is_refused_as_well(world):
    db, a = world
    rid = _request(db, a, gender_needed="Female")
    invites.invite_in_order(db, a["alice"], rid, sub_ids=[a["ben"].user_id], now=NOW)
    db.commit()
    invite = rows(db, SubInvite)[0]
    token = invites.link_token(invite, "accept")
    before = _state(db, rid)
    with pytest.raises(BadRequest) as refused:
        answers.answer_by_link(db, token, now=NOW)
    assert refused.value.message == f"{request_replies.CANNOT_TAKE}: gender not given"
    db.rollback()
    assert _state(db, rid) == before
    db.expire_all()
    assert db.get(SubInvite, invite.id).link_used_at is None


def test_a_request_made_to_another_sub_is_refused_as_such_even_to_an_admin(world):
    db, a = world
    rid = request_changes.create(db, a["alice"], recipient_id=a["ben"].user_id, now=NOW, **_fields(NOW + 72 * H))
    db.commit()
    for who, says in (("root", request_replies.MADE_TO_ANOTHER), ("carmen", "No access")):
        with pytest.raises(Forbidden, match=says):
            request_replies.accept(db, a[who], rid, now=NOW)
        db.rollback()
    req = _req(db, rid)
    assert (req.status, req.recipient_id, req.places_filled) == (SubStatus.OPEN, a["ben"].user_id, 0)


def test_a_place_at_the_same_hour_on_a_request_for_several_is_a_clash(world):
    db, a = world
    first = _request(db, a, players_needed="2")
    request_replies.accept(db, a["ben"], first, now=NOW)
    db.commit()
    other = request_changes.create(db, a["dave"], now=NOW, **_fields(NOW + 72 * H + 30 * dt.timedelta(minutes=1)))
    db.commit()
    with pytest.raises(BadRequest) as refused:
        request_replies.accept(db, a["ben"], other, now=NOW)
    assert refused.value.message.endswith("subbing another game at that time")


# -- "I can't make it" -------------------------------------------------------------------------------------


def test_a_withdrawal_reopens_the_place_to_the_next_sub_on_the_invite_list(world):
    db, a = world
    rid = _request(db, a)
    invites.invite_in_order(db, a["alice"], rid, sub_ids=[a["ben"].user_id, a["carmen"].user_id], now=NOW)
    request_replies.accept(db, a["ben"], rid, now=NOW)
    db.commit()
    assert _req(db, rid).status == SubStatus.ACCEPTED
    assert sorted(i.state for i in rows(db, SubInvite)) == ["accepted", "skipped"]
    later = NOW + H
    request_replies.withdraw(db, a["ben"], rid, now=later)
    db.commit()
    req = _req(db, rid)
    assert (req.status, req.recipient_id, req.places_filled) == (SubStatus.OPEN, a["carmen"].user_id, 0)
    assert rows(db, SubRequestPlace) == []
    assert sorted((i.user_id, i.state) for i in rows(db, SubInvite)) == [(a["ben"].user_id, "withdrawn"),
                                                                        (a["carmen"].user_id, "invited")]
    gone = rows(db, SubWithdrawal)
    assert [(w.user_id, w.late, w.withdrawn_at) for w in gone] == [(a["ben"].user_id, False, later)]
    told = [m for m in rows(db, OutboxMessage) if m.kind == "sub_withdrew"]
    assert len(told) == 1 and told[0].to_addr.startswith("alice@")
    assert "Ben Sub can't make it" in told[0].body_text and "Carmen Sub, has been invited" in told[0].body_text
    assert any(m.kind == "received_request" and m.to_addr.startswith("carmen@") for m in rows(db, OutboxMessage))
    assert db.get(User, a["ben"].user_id).sub_late_withdrawals == 0
    assert db.get(User, a["ben"].user_id).sub_last_date is None  # the place left the record
    # carmen takes it
    request_replies.accept(db, a["carmen"], rid, now=later)
    db.commit()
    assert _req(db, rid).status == SubStatus.ACCEPTED


def test_a_late_withdrawal_opens_the_place_to_anyone_and_counts_on_the_record(world):
    db, a = world
    rid = _request(db, a, hours=30, players_needed="2")
    request_replies.accept(db, a["ben"], rid, now=NOW)
    request_replies.accept(db, a["carmen"], rid, now=NOW)
    db.commit()
    assert _req(db, rid).status == SubStatus.ACCEPTED
    request_replies.withdraw(db, a["carmen"], rid, now=NOW + 10 * H)  # 20 hours before the game
    db.commit()
    req = _req(db, rid)
    assert (req.status, req.recipient_id, req.places_filled) == (SubStatus.OPEN, None, 1)
    assert db.get(User, a["carmen"].user_id).sub_late_withdrawals == 1
    assert sub_records.late_withdrawals(db, a["carmen"].user_id) == 1
    reason = {r["id"]: r["reason"] for r in matching.suggestions(db, a["alice"], rid, size=50, now=NOW + 10 * H).rows}
    assert "0 no-shows, 1 late withdrawal" in reason[a["carmen"].user_id]
    assert request_lists.detail(db, a["alice"], rid, now=NOW + 10 * H)["sub"] == "Ben Sub"
    assert "The place is open to anyone again." in [m for m in rows(db, OutboxMessage) if m.kind == "sub_withdrew"][0].body_text
    # anyone may take it: eve does
    request_replies.accept(db, a["eve"], rid, now=NOW + 11 * H)
    db.commit()
    assert _req(db, rid).status == SubStatus.ACCEPTED
    # a rebuild keeps the count; the request cancelled, it counts no more
    sub_records.rebuild(db)
    db.commit()
    assert db.get(User, a["carmen"].user_id).sub_late_withdrawals == 1
    request_changes.delete(db, a["alice"], rid)
    db.commit()
    db.expire_all()
    assert db.get(User, a["carmen"].user_id).sub_late_withdrawals == 0


@pytest.mark.parametrize("who", ["alice", "dave", "carmen", "svl", "root", None])
def test_only_the_sub_may_give_up_their_own_place(world, who):
    db, a = world
    rid = _request(db, a, players_needed="2")
    request_replies.accept(db, a["ben"], rid, now=NOW)
    db.commit()
    before = _state(db, rid)
    with pytest.raises(DomainError):
        request_replies.withdraw(db, a.get(who), rid, now=NOW)
    db.rollback()
    assert _state(db, rid) == before


def test_a_place_cannot_be_given_up_once_the_game_started(world):
    db, a = world
    rid = _request(db, a, hours=2)
    request_replies.accept(db, a["ben"], rid, now=NOW)
    db.commit()
    before = _state(db, rid)
    for when in (NOW + 2 * H, NOW + 3 * H):
        with pytest.raises(BadRequest):
            request_replies.withdraw(db, a["ben"], rid, now=when)
        db.rollback()
    assert _state(db, rid) == before


def test_every_change_of_the_places_tells_the_pages_of_everyone_on_the_request(world, monkeypatch):
    db, a = world
    rid = _request(db, a, players_needed="3")
    for who in ("ben", "carmen"):
        request_replies.accept(db, a[who], rid, now=NOW)
    db.commit()
    told = []
    monkeypatch.setattr(live, "request_changed", lambda _db, r, users, **kw: told.append((r, set(users))))
    request_replies.withdraw(db, a["carmen"], rid, now=NOW)
    assert any(r == rid and {a["alice"].user_id, a["ben"].user_id, a["carmen"].user_id} <= users for r, users in told)
    with pytest.raises(Forbidden):
        request_replies.withdraw(db, a["svl"], rid, now=NOW)
    db.rollback()
    told.clear()
    matching.invite(db, a["alice"], rid, sub_id=a["eve"].user_id, now=NOW)  # an invite from the suggestions
    assert any(r == rid and {a["alice"].user_id, a["ben"].user_id, a["eve"].user_id} <= users for r, users in told)
    db.rollback()
    told.clear()
    request_changes.delete(db, a["alice"], rid)  # cancelled with places taken: kept, shown nowhere
    assert any(r == rid and {a["alice"].user_id, a["ben"].user_id} <= users for r, users in told)


def test_the_detail_lets_only_a_sub_with_a_place_give_it_up(world):
    db, a = world
    rid = _request(db, a, players_needed="2")
    request_replies.accept(db, a["ben"], rid, now=NOW)
    db.commit()
    assert request_lists.detail(db, a["ben"], rid, now=NOW)["can_withdraw"] is True
    assert request_lists.detail(db, a["ben"], rid, now=NOW)["can_decline"] is False
    for who in ("alice", "carmen", "root"):
        assert request_lists.detail(db, a[who], rid, now=NOW)["can_withdraw"] is False
    assert request_lists.detail(db, a["alice"], rid, now=NOW)["sub"] == "Ben Sub"


@pytest.mark.parametrize("tied", [False, True])
def test_a_request_with_a_place_taken_stays_open_when_the_invited_sub_leaves(world, tied):
    """The sub it names deletes their account (or it is archived, tied to other records): the place taken stays
    taken and the places left are open to anyone, never Declined."""
    db, a = world
    rid = _request(db, a, players_needed="2")
    request_replies.accept(db, a["carmen"], rid, now=NOW)
    db.commit()
    matching.invite(db, a["alice"], rid, sub_id=a["ben"].user_id, now=NOW)
    db.commit()
    if tied:  # ben took a place elsewhere: his account is archived, not deleted
        other = request_changes.create(db, a["dave"], now=NOW, **_fields(NOW + 200 * H))
        request_replies.accept(db, a["ben"], other, now=NOW)
        db.commit()
    account_lifecycle.delete_user(db, a["ben"], a["ben"].user_id)
    db.commit()
    req = _req(db, rid)
    assert (req.status, req.recipient_id, req.places_filled) == (SubStatus.OPEN, None, 1)


def test_a_sub_who_gave_up_a_place_is_archived_not_deleted(world):
    db, a = world
    rid = _request(db, a)
    request_replies.accept(db, a["ben"], rid, now=NOW)
    request_replies.withdraw(db, a["ben"], rid, now=NOW)
    db.commit()
    account_lifecycle.delete_user(db, a["ben"], a["ben"].user_id)
    db.commit()
    db.expire_all()
    assert db.get(User, a["ben"].user_id).archived_at is not None
    assert len(rows(db, SubWithdrawal)) == 1
