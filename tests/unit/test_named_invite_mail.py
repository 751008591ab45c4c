"""The email of the sub a request names: one-click Accept and Decline like an ordered list's invitation,
people called by their names, links that fit a phone's mail view."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from tests.factories import actor_of, make_user, rows, tampered
from volley_app.models import OutboxMessage, Rating, SubRequest, SubStatus, User, utcnow
from volley_app.services.core.errors import BadRequest, NotFound
from volley_app.services.mail import mail
from volley_app.services.subs import answers, invites, request_changes, request_replies

H = dt.timedelta(hours=1)
MIN = dt.timedelta(minutes=1)
NOW = utcnow().replace(microsecond=0) + H


@pytest.fixture
def world(db):
    people = {
        "alice": make_user(db, "alice", first_name="Alice", last_name="Archer"),
        "ben": make_user(db, "ben", sub=True, hitter_skill_level=Rating.B, first_name="Ben", last_name="Carter"),
        "carmen": make_user(db, "carmen", sub=True, hitter_skill_level=Rating.B),
        "nameless": make_user(db, "nameless", sub=True, hitter_skill_level=Rating.B),
    }
    people["nameless"].first_name = people["nameless"].last_name = ""  # an account from before names were asked
    db.add(people["nameless"])
    db.commit()
    return db, {k: actor_of(v) for k, v in people.items()}


def _named(db, a, who="ben", *, players=1) -> int:
    rid = request_changes.create(db, a["alice"], recipient_id=a[who].user_id, now=NOW, team="Net Ninjas",
                              date=NOW + 72 * H, svl="Lexington Sportsplex", skill_level="C", format="6s",
                              players_needed=players)  # fmt: skip
    db.flush()
    return rid


def _mail_to(db, username, kind="received_request") -> OutboxMessage:
    return [m for m in rows(db, OutboxMessage) if m.kind == kind and m.to_addr.startswith(username + "@")][-1]


def _links(db, username) -> dict[str, str]:
    body = _mail_to(db, username).body_text
    return {k: re.search(rf"{k.capitalize()}: \S+/api/invite-answers/(\S+)", body).group(1) for k in ("accept", "decline")}


def _req(db, rid) -> SubRequest:
    db.expire_all()
    return db.get(SubRequest, rid)


def test_the_named_sub_accepts_from_the_email_without_logging_in(world):
    db, a = world
    rid = _named(db, a)
    message = _mail_to(db, "ben")
    assert 'href="' in message.body_html and ">Accept</a>" in message.body_html and ">Decline</a>" in message.body_html
    token = _links(db, "ben")["accept"]
    assert answers.read_answer_link(db, token, now=NOW)["request_id"] == rid
    assert answers.answer_by_link(db, token, now=NOW + MIN) == {"action": "accept", "request_id": rid}
    req = _req(db, rid)
    assert (req.status, req.recipient_id, req.places_filled) == (SubStatus.ACCEPTED, a["ben"].user_id, 1)
    assert _mail_to(db, "alice", "accepted_request")
    with pytest.raises(BadRequest):  # used up by the answer, and the other link of the pair too
        answers.answer_by_link(db, token, now=NOW + 2 * MIN)
    with pytest.raises(BadRequest):
        answers.answer_by_link(db, _links(db, "ben")["decline"], now=NOW + 2 * MIN)


def test_the_named_sub_declines_from_the_email(world):
    db, a = world
    rid = _named(db, a)
    answers.answer_by_link(db, _links(db, "ben")["decline"], now=NOW + MIN)
    assert (_req(db, rid).status, _req(db, rid).recipient_id) == (SubStatus.DECLINED, a["ben"].user_id)


def test_a_named_link_stops_when_the_request_names_another_sub(world):
    db, a = world
    rid = _named(db, a)
    token = _links(db, "ben")["accept"]
    request_replies.decline(db, a["ben"], rid, now=NOW)
    request_changes.reopen(db, a["alice"], rid, recipient_id=a["carmen"].user_id, now=NOW)
    before = (_req(db, rid).status, _req(db, rid).recipient_id)
    with pytest.raises(BadRequest, match="no longer open"):
        answers.answer_by_link(db, token, now=NOW + MIN)
    assert (_req(db, rid).status, _req(db, rid).recipient_id) == before == (SubStatus.OPEN, a["carmen"].user_id)


def test_forged_and_expired_named_links_are_refused_and_change_nothing(world):
    db, a = world
    rid = _named(db, a)
    other = _named(db, a, "carmen")
    token = _links(db, "ben")["accept"]
    head, uid, action, expiry, sig = token.split(".")
    flipped = tampered(sig)
    forged = [
        f"{head}.{uid}.{action}.{expiry}.{flipped}",               # a changed signature
        f"r{other}.{uid}.{action}.{expiry}.{sig}",                  # another request
        f"{head}.{a['carmen'].user_id}.{action}.{expiry}.{sig}",    # another sub
        f"{head}.{uid}.{action}.{int(expiry) + 3600}.{sig}",        # a later expiry
        f"{head}.{uid}.d.{expiry}.{sig}",                           # accept turned into decline
        "r1.2.a.3", "rx.1.a.2.sig", "r" + "9" * 300,
    ]  # fmt: skip
    for bad in forged:
        with pytest.raises(NotFound):
            answers.answer_by_link(db, bad, now=NOW + MIN)
    with pytest.raises(BadRequest, match="expired"):
        answers.answer_by_link(db, token, now=NOW + 73 * H)
    assert (_req(db, rid).status, _req(db, rid).places_filled) == (SubStatus.OPEN, 0)


def test_mails_call_people_by_their_names(world):
    db, a = world
    rid = _named(db, a)
    invited = _mail_to(db, "ben")
    assert invited.subject == "Sub request from Alice Archer"
    assert invited.body_text.startswith("Hi Ben,\n\nAlice Archer has asked you to sub.")
    assert "alice" not in invited.body_text.replace("alice@", "")
    request_replies.accept(db, a["ben"], rid, now=NOW)
    told = _mail_to(db, "alice", "accepted_request")
    assert told.body_text.startswith("Hi Alice,\n\nBen Carter has accepted your sub request.")
    request_changes.update(db, a["alice"], rid, now=NOW, team="Net Ninjas", date=NOW + 73 * H,
                        svl="Lexington Sportsplex", skill_level="C", format="6s")  # fmt: skip
    changed = [m for m in rows(db, OutboxMessage) if m.to_addr.startswith("ben@") and m.kind != "received_request"]
    assert changed and all("(alice)" not in m.body_text for m in changed)
    assert changed[-1].body_text.startswith("Hi Ben,\n\nAlice Archer has")


def test_a_person_without_a_first_name_is_called_by_their_username(world):
    db, a = world
    _named(db, a, "nameless")
    assert _mail_to(db, "nameless").body_text.startswith("Hi nameless,\n\n")
    user = db.get(User, a["nameless"].user_id)
    assert (mail.first_name(user), mail.full_name(user)) == ("nameless", "nameless")


def test_html_mail_links_wrap_or_are_labelled():
    url = "https://volley.example.com/api/invite-answers/r12.34.a.1790000000." + "f" * 40
    html = mail.html_from_text(f"Hi Ben,\n\nAccept: {url}\n\nSee {url} for more.\n")
    assert f'<a href="{url}" style="overflow-wrap:anywhere;word-break:break-word">Accept</a>' in html
    assert "overflow-wrap:anywhere" in html.split("<body", 1)[1].split(">", 1)[0]
    for anchor in re.findall(r"<a [^>]*>", html):
        assert "overflow-wrap:anywhere" in anchor
    assert 'name="viewport"' in html
    assert invites.named_token  # the named link's builder the invitation uses
