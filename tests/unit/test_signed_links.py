"""Signed links and logins across a key change (SECRET_KEY_FALLBACKS), and links emailed before keys were
derived per purpose: they keep working, and one purpose's signature never answers for another."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import re

import jwt
import pytest

from tests.factories import actor_of, login_token, make_user, rows
from volley_app.models import (
    LoginSession,
    NewsletterSubscriber,
    OutboxMessage,
    Rating,
    SubInvite,
    SubRequest,
    User,
    utcnow,
)
from volley_app.services.accounts import auth, recovery, tokens
from volley_app.services.core import uploads
from volley_app.services.core.errors import NotFound
from volley_app.services.mail import mail_lists, newsletter
from volley_app.services.subs import answers, invites, request_changes

OLD_KEY = "the-key-this-installation-used-before-0123456789"
NEW_KEY = "the-key-this-installation-uses-now-abcdefghijkl"
H = dt.timedelta(hours=1)


@pytest.fixture
def world(db):
    alice = make_user(db, "alice")
    ben = make_user(db, "ben", sub=True, hitter_skill_level=Rating.B)
    carmen = make_user(db, "carmen", sub=True, hitter_skill_level=Rating.B)
    return db, {"alice": actor_of(alice), "ben": actor_of(ben), "carmen": actor_of(carmen)}


def _legacy(key: str, message: str, length: int = 40) -> str:
    """A signature as the app made them before keys were derived per purpose: the key's own HMAC of the message."""
    return hmac.new(key.encode(), message.encode(), hashlib.sha256).hexdigest()[:length]


def _invite(db, a, now: dt.datetime) -> tuple[int, SubInvite]:
    rid = request_changes.create(db, a["alice"], now=now, team="Net Ninjas", date=now + 72 * H, svl="Gym",
                              skill_level="C", format="6s")  # fmt: skip
    invites.invite_in_order(db, a["alice"], rid, sub_ids=[a["ben"].user_id], if_nobody="close", now=now)
    db.commit()
    return rid, rows(db, SubInvite, SubInvite.request_id == rid)[0]


def _emailed_answer(db, action: str) -> str:
    """The token of the ``action`` link in the last invitation emailed to ben."""
    mails = [m for m in rows(db, OutboxMessage) if m.kind == "received_request" and m.to_addr.startswith("ben@")]
    return re.search(rf"{action.capitalize()}: \S+/([^/\s]+)$", mails[-1].body_text, re.M).group(1)


def test_an_invitation_emailed_before_a_key_change_is_answered_after_it(world, keys):
    db, a = world
    now = utcnow()
    keys(OLD_KEY)
    rid, invite = _invite(db, a, now)
    token = _emailed_answer(db, "accept")

    keys(NEW_KEY)  # the old key dropped outright: its links are refused
    with pytest.raises(NotFound):
        invites.read_link(db, token, now)

    keys(NEW_KEY, OLD_KEY)  # kept as a fallback: they work
    assert invites.read_link(db, token, now).invite.id == invite.id
    answers.answer_by_link(db, token, now=now)
    db.commit()
    assert db.get(SubInvite, invite.id).state == invites.ACCEPTED
    # New links are signed with the new key.
    keys(NEW_KEY, OLD_KEY)
    fresh = invites.link_token(invite, "decline")
    keys(OLD_KEY)
    assert invites.link_token(invite, "decline") != fresh


def test_links_emailed_before_keys_were_derived_per_purpose_still_work(world, keys):
    db, a = world
    keys(NEW_KEY)
    now = utcnow()
    rid, invite = _invite(db, a, now)
    expiry = int(invite.hold_until.timestamp())
    answer = f"{invite.id}.a.{expiry}.{_legacy(NEW_KEY, f'invite-answer:{invite.id}:{invite.user_id}:accept:{expiry}')}"
    assert invites.read_link(db, answer, now).invite.id == invite.id

    game = int(db.get(SubRequest, rid).date.timestamp())
    ben = db.get(User, a["ben"].user_id)
    named = f"r{rid}.{ben.id}.d.{game}.{_legacy(NEW_KEY, f'named-answer:{rid}:{ben.id}:decline:{game}')}"
    link = invites.read_link(db, named, now)  # the request names ben while he holds it
    assert (link.request_id, link.user_id, link.action) == (rid, ben.id, "decline")

    unsubscribe = f"open.{ben.id}.{_legacy(NEW_KEY, f'list-unsubscribe:open:{ben.id}:{ben.email}')}"
    assert mail_lists.unsubscribe(db, unsubscribe) == mail_lists.LIST_NAMES[mail_lists.OPEN_NOTICES]

    subscriber = newsletter.subscribe(db, email="reader@example.com", client="198.51.100.4")
    db.commit()
    letter = _legacy(NEW_KEY, f"unsubscribe:{subscriber.id}:reader@example.com")
    assert mail_lists.describe(db, f"letter.{subscriber.id}.{letter}") == mail_lists.LIST_NAMES[mail_lists.NEWSLETTER]
    assert newsletter.unsubscribe(db, subscriber_id=subscriber.id, token=letter) == "reader@example.com"
    db.commit()
    assert rows(db, NewsletterSubscriber) == []

    expires = int((now + H).timestamp())
    query = {"u": str(ben.id), "e": str(expires), "s": _legacy(NEW_KEY, f"file:{ben.id}:bracket:9:{expires}")}
    assert uploads.ticket_holder(query, "bracket:9", now) == ben.id
    assert uploads.ticket_holder(query, "bracket:10", now) is None  # another file's link


def test_one_links_signature_never_answers_for_another(world):
    db, a = world
    now = utcnow()
    rid, invite = _invite(db, a, now)
    ben = db.get(User, a["ben"].user_id)
    accept = invites.link_token(invite, "accept")
    signature = accept.rsplit(".", 1)[1]
    expiry = accept.split(".")[2]
    # The invitation's signature on a named answer with the same numbers, on the other answer, on an unsubscribe.
    for forged in (f"r{invite.id}.{ben.id}.a.{expiry}.{signature}", f"{invite.id}.d.{expiry}.{signature}"):
        with pytest.raises(NotFound):
            invites.read_link(db, forged, now)
    with pytest.raises(NotFound):
        mail_lists.unsubscribe(db, f"open.{ben.id}.{signature}")
    # A newsletter subscriber's signature for the same number and address is no list unsubscribe.
    letter = newsletter.unsubscribe_token(ben.id, ben.email)
    for which in ("open", "news"):
        with pytest.raises(NotFound):
            mail_lists.unsubscribe(db, f"{which}.{ben.id}.{letter}")
    assert db.get(User, ben.id).announcements_off is False
    # Whatever a link carries, it is refused as a bad link, never an error.
    subscriber = newsletter.subscribe(db, email="reader@example.com", client="198.51.100.4")
    for odd in ("é" * 40, "0" * 39, "0" * 400, ""):
        with pytest.raises(NotFound):
            mail_lists.unsubscribe(db, f"open.{ben.id}.{odd}")
        with pytest.raises(NotFound):
            newsletter.unsubscribe(db, subscriber_id=subscriber.id, token=odd)
        with pytest.raises(NotFound):
            invites.read_link(db, f"{invite.id}.a.{expiry}.{odd}", now)
    # A file link's signature is for that file and that user only.
    query = uploads.ticket(ben.id, "bracket:9", now)
    assert uploads.ticket_holder(query, "bracket:9", now) == ben.id
    assert uploads.ticket_holder(query | {"u": str(a["alice"].user_id)}, "bracket:9", now) is None


def test_logins_and_emailed_single_use_links_survive_a_key_change(db, keys):
    keys(OLD_KEY)
    user = make_user(db, "ann")
    session = login_token(db, "ann")
    api = tokens.issue(db, auth.actor_of(user))
    db.commit()
    reset = recovery.request_reset(db, email="ann@example.com", client="198.51.100.7")
    db.commit()
    uid, reset_token = re.search(r"/resetPassword/(\d+)/(\S+)$", reset.link).groups()

    keys(NEW_KEY, OLD_KEY)
    assert auth.resolve(db, session).user_id == user.id
    assert tokens.resolve_access(db, api.access).user_id == user.id
    recovery.check_link(db, user_id=uid, token=reset_token)
    renewed = tokens.rotate(db, api.refresh)
    db.commit()
    # What is made now is made with the new key alone.
    keys(NEW_KEY)
    assert tokens.resolve_access(db, renewed.access).user_id == user.id
    assert tokens.rotate(db, renewed.refresh).actor.user_id == user.id
    db.commit()
    assert auth.resolve(db, session) is None  # the old key is gone: so are its logins and links
    with pytest.raises(jwt.PyJWTError):
        jwt.decode(api.access, NEW_KEY, algorithms=["HS256"])
    with pytest.raises(tokens.InvalidToken):
        tokens.resolve_access(db, api.access)
    with pytest.raises(NotFound):
        recovery.check_link(db, user_id=uid, token=reset_token)


def test_logins_kept_before_keys_were_derived_per_purpose_still_resolve(db, keys):
    keys(NEW_KEY)
    user = make_user(db, "ann")
    now = utcnow()
    token = "a-session-token-from-before-0123456789abcdef"
    db.add(LoginSession(user_id=user.id, token_hash=_legacy(NEW_KEY, token, 64), trusted=True, created_at=now,
                        expires_at=now + 24 * H, last_seen_at=now))  # fmt: skip
    db.commit()
    assert auth.resolve(db, token).user_id == user.id
    api = tokens.issue(db, auth.actor_of(user))
    db.commit()
    claims = jwt.decode(api.access, options={"verify_signature": False})
    before = jwt.encode(claims, NEW_KEY, algorithm="HS256")  # an access token signed as before
    assert tokens.resolve_access(db, before).user_id == user.id
    assert auth.logout(db, token)
    db.commit()
    assert auth.resolve(db, token) is None
