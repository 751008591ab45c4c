"""Public services: inquiry forms, password recovery, newsletter, email to all users, rate limits."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from tests.factories import PASSWORD, actor_of, count, login_token, make_user, rows
from volley_app.models import (
    ContactInquiry,
    EmailAllRecipient,
    FranchiseInquiry,
    HostInquiry,
    LoginSession,
    NewsletterIssue,
    NewsletterSubscriber,
    OutboxMessage,
    PasswordResetToken,
    PromoteInquiry,
    Role,
    User,
    utcnow,
)
from volley_app.services.accounts import auth, passwords, recovery
from volley_app.services.core import validation
from volley_app.services.core.errors import Forbidden, Invalid, NotFound, RateLimited, Unauthorized
from volley_app.services.mail import email_all, inquiries, newsletter
from volley_app.settings import get_settings

CLIENT = "198.51.100.9"

CONTACT = {"name": "Ann Lee", "email": "ann@example.com", "body": "Do you have a C league?"}
HOST = {
    "svl_name": "Rupp Sand Courts",
    "email": "venue@example.com",
    "phone": "859.555.0123",
    "address": "1 Main St",
    "city": "Lexington",
    "region": "KY",
    "zip": "40507",
}
PROMOTE = {"company_name": "Spike Co", "email": "ads@example.com", "phone": "(859) 555-0199", "why": "We sell balls."}
FRANCHISE = {
    "name": "Cara Diaz",
    "email": "cara@example.com",
    "phone": "+1 502 555 0100",
    "city": "Louisville",
    "region": "KY",
    "message": "I want to run leagues here.",
}
FORMS = {
    "contact": (CONTACT, ContactInquiry),
    "host": (HOST, HostInquiry),
    "promote": (PROMOTE, PromoteInquiry),
    "franchise": (FRANCHISE, FranchiseInquiry),
}


# --- validation --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("8595550123", "(859) 555-0123"),
        ("(859) 555-0123", "(859) 555-0123"),
        ("859.555.0123", "(859) 555-0123"),
        ("+1 859-555-0123", "(859) 555-0123"),
    ],
)
def test_phone_accepts_punctuated_us_numbers(raw, clean):
    assert validation.phone(raw) == clean


@pytest.mark.parametrize(
    "raw",
    ["", "555-0123", "859555012", "85955501234", "859-555-01x3", "0595550123", "2 859 555 0123", None, 8595550123],
)
def test_phone_refuses_anything_but_ten_us_digits(raw):
    with pytest.raises(Invalid) as err:
        validation.phone(raw)
    assert "phone" in err.value.errors


@pytest.mark.parametrize(
    ("raw", "ok"),
    [("40507", True), ("40507-1234", True), ("4050", False), ("405071", False), ("abcde", False), ("40507-12", False)],
)
def test_zip(raw, ok):
    if ok:
        assert validation.zip_code(raw) == raw
    else:
        with pytest.raises(Invalid):
            validation.zip_code(raw)


@pytest.mark.parametrize(
    ("raw", "ok"),
    [
        ("abcd", True),
        ("Ab1!@#$%", True),
        ("abc", False),
        ("a" * 101, False),
        ("a" * 100, True),
        ("abcd^", False),
        ("ab cd", False),
    ],
)
def test_reset_password_rule(raw, ok):
    if ok:
        assert validation.reset_password(raw) == raw
    else:
        with pytest.raises(Invalid):
            validation.reset_password(raw)


# --- inquiries ---------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", list(FORMS))
def test_each_inquiry_is_stored_and_mailed_to_the_provider(db, kind):
    data, model = FORMS[kind]
    inquiry_id = inquiries.submit(db, kind=kind, data=data, client=CLIENT)
    db.commit()
    [row] = rows(db, model)
    assert row.id == inquiry_id and row.email == data["email"]
    [msg] = rows(db, OutboxMessage)
    assert msg.to_addr == get_settings().provider_email
    assert msg.reply_to == data["email"]
    assert msg.kind == f"inquiry_{kind}"
    for value in data.values():
        if value not in ("KY", HOST["phone"], FRANCHISE["phone"]):
            assert value in msg.body_text


@pytest.mark.parametrize("kind", list(FORMS))
def test_each_required_field_of_each_form_is_named_when_missing(db, kind):
    data, model = FORMS[kind]
    for name in data:
        with pytest.raises(Invalid) as err:
            inquiries.submit(db, kind=kind, data={**data, name: "  "}, client=CLIENT)
        assert list(err.value.errors) == [name]
    with pytest.raises(Invalid) as err:
        inquiries.submit(db, kind=kind, data={}, client=CLIENT)
    assert set(err.value.errors) == set(data)
    db.rollback()
    assert count(db, model) == 0 and count(db, OutboxMessage) == 0


@pytest.mark.parametrize(
    ("kind", "name", "value"),
    [
        ("contact", "email", "ann@"),
        ("host", "phone", "555-0123"),
        ("host", "zip", "4050"),
        ("host", "region", "XX"),
        ("promote", "email", "not an email"),
        ("franchise", "phone", "12345"),
    ],
)
def test_malformed_fields_are_refused(db, kind, name, value):
    data, _ = FORMS[kind]
    with pytest.raises(Invalid) as err:
        inquiries.submit(db, kind=kind, data={**data, name: value}, client=CLIENT)
    assert list(err.value.errors) == [name]


def test_the_bot_trap_keeps_and_sends_nothing(db):
    assert inquiries.submit(db, kind="contact", data=CONTACT, client=CLIENT, trap="http://spam.example") is None
    db.commit()
    assert count(db, ContactInquiry) == 0 and count(db, OutboxMessage) == 0


def test_inquiries_are_rate_limited_per_client(db):
    for _ in range(inquiries.CLIENT_LIMIT):
        inquiries.submit(db, kind="contact", data=CONTACT, client=CLIENT)
        db.commit()
    with pytest.raises(RateLimited):
        inquiries.submit(db, kind="host", data=HOST, client=CLIENT)
    db.rollback()
    inquiries.submit(db, kind="contact", data=CONTACT, client="203.0.113.50")  # another client is not held up
    db.commit()
    assert count(db, ContactInquiry) == inquiries.CLIENT_LIMIT + 1
    assert count(db, HostInquiry) == 0


def test_rate_limit_window_ends(db):
    start = utcnow()
    from volley_app.services.core import ratelimit

    for _ in range(3):
        ratelimit.hit(db, scope="t", key="k", limit=3, window=dt.timedelta(minutes=10), now=start)
    with pytest.raises(RateLimited, match="10 minutes"):
        ratelimit.hit(
            db, scope="t", key="k", limit=3, window=dt.timedelta(minutes=10), now=start + dt.timedelta(seconds=1)
        )
    ratelimit.hit(
        db, scope="t", key="k", limit=3, window=dt.timedelta(minutes=10), now=start + dt.timedelta(minutes=10)
    )


def test_unknown_form_kind_is_refused(db):
    with pytest.raises(Exception, match="Unknown form"):
        inquiries.submit(db, kind="__class__", data=CONTACT, client=CLIENT)


def test_only_admins_list_inquiries(db):
    admin, player = make_user(db, "root", Role.ADMIN), make_user(db, "pat")
    inquiries.submit(db, kind="promote", data=PROMOTE, client=CLIENT)
    db.commit()
    [found] = inquiries.list_recent(db, actor_of(admin))
    assert found["kind"] == "Promote" and found["details"]["Company Name"] == "Spike Co"
    with pytest.raises(Forbidden):
        inquiries.list_recent(db, actor_of(player))
    with pytest.raises(Unauthorized):
        inquiries.list_recent(db, None)


# --- password recovery -------------------------------------------------------------------------


def _reset_mail(db) -> tuple[int, str]:
    [msg] = rows(db, OutboxMessage, OutboxMessage.kind == "password_reset")
    m = re.search(r"/resetPassword/(\d+)/(\S+)", msg.body_text)
    return int(m.group(1)), m.group(2)


def test_reset_request_for_an_account_mails_a_link_from_the_public_url(db):
    user = make_user(db, "ann")
    result = recovery.request_reset(db, email="ANN@example.com", client=CLIENT)
    db.commit()
    assert result.found
    [msg] = rows(db, OutboxMessage)
    assert msg.to_addr == "ann@example.com" and msg.subject == "Reset your password"
    uid, token = _reset_mail(db)
    assert uid == user.id
    assert f"{get_settings().public_url.rstrip('/')}/resetPassword/{user.id}/{token}" in msg.body_text
    [row] = rows(db, PasswordResetToken)
    assert row.user_id == user.id and token not in row.token_hash and row.token_hash == auth.hash_token(token)
    assert row.expires_at - row.created_at == dt.timedelta(hours=1)


def test_reset_request_for_an_unknown_email_sends_nothing(db):
    make_user(db, "ann")
    assert not recovery.request_reset(db, email="nobody@example.com", client=CLIENT).found
    db.commit()
    assert count(db, OutboxMessage) == 0 and count(db, PasswordResetToken) == 0


def test_reset_link_ignores_a_forged_host_header(db, monkeypatch):
    """The service never sees a request; the link is the configured public URL, whatever the Host header said."""
    monkeypatch.setenv("PUBLIC_URL", "https://volley.example")
    get_settings.cache_clear()
    try:
        make_user(db, "ann")
        link = recovery.request_reset(db, email="ann@example.com", client=CLIENT).link
        assert link.startswith("https://volley.example/resetPassword/")
    finally:
        monkeypatch.undo()
        get_settings.cache_clear()


def test_reset_requests_are_rate_limited_per_email_and_per_client(db):
    make_user(db, "ann")
    for i in range(recovery.EMAIL_LIMIT):
        recovery.request_reset(db, email="ann@example.com", client=f"10.0.0.{i}")
        db.commit()
    with pytest.raises(RateLimited):
        recovery.request_reset(db, email="ann@example.com", client="10.0.1.1")
    db.rollback()
    for i in range(recovery.CLIENT_LIMIT):
        recovery.request_reset(db, email=f"x{i}@example.com", client=CLIENT)
        db.commit()
    with pytest.raises(RateLimited):
        recovery.request_reset(db, email="y@example.com", client=CLIENT)
    db.rollback()
    assert count(db, OutboxMessage, OutboxMessage.kind == "password_reset") == recovery.EMAIL_LIMIT


def test_reset_sets_the_password_revokes_sessions_mails_and_is_single_use(db):
    user = make_user(db, "ann")
    login_token(db, "ann")
    login_token(db, "ann")
    recovery.request_reset(db, email="ann@example.com", client=CLIENT)
    db.commit()
    uid, token = _reset_mail(db)
    recovery.check_link(db, user_id=uid, token=token)
    recovery.reset_password(db, user_id=str(uid), token=token, password="new!pass1")
    db.commit()
    fresh = rows(db, User, User.id == user.id)[0]
    assert passwords.verify_password("new!pass1", fresh.password_hash)
    assert not passwords.verify_password(PASSWORD, fresh.password_hash)
    assert all(s.revoked_at is not None for s in rows(db, LoginSession))
    [changed] = rows(db, OutboxMessage, OutboxMessage.kind == "password_changed")
    assert changed.to_addr == "ann@example.com" and changed.subject == "Your password was changed"
    with pytest.raises(NotFound, match="invalid or has expired"):
        recovery.reset_password(db, user_id=uid, token=token, password="other1")
    with pytest.raises(NotFound):
        recovery.check_link(db, user_id=uid, token=token)


def test_reset_token_expires_at_the_exact_boundary(db):
    make_user(db, "ann")
    start = utcnow()
    recovery.request_reset(db, email="ann@example.com", client=CLIENT, now=start)
    db.commit()
    uid, token = _reset_mail(db)
    end = start + recovery.TOKEN_LIFETIME
    recovery.check_link(db, user_id=uid, token=token, now=end - dt.timedelta(microseconds=1))
    with pytest.raises(NotFound):
        recovery.reset_password(db, user_id=uid, token=token, password="newpass", now=end)
    recovery.reset_password(db, user_id=uid, token=token, password="newpass", now=end - dt.timedelta(microseconds=1))


def test_tampered_token_and_wrong_user_are_refused(db):
    make_user(db, "ann")
    other = make_user(db, "bob")
    recovery.request_reset(db, email="ann@example.com", client=CLIENT)
    db.commit()
    uid, token = _reset_mail(db)
    tampered = token[:-1] + ("A" if token[-1] != "A" else "B")
    for user_id, tok in [(uid, tampered), (other.id, token), ("x", token), (uid, ""), (uid, None), (uid, "a" * 5000)]:
        with pytest.raises(NotFound):
            recovery.reset_password(db, user_id=user_id, token=tok, password="newpass")
    db.rollback()
    assert count(db, LoginSession) == 0
    assert rows(db, PasswordResetToken)[0].used_at is None
    assert passwords.verify_password(PASSWORD, rows(db, User, User.username == "bob")[0].password_hash)


def test_reset_with_a_bad_password_keeps_the_link_usable(db):
    make_user(db, "ann")
    recovery.request_reset(db, email="ann@example.com", client=CLIENT)
    db.commit()
    uid, token = _reset_mail(db)
    with pytest.raises(Invalid) as err:
        recovery.reset_password(db, user_id=uid, token=token, password="bad^pw")
    assert "password" in err.value.errors
    db.rollback()
    recovery.reset_password(db, user_id=uid, token=token, password="good!pw")


# --- newsletter --------------------------------------------------------------------------------


def _issue(**over) -> dict:
    data = {}
    for section in newsletter.NEWSLETTER_SECTIONS:
        data[f"{section}_link"] = f"https://example.com/{section}"
        data[f"{section}_blurb"] = f"Blurb of {section}"
    return data | over


def test_signup_is_idempotent_and_validated(db):
    a = newsletter.subscribe(db, email="Fan@Example.com", referral="a friend", client=CLIENT)
    b = newsletter.subscribe(db, email="fan@example.com", referral="", client=CLIENT)
    db.commit()
    assert a.id == b.id and count(db, NewsletterSubscriber) == 1
    assert rows(db, NewsletterSubscriber)[0].referral == "a friend"
    for bad in ("", "fan@", None):
        with pytest.raises(Invalid) as err:
            newsletter.subscribe(db, email=bad, client=CLIENT)
        assert list(err.value.errors) == ["email"]


def test_signups_are_rate_limited_per_client(db):
    for i in range(newsletter.SIGNUP_LIMIT):
        newsletter.subscribe(db, email=f"f{i}@example.com", client=CLIENT)
        db.commit()
    with pytest.raises(RateLimited):
        newsletter.subscribe(db, email="late@example.com", client=CLIENT)


def test_unsubscribe_link_works_once_and_cannot_be_forged(db):
    sub = newsletter.subscribe(db, email="fan@example.com", client=CLIENT)
    other = newsletter.subscribe(db, email="other@example.com", client=CLIENT)
    db.commit()
    link = newsletter.unsubscribe_link(sub)
    sid, token = link.rsplit("/", 2)[1:]
    with pytest.raises(NotFound):
        newsletter.unsubscribe(db, subscriber_id=other.id, token=token)
    with pytest.raises(NotFound):
        newsletter.unsubscribe(db, subscriber_id=sid, token=token[:-1] + ("1" if token.endswith("0") else "0"))
    assert newsletter.unsubscribe(db, subscriber_id=sid, token=token) == "fan@example.com"
    db.commit()
    assert [s.email for s in rows(db, NewsletterSubscriber)] == ["other@example.com"]
    with pytest.raises(NotFound):
        newsletter.unsubscribe(db, subscriber_id=sid, token=token)


def test_send_issue_stores_it_and_queues_one_message_per_subscriber_with_its_own_unsubscribe(db):
    admin = make_user(db, "root", Role.ADMIN)
    subs = [newsletter.subscribe(db, email=f"s{i}@example.com", client=f"c{i}") for i in range(3)]
    db.commit()
    issue, queued = newsletter.send_issue(db, actor_of(admin), data=_issue())
    db.commit()
    assert queued == 3
    [stored] = rows(db, NewsletterIssue)
    assert (
        stored.headline1_blurb == "Blurb of headline1"
        and stored.sent_at is not None
        and stored.created_by_id == admin.id
    )
    msgs = rows(db, OutboxMessage)
    assert sorted(m.to_addr for m in msgs) == [f"s{i}@example.com" for i in range(3)]
    for sub in subs:
        [m] = [m for m in msgs if m.to_addr == sub.email]
        assert m.body_text == newsletter.render(_issue(), newsletter.unsubscribe_link(sub))
        assert newsletter.unsubscribe_link(sub) in m.body_text
        assert "Blurb of vs2" in m.body_text and "https://example.com/ad1" in m.body_text


def test_send_issue_requires_every_blurb_and_valid_links(db):
    admin = make_user(db, "root", Role.ADMIN)
    with pytest.raises(Invalid) as err:
        newsletter.send_issue(db, actor_of(admin), data=_issue(ad2_blurb="", vs1_link="javascript:alert(1)"))
    assert set(err.value.errors) == {"ad2_blurb", "vs1_link"}
    ok = _issue(ad2_link="")
    newsletter.send_issue(db, actor_of(admin), data=ok)


@pytest.mark.parametrize("role", [Role.PLAYER, Role.SVL, None])
def test_non_admins_cannot_send_newsletters_or_manage_subscribers(db, role):
    newsletter.subscribe(db, email="fan@example.com", client=CLIENT)
    db.commit()
    actor = actor_of(make_user(db, "someone", role)) if role else None
    expected = Forbidden if role else Unauthorized
    with pytest.raises(expected):
        newsletter.send_issue(db, actor, data=_issue())
    with pytest.raises(expected):
        newsletter.list_subscribers(db, actor)
    with pytest.raises(expected):
        newsletter.delete_subscriber(db, actor, subscriber_id=rows(db, NewsletterSubscriber)[0].id)
    db.rollback()
    assert count(db, OutboxMessage) == 0 and count(db, NewsletterIssue) == 0 and count(db, NewsletterSubscriber) == 1


def test_admin_lists_and_deletes_subscribers(db):
    admin = actor_of(make_user(db, "root", Role.ADMIN))
    sub = newsletter.subscribe(db, email="fan@example.com", client=CLIENT)
    db.commit()
    assert [s.email for s in newsletter.list_subscribers(db, admin)] == ["fan@example.com"]
    newsletter.delete_subscriber(db, admin, subscriber_id=sub.id)
    db.commit()
    assert count(db, NewsletterSubscriber) == 0
    with pytest.raises(NotFound):
        newsletter.delete_subscriber(db, admin, subscriber_id=sub.id)


# --- email all ---------------------------------------------------------------------------------


def test_email_all_queues_each_active_user_once(db):
    admin = make_user(db, "root", Role.ADMIN)
    for name in ("ann", "bob", "cid"):
        make_user(db, name)
    make_user(db, "gone", active=False)
    make_user(db, "quiet", announcements_off=True)  # unsubscribed from these (List-Unsubscribe)
    status = email_all.send(db, actor_of(admin), subject="Courts closed", body="No games Friday.")
    db.commit()
    assert status.queued == 4 and status.pending == 4 and status.sent == 0
    msgs = rows(db, OutboxMessage)
    assert sorted(m.to_addr for m in msgs) == [
        "ann@example.com",
        "bob@example.com",
        "cid@example.com",
        "root@example.com",
    ]
    assert all(m.subject == "Courts closed" and m.body_text.startswith("No games Friday.\n\n--\nStop these announcements: ")
               and m.list_unsubscribe and m.list_unsubscribe in m.body_text for m in msgs)
    assert count(db, EmailAllRecipient) == 4
    [job] = email_all.recent_jobs(db, actor_of(admin))
    assert job.queued == 4


def test_email_all_validates(db):
    admin = actor_of(make_user(db, "root", Role.ADMIN))
    with pytest.raises(Invalid) as err:
        email_all.send(db, admin, subject=" ", body="")
    assert set(err.value.errors) == {"subject", "body"}
    with pytest.raises(Invalid):
        email_all.send(db, admin, subject="a\nBcc: x@example.com", body="hi")


def test_a_second_email_all_within_the_hour_needs_a_confirmed_repeat(db):
    admin = actor_of(make_user(db, "root", Role.ADMIN))
    make_user(db, "ann")
    first = email_all.send(db, admin, subject="Courts closed", body="No games Friday.")
    db.commit()
    with pytest.raises(Invalid) as err:
        email_all.send(db, admin, subject="Courts closed", body="No games Friday.")
    db.rollback()
    assert '"Courts closed"' in err.value.errors["repeat"] and "Send it again" in err.value.errors["repeat"]
    assert email_all.timefmt.label(first.created_at) in err.value.errors["repeat"]
    assert count(db, OutboxMessage) == 2
    with pytest.raises(Invalid):  # a made-up id confirms nothing
        email_all.send(db, admin, subject="Again", body="x", repeat_of=first.id + 1)
    db.rollback()
    again = email_all.send(db, admin, subject="Courts closed", body="No games Friday.", repeat_of=first.id)
    db.commit()
    assert again.queued == 2 and count(db, OutboxMessage) == 4
    # The same confirmation sent twice (a double-click) goes once: it no longer names the latest send.
    with pytest.raises(Invalid):
        email_all.send(db, admin, subject="Courts closed", body="No games Friday.", repeat_of=first.id)
    db.rollback()
    assert count(db, OutboxMessage) == 4
    # An hour later no confirmation is needed.
    later = again.created_at + email_all.REPEAT_WINDOW + dt.timedelta(seconds=1)
    assert email_all.send(db, admin, subject="Next week", body="Open", now=later).queued == 2


def test_only_admins_see_or_confirm_the_last_email_all(db):
    admin = actor_of(make_user(db, "root", Role.ADMIN))
    job = email_all.send(db, admin, subject="Hi", body="x")
    db.commit()
    for actor in (actor_of(make_user(db, "pat")), actor_of(make_user(db, "svl", Role.SVL)), None):
        with pytest.raises((Forbidden, Unauthorized)):
            email_all.recent_send(db, actor)
        with pytest.raises((Forbidden, Unauthorized)):
            email_all.confirm_repeat(db, actor, "1")
    assert email_all.recent_send(db, admin)["id"] == str(job.id)


@pytest.mark.parametrize("role", [Role.PLAYER, Role.SVL, None])
def test_non_admins_cannot_email_all(db, role):
    make_user(db, "ann")
    actor = actor_of(make_user(db, "someone", role)) if role else None
    with pytest.raises(Forbidden if role else Unauthorized):
        email_all.send(db, actor, subject="Hi", body="Spam")
    with pytest.raises(Forbidden if role else Unauthorized):
        email_all.recent_jobs(db, actor)
    db.rollback()
    assert count(db, OutboxMessage) == 0


def test_demo_seed_has_subscribers_and_an_inquiry(db):
    from volley_app import demo

    demo.seed(db)
    db.commit()
    assert count(db, NewsletterSubscriber) == 3 and count(db, ContactInquiry) == 1
