"""Public mail through a real SMTP server on loopback: recipients, subjects, links, text; resuming after a failure."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from tests.factories import actor_of, make_user, rows
from tests.smtp_server import SmtpSink
from volley_app.models import NewsletterSubscriber, OutboxMessage, OutboxStatus, Role, User, utcnow
from volley_app.services.accounts import recovery
from volley_app.services.mail import email_all, inquiries, mail, newsletter
from volley_app.settings import get_settings

CLIENT = "198.51.100.20"


@pytest.fixture
def sink(monkeypatch):
    with SmtpSink() as server:
        monkeypatch.setenv("SMTP_HOST", server.host)
        monkeypatch.setenv("SMTP_PORT", str(server.port))
        monkeypatch.setenv("SMTP_TIMEOUT_SECONDS", "5")
        monkeypatch.setenv("PUBLIC_URL", "https://volley.example")
        get_settings.cache_clear()
        yield server
    monkeypatch.undo()
    get_settings.cache_clear()


def _deliver_all(now: dt.datetime | None = None) -> None:
    while mail.deliver_pending(now=now).total:
        pass


class FailingFrom(SmtpSink):
    """Accepts messages until ``fail_at`` - 1 have arrived, then refuses every one until ``fail`` is cleared."""

    def __init__(self, fail_at: int):
        super().__init__()
        self.fail_at = fail_at

    def _receive(self, envelope) -> str:
        with self._lock:
            if len(self.messages) == self.fail_at - 1 and self.refused == 0:
                self.fail = True
        return super()._receive(envelope)


def test_email_all_failing_at_message_50_of_100_resumes_with_exactly_100_distinct_deliveries(db, monkeypatch):
    admin = make_user(db, "root", Role.ADMIN)
    for i in range(99):
        make_user(db, f"player{i:02d}")
    with FailingFrom(50) as server:
        monkeypatch.setenv("SMTP_HOST", server.host)
        monkeypatch.setenv("SMTP_PORT", str(server.port))
        get_settings.cache_clear()
        try:
            status = email_all.send(db, actor_of(admin), subject="League news", body="Fall leagues open Monday.")
            db.commit()
            assert status.queued == 100
            _deliver_all()
            assert len(server.messages) == 49 and server.refused >= 1
            job = email_all.recent_jobs(db, actor_of(admin))[0]
            assert (job.sent, job.pending) == (49, 51)
            server.fail = False  # the server recovers; retries are due after their backoff
            _deliver_all(now=utcnow() + dt.timedelta(hours=2))
            recipients = [env.rcpt_tos for env in server.envelopes]
            assert len(recipients) == 100
            emails = {u.email for u in rows(db, User)}
            assert {r for (r,) in recipients} == emails and len({r for (r,) in recipients}) == 100
            assert all(
                m["Subject"] == "League news"
                and m.get_body(("plain",)).get_content().startswith("Fall leagues open Monday.\n\n--\n")
                and m["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
                for m in server.messages
            )
            assert len({m["Message-ID"] for m in server.messages}) == 100
            job = email_all.recent_jobs(db, actor_of(admin))[0]
            assert (job.queued, job.sent, job.pending, job.failed) == (100, 100, 0, 0)
            _deliver_all(now=utcnow() + dt.timedelta(hours=4))
            assert len(server.messages) == 100
            assert all(r.status == OutboxStatus.SENT for r in rows(db, OutboxMessage))
        finally:
            monkeypatch.undo()
            get_settings.cache_clear()


def test_contact_inquiry_mail(db, sink):
    inquiries.submit(
        db,
        kind="contact",
        data={"name": "Ann Lee", "email": "ann@example.com", "body": "Is there a C league?"},
        client=CLIENT,
    )
    db.commit()
    _deliver_all()
    [msg] = sink.wait_for(1)
    assert msg["To"] == get_settings().provider_email
    assert msg["Reply-To"] == "ann@example.com"
    assert msg["Subject"] == "Contact inquiry from Ann Lee"
    body = msg.get_body(("plain",)).get_content()
    assert "Name: Ann Lee" in body and "Email: ann@example.com" in body and "Message: Is there a C league?" in body


def test_host_inquiry_mail(db, sink):
    data = {
        "svl_name": "Rupp Courts",
        "email": "v@example.com",
        "phone": "8595550123",
        "address": "1 Main St",
        "city": "Lexington",
        "region": "KY",
        "zip": "40507",
    }
    inquiries.submit(db, kind="host", data=data, client=CLIENT)
    db.commit()
    _deliver_all()
    [msg] = sink.wait_for(1)
    assert msg["Subject"] == "Host a League inquiry from Rupp Courts"
    body = msg.get_body(("plain",)).get_content()
    assert "Phone: (859) 555-0123" in body and "State: Kentucky (KY)" in body and "Zip: 40507" in body


def test_password_reset_and_changed_mail(db, sink):
    user = make_user(db, "ann")
    recovery.request_reset(db, email="ann@example.com", client=CLIENT)
    db.commit()
    _deliver_all()
    [msg] = sink.wait_for(1)
    assert msg["To"] == "ann@example.com" and msg["Subject"] == "Reset your password"
    body = msg.get_body(("plain",)).get_content()
    m = re.search(r"https://volley\.example/resetPassword/(\d+)/([A-Za-z0-9_-]+)\n", body)
    assert m and int(m.group(1)) == user.id
    assert "60 minutes" in body and "ann" in body
    recovery.reset_password(db, user_id=m.group(1), token=m.group(2), password="fresh!1")
    db.commit()
    _deliver_all()
    changed = sink.wait_for(2)[1]
    assert changed["To"] == "ann@example.com" and changed["Subject"] == "Your password was changed"
    assert "https://volley.example/forgotPassword" in changed.get_body(("plain",)).get_content()


def test_newsletter_mail_carries_a_working_unsubscribe_link(db, sink):
    admin = make_user(db, "root", Role.ADMIN)
    for i in range(3):
        newsletter.subscribe(db, email=f"fan{i}@example.com", client=CLIENT)
    db.commit()
    data = {
        f"{s}_{p}": (f"https://example.com/{s}" if p == "link" else f"News about {s}")
        for s in newsletter.NEWSLETTER_SECTIONS
        for p in ("link", "blurb")
    }
    newsletter.send_issue(db, actor_of(admin), data=data)
    db.commit()
    _deliver_all()
    msgs = sink.wait_for(3)
    assert sorted(m["To"] for m in msgs) == ["fan0@example.com", "fan1@example.com", "fan2@example.com"]
    msg = next(m for m in msgs if m["To"] == "fan1@example.com")
    assert msg["Subject"] == newsletter.SUBJECT
    body = msg.get_body(("plain",)).get_content()
    assert "News about headline1" in body and "https://example.com/vs2" in body
    link = re.search(r"https://volley\.example/unsubscribe/(\d+)/(\w+)", body)
    assert link
    assert newsletter.unsubscribe(db, subscriber_id=link.group(1), token=link.group(2)) == "fan1@example.com"
    db.commit()
    assert sorted(s.email for s in rows(db, NewsletterSubscriber)) == ["fan0@example.com", "fan2@example.com"]
