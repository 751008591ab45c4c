"""Email links over HTTP: an invitation's one-click answers and bulk mail's one-click unsubscribe, without logging in."""

from __future__ import annotations

import datetime as dt
import re

import httpx
import pytest

from tests.factories import actor_of, make_user, rows, tampered
from volley_app import routes
from volley_app.models import (
    NewsletterSubscriber,
    OutboxMessage,
    Rating,
    SubInvite,
    SubRequest,
    SubStatus,
    User,
    utcnow,
)
from volley_app.services.mail import mail_lists, newsletter
from volley_app.services.subs import invites, request_changes

H = dt.timedelta(hours=1)


@pytest.fixture
def world(db):
    alice = make_user(db, "alice")
    ben = make_user(db, "ben", sub=True, hitter_skill_level=Rating.B)
    carmen = make_user(db, "carmen", sub=True, hitter_skill_level=Rating.B)
    db.commit()
    return db, {"alice": actor_of(alice), "ben": actor_of(ben), "carmen": actor_of(carmen)}


def _invite(db, a, *, now=None) -> int:
    now = now or utcnow()
    rid = request_changes.create(db, a["alice"], now=now, team="Net Ninjas", date=now + 72 * H, svl="Gym",
                              skill_level="C", format="6s")  # fmt: skip
    invites.invite_in_order(db, a["alice"], rid, sub_ids=[a["ben"].user_id, a["carmen"].user_id], if_nobody="close",
                            now=now)  # fmt: skip
    db.commit()
    return rid


def _link(db, action: str) -> str:
    mails = [m for m in rows(db, OutboxMessage) if m.kind == "received_request" and m.to_addr.startswith("ben@")]
    url = re.search(rf"{action.capitalize()}: (\S+)", mails[-1].body_text).group(1)
    return url.split("://", 1)[1].split("/", 1)[1]  # the path


async def _send(backend, method: str, path: str, **kw) -> httpx.Response:
    _app, asgi = backend
    transport = httpx.ASGITransport(app=asgi, client=("203.0.113.9", 5000))
    async with httpx.AsyncClient(transport=transport, base_url="http://localhost:3000") as client:
        return await client.request(method, "/" + path.lstrip("/"), **kw)


def _state(db, rid):
    db.expire_all()
    req = db.get(SubRequest, rid)
    return (req.status, req.recipient_id, [(i.state, i.link_used_at) for i in rows(db, SubInvite)])


async def test_opening_a_link_changes_nothing_and_its_button_answers_once(backend, world):
    db, a = world
    rid = _invite(db, a)
    path = _link(db, "decline")
    before = _state(db, rid)
    got = await _send(backend, "GET", path)
    assert got.status_code == 200 and "Decline the sub request?" in got.text and 'method="post"' in got.text
    assert got.headers["cache-control"] == "no-store"
    assert _state(db, rid) == before
    done = await _send(backend, "POST", path)
    assert done.status_code == 200 and "You declined the sub request" in done.text
    db.expire_all()
    req = db.get(SubRequest, rid)
    assert (req.status, req.recipient_id) == (SubStatus.OPEN, a["carmen"].user_id)
    after = _state(db, rid)
    again = await _send(backend, "POST", path)
    assert again.status_code == 400 and "already used" in again.text
    assert routes.sub_request_path(rid) in again.text
    assert _state(db, rid) == after


async def test_accept_by_link_takes_the_request(backend, world):
    db, a = world
    rid = _invite(db, a)
    done = await _send(backend, "POST", _link(db, "accept"))
    assert done.status_code == 200 and "You accepted" in done.text
    db.expire_all()
    assert db.get(SubRequest, rid).status == SubStatus.ACCEPTED


@pytest.mark.parametrize("mangle", [
    lambda p: p[:-1] + ("0" if p[-1] != "0" else "1"),   # a changed signature
    lambda p: re.sub(r"/(\d+)\.", lambda m: f"/{int(m.group(1)) + 1}.", p),  # another invite
    lambda p: p.rsplit("/", 1)[0] + "/nonsense",
])  # fmt: skip
async def test_forged_links_are_refused_and_change_nothing(backend, world, mangle):
    db, a = world
    rid = _invite(db, a)
    before = _state(db, rid)
    for method in ("GET", "POST"):
        got = await _send(backend, method, mangle(_link(db, "accept")))
        assert got.status_code == 404 and "not valid" in got.text
    assert _state(db, rid) == before


async def test_an_expired_link_is_refused(backend, world):
    db, a = world
    rid = _invite(db, a, now=utcnow() - 3 * H)  # ben's two-hour hold ended an hour ago
    before = _state(db, rid)
    got = await _send(backend, "POST", _link(db, "accept"))
    assert got.status_code == 400 and "expired" in got.text and routes.sub_request_path(rid) in got.text
    assert _state(db, rid) == before


async def test_one_click_unsubscribe_from_open_request_notices(backend, world):
    db, a = world
    mail_lists.set_notification(db, a["ben"], value="every")
    db.commit()
    ben = db.get(User, a["ben"].user_id)
    path = routes.mail_unsubscribe_path(mail_lists.unsubscribe_token(ben, mail_lists.OPEN_NOTICES))
    shown = await _send(backend, "GET", path)
    assert shown.status_code == 200 and "Unsubscribe" in shown.text
    db.expire_all()
    assert mail_lists.setting_of(db, ben.id) == "every"
    done = await _send(backend, "POST", path, data={"List-Unsubscribe": "One-Click"})
    assert done.status_code == 200 and "no longer get emails about open sub requests" in done.text
    db.expire_all()
    assert mail_lists.setting_of(db, ben.id) == "invites"
    forged = await _send(backend, "POST", tampered(path))
    assert forged.status_code == 404


async def test_one_click_unsubscribe_from_the_newsletter(backend, world):
    db, _a = world
    sub = newsletter.subscribe(db, email="reader@example.com")
    db.commit()
    path = newsletter.one_click_unsubscribe(sub).split("://", 1)[1].split("/", 1)[1]
    done = await _send(backend, "POST", path, data={"List-Unsubscribe": "One-Click"})
    assert done.status_code == 200
    db.expire_all()
    assert rows(db, NewsletterSubscriber) == []
    assert (await _send(backend, "POST", path)).status_code == 404
