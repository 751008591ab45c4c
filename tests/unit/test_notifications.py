"""Notifications: what notify records and emails by each person's preference, the events that tell people, the
unread count, the list, marking read, the preferences, and the move of a sub's old email setting."""

from __future__ import annotations

import datetime as dt
import time

import pytest
import sqlalchemy as sa
from sqlmodel import Session

from alembic import command
from tests.factories import actor_of, count, login_token, make_user, notified, rows, snapshot
from tests.harness import call, page_state, redirect_target, substate
from tests.unit.test_migrations import scratch_database  # noqa: F401 - the fixture
from volley_app import routes
from volley_app.migrations import alembic_config
from volley_app.models import Notification, NotificationPreference, OutboxMessage, Rating, User, utcnow
from volley_app.pages.dash.profile.my_info import PlayerInfoState
from volley_app.services.core import live
from volley_app.services.core.errors import DomainError, Invalid, NotFound
from volley_app.services.mail import mail_lists, notices, push
from volley_app.services.subs import answers, request_changes, request_replies
from volley_app.state import polling
from volley_app.state.auth import NotificationBell, SessionGuard
from volley_app.state.notifications import (
    ALL_READ,
    PREFS_SAVED,
    NotificationListState,
    NotificationPrefsState,
    SubNotifyState,
)

H = dt.timedelta(hours=1)
NOW = utcnow().replace(microsecond=0) + H


@pytest.fixture
def world(db):
    people = {
        "alice": make_user(db, "alice"),
        "dave": make_user(db, "dave"),
        **{n: make_user(db, n, sub=True, hitter_skill_level=Rating.B) for n in ("ben", "eve")},
    }
    db.commit()
    return db, {k: actor_of(v) for k, v in people.items()}


def _request(db, a, **over) -> int:
    fields = {"team": "Net Ninjas", "date": NOW + 72 * H, "svl": "Lexington Sportsplex", "skill_level": "C",
              "format": "6s"}  # fmt: skip
    rid = request_changes.create(db, a["alice"], now=NOW, **(fields | over))
    db.commit()
    return rid


def _mails(db, kind: str) -> list[str]:
    return sorted(m.to_addr for m in rows(db, OutboxMessage, OutboxMessage.kind == kind))


def _tell(db, who: str, n: int = 1, kind: str = notices.SCHEDULE_CHANGE) -> None:
    user = rows(db, User, User.username == who)[0]
    for i in range(n):
        notices.notify(db, user, kind, text=f"Change {i}", link=routes.DASH, title=f"Title {i}")
    db.commit()


# -- notify -------------------------------------------------------------------------------------------------------


def test_notify_records_the_notification_and_emails_by_the_persons_preference(world):
    db, a = world
    ben, eve = (rows(db, User, User.username == n)[0] for n in ("ben", "eve"))
    notices.save_preferences(db, a["eve"], email={notices.SCHEDULE_CHANGE: "off"})
    heard: list[live.Change] = []
    stop = live.listen(heard.append)
    try:
        for user in (ben, eve):
            notices.notify(db, user, notices.SCHEDULE_CHANGE, text="T1 vs T2 moved", link=routes.DASH_LEAGUES,
                           email=("game_cancelled", {"first_name": user.first_name, "game": "T1 vs T2",
                                                     "was": "Mon 6 PM", "league": "Fall", "page": "x"}))  # fmt: skip
        assert heard == []  # nothing before the commit
        db.commit()
    finally:
        stop()
    assert {u for c in heard for u in c.notices} == {ben.id, eve.id}
    assert notified(db, notices.SCHEDULE_CHANGE) == [("ben@example.com", "/dash/leagues"),
                                                     ("eve@example.com", "/dash/leagues")]  # fmt: skip
    assert _mails(db, "game_cancelled") == ["ben@example.com"]  # eve turned the email of this kind off
    [row] = rows(db, Notification, Notification.user_id == ben.id)
    subject = rows(db, OutboxMessage)[0].subject
    assert (row.title, row.text, row.read_at) == (subject, "T1 vs T2 moved", None)


def test_a_rolled_back_change_tells_nobody(world):
    db, _a = world
    ben = rows(db, User, User.username == "ben")[0]
    notices.notify(db, ben, notices.SCHEDULE_CHANGE, text="x", link=routes.DASH, title="x")
    db.rollback()
    assert count(db, Notification) == 0 and count(db, OutboxMessage) == 0


# -- the events that tell people ----------------------------------------------------------------------------------


def test_an_invited_sub_is_told_and_emailed_unless_they_asked_for_no_email(world):
    db, a = world
    mail_lists.set_notification(db, a["eve"], value="none")
    rid = _request(db, a, recipient_id=a["ben"].user_id)
    rid2 = _request(db, a, recipient_id=a["eve"].user_id)
    assert notified(db, notices.SUB_INVITATION) == [("ben@example.com", routes.sub_request_path(rid)),
                                                    ("eve@example.com", routes.sub_request_path(rid2))]  # fmt: skip
    assert _mails(db, "received_request") == ["ben@example.com"]
    assert count(db, Notification) == 2  # the requestor and dave are told nothing


def test_the_requestor_is_told_of_an_accept_and_of_a_decline(world):
    db, a = world
    taken = _request(db, a, recipient_id=a["ben"].user_id)
    turned_down = _request(db, a, recipient_id=a["eve"].user_id)
    request_replies.accept(db, a["ben"], taken, now=NOW)
    request_replies.decline(db, a["eve"], turned_down, now=NOW)
    db.commit()
    assert notified(db, notices.SUB_ACCEPTED) == [("alice@example.com", routes.sub_request_path(taken))]
    assert notified(db, notices.SUB_DECLINED) == [("alice@example.com", routes.sub_request_path(turned_down))]
    assert _mails(db, "accepted_request") == _mails(db, "declined_request") == ["alice@example.com"]
    alice = rows(db, User, User.username == "alice")[0]
    assert {n.user_id for n in rows(db, Notification) if n.kind != notices.SUB_INVITATION} == {alice.id}


def test_an_open_request_tells_the_subs_who_asked_for_them(world):
    db, a = world
    mail_lists.set_notification(db, a["ben"], value="every")
    rid = _request(db, a)
    assert notified(db, notices.OPEN_REQUEST) == [("ben@example.com", routes.sub_request_path(rid))]
    assert _mails(db, "open_request") == ["ben@example.com"]


# -- reading ------------------------------------------------------------------------------------------------------


def test_the_unread_count_is_the_persons_own_and_stops_at_the_cap(world):
    db, a = world
    _tell(db, "ben", 3)
    _tell(db, "eve", 1)
    assert notices.unread_count(db, a["ben"].user_id) == 3
    assert notices.unread_count(db, a["dave"].user_id) == 0
    assert [notices.count_text(n) for n in (0, 3, 99, 100)] == ["", "3", "99", "99+"]
    _tell(db, "dave", notices.UNREAD_CAP + 5)
    assert notices.count_text(notices.unread_count(db, a["dave"].user_id)) == "99+"


def test_the_list_is_the_persons_own_newest_first_a_page_at_a_time(world):
    db, a = world
    _tell(db, "ben", 30)
    _tell(db, "eve", 2)
    first = notices.notifications_page(db, a["ben"])
    assert (first.total, len(first.rows), first.extra["unread"]) == (30, 25, 30)
    assert [r["text"] for r in first.rows[:2]] == ["Change 29", "Change 28"] and first.rows[0]["unread"]
    second = notices.notifications_page(db, a["ben"], bookmark=first.next)
    assert [r["text"] for r in second.rows] == [f"Change {i}" for i in range(4, -1, -1)]
    assert notices.notifications_page(db, a["dave"]).rows == []
    with pytest.raises(DomainError):
        notices.notifications_page(db, None)


def test_marking_read_is_for_ones_own_notifications_only(world):
    db, a = world
    _tell(db, "ben", 2)
    _tell(db, "eve", 1)
    mine = [n.id for n in rows(db, Notification) if n.user_id == a["ben"].user_id]
    before = snapshot(db)
    for intruder in ("eve", "dave"):
        with pytest.raises(NotFound):
            notices.mark_read(db, a[intruder], notification_id=mine[0])
        assert notices.mark_all_read(db, a[intruder]) == (1 if intruder == "eve" else 0)
        db.rollback()
    for junk in ("x", -1, None, 10**12, True):
        with pytest.raises(NotFound):
            notices.mark_read(db, a["ben"], notification_id=junk)
    assert snapshot(db) == before
    assert notices.mark_read(db, a["ben"], notification_id=mine[0]) == routes.DASH
    db.commit()
    assert notices.unread_count(db, a["ben"].user_id) == 1
    assert notices.mark_all_read(db, a["ben"]) == 1 and notices.mark_all_read(db, a["ben"]) == 0
    db.commit()
    assert notices.unread_count(db, a["ben"].user_id) == 0 and notices.unread_count(db, a["eve"].user_id) == 1


# -- preferences --------------------------------------------------------------------------------------------------


def test_preferences_default_to_todays_emails_and_are_saved_per_person(world):
    db, a = world
    shown = {p["kind"]: p["email"] for p in notices.preferences(db, a["ben"])}
    assert shown == {k: v.email for k, v in notices.KINDS.items()} and shown[notices.OPEN_REQUEST] is False
    saved = notices.save_preferences(db, a["ben"], email={k: "on" if k == notices.SUB_INVITATION else "" for k in notices.KINDS})
    assert [p["kind"] for p in saved if p["email"]] == [notices.SUB_INVITATION]
    assert mail_lists.setting_of(db, a["ben"].user_id) == "invites"
    assert notices.preferences(db, a["eve"]) == notices.preferences(db, a["dave"])  # nobody else's changed
    notices.save_preferences(db, a["ben"], email={notices.OPEN_REQUEST: True})
    assert mail_lists.setting_of(db, a["ben"].user_id) == "every"
    for bad in ({"push": "on"}, {notices.SUB_INVITATION: "maybe"}, "on", None, [notices.SUB_INVITATION]):
        with pytest.raises(Invalid):
            notices.save_preferences(db, a["ben"], email=bad)
    with pytest.raises(DomainError):
        notices.save_preferences(db, None, email={})
    notices.save_preferences(db, a["ben"], email={notices.SUB_INVITATION: False})
    db.commit()
    assert mail_lists.setting_of(db, a["ben"].user_id) == "every"  # open requests still asked for
    assert count(db, NotificationPreference) == len(notices.KINDS)  # one row a kind, never two


def test_a_subs_old_email_setting_becomes_their_preferences(scratch_database):  # noqa: F811
    engine = scratch_database
    cfg = alembic_config()
    command.upgrade(cfg, "0034")
    with engine.begin() as conn:
        for uid, setting in ((1, "every"), (2, "invites"), (3, "none")):
            conn.execute(sa.text(
                "INSERT INTO users (id, username, password_hash, roles, email, first_name, last_name, sub, active, "
                "created_at, updated_at, sub_notify) VALUES (:id, :u, 'x', '[\"Player\"]', :e, 'A', 'B', true, true, "
                "'2026-09-01 18:00:00', '2026-09-01 18:00:00', :s)"), {"id": uid, "u": f"u{uid}", "e": f"u{uid}@x.org",
                                                                      "s": setting})  # fmt: skip
    command.upgrade(cfg, "head")
    with Session(engine) as db:
        assert [mail_lists.setting_of(db, uid) for uid in (1, 2, 3)] == ["every", "invites", "none"]
        assert [notices.emails(db, uid, notices.SUB_INVITATION) for uid in (1, 2, 3)] == [True, True, False]
    command.downgrade(cfg, "0034")
    with engine.connect() as conn:
        kept = conn.execute(sa.text("SELECT sub_notify FROM users ORDER BY id")).scalars().all()
    assert kept == ["every", "invites", "none"]


# -- the screens' handlers ----------------------------------------------------------------------------------------


async def test_the_list_shows_the_persons_own_and_following_one_marks_it_read(world):
    db, _a = world
    _tell(db, "ben", 2)
    _tell(db, "eve", 1)
    tokens = {n: login_token(db, n) for n in ("ben", "eve")}
    ben, eve = (rows(db, User, User.username == n)[0] for n in ("ben", "eve"))
    root, state = page_state(NotificationListState, routes.NOTIFICATIONS, tokens["ben"])
    await call(substate(root, SessionGuard).dash_guard)  # the login, as each /dash page opens
    await call(state.load)
    assert [r["text"] for r in state.rows] == ["Change 1", "Change 0"] and state.unread == 2
    assert state._live_interest() == live.Interest(notices_of=ben.id)
    theirs = [n.id for n in rows(db, Notification) if n.user_id == eve.id]
    before = snapshot(db)
    for junk in (str(theirs[0]), "x", "", None, {"id": 1}):
        assert redirect_target(await call(state.open_one, junk)) is None  # eve's, or no notification: refused
        assert state.error == notices.NOT_FOUND
    assert snapshot(db) == before
    assert redirect_target(await call(state.open_one, state.rows[0]["id"])) == routes.DASH
    assert notices.unread_count(db, ben.id) == 1 and notices.unread_count(db, eve.id) == 1
    await call(state.mark_all_read)
    assert state.unread == 0 and state.notice == ALL_READ and not any(r["unread"] for r in state.rows)
    assert notices.unread_count(db, eve.id) == 1  # eve's stays unread


async def test_nobody_logged_in_reads_or_marks_nothing(world):
    db, _a = world
    _tell(db, "ben", 1)
    [mine] = rows(db, Notification)
    _root, state = page_state(NotificationListState, routes.NOTIFICATIONS, None)
    before = snapshot(db)
    await call(state.load)
    assert state.rows == [] and state.error
    await call(state.mark_all_read)
    assert redirect_target(await call(state.open_one, str(mine.id))) is None
    assert snapshot(db) == before


async def test_the_bell_counts_with_the_login_and_my_info_saves_the_preferences(world, monkeypatch):
    db, a = world
    _tell(db, "ben", 3)
    token = login_token(db, "ben")
    root, guard = page_state(SessionGuard, routes.DASH, token)
    follow = await call(guard.dash_guard)
    bell = substate(root, NotificationBell)
    assert follow == NotificationBell.poll
    assert (bell.unread, bell.unread_text, bell.bell_label) == (3, "3", "Notifications, 3 unread")
    # The bell's poll runs on for the login's next /dash pages: their guards start no other, nor do another
    # login's pages in the same tab fail to start theirs.
    bell._poll_owner, bell._poll_beat = f"{polling.INSTANCE_ID}/bell@{routes.DASH}", time.time()
    monkeypatch.setattr(polling, "_running", {bell._poll_owner})
    assert await call(guard.dash_guard) is None
    bell._poll_user = a["eve"].user_id
    assert await call(guard.dash_guard) == NotificationBell.poll and bell._poll_user == a["ben"].user_id
    polling._running.clear()  # the poll ended (the tab was closed)
    assert await call(guard.dash_guard) == NotificationBell.poll
    notices.mark_all_read(db, a["ben"])
    db.commit()
    await bell._reload()  # a poll round, as a live notice starts it
    assert (bell.unread, bell.unread_text, bell.bell_label) == (0, "", "Notifications")
    _root, info = page_state(PlayerInfoState, routes.PLAYER_INFO, token)
    await call(info.load)
    prefs = await info.get_state(NotificationPrefsState)
    assert prefs.email_on == {k: v.email for k, v in notices.KINDS.items()}
    ticked = {notices.SUB_INVITATION: "on", notices.SCHEDULE_CHANGE: "on"}
    await call(prefs.save_prefs, ticked)
    assert prefs.prefs_notice == PREFS_SAVED and prefs.error == ""
    saved = {p["kind"]: p["email"] for p in notices.preferences(db, a["ben"])}
    assert [k for k, on in saved.items() if on] == [notices.SUB_INVITATION, notices.SCHEDULE_CHANGE]
    assert notices.preferences(db, a["eve"]) == notices.preferences(db, a["dave"])  # only ben's own
    sub = await info.get_state(SubNotifyState)  # the sub's choice on the same page is two of those kinds
    assert sub.notify == "invites"
    await call(prefs.save_prefs, {})  # nothing ticked
    assert sub.notify == "none" and mail_lists.setting_of(db, a["ben"].user_id) == "none"
    await call(sub.save_notify, {"sub_notify": "every"})
    assert prefs.email_on[notices.OPEN_REQUEST] and prefs.email_on[notices.SUB_INVITATION]
    assert not prefs.email_on[notices.SCHEDULE_CHANGE]


# -- push -----------------------------------------------------------------------------------------------------------



def _device(db, push_service, actor) -> str:
    device = push_service.device()
    push.subscribe(db, actor, endpoint=device["endpoint"], p256dh=device["p256dh"], auth=device["auth"])
    return device["endpoint"]


def test_an_invitation_pushes_buttons_that_answer_and_the_accept_reaches_the_requestors_devices(world, push_service):
    db, a = world
    bens, alices = _device(db, push_service, a["ben"]), _device(db, push_service, a["alice"])
    rid = _request(db, a, recipient_id=a["ben"].user_id)
    assert push.deliver_pending() == 1
    [invited] = push_service.messages(bens)
    assert invited["url"] == routes.sub_request_path(rid) and invited["title"] and "invites you" in invited["body"]
    assert [(b["title"], b["post"]) for b in invited["actions"]] == [("Accept", True), ("Decline", True)]
    token = invited["actions"][0]["url"].rsplit("/", 1)[-1]
    assert answers.answer_by_link(db, token, now=NOW)["action"] == "accept"  # what the Accept button posts to
    db.commit()
    assert push.deliver_pending() == 1
    [accepted] = push_service.messages(alices)
    assert accepted["url"] == routes.sub_request_path(rid) and accepted["actions"] == []
    assert push_service.messages(bens) == [invited] and push_service.refused == []


def test_a_kind_turned_off_for_push_goes_to_no_device_but_stays_in_the_app(world, push_service):
    db, a = world
    bens = _device(db, push_service, a["ben"])
    saved = notices.save_preferences(db, a["ben"], email={}, push={notices.SCHEDULE_CHANGE: "off"})
    assert {p["kind"] for p in saved if not p["push"]} == {notices.SCHEDULE_CHANGE, notices.OPEN_REQUEST}  # by default
    assert notices.preferences(db, a["eve"]) == notices.preferences(db, a["dave"])  # nobody else's changed
    _tell(db, "ben", kind=notices.SCHEDULE_CHANGE)
    _tell(db, "ben", kind=notices.SCORE_TO_CONFIRM)
    push.deliver_pending()
    assert [m["title"] for m in push_service.messages(bens)] == ["Title 0"]  # the score's, not the schedule's
    assert count(db, Notification) == 2
    for bad in ({"nope": True}, {notices.SUB_INVITATION: "maybe"}, "on", [notices.SUB_INVITATION]):
        with pytest.raises(Invalid):
            notices.save_preferences(db, a["ben"], email={}, push=bad)
