"""The spec's email calls never send what the caller writes: the caller must be the party, the server composes."""

from __future__ import annotations

from tests.api import world as w
from tests.factories import rows
from volley_app.models import NEWSLETTER_SECTIONS, OutboxMessage, SubRequest, SubStatus


def _mails(db, kind: str | None = None) -> list[OutboxMessage]:
    return [m for m in rows(db, OutboxMessage) if kind is None or m.kind == kind]


async def _post(x, role, path, body):
    async with w.client() as c:
        return await c.post(path, json=body, headers=w.headers(x, role))


async def test_only_the_sub_who_accepts_tells_the_requestor_and_only_once(db):
    x = w.build(db)
    before = len(_mails(db))
    own = await _post(x, "player", "/api/acceptedRequest", {"id": x["note"]})
    assert own.status_code == 403 and len(_mails(db)) == before
    ok = await _post(x, "other_player", "/api/acceptedRequest",
                     {"id": x["note"], "requestorEmail": "victim@example.com", "recipient": "Anyone"})  # fmt: skip
    assert ok.status_code == 200 and ok.json()["result"] == "answered"
    [told] = _mails(db, "accepted_request")
    assert told.to_addr == "pat@example.com"  # the requestor's own address, not the body's
    again = await _post(x, "other_player", "/api/acceptedRequest", {"id": x["note"]})
    assert again.json()["result"] == "already told" and len(_mails(db, "accepted_request")) == 1
    late = await _post(x, "admin", "/api/acceptedRequest", {"id": x["note"]})
    assert late.status_code == 400 and len(_mails(db, "accepted_request")) == 1


async def test_only_the_named_sub_declines_and_only_the_requestor_confirms_an_invitation(db):
    x = w.build(db)
    assert (await _post(x, "admin", "/api/declinedRequest", {"id": x["invite"]})).status_code == 403
    assert (await _post(x, "other_player", "/api/receivedRequest", {"id": x["invite"]})).status_code == 403
    invitations = len(_mails(db))
    assert (await _post(x, "player", "/api/receivedRequest", {"id": x["invite"]})).status_code == 200
    assert len(_mails(db)) == invitations  # the invitation went when the request was made
    untargeted = await _post(x, "player", "/api/receivedRequest", {"id": x["note"]})
    assert untargeted.status_code == 400
    assert (await _post(x, "other_player", "/api/declinedRequest", {"id": x["invite"]})).status_code == 200
    assert rows(db, SubRequest, SubRequest.id == x["invite"])[0].status == SubStatus.DECLINED
    assert [m.to_addr for m in _mails(db, "declined_request")] == ["pat@example.com"]


async def test_the_newsletter_goes_only_to_subscribers_and_is_composed_by_the_server(db):
    x = w.build(db)
    issue = {f"{s}_{p}": ("https://example.com/a" if p == "link" else "News") for s in NEWSLETTER_SECTIONS
             for p in ("link", "blurb")}  # fmt: skip
    stranger = await _post(x, "admin", "/api/newsletterTest", issue | {"email": "stranger@example.com"})
    assert stranger.status_code == 404 and not _mails(db, "newsletter")
    bad = await _post(x, "admin", "/api/newsletterTest", {"email": "fan@example.com"})
    assert bad.status_code == 422 and not _mails(db, "newsletter")
    sent = await _post(x, "admin", "/api/newsletterTest", issue | {"email": "fan@example.com", "subject": "Buy now"})
    assert sent.status_code == 200
    [mail] = _mails(db, "newsletter")
    assert mail.to_addr == "fan@example.com" and mail.subject != "Buy now" and "unsubscribe" in mail.body_text.lower()
    everyone = await _post(x, "admin", "/api/newsletterTest", issue)
    assert everyone.json()["sent"] == 1 and len(_mails(db, "newsletter")) == 2


async def test_email_all_goes_to_every_active_user_whatever_the_body_names(db):
    x = w.build(db)
    response = await _post(x, "admin", "/api/emailAll", {"subject": "Courts", "body": "Closed", "email": "x@evil.example"})
    assert response.status_code == 201 and response.json()["queued"] == 5
    assert sorted(m.to_addr for m in _mails(db, "email_all")) == sorted(
        f"{n}@example.com" for n in ("pat", "quinn", "svla", "svlb", "root"))


async def test_player_contact_names_the_caller_not_the_body(db):
    x = w.build(db)
    response = await _post(x, "other_player", "/api/playerContact",
                           {"body": "Hello", "name": "The Mayor", "email": "mayor@example.com"})  # fmt: skip
    assert response.status_code == 200
    [mail] = _mails(db, "player_contact")
    assert mail.reply_to == "quinn@example.com" and "quinn" in mail.subject and "Mayor" not in mail.body_text


async def test_email_all_again_within_the_hour_is_refused_unless_the_repeat_is_confirmed(db):
    x = w.build(db)
    first = await _post(x, "admin", "/api/emailAll", {"subject": "Courts", "body": "Closed"})
    again = await _post(x, "admin", "/api/emailAll", {"subject": "Courts", "body": "Closed"})
    assert again.status_code == 422 and "Send it again" in again.text and len(_mails(db, "email_all")) == 5
    confirmed = await _post(x, "admin", "/api/emailAll", {"subject": "Courts", "body": "Closed", "repeatOf": first.json()["id"]})
    assert confirmed.status_code == 201 and len(_mails(db, "email_all")) == 10
