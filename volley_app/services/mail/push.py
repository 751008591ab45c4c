"""Push notifications (Web Push: RFC 8030, encrypted per RFC 8291, signed with VAPID per RFC 8292).

A person turns them on per device from My Info: the browser subscribes with its push service and the page hands
the subscription here (:func:`subscribe`). What tells people of something (``services/mail/notices.py``) queues a
message per device of the person in the transaction of its cause (:func:`queue`); the sender (the app's lifespan
task :func:`run_sender_forever`) claims due messages with a short lease, encrypts and sends each with ``pywebpush``
outside any transaction, and records the answer. A device whose push service answers 404 or 410 no longer takes
them: its subscription is dropped, with what was waiting for it. Other failures are tried again with a growing
pause, up to ``settings.push_max_attempts``.
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import functools
import ipaddress
import json
import logging
from collections.abc import Sequence
from typing import TypedDict
from urllib.parse import urlsplit

import sqlalchemy as sa
from py_vapid import Vapid
from pywebpush import WebPushException, webpush
from sqlmodel import Session, col, select

from volley_app import db as dbmod
from volley_app import routes
from volley_app.models import PushMessage, PushSubscription, utcnow
from volley_app.services.core import periodic
from volley_app.services.core.actors import Actor, require_actor
from volley_app.services.core.errors import Invalid
from volley_app.settings import get_settings

log = logging.getLogger(__name__)

LEASE = dt.timedelta(seconds=60)
SEND_TIMEOUT_SECONDS = 10
# A push service keeps an undelivered message this long (the phone is off): a game tonight is old news tomorrow.
TIME_TO_LIVE_SECONDS = 12 * 3600
BATCH = 50
# What one message may say: push services take 4 KB, encrypted; a notification shows a few lines.
MAX_TITLE, MAX_BODY = 80, 240

NOT_A_DEVICE = "This browser's push subscription could not be read. Please try again."
UNKNOWN_SERVICE = "This browser's push service is not one the app sends to."


class Action(TypedDict):
    """A button on the notification: ``action`` names it, ``title`` is its words, ``url`` what it does (a signed
    answer link is posted to; any other address is opened)."""

    action: str
    title: str
    url: str
    post: bool


class DeviceState(TypedDict):
    on: bool  # this device takes this person's notifications
    devices: int  # how many of this person's devices do


@functools.cache
def _vapid(pem: str) -> Vapid:
    return Vapid.from_pem(pem.encode())


def _key() -> Vapid:
    return _vapid(get_settings().vapid_private_key)


def public_key() -> str:
    """The app's VAPID public key as the browser's ``applicationServerKey`` takes it (base64url, uncompressed point)."""
    from cryptography.hazmat.primitives import serialization

    raw = _key().public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _b64(value: object, size: int, *, first: int | None = None) -> str:
    text = str(value or "").strip()
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise Invalid(NOT_A_DEVICE) from None
    if len(raw) != size or (first is not None and raw[0] != first):
        raise Invalid(NOT_A_DEVICE)
    return text


def _endpoint(value: object) -> str:
    """The subscription's endpoint, if it is an https address of a known push service (plain http only on this
    machine's own address, where a stand-in push service may run)."""
    text = str(value or "").strip()
    if not text or len(text) > 1000:
        raise Invalid(NOT_A_DEVICE)
    parts = urlsplit(text)
    host = (parts.hostname or "").lower()
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = host == "localhost"
    if parts.scheme != "https" and not (parts.scheme == "http" and loopback):
        raise Invalid(NOT_A_DEVICE)
    if not any(host == known or host.endswith("." + known) for known in get_settings().push_service_hosts):
        raise Invalid(UNKNOWN_SERVICE)
    return text


def subscribe(db: Session, actor: Actor | None, *, endpoint: object, p256dh: object, auth: object,
              device: object = "") -> DeviceState:  # fmt: skip
    """This device takes the acting person's notifications from now on (a device someone else turned them on
    from before now takes this person's instead: it is whoever logged in last)."""
    who = require_actor(actor)
    address = _endpoint(endpoint)
    key = _b64(p256dh, 65, first=4)
    secret = _b64(auth, 16)
    row = db.exec(select(PushSubscription).where(PushSubscription.endpoint == address)).first()
    if row is None:
        row = PushSubscription(user_id=who.user_id, endpoint=address, p256dh=key, auth=secret)
    elif row.user_id != who.user_id:
        db.exec(sa.delete(PushMessage).where(col(PushMessage.subscription_id) == row.id))
    row.user_id, row.p256dh, row.auth, row.device = who.user_id, key, secret, str(device or "")[:120]
    db.add(row)
    db.commit()
    return device_state(db, who, address)


def unsubscribe(db: Session, actor: Actor | None, *, endpoint: object) -> DeviceState:
    """This device takes none of the acting person's notifications any more (another's device: nothing changes)."""
    who = require_actor(actor)
    address = str(endpoint or "").strip()
    row = db.exec(select(PushSubscription).where(PushSubscription.endpoint == address,
                                                 PushSubscription.user_id == who.user_id)).first()  # fmt: skip
    if row is not None:
        db.delete(row)
        db.commit()
    return device_state(db, who, address)


def device_state(db: Session, actor: Actor | None, endpoint: object) -> DeviceState:
    """Whether the device at ``endpoint`` (empty: this browser has no subscription) takes the acting person's
    notifications, and how many of their devices do."""
    who = require_actor(actor)
    mine = select(sa.func.count()).select_from(PushSubscription).where(PushSubscription.user_id == who.user_id)
    devices = db.exec(mine).one()
    on = bool(endpoint) and db.exec(mine.where(PushSubscription.endpoint == str(endpoint))).one() > 0
    return {"on": on, "devices": devices}


def send_test(db: Session, actor: Actor | None) -> int:
    """A message to each of the acting person's devices, to see that notifications arrive; answers how many."""
    who = require_actor(actor)
    count = queue(db, who.user_id, title="Notifications are on", body="This is how the app will tell you of "
                  "invitations, answers and your games.", url=routes.PLAYER_INFO, tag="test")  # fmt: skip
    db.commit()
    return count


def queue(db: Session, user_id: int, *, title: str, body: str, url: str, tag: str = "",
          actions: Sequence[Action] = ()) -> int:  # fmt: skip
    """A message to each device of ``user_id`` that takes notifications, in the caller's transaction: sent only if
    it commits. ``url`` is where a tap on the notification goes. Answers how many devices it goes to."""
    payload = json.dumps({"title": title[:MAX_TITLE], "body": body[:MAX_BODY], "url": url, "tag": tag,
                          "actions": list(actions)[:2]}, separators=(",", ":"))  # fmt: skip
    ids = db.exec(select(PushSubscription.id).where(PushSubscription.user_id == user_id)).all()
    for subscription_id in ids:
        assert subscription_id is not None
        db.add(PushMessage(subscription_id=subscription_id, payload=payload))
    return len(ids)


def _backoff(attempts: int) -> dt.timedelta:
    return dt.timedelta(seconds=min(3600, 15 * 2 ** max(0, attempts - 1)))


def _claim(now: dt.datetime, limit: int) -> list[tuple[PushMessage, PushSubscription]]:
    """Due messages, each claimed by a conditional update only one sender wins; the claim is committed."""
    free = sa.or_(col(PushMessage.lease_until).is_(None), col(PushMessage.lease_until) < now)
    due = sa.and_(col(PushMessage.sent_at).is_(None), col(PushMessage.failed_at).is_(None),
                  col(PushMessage.next_attempt_at) <= now, free)  # fmt: skip

    def claim(db: Session) -> list[tuple[PushMessage, PushSubscription]]:
        ids = db.exec(select(PushMessage.id).where(due).order_by(col(PushMessage.id)).limit(limit)).all()
        won = []
        for message_id in ids:
            taken = db.execute(sa.update(PushMessage).where(col(PushMessage.id) == message_id, due)
                               .values(lease_until=now + LEASE))  # fmt: skip
            if taken.rowcount == 1:  # type: ignore[attr-defined]
                won.append(message_id)
        db.commit()
        rows = db.exec(select(PushMessage, PushSubscription).join(
            PushSubscription, col(PushSubscription.id) == PushMessage.subscription_id).where(col(PushMessage.id).in_(won))).all()
        return [(m, s) for m, s in rows]

    return dbmod.call(claim)


def _send(message: PushMessage, device: PushSubscription) -> int:
    """Encrypt and send one message; the push service's status (a refusal raises WebPushException)."""
    settings = get_settings()
    answer = webpush(
        {"endpoint": device.endpoint, "keys": {"p256dh": device.p256dh, "auth": device.auth}},
        data=message.payload,
        vapid_private_key=_key(),
        vapid_claims={"sub": settings.vapid_subject},
        timeout=SEND_TIMEOUT_SECONDS,
        ttl=TIME_TO_LIVE_SECONDS,
        headers={"Urgency": "high"},
    )
    return getattr(answer, "status_code", 201)


def deliver_pending(*, limit: int = BATCH, now: dt.datetime | None = None) -> int:
    """Send what is due; answers how many went. Each answer is recorded in a short transaction of its own."""
    when = now or utcnow()
    sent = 0
    for message, device in _claim(when, limit):
        try:
            _send(message, device)
        except WebPushException as exc:
            status = getattr(exc.response, "status_code", None)
            if status in (404, 410):
                log.info("push subscription %s is gone (%s): dropped", device.id, status)
                dbmod.call(_drop, device.id)
            else:
                dbmod.call(_failed, message.id, f"{status or ''} {exc}".strip()[:500], when)
            continue
        except Exception as exc:  # the push service did not answer: try again later
            dbmod.call(_failed, message.id, f"{type(exc).__name__}: {exc}"[:500], when)
            continue
        dbmod.call(_sent, message.id, device.id, utcnow())
        sent += 1
    return sent


def _sent(db: Session, message_id: int, device_id: int, at: dt.datetime) -> None:
    db.execute(sa.update(PushMessage).where(col(PushMessage.id) == message_id).values(sent_at=at, lease_until=None))
    db.execute(sa.update(PushSubscription).where(col(PushSubscription.id) == device_id).values(last_sent_at=at))
    db.commit()


def _failed(db: Session, message_id: int, error: str, now: dt.datetime) -> None:
    row = db.get(PushMessage, message_id)
    if row is None:
        return
    row.attempts += 1
    row.last_error, row.lease_until = error, None
    if row.attempts >= get_settings().push_max_attempts:
        row.failed_at = now
    else:
        row.next_attempt_at = now + _backoff(row.attempts)
    db.add(row)
    db.commit()


def _drop(db: Session, device_id: int) -> None:
    db.exec(sa.delete(PushMessage).where(col(PushMessage.subscription_id) == device_id))
    db.exec(sa.delete(PushSubscription).where(col(PushSubscription.id) == device_id))
    db.commit()


async def run_sender_forever(stop_event=None) -> None:
    """The app's push sender: what is due, every ``settings.push_interval_seconds``."""
    await periodic.every(get_settings().push_interval_seconds, deliver_pending, name="Push sender",
                         stop_event=stop_event)  # fmt: skip
