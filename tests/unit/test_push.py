"""Push notifications: a device's subscription, and messages encrypted, signed and sent to a push service stand-in
that decrypts them as the browser would."""

from __future__ import annotations

import base64
import datetime as dt

import pytest
from sqlmodel import select

from tests.factories import actor_of, make_user
from tests.push_standin import PushStandIn
from volley_app.models import PushMessage, PushSubscription, utcnow
from volley_app.services.core.errors import Invalid, Unauthorized
from volley_app.services.mail import push
from volley_app.settings import get_settings


def _subscribe(db, user, device: dict) -> dict:
    return push.subscribe(db, actor_of(user), endpoint=device["endpoint"], p256dh=device["p256dh"],
                          auth=device["auth"], device="Chrome on Android")  # fmt: skip


def test_the_public_key_is_the_uncompressed_point_of_the_installation_key():
    raw = base64.urlsafe_b64decode(push.public_key() + "==")
    assert len(raw) == 65 and raw[0] == 4


def test_a_message_reaches_each_device_of_the_person_decrypted_and_signed(db, push_service):
    alice, ben = make_user(db, "alice"), make_user(db, "ben")
    phone, laptop, bens = push_service.device(), push_service.device(), push_service.device()
    assert _subscribe(db, alice, phone) == {"on": True, "devices": 1}
    assert _subscribe(db, alice, laptop) == {"on": True, "devices": 2}
    _subscribe(db, ben, bens)

    answer = [{"action": "accept", "title": "Accept", "url": "http://x/answer/1", "post": True}]
    assert push.queue(db, alice.id, title="Ben accepted", body="Ben will play Monday 7 PM", url="/dash/notes/3",
                      tag="request-3", actions=answer) == 2  # fmt: skip
    db.commit()
    assert push.deliver_pending() == 2

    for device in (phone, laptop):
        assert push_service.messages(device["endpoint"]) == [{"title": "Ben accepted", "body": "Ben will play Monday 7 PM",
                                                         "url": "/dash/notes/3", "tag": "request-3",
                                                         "actions": answer}]  # fmt: skip
    assert push_service.messages(bens["endpoint"]) == []
    assert push_service.refused == []
    assert push.deliver_pending() == 0  # each once
    assert all(m.sent_at is not None for m in db.exec(select(PushMessage)).all())


def test_nothing_is_sent_when_the_cause_rolls_back(db, push_service):
    alice = make_user(db, "alice")
    phone = push_service.device()
    _subscribe(db, alice, phone)
    push.queue(db, alice.id, title="t", body="b", url="/dash")
    db.rollback()
    assert push.deliver_pending() == 0


def test_a_device_the_push_service_no_longer_knows_is_dropped_with_what_waited(db, push_service):
    alice = make_user(db, "alice")
    old, new = push_service.device(), push_service.device()
    _subscribe(db, alice, old)
    _subscribe(db, alice, new)
    push_service.gone.add(old["endpoint"].rsplit("/", 1)[-1])
    push.queue(db, alice.id, title="t", body="b", url="/dash")
    db.commit()
    assert push.deliver_pending() == 1
    db.expire_all()
    assert [s.endpoint for s in db.exec(select(PushSubscription)).all()] == [new["endpoint"]]
    assert len(db.exec(select(PushMessage)).all()) == 1


def test_a_push_service_that_fails_is_tried_again_later_then_given_up(db, monkeypatch):
    monkeypatch.setenv("PUSH_SERVICE_HOSTS", "127.0.0.1")
    monkeypatch.setenv("PUSH_MAX_ATTEMPTS", "2")
    get_settings.cache_clear()
    alice = make_user(db, "alice")
    with PushStandIn() as service:
        device = service.device()
    # the stand-in has stopped: nothing answers at the endpoint
    _subscribe(db, alice, device)
    push.queue(db, alice.id, title="t", body="b", url="/dash")
    db.commit()
    now = utcnow()
    assert push.deliver_pending(now=now) == 0
    db.expire_all()
    waiting = db.exec(select(PushMessage)).one()
    assert waiting.attempts == 1 and waiting.failed_at is None and waiting.next_attempt_at > now
    assert push.deliver_pending(now=now) == 0  # not due yet
    later = waiting.next_attempt_at + dt.timedelta(seconds=1)
    push.deliver_pending(now=later)
    db.expire_all()
    given_up = db.exec(select(PushMessage)).one()
    assert given_up.attempts == 2 and given_up.failed_at is not None
    get_settings.cache_clear()


def test_a_device_someone_else_logs_in_on_takes_their_notifications_instead(db, push_service):
    alice, ben = make_user(db, "alice"), make_user(db, "ben")
    shared = push_service.device()
    _subscribe(db, alice, shared)
    push.queue(db, alice.id, title="for alice", body="b", url="/dash")
    db.commit()
    _subscribe(db, ben, shared)
    assert push.device_state(db, actor_of(alice), shared["endpoint"]) == {"on": False, "devices": 0}
    push.queue(db, alice.id, title="for alice again", body="b", url="/dash")
    push.queue(db, ben.id, title="for ben", body="b", url="/dash")
    db.commit()
    push.deliver_pending()
    assert [m["title"] for m in push_service.messages(shared["endpoint"])] == ["for ben"]


def test_turning_off_takes_only_ones_own_device(db, push_service):
    alice, ben = make_user(db, "alice"), make_user(db, "ben")
    phone = push_service.device()
    _subscribe(db, alice, phone)
    assert push.unsubscribe(db, actor_of(ben), endpoint=phone["endpoint"]) == {"on": False, "devices": 0}
    assert push.device_state(db, actor_of(alice), phone["endpoint"]) == {"on": True, "devices": 1}
    assert push.unsubscribe(db, actor_of(alice), endpoint=phone["endpoint"]) == {"on": False, "devices": 0}
    assert db.exec(select(PushSubscription)).all() == []


@pytest.mark.parametrize(("change", "message"), [
    ({"endpoint": "http://push.example.com/x"}, push.NOT_A_DEVICE),
    ({"endpoint": "https://evil.example.com/x"}, push.UNKNOWN_SERVICE),
    ({"endpoint": "http://10.0.0.5/x"}, push.NOT_A_DEVICE),
    ({"endpoint": ""}, push.NOT_A_DEVICE),
    ({"p256dh": "not base64 !"}, push.NOT_A_DEVICE),
    ({"p256dh": base64.urlsafe_b64encode(b"\x05" + b"a" * 64).decode()}, push.NOT_A_DEVICE),
    ({"auth": base64.urlsafe_b64encode(b"short").decode()}, push.NOT_A_DEVICE),
    ({"auth": None}, push.NOT_A_DEVICE),
])  # fmt: skip
def test_a_subscription_that_is_not_a_browsers_is_refused(db, push_service, change, message):
    alice = make_user(db, "alice")
    device = push_service.device() | change
    with pytest.raises(Invalid, match=message):
        _subscribe(db, alice, device)
    assert db.exec(select(PushSubscription)).all() == []


def test_only_a_logged_in_person_turns_notifications_on(db, push_service):
    device = push_service.device()
    with pytest.raises(Unauthorized):
        push.subscribe(db, None, endpoint=device["endpoint"], p256dh=device["p256dh"], auth=device["auth"])


def test_the_known_push_services_are_taken_by_default(db):
    alice = make_user(db, "alice")
    for host in ("fcm.googleapis.com", "updates.push.services.mozilla.com", "wns2-by3p.notify.windows.com",
                 "web.push.apple.com"):  # fmt: skip
        key = base64.urlsafe_b64encode(b"\x04" + b"k" * 64).decode().rstrip("=")
        secret = base64.urlsafe_b64encode(b"s" * 16).decode().rstrip("=")
        push.subscribe(db, actor_of(alice), endpoint=f"https://{host}/send/abc", p256dh=key, auth=secret)
    assert push.device_state(db, actor_of(alice), "")["devices"] == 4
