"""The mail outbox against a real SMTP server on loopback and a real database."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import threading
import time

import pytest
import sqlalchemy as sa

from tests.factories import rows
from tests.smtp_server import SmtpSink, refusing_port
from volley_app.db import session_scope
from volley_app.models import OutboxMessage, OutboxStatus, utcnow
from volley_app.services.core.errors import Invalid
from volley_app.services.mail import mail
from volley_app.settings import get_settings


@pytest.fixture
def smtp_env(monkeypatch):
    """Point the settings at an SMTP server: ``smtp_env(port, **other_settings)``; restored afterwards."""

    def point_at(port: int, host: str = "127.0.0.1", **extra: object) -> None:
        monkeypatch.setenv("SMTP_HOST", host)
        monkeypatch.setenv("SMTP_PORT", str(port))
        monkeypatch.setenv("SMTP_TIMEOUT_SECONDS", "5")
        for name, value in extra.items():
            monkeypatch.setenv(name.upper(), str(value))
        get_settings.cache_clear()

    yield point_at
    monkeypatch.undo()
    get_settings.cache_clear()


@pytest.fixture
def no_smtp(monkeypatch):
    monkeypatch.delenv("SMTP_HOST", raising=False)
    get_settings.cache_clear()
    assert not get_settings().smtp_configured
    yield
    monkeypatch.undo()
    get_settings.cache_clear()


@pytest.fixture
def sink():
    with SmtpSink() as server:
        yield server


def _queue(db, n: int = 1, **kw) -> list[int]:
    """Queue ``n`` messages in ``db`` and commit; return their ids."""
    ids = []
    for i in range(n):
        args = {"to": f"player{i}@example.com", "subject": f"Hello {i}", "body_text": f"Body {i}"} | kw
        ids.append(mail.queue(db, **args).id)
    db.commit()
    return ids


def test_committed_message_is_delivered_once(db, sink, smtp_env):
    smtp_env(sink.port)
    [msg_id] = _queue(
        db,
        to="ann@example.com",
        subject="Your sub request",
        body_text="Hi Ann,\nsee you Tuesday.",
        body_html="<p>Hi Ann,</p><p>see you Tuesday.</p>",
        reply_to="svl@example.com",
        kind="test",
    )

    report = mail.deliver_pending()

    assert report == mail.DeliveryReport(sent=1)
    [msg] = sink.wait_for(1)
    assert msg["To"] == "ann@example.com"
    assert msg["From"] == get_settings().mail_from
    assert msg["Subject"] == "Your sub request"
    assert msg["Reply-To"] == "svl@example.com"
    assert msg["Message-ID"].startswith(f"<outbox.{msg_id}.")
    assert msg.get_body(("plain",)).get_content().strip() == "Hi Ann,\nsee you Tuesday."
    assert "<p>Hi Ann,</p>" in msg.get_body(("html",)).get_content()
    assert sink.envelopes[0].rcpt_tos == ("ann@example.com",)
    [row] = rows(db, OutboxMessage)
    assert row.status == OutboxStatus.SENT
    assert row.sent_at is not None and row.attempts == 1 and row.lease_until is None

    assert mail.deliver_pending().total == 0
    assert len(sink.messages) == 1


def test_rolled_back_message_is_never_sent(db, sink, smtp_env):
    smtp_env(sink.port)
    with pytest.raises(RuntimeError), session_scope() as session:
        mail.queue(session, to="ann@example.com", subject="Never", body_text="Never sent")
        raise RuntimeError("the action failed")

    assert mail.deliver_pending().total == 0
    assert rows(db, OutboxMessage) == []
    assert sink.messages == []


def test_smtp_down_then_up_delivers_exactly_once(db, smtp_env):
    [msg_id] = _queue(db)
    start = utcnow()
    with refusing_port() as port:
        smtp_env(port)
        report = mail.deliver_pending(now=start)

    assert report == mail.DeliveryReport(retried=1)
    [row] = rows(db, OutboxMessage)
    assert row.status == OutboxStatus.PENDING
    assert row.attempts == 1
    assert row.next_attempt_at == start + dt.timedelta(seconds=30)
    assert row.last_error and row.sent_at is None and row.lease_until is None

    with SmtpSink() as sink:
        smtp_env(sink.port)
        assert mail.deliver_pending(now=start + dt.timedelta(seconds=10)).total == 0  # not due yet
        later = start + dt.timedelta(minutes=2)
        assert mail.deliver_pending(now=later) == mail.DeliveryReport(sent=1)
        assert mail.deliver_pending(now=later + dt.timedelta(hours=3)).total == 0

        [msg] = sink.wait_for(1)
        assert msg["Message-ID"].startswith(f"<outbox.{msg_id}.")
        assert len(sink.messages) == 1
    [row] = rows(db, OutboxMessage)
    assert row.status == OutboxStatus.SENT and row.attempts == 2


def test_temporary_refusal_is_retried_with_backoff(db, sink, smtp_env):
    smtp_env(sink.port)
    _queue(db, 2)
    sink.fail = True
    start = utcnow()

    assert mail.deliver_pending(now=start) == mail.DeliveryReport(retried=2)
    assert sink.refused == 2 and sink.messages == []
    pending = rows(db, OutboxMessage)
    assert all(r.status == OutboxStatus.PENDING and r.attempts == 1 for r in pending)
    assert all(r.last_error == "451 4.3.0 Try again later" for r in pending)

    second = start + dt.timedelta(seconds=31)
    assert mail.deliver_pending(now=second) == mail.DeliveryReport(retried=2)
    assert all(r.next_attempt_at == second + dt.timedelta(seconds=60) for r in rows(db, OutboxMessage))

    sink.fail = False
    third = second + dt.timedelta(seconds=61)
    assert mail.deliver_pending(now=third) == mail.DeliveryReport(sent=2)
    assert mail.deliver_pending(now=third + dt.timedelta(hours=2)).total == 0
    assert sorted(m["Subject"] for m in sink.messages) == ["Hello 0", "Hello 1"]


def test_backoff_is_capped_at_an_hour():
    assert [mail._backoff(n).total_seconds() for n in (1, 2, 3, 7, 8, 50)] == [30, 60, 120, 1920, 3600, 3600]


def test_max_attempts_marks_failed(db, sink, smtp_env):
    smtp_env(sink.port, outbox_max_attempts=3)
    sink.fail = True
    sink.fail_reply = "550 5.1.1 No such user"
    _queue(db)
    now = utcnow()

    reports = [mail.deliver_pending(now=now + dt.timedelta(hours=2 * i)) for i in range(3)]

    assert reports == [mail.DeliveryReport(retried=1), mail.DeliveryReport(retried=1), mail.DeliveryReport(failed=1)]
    [row] = rows(db, OutboxMessage)
    assert row.status == OutboxStatus.FAILED
    assert row.attempts == 3
    assert row.last_error == "550 5.1.1 No such user"
    sink.fail = False
    assert mail.deliver_pending(now=now + dt.timedelta(days=1)).total == 0
    assert sink.messages == []


def test_one_refused_message_does_not_hold_up_the_batch(db, sink, smtp_env):
    smtp_env(sink.port)
    _queue(db, 3)
    original = sink._receive

    def refuse_second(envelope):
        sink.fail = envelope.rcpt_tos == ["player1@example.com"]
        return original(envelope)

    sink._receive = refuse_second
    assert mail.deliver_pending() == mail.DeliveryReport(sent=2, retried=1)
    assert [m["To"] for m in sink.messages] == ["player0@example.com", "player2@example.com"]
    assert [r.status for r in rows(db, OutboxMessage)] == [OutboxStatus.SENT, OutboxStatus.PENDING, OutboxStatus.SENT]


def test_expired_lease_is_taken_over_but_a_live_one_is_not(db, sink, smtp_env):
    smtp_env(sink.port)
    _queue(db, 2)
    now = utcnow()
    live, expired = rows(db, OutboxMessage)
    for row, lease in ((live, now + dt.timedelta(minutes=5)), (expired, now - dt.timedelta(seconds=1))):
        row.status, row.lease_until = OutboxStatus.SENDING, lease
        db.add(row)
    db.commit()

    assert mail.deliver_pending(now=now) == mail.DeliveryReport(sent=1)
    assert [m["To"] for m in sink.messages] == [expired.to_addr]


def test_without_smtp_messages_are_kept_and_logged_once(db, no_smtp, caplog):
    _queue(db, to="ann@example.com", subject="Reset your password", body_text="Open https://x.example/r/abc")
    caplog.set_level(logging.INFO, logger=mail.__name__)

    assert mail.deliver_pending() == mail.DeliveryReport(logged=1)
    assert mail.deliver_pending() == mail.DeliveryReport()

    logged = [r.getMessage() for r in caplog.records if r.name == mail.__name__]
    assert len(logged) == 1
    assert "ann@example.com" in logged[0]
    assert "Reset your password" in logged[0]
    assert "https://x.example/r/abc" in logged[0]
    [row] = rows(db, OutboxMessage)
    assert row.status == OutboxStatus.PENDING and row.logged_at is not None and row.attempts == 0


def test_kept_messages_are_sent_once_smtp_is_configured(db, no_smtp, sink, smtp_env):
    _queue(db)
    assert mail.deliver_pending().logged == 1
    smtp_env(sink.port)
    assert mail.deliver_pending() == mail.DeliveryReport(sent=1)
    assert len(sink.messages) == 1


def test_concurrent_senders_deliver_each_message_exactly_once(db, sink, smtp_env):
    smtp_env(sink.port)
    _queue(db, 20)
    start = threading.Barrier(2)
    reports: list[mail.DeliveryReport] = []
    errors: list[BaseException] = []

    def sender() -> None:
        try:
            start.wait()
            while (report := mail.deliver_pending(limit=4)).total:
                reports.append(report)
        except BaseException as exc:  # surfaced by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=sender) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    # One sender may stop when it finds nothing left to claim while the other still works.
    while (report := mail.deliver_pending()).total:
        reports.append(report)

    assert errors == []
    assert sum(r.sent for r in reports) == 20
    assert sum(r.retried + r.failed for r in reports) == 0
    assert sorted(m["Subject"] for m in sink.messages) == sorted(f"Hello {i}" for i in range(20))
    assert all(r.status == OutboxStatus.SENT and r.attempts == 1 for r in rows(db, OutboxMessage))


@pytest.mark.parametrize(
    ("field", "kw"),
    [
        ("subject", {"subject": "Hi\r\nBcc: everyone@example.com"}),
        ("subject", {"subject": "Hi\nthere"}),
        ("to", {"to": "ann@example.com\r\nBcc: everyone@example.com"}),
        ("to", {"to": "ann@example.com\nBcc: everyone@example.com"}),
        ("to", {"to": "ann@example.com, bob@example.com"}),
        ("to", {"to": "Ann <ann@example.com>"}),
        ("to", {"to": ""}),
        ("to", {"to": "   "}),
        ("to", {"to": "not an address"}),
        ("reply_to", {"reply_to": "svl@example.com\r\nBcc: everyone@example.com"}),
    ],
)
def test_header_injection_and_bad_addresses_are_refused(db, field, kw):
    args = {"to": "ann@example.com", "subject": "Hello", "body_text": "Body"} | kw
    with pytest.raises(Invalid) as caught:
        mail.queue(db, **args)
    assert field in caught.value.errors
    assert not db.new
    db.rollback()
    assert rows(db, OutboxMessage) == []


def test_queue_does_not_commit(db):
    mail.queue(db, to="ann@example.com", subject="Hello", body_text="Body")
    db.rollback()
    assert rows(db, OutboxMessage) == []


async def test_sender_loop_delivers_survives_errors_and_stops(db, sink, smtp_env, monkeypatch, caplog):
    smtp_env(sink.port, outbox_interval_seconds=0.05)
    real = mail.deliver_pending
    calls = 0

    def flaky(**kw):
        nonlocal calls
        calls += 1
        if calls == 1:
            raise RuntimeError("database hiccup")
        return real(**kw)

    monkeypatch.setattr(mail, "deliver_pending", flaky)
    _queue(db)
    stop = asyncio.Event()
    task = asyncio.create_task(mail.run_sender_forever(stop))

    await asyncio.to_thread(sink.wait_for, 1)
    stop.set()
    await asyncio.wait_for(task, 10)

    assert calls >= 2
    assert "database hiccup" in caplog.text
    assert len(sink.messages) == 1


async def test_sender_loop_can_be_cancelled(no_smtp, migrated):
    task = asyncio.create_task(mail.run_sender_forever())
    await asyncio.sleep(0.1)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


# -- leases: short, renewed while sending, taken over after a sender dies ----------------------------------------

_DIE_AFTER_FIRST_ACCEPTED = """
import os, sys
from volley_app.services.mail import mail

def die(*args, **kwargs):
    sys.stdout.write("accepted\\n"); sys.stdout.flush()
    os._exit(17)  # killed between the server's acceptance and the "sent" commit

mail._record_sent = die
mail.deliver_pending()
"""


def test_lease_is_a_minute_or_two():
    assert dt.timedelta(minutes=1) <= mail.LEASE <= dt.timedelta(minutes=2)


def test_a_sender_that_dies_after_claiming_leaves_its_rows_to_another_after_the_lease(db, sink, smtp_env):
    import os
    import subprocess
    import sys

    smtp_env(sink.port)
    _queue(db, 3)
    env = os.environ | sink.env | {"SMTP_TIMEOUT_SECONDS": "5"}
    died = subprocess.run(
        [sys.executable, "-c", _DIE_AFTER_FIRST_ACCEPTED], env=env, capture_output=True, text=True, timeout=120
    )
    assert died.returncode == 17, died.stderr
    [first] = sink.wait_for(1)
    assert all(r.status == OutboxStatus.SENDING for r in rows(db, OutboxMessage))

    # While the dead sender's lease runs nobody sends; after it, each row goes out and is recorded once.
    assert mail.deliver_pending() == mail.DeliveryReport()
    later = utcnow() + mail.LEASE + dt.timedelta(seconds=1)
    assert mail.deliver_pending(now=later) == mail.DeliveryReport(sent=3)
    assert mail.deliver_pending(now=later + mail.LEASE * 2) == mail.DeliveryReport()
    db.expire_all()
    assert all(r.status == OutboxStatus.SENT and r.attempts == 1 for r in rows(db, OutboxMessage))
    # The one accepted before the crash is the documented repeat, with the same Message-ID.
    ids = [m["Message-ID"] for m in sink.messages]
    assert len(ids) == 4 and len(set(ids)) == 3
    assert ids.count(first["Message-ID"]) == 2


def test_a_slow_batch_renews_its_lease_so_no_other_sender_takes_its_rows(db, sink, smtp_env, monkeypatch):
    smtp_env(sink.port)
    _queue(db, 4)
    monkeypatch.setattr(mail, "LEASE", dt.timedelta(seconds=1))
    build = mail._build_message

    def slow_build(row, settings):
        time.sleep(0.6)  # four messages take well over one lease
        return build(row, settings)

    monkeypatch.setattr(mail, "_build_message", slow_build)
    reports: list[mail.DeliveryReport] = []
    slow = threading.Thread(target=lambda: reports.append(mail.deliver_pending()))
    slow.start()
    others: list[mail.DeliveryReport] = []
    while slow.is_alive():
        time.sleep(0.2)
        monkeypatch.setattr(mail, "_build_message", build)  # the other sender is quick
        others.append(mail.deliver_pending())
        monkeypatch.setattr(mail, "_build_message", slow_build)
    slow.join()

    assert reports == [mail.DeliveryReport(sent=4)]
    assert sum(r.total for r in others) == 0
    assert len(sink.messages) == 4 and len({m["Message-ID"] for m in sink.messages}) == 4


def test_an_accepted_message_is_recorded_sent_through_a_database_blip(db, sink, smtp_env, monkeypatch):
    smtp_env(sink.port)
    _queue(db, 1)
    scope = mail.session_scope
    calls = {"n": 0}

    def blipping_scope():
        calls["n"] += 1
        if calls["n"] <= 2:
            raise sa.exc.OperationalError("UPDATE", {}, Exception("server closed the connection"))
        return scope()

    real_record = mail._record_sent

    def record_through_blip(*args, **kwargs):
        monkeypatch.setattr(mail, "session_scope", blipping_scope)
        try:
            return real_record(*args, **kwargs)
        finally:
            monkeypatch.setattr(mail, "session_scope", scope)

    monkeypatch.setattr(mail, "_record_sent", record_through_blip)
    monkeypatch.setattr(mail, "RECORD_PAUSE_SECONDS", 0.01)

    assert mail.deliver_pending() == mail.DeliveryReport(sent=1)
    [row] = rows(db, OutboxMessage)
    assert row.status == OutboxStatus.SENT and row.lease_until is None and calls["n"] == 3
    later = utcnow() + mail.LEASE * 3
    assert mail.deliver_pending(now=later) == mail.DeliveryReport()
    assert len(sink.messages) == 1
