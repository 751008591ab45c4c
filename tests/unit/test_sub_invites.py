"""Ordered invites with hold windows, places on multi-player requests, signed answers, notification settings."""

from __future__ import annotations

import datetime as dt
import re
import threading

import pytest

from tests.factories import actor_of, make_user, rows, tampered
from volley_app import db as dbmod
from volley_app.models import (
    OutboxMessage,
    Rating,
    Role,
    SubInvite,
    SubRequest,
    SubRequestPlace,
    SubStatus,
    User,
    utcnow,
)
from volley_app.services.core.errors import BadRequest, DomainError, Forbidden, Invalid, NotFound
from volley_app.services.mail import mail, mail_lists
from volley_app.services.subs import answers, invites, request_changes, request_lists, request_replies
from volley_app.settings import get_settings

H = dt.timedelta(hours=1)
MIN = dt.timedelta(minutes=1)
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
        **{n: make_user(db, n, sub=True, hitter_skill_level=Rating.B) for n in ("ben", "carmen", "eve", "finn")},
    }
    db.commit()
    return db, {k: actor_of(v) for k, v in people.items()}


def _request(db, a, *, hours: float = 72, **over) -> int:
    rid = request_changes.create(db, a["alice"], now=NOW, **_fields(NOW + hours * H, **over))
    db.flush()
    return rid


def _states(db, rid) -> list[tuple[str, str]]:
    names = {u.id: u.username for u in rows(db, User)}
    return [(names[i.user_id], i.state) for i in sorted(rows(db, SubInvite, SubInvite.request_id == rid),
                                                          key=lambda i: i.position)]  # fmt: skip


def _req(db, rid) -> SubRequest:
    found = rows(db, SubRequest, SubRequest.id == rid)[0]
    db.refresh(found)
    return found


def _mails(db, kind=None) -> list[OutboxMessage]:
    return [m for m in rows(db, OutboxMessage) if kind is None or m.kind == kind]


def _invited_to(db, username) -> list[OutboxMessage]:
    return [m for m in _mails(db, "received_request") if m.to_addr.startswith(username + "@")]


def _snapshot(db, rid):
    db.expire_all()
    req = _req(db, rid)
    return ((req.status, req.recipient_id, req.places_filled), _states(db, rid),
            [(i.id, i.link_used_at) for i in rows(db, SubInvite)], len(_mails(db)), len(rows(db, SubRequestPlace)))


# -- the hold window -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("left", "window"), [
    (72 * H, 2 * H),          # far away: the default two hours
    (8 * H, 2 * H),           # a quarter of 8 h is 2 h
    (4 * H, H),               # nearer: a quarter of the time left
    (40 * MIN, 15 * MIN),     # at least 15 minutes
    (10 * MIN, 10 * MIN),     # never past the start
])  # fmt: skip
def test_the_hold_window_shrinks_as_the_game_nears(left, window):
    assert invites.hold_until(NOW, NOW + left) == NOW + window


def test_no_hold_once_the_game_has_started():
    assert invites.hold_until(NOW, NOW) is None and invites.hold_until(NOW, NOW - MIN) is None


# -- the cascade ---------------------------------------------------------------------------------------------


def test_the_first_is_invited_and_a_decline_invites_the_next_at_once(world):
    db, a = world
    rid = _request(db, a)
    assert invites.invite_in_order(db, a["alice"], rid, sub_ids=[a["ben"].user_id, a["carmen"].user_id],
                                   if_nobody="close", now=NOW) == 2  # fmt: skip
    assert _states(db, rid) == [("ben", "invited"), ("carmen", "queued")]
    req = _req(db, rid)
    assert (req.status, req.recipient_id) == (SubStatus.OPEN, a["ben"].user_id)
    first = _invited_to(db, "ben")
    assert len(first) == 1 and "Accept: http" in first[0].body_text and "Decline: http" in first[0].body_text
    assert 'href="http' in first[0].body_html and "Accept</a>" in first[0].body_html
    # carmen cannot take it while ben holds it
    with pytest.raises((Forbidden, BadRequest)):
        request_replies.accept(db, a["carmen"], rid, now=NOW)

    request_replies.decline(db, a["ben"], rid, now=NOW + MIN)
    assert _states(db, rid) == [("ben", "declined"), ("carmen", "invited")]
    req = _req(db, rid)
    assert (req.status, req.recipient_id) == (SubStatus.OPEN, a["carmen"].user_id)
    assert len(_invited_to(db, "carmen")) == 1
    hold = rows(db, SubInvite, SubInvite.user_id == a["carmen"].user_id)[0].hold_until
    assert hold == NOW + MIN + 2 * H
    request_replies.accept(db, a["carmen"], rid, now=NOW + 2 * MIN)
    req = _req(db, rid)
    assert (req.status, req.recipient_id, req.places_filled) == (SubStatus.ACCEPTED, a["carmen"].user_id, 1)
    assert _states(db, rid) == [("ben", "declined"), ("carmen", "accepted")]


def test_silence_passes_the_request_on_after_the_window_by_the_sweep(world):
    db, a = world
    rid = _request(db, a)
    invites.invite_in_order(db, a["alice"], rid, sub_ids=[a["ben"].user_id, a["carmen"].user_id], if_nobody="close",
                            now=NOW)  # fmt: skip
    db.commit()
    assert invites.expire_invites(now=NOW + 2 * H - MIN).expired == 0
    db.expire_all()
    assert _states(db, rid) == [("ben", "invited"), ("carmen", "queued")]
    assert invites.expire_invites(now=NOW + 2 * H).expired == 1
    db.expire_all()
    assert _states(db, rid) == [("ben", "expired"), ("carmen", "invited")]
    assert _req(db, rid).recipient_id == a["carmen"].user_id
    # ben's late accept is refused
    with pytest.raises((Forbidden, BadRequest)):
        dbmod.call(request_replies.accept, a["ben"], rid, now=NOW + 2 * H + MIN)


def test_reading_the_request_sweeps_its_lapsed_hold(world):
    db, a = world
    rid = _request(db, a)
    invites.invite_in_order(db, a["alice"], rid, sub_ids=[a["ben"].user_id, a["carmen"].user_id], if_nobody="close",
                            now=NOW)  # fmt: skip
    found = request_lists.detail(db, a["alice"], rid, now=NOW + 3 * H)
    assert [(q["name"], q["state"]) for q in found["invite_queue"]] == [("Ben Tester", "Expired"), ("Carmen Tester", "Invited")]
    assert found["invite_queue"][1]["when"].startswith("holds it until")


def test_a_game_near_gets_a_shorter_window_never_past_the_start(world):
    db, a = world
    rid = _request(db, a, hours=1)
    invites.invite_in_order(db, a["alice"], rid, sub_ids=[a["ben"].user_id], if_nobody="close", now=NOW)
    assert rows(db, SubInvite)[0].hold_until == NOW + 15 * MIN
    rid2 = _request(db, a, hours=0.1, team="Late")
    invites.invite_in_order(db, a["alice"], rid2, sub_ids=[a["carmen"].user_id], if_nobody="close", now=NOW)
    assert rows(db, SubInvite, SubInvite.request_id == rid2)[0].hold_until == NOW + 6 * MIN == _req(db, rid2).date


def test_an_exhausted_list_opens_the_request_to_anyone(world):
    db, a = world
    rid = _request(db, a)
    mail_lists.set_notification(db, a["finn"], value=mail_lists.EVERY)  # asked for open requests since it was made
    invites.invite_in_order(db, a["alice"], rid, sub_ids=[a["ben"].user_id], if_nobody="open", now=NOW)
    request_replies.decline(db, a["ben"], rid, now=NOW + MIN)
    req = _req(db, rid)
    assert (req.status, req.recipient_id) == (SubStatus.OPEN, None)
    assert _states(db, rid) == [("ben", "declined")]
    assert [m.to_addr.split("@")[0] for m in _mails(db, "open_request")] == ["finn"]
    assert sorted(m.kind for m in _mails(db) if m.to_addr.startswith("alice@")) == ["declined_request", "invite_list_ended"]
    request_replies.accept(db, a["eve"], rid, now=NOW + 2 * MIN)  # anyone may take it now
    assert _req(db, rid).status == SubStatus.ACCEPTED


def test_an_exhausted_list_closes_the_request_when_asked(world):
    db, a = world
    rid = _request(db, a)
    invites.invite_in_order(db, a["alice"], rid, sub_ids=[a["ben"].user_id], if_nobody="close", now=NOW)
    db.commit()
    invites.expire_invites(now=NOW + 3 * H)
    db.expire_all()
    req = _req(db, rid)
    assert req.status == SubStatus.DECLINED and _states(db, rid) == [("ben", "expired")]
    assert request_lists.detail(db, a["alice"], rid, now=NOW + 3 * H)["can_reopen"] is True


def test_a_closed_list_with_places_taken_names_a_sub_who_took_one(world):
    db, a = world
    rid = _request(db, a, players_needed="2")
    invites.invite_in_order(db, a["alice"], rid, sub_ids=[a["ben"].user_id, a["carmen"].user_id], if_nobody="close",
                            now=NOW)  # fmt: skip
    request_replies.accept(db, a["ben"], rid, now=NOW + MIN)  # one place of two; carmen is asked for the other
    db.commit()
    invites.expire_invites(now=NOW + 5 * H)  # carmen says nothing: nobody is left to ask
    db.expire_all()
    req = _req(db, rid)
    assert req.status == SubStatus.ACCEPTED and req.places_filled == 1
    assert req.recipient_id == a["ben"].user_id  # not carmen, whose hold lapsed
    assert _states(db, rid) == [("ben", "accepted"), ("carmen", "expired")]
    told = [m for m in _mails(db) if m.to_addr.startswith("alice@") and "Nobody else" in m.body_text]
    assert told and "is closed with 1 of 2 places taken" in told[-1].body_text


def test_a_sub_who_cannot_be_asked_any_more_is_skipped(world):
    db, a = world
    rid = _request(db, a)
    invites.invite_in_order(db, a["alice"], rid, sub_ids=[a["ben"].user_id, a["carmen"].user_id, a["eve"].user_id],
                            if_nobody="close", now=NOW)  # fmt: skip
    carmen = db.get(User, a["carmen"].user_id)
    carmen.active = False
    db.add(carmen)
    request_replies.decline(db, a["ben"], rid, now=NOW + MIN)
    assert _states(db, rid) == [("ben", "declined"), ("carmen", "skipped"), ("eve", "invited")]


def test_a_cancelled_request_asks_nobody_more(world):
    db, a = world
    rid = _request(db, a)
    invites.invite_in_order(db, a["alice"], rid, sub_ids=[a["ben"].user_id, a["carmen"].user_id], if_nobody="open",
                            now=NOW)  # fmt: skip
    request_changes.delete(db, a["alice"], rid)
    assert _states(db, rid) == [("ben", "skipped"), ("carmen", "skipped")]
    assert _req(db, rid).archived_at is not None
    assert [m.kind for m in _mails(db) if m.to_addr.startswith("ben@")] == ["received_request", "request_cancelled"]
    db.commit()
    invites.expire_invites(now=NOW + 5 * H)
    assert _invited_to(db, "carmen") == []


# -- who may invite, and whom --------------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["dave", "ben", "svl"])
def test_only_the_requestor_invites_in_order_and_nothing_changes(world, who):
    db, a = world
    rid = _request(db, a)
    before = _snapshot(db, rid)
    with pytest.raises((Forbidden, NotFound)):
        invites.invite_in_order(db, a[who], rid, sub_ids=[a["carmen"].user_id], if_nobody="close", now=NOW)
    assert _snapshot(db, rid) == before


@pytest.mark.parametrize("bad", [
    [], "", None, "junk", [0], [10**9], ["x"], {"a": 1}, list(range(1, 30)),
])  # fmt: skip
def test_the_list_must_be_active_subs_once_each(world, bad):
    db, a = world
    rid = _request(db, a)
    before = _snapshot(db, rid)
    with pytest.raises(Invalid) as exc:
        invites.invite_in_order(db, a["alice"], rid, sub_ids=bad, if_nobody="close", now=NOW)
    assert "sub_ids" in exc.value.errors
    assert _snapshot(db, rid) == before


def test_the_list_refuses_the_requestor_non_subs_repeats_and_a_bad_choice(world):
    db, a = world
    rid = _request(db, a)
    cases = [
        ([a["alice"].user_id], "You cannot invite yourself"),
        ([a["dave"].user_id], "Choose active subs only"),
        ([a["ben"].user_id, a["ben"].user_id], "A sub is on the list twice"),
    ]
    for ids, message in cases:
        with pytest.raises(Invalid) as exc:
            invites.invite_in_order(db, a["alice"], rid, sub_ids=ids, if_nobody="close", now=NOW)
        assert exc.value.errors["sub_ids"] == message
    with pytest.raises(Invalid) as exc:
        invites.invite_in_order(db, a["alice"], rid, sub_ids=[a["ben"].user_id], if_nobody="maybe", now=NOW)
    assert "if_nobody" in exc.value.errors
    # a comma-separated form value is a list too
    assert invites.invite_in_order(db, a["alice"], rid, sub_ids=f"{a['ben'].user_id},{a['eve'].user_id}",
                                   if_nobody="open", now=NOW) == 2  # fmt: skip
    with pytest.raises(BadRequest):  # ben holds it now
        invites.invite_in_order(db, a["alice"], rid, sub_ids=[a["carmen"].user_id], if_nobody="open", now=NOW)


# -- places on a multi-player request ------------------------------------------------------------------------


def test_players_needed_is_one_to_four(world):
    db, a = world
    for bad in ("0", "5", "two", "-1", 1.5):
        with pytest.raises(Invalid) as exc:
            request_changes.create(db, a["alice"], now=NOW, **_fields(NOW + 72 * H, players_needed=bad))
        assert "players_needed" in exc.value.errors
    assert _req(db, _request(db, a)).players_needed == 1


def test_a_two_player_request_fills_one_place_per_accept(world):
    db, a = world
    rid = _request(db, a, players_needed="2")
    request_replies.accept(db, a["ben"], rid, now=NOW)
    req = _req(db, rid)
    assert (req.status, req.recipient_id, req.places_filled) == (SubStatus.OPEN, None, 1)
    assert rid in [r["id"] for r in request_lists.list_open(db, a["carmen"], now=NOW).rows]
    mine = request_lists.notifications(db, a["ben"], now=NOW)
    assert [r["id"] for r in mine.rows] == [rid] and mine.total == 1  # on ben's own list too
    with pytest.raises(BadRequest, match="already accepted"):
        request_replies.accept(db, a["ben"], rid, now=NOW)
    assert request_lists.detail(db, a["ben"], rid, now=NOW)["can_accept"] is False
    request_replies.accept(db, a["carmen"], rid, now=NOW)
    req = _req(db, rid)
    assert (req.status, req.places_filled) == (SubStatus.ACCEPTED, 2)
    with pytest.raises(BadRequest):
        request_replies.accept(db, a["eve"], rid, now=NOW)
    assert sorted(p.user_id for p in rows(db, SubRequestPlace)) == sorted([a["ben"].user_id, a["carmen"].user_id])
    # both subs still see it
    assert request_lists.detail(db, a["ben"], rid, now=NOW)["places"] == ["Ben Tester", "Carmen Tester"]


def test_an_invite_list_fills_every_place(world):
    db, a = world
    rid = _request(db, a, players_needed="2")
    invites.invite_in_order(db, a["alice"], rid, sub_ids=[a["ben"].user_id, a["carmen"].user_id, a["eve"].user_id],
                            if_nobody="close", now=NOW)  # fmt: skip
    request_replies.accept(db, a["ben"], rid, now=NOW + MIN)
    assert _states(db, rid) == [("ben", "accepted"), ("carmen", "invited"), ("eve", "queued")]
    request_replies.accept(db, a["carmen"], rid, now=NOW + 2 * MIN)
    assert _states(db, rid) == [("ben", "accepted"), ("carmen", "accepted"), ("eve", "skipped")]
    assert _req(db, rid).status == SubStatus.ACCEPTED


def test_fewer_players_than_accepted_is_refused(world):
    db, a = world
    rid = _request(db, a, players_needed="3")
    request_replies.accept(db, a["ben"], rid, now=NOW)
    request_replies.accept(db, a["carmen"], rid, now=NOW)
    with pytest.raises(Invalid) as exc:
        request_changes.update(db, a["alice"], rid, now=NOW, **_fields(NOW + 72 * H, players_needed="1"))
    assert "players_needed" in exc.value.errors


def test_fewer_players_than_before_fills_the_request_with_the_places_taken(world):
    db, a = world
    rid = _request(db, a, players_needed="3")
    invites.invite_in_order(db, a["alice"], rid, sub_ids=[a["ben"].user_id, a["carmen"].user_id, a["eve"].user_id],
                            if_nobody="close", now=NOW)  # fmt: skip
    request_replies.accept(db, a["ben"], rid, now=NOW + MIN)  # carmen is asked next
    request_changes.update(db, a["alice"], rid, now=NOW + 2 * MIN, **_fields(NOW + 72 * H, players_needed="1"))
    req = _req(db, rid)
    assert (req.status, req.recipient_id, req.places_filled) == (SubStatus.ACCEPTED, a["ben"].user_id, 1)
    assert _states(db, rid) == [("ben", "accepted"), ("carmen", "skipped"), ("eve", "skipped")]
    with pytest.raises(BadRequest) as exc:
        request_replies.accept(db, a["carmen"], rid, now=NOW + 3 * MIN)
    assert exc.value.message == "This sub request has already been taken"
    assert _req(db, rid).places_filled == 1


def test_twenty_concurrent_accepts_of_a_two_player_request_have_two_winners(world):
    db, a = world
    takers = [actor_of(make_user(db, f"taker{i:02d}")) for i in range(20)]
    rid = request_changes.create(db, a["alice"], **_fields(utcnow() + 72 * H, players_needed="2"))
    db.commit()
    barrier = threading.Barrier(len(takers))
    results: list[object] = [None] * len(takers)

    def go(i):
        barrier.wait()
        try:
            dbmod.call(request_replies.accept, takers[i], rid)
            results[i] = "won"
        except DomainError as exc:
            results[i] = exc.message

    threads = [threading.Thread(target=go, args=(i,)) for i in range(len(takers))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert results.count("won") == 2
    assert results.count(request_replies.TAKEN) == 18
    db.expire_all()
    req = _req(db, rid)
    assert (req.status, req.places_filled) == (SubStatus.ACCEPTED, 2)
    winners = {takers[i].user_id for i, r in enumerate(results) if r == "won"}
    assert {p.user_id for p in rows(db, SubRequestPlace, SubRequestPlace.request_id == rid)} == winners
    assert [m.kind for m in _mails(db)] == ["accepted_request", "accepted_request"]


# -- signed answers ------------------------------------------------------------------------------------------


def _links(db, username) -> dict[str, str]:
    body = _invited_to(db, username)[-1].body_text
    return {k: re.search(rf"{k.capitalize()}: \S+/api/invite-answers/(\S+)", body).group(1) for k in ("accept", "decline")}


def _invited(db, a, *names, if_nobody="close"):
    rid = _request(db, a)
    invites.invite_in_order(db, a["alice"], rid, sub_ids=[a[n].user_id for n in names], if_nobody=if_nobody, now=NOW)
    return rid


def test_the_accept_link_answers_without_logging_in_once(world):
    db, a = world
    rid = _invited(db, a, "ben", "carmen")
    token = _links(db, "ben")["accept"]
    assert answers.read_answer_link(db, token, now=NOW)["action"] == "accept"
    assert answers.answer_by_link(db, token, now=NOW + MIN) == {"action": "accept", "request_id": rid}
    req = _req(db, rid)
    assert (req.status, req.recipient_id) == (SubStatus.ACCEPTED, a["ben"].user_id)
    before = _snapshot(db, rid)
    with pytest.raises(BadRequest, match="already used"):
        answers.answer_by_link(db, token, now=NOW + 2 * MIN)
    with pytest.raises(BadRequest):  # the other link of the same invitation
        answers.answer_by_link(db, _links(db, "ben")["decline"], now=NOW + 2 * MIN)
    assert _snapshot(db, rid) == before


def test_the_decline_link_invites_the_next(world):
    db, a = world
    rid = _invited(db, a, "ben", "carmen")
    answers.answer_by_link(db, _links(db, "ben")["decline"], now=NOW + MIN)
    assert _states(db, rid) == [("ben", "declined"), ("carmen", "invited")]


def test_forged_expired_and_other_invites_links_are_refused_and_change_nothing(world):
    db, a = world
    rid = _invited(db, a, "ben", "carmen")
    other = _invited(db, a, "eve")
    token = _links(db, "ben")["accept"]
    invite_id, action, expiry, sig = token.split(".")
    eve_invite = rows(db, SubInvite, SubInvite.request_id == other)[0].id
    flipped = tampered(sig)
    forged = [
        f"{invite_id}.{action}.{expiry}.{flipped}",                  # a changed signature
        f"{eve_invite}.{action}.{expiry}.{sig}",                     # another invite's id
        f"{invite_id}.{action}.{int(expiry) + 3600}.{sig}",          # a later expiry
        f"{invite_id}.d.{expiry}.{sig}",                             # accept turned into decline
        "junk", "", "1.a.2", "../../etc", "9" * 300,
    ]  # fmt: skip
    before = _snapshot(db, rid)
    for bad in forged:
        with pytest.raises(NotFound):
            answers.answer_by_link(db, bad, now=NOW + MIN)
    with pytest.raises(BadRequest, match="expired"):
        answers.answer_by_link(db, token, now=NOW + 3 * H)
    assert _snapshot(db, rid) == before


def test_a_link_whose_answer_is_refused_is_not_used_up(world):
    db, a = world
    rid = _invited(db, a, "ben")
    alice = db.get(User, a["alice"].user_id)
    ben = db.get(User, a["ben"].user_id)
    ben.active = False  # the sub can no longer answer
    db.add_all([alice, ben])
    db.flush()
    before = _snapshot(db, rid)
    with pytest.raises(BadRequest):
        answers.answer_by_link(db, _links(db, "ben")["accept"], now=NOW + MIN)
    assert _snapshot(db, rid) == before


# -- notification settings and bulk mail -----------------------------------------------------------------------


def test_nothing_means_invited_in_the_app_without_email(world):
    db, a = world
    mail_lists.set_notification(db, a["ben"], value="none")
    rid = _invited(db, a, "ben")
    assert _states(db, rid) == [("ben", "invited")] and _invited_to(db, "ben") == []
    assert rid in [r["id"] for r in request_lists.notifications(db, a["ben"], now=NOW).rows]
    # the single targeted invite too
    request_changes.create(db, a["alice"], recipient_id=a["ben"].user_id, now=NOW, **_fields(NOW + 72 * H))
    assert _invited_to(db, "ben") == []


def test_open_requests_are_emailed_only_to_matching_subs_who_asked(world):
    db, a = world
    for name, setting in (("ben", "every"), ("carmen", "every"), ("eve", "invites"), ("finn", "none")):
        mail_lists.set_notification(db, a[name], value=setting)
    carmen = db.get(User, a["carmen"].user_id)
    carmen.hitter_skill_level = Rating.D  # below the request's C
    db.add(carmen)
    _request(db, a)
    notices = _mails(db, "open_request")
    assert [m.to_addr.split("@")[0] for m in notices] == ["ben"]
    ben = db.get(User, a["ben"].user_id)
    assert notices[0].list_unsubscribe == mail_lists.unsubscribe_url(ben, mail_lists.OPEN_NOTICES)
    built = mail._build_message(notices[0], get_settings())
    assert built["List-Unsubscribe"] == f"<{notices[0].list_unsubscribe}>"
    assert built["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert built.get_body(("plain",)) is not None and built.get_body(("html",)) is not None
    # a targeted request is no open notice
    request_changes.create(db, a["alice"], recipient_id=a["eve"].user_id, now=NOW, **_fields(NOW + 72 * H))
    assert len(_mails(db, "open_request")) == 1


def test_the_setting_is_the_users_own_and_one_of_three(world):
    db, a = world
    assert mail_lists.notification_setting(db, a["ben"])["value"] == "invites"
    for bad in ("all", "", None, 3, ["every"]):
        with pytest.raises(Invalid):
            mail_lists.set_notification(db, a["ben"], value=bad)
    with pytest.raises(DomainError):
        mail_lists.set_notification(db, None, value="none")
    assert mail_lists.setting_of(db, a["ben"].user_id) == "invites"


def test_one_click_unsubscribe_from_open_notices_and_announcements(world):
    db, a = world
    mail_lists.set_notification(db, a["ben"], value="every")
    ben = db.get(User, a["ben"].user_id)
    token = mail_lists.unsubscribe_token(ben, mail_lists.OPEN_NOTICES)
    assert mail_lists.unsubscribe(db, token) == mail_lists.LIST_NAMES["open"]
    assert mail_lists.setting_of(db, ben.id) == "invites"
    news = mail_lists.unsubscribe_token(ben, mail_lists.ANNOUNCEMENTS)
    mail_lists.unsubscribe(db, news)
    assert ben.announcements_off is True
    other = db.get(User, a["carmen"].user_id)
    for bad in (tampered(token), news.replace(f".{ben.id}.", f".{other.id}."), "open.1", "x.1.y", None):
        with pytest.raises(NotFound):
            mail_lists.unsubscribe(db, bad)
    assert other.announcements_off is False
