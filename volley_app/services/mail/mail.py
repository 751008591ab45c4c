"""The durable mail outbox.

A message is a row of :class:`~volley_app.models.OutboxMessage`, written by
:func:`queue` in the transaction of the action that causes it: when that
transaction rolls back, no mail goes out. Each email's words are a template
(:func:`queue_email`, ``services/mail/mail_render.py``). A sender (the app's lifespan task
:func:`run_sender_forever`, or the ``send-outbox`` CLI command) then calls
:func:`deliver_pending`, which

1. claims due rows, each by a conditional ``UPDATE`` that only one sender can
   win, and commits the claim; the claim is a short lease (:data:`LEASE`);
2. talks to SMTP with no database transaction open, one connection per batch,
   renewing the lease of the rows it still holds right before each message, so
   every message starts with a whole lease ahead of it (a message takes at most
   a few SMTP round trips of ``settings.smtp_timeout_seconds`` each);
3. records each result in its own short transaction: ``sent`` as soon as the
   server accepted the message (retried a few times, well inside the lease,
   should the database blip), otherwise a retry with exponential backoff, and
   ``failed`` after ``settings.outbox_max_attempts`` attempts.

A sender that dies mid-batch leaves its rows ``sending``; once their lease has
passed (at most :data:`LEASE`), another sender takes them again. A message is
therefore sent twice only when its sender dies (or loses the database for
longer than the recording retries) in the moment between the server's
acceptance and the ``sent`` commit: the duplicate window is that moment, and
the repeat carries the same Message-ID so receivers can drop it. Senders on
several hosts compare leases by their clocks: keep them synchronised (NTP).

Without SMTP settings (the embedded default) messages stay pending ("kept")
and each is written to the log once.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import datetime as dt
import logging
import smtplib
import ssl
import time
import unicodedata
from collections.abc import Mapping, Sequence
from email.message import EmailMessage
from email.utils import format_datetime, parseaddr

import anyio
import sqlalchemy as sa
from email_validator import EmailNotValidError, validate_email
from sqlmodel import Session, col, select

from volley_app.db import session_scope
from volley_app.models import OutboxMessage, OutboxStatus, User, utcnow
from volley_app.models.base import table_of
from volley_app.services.core.errors import Invalid
from volley_app.services.mail.mail_render import html_from_text, render
from volley_app.settings import Settings, get_settings

log = logging.getLogger(__name__)

BATCH_SIZE = 50
BACKOFF_BASE = dt.timedelta(seconds=30)
BACKOFF_MAX = dt.timedelta(hours=1)
# How long a claimed row belongs to its sender without a renewal; after that another sender may take it.
LEASE = dt.timedelta(seconds=90)
# Recording "sent" after the server accepted: tries and the first pause (doubling), ~15 s in all.
RECORD_TRIES = 5
RECORD_PAUSE_SECONDS = 0.5
SUBJECT_MAX = 300
KIND_MAX = 50
ERROR_MAX = 1000

_outbox: sa.Table = table_of(OutboxMessage)


@dataclasses.dataclass
class DeliveryReport:
    """What one :func:`deliver_pending` run did.

    Attributes:
        sent: accepted by the SMTP server.
        failed: refused for the last allowed time; the row is now ``failed``.
        retried: refused or unreachable this time; the row will be tried again later.
        logged: SMTP is not configured: written to the log and kept in the outbox.
    """

    sent: int = 0
    failed: int = 0
    retried: int = 0
    logged: int = 0

    @property
    def total(self) -> int:
        """Rows this run dealt with; 0 means nothing was due."""
        return self.sent + self.failed + self.retried + self.logged


# -- queueing ---------------------------------------------------------------------------------------------------


def queue(
    db: Session,
    *,
    to: str,
    subject: str,
    body_text: str,
    body_html: str | None = None,
    reply_to: str | None = None,
    kind: str = "generic",
    unsubscribe: str | None = None,
) -> OutboxMessage:
    """Add a message to the outbox in the caller's transaction.

    Nothing is committed here: the message goes out only if the caller's
    transaction commits, and never if it rolls back.

    Args:
        db: the caller's session.
        to: one plain address (no display name, no list).
        subject: one line of text.
        body_text: the plain-text body.
        body_html: an optional HTML alternative.
        reply_to: an optional plain address for the Reply-To header.
        kind: a short tag saying what the message is ("password_reset", ...).
        unsubscribe: bulk mail's one-click unsubscribe address (``List-Unsubscribe``, RFC 8058).

    Returns:
        The pending row, flushed so it has an id.

    Raises:
        Invalid: ``to`` or ``reply_to`` is not a single valid address, or the
            subject is not one line of at most 300 characters.
    """
    if not isinstance(body_text, str) or (body_html is not None and not isinstance(body_html, str)):
        raise Invalid({"body_text": "The message body must be text"})
    if not isinstance(kind, str) or not kind or len(kind) > KIND_MAX:
        raise Invalid({"kind": f"The message kind must be 1 to {KIND_MAX} characters"})
    row = OutboxMessage(
        kind=kind,
        to_addr=_address(to, "to"),
        subject=_subject(subject),
        body_text=body_text,
        body_html=body_html or None,
        reply_to=_address(reply_to, "reply_to") if reply_to else None,
        list_unsubscribe=unsubscribe if isinstance(unsubscribe, str) and not _has_control_chars(unsubscribe) else None,
    )
    db.add(row)
    db.flush()
    return row


def queue_email(
    db: Session,
    template: str,
    values: Mapping[str, object],
    *,
    to: str,
    kind: str | None = None,
    reply_to: str | None = None,
    unsubscribe: str | None = None,
) -> OutboxMessage:
    """Render the email ``template`` (``templates/email/<template>.jinja``) with ``values`` and :func:`queue` it.

    Args:
        db: the caller's session.
        template: the email's name.
        values: what the template shows (every value it uses).
        to, reply_to, unsubscribe: as for :func:`queue`.
        kind: the message's tag; defaults to the template's name.
    """
    email = render(template, values)
    return queue(db, to=to, subject=email.subject, body_text=email.text, body_html=email.html, reply_to=reply_to,
                 kind=kind or template, unsubscribe=unsubscribe)  # fmt: skip


def _has_control_chars(text: str) -> bool:
    """True when ``text`` holds a line break or another control character (header injection)."""
    return any(unicodedata.category(ch) in ("Cc", "Zl", "Zp") for ch in text)


def _address(value: object, field: str) -> str:
    text = value.strip() if isinstance(value, str) else ""
    if not text:
        raise Invalid({field: "An email address is required"})
    if _has_control_chars(text):
        raise Invalid({field: "Enter a single email address"})
    try:
        return validate_email(text, check_deliverability=False).normalized
    except EmailNotValidError:
        raise Invalid({field: "Enter a single valid email address"}) from None


def _subject(value: object) -> str:
    if not isinstance(value, str) or _has_control_chars(value):
        raise Invalid({"subject": "The subject must be one line of text"})
    text = value.strip()
    if len(text) > SUBJECT_MAX:
        raise Invalid({"subject": f"The subject must be at most {SUBJECT_MAX} characters"})
    return text


# -- delivery ---------------------------------------------------------------------------------------------------


def deliver_pending(*, limit: int = BATCH_SIZE, now: dt.datetime | None = None) -> DeliveryReport:
    """Send up to ``limit`` due messages, or log them when SMTP is not configured.

    Safe to run in several threads or processes at once: each row is claimed by
    exactly one of them. Opens its own short sessions and never holds a
    transaction open while talking to the SMTP server.

    Args:
        limit: the most rows to deal with in this run.
        now: the time of this run (tests pass a later time); defaults to the current UTC time.

    Returns:
        The counts of what happened.
    """
    settings = get_settings()
    now = now or utcnow()
    if not settings.smtp_configured:
        return DeliveryReport(logged=_log_kept(now, limit))

    due = sa.or_(
        sa.and_(_outbox.c.status == OutboxStatus.PENDING, _outbox.c.next_attempt_at <= now),
        sa.and_(_outbox.c.status == OutboxStatus.SENDING, _outbox.c.lease_until < now),
    )
    lease_until = now + LEASE
    ids = _candidates(due, [_outbox.c.next_attempt_at, _outbox.c.id], limit)
    rows = _claim(ids, due, {"status": OutboxStatus.SENDING, "lease_until": lease_until})
    report = DeliveryReport()
    if rows:
        _send_batch(rows, lease_until, settings, now, report)
    return report


def _candidates(where: sa.ColumnElement[bool], order_by: list, limit: int) -> list[int]:
    """Ids of up to ``limit`` rows matching ``where``, read in a transaction of their own."""
    with session_scope() as db:
        stmt = sa.select(_outbox.c.id).where(where).order_by(*order_by).limit(max(limit, 0))
        return list(db.connection().execute(stmt).scalars())


def _claim(ids: Sequence[int], where: sa.ColumnElement[bool], values: dict) -> list[OutboxMessage]:
    """Take each row of ``ids`` that still matches ``where``, setting ``values``; commit; return the rows taken.

    Each row is taken by an ``UPDATE ... WHERE id = :id AND <where>``: when two
    senders race for a row, the database lets one update it and the other sees
    no matching row (rowcount 0). Ids are taken in ascending order so that two
    claiming transactions never deadlock on PostgreSQL. The claim is the first
    statement of its transaction, so SQLite waits for its write lock.
    """
    if not ids:
        return []
    with session_scope() as db:
        conn = db.connection()
        taken = [
            id_
            for id_ in sorted(ids)
            if conn.execute(sa.update(_outbox).where(_outbox.c.id == id_, where).values(**values)).rowcount == 1
        ]
        if not taken:
            return []
        return list(db.exec(select(OutboxMessage).where(col(OutboxMessage.id).in_(taken)).order_by(col(OutboxMessage.id))))


def _log_kept(now: dt.datetime, limit: int) -> int:
    """Write each not-yet-logged pending message to the log once; they stay pending."""
    not_logged = sa.and_(_outbox.c.status == OutboxStatus.PENDING, _outbox.c.logged_at.is_(None))
    rows = _claim(_candidates(not_logged, [_outbox.c.id], limit), not_logged, {"logged_at": now})
    for row in rows:
        log.info(
            "SMTP is not configured; mail #%s kept in the outbox\nTo: %s\nSubject: %s\n\n%s",
            row.id,
            row.to_addr,
            row.subject,
            row.body_text,
        )
    return len(rows)


def _send_batch(
    rows: list[OutboxMessage], lease_until: dt.datetime, settings: Settings, now: dt.datetime, report: DeliveryReport
) -> None:
    """Send claimed rows over one SMTP connection, recording each result as soon as it is known.

    Right before each message the lease of every row still held is renewed to a whole ``LEASE``; a row whose
    lease was lost meanwhile (taken over after a stall) is left to its new sender.
    """
    envelope_from = parseaddr(settings.mail_from)[1]
    started = time.monotonic()

    def clock() -> dt.datetime:  # ``now`` moved on by the time this batch has taken
        return now + dt.timedelta(seconds=time.monotonic() - started)

    waiting = list(rows)  # claimed, not tried yet
    conn: smtplib.SMTP | None = None
    try:
        while waiting:
            waiting, lease_until = _renew(waiting, lease_until, clock() + LEASE)
            if not waiting:
                break
            if conn is None:
                try:
                    conn = _connect(settings)
                except Exception as exc:
                    log.warning("SMTP server %s:%s unavailable: %s", settings.smtp_host, settings.smtp_port, exc)
                    while waiting:
                        _record_failure(waiting.pop(0), lease_until, exc, settings, now, report)
                    return
            row = waiting.pop(0)
            try:
                conn.send_message(_build_message(row, settings), from_addr=envelope_from, to_addrs=[row.to_addr])
            except Exception as exc:
                _record_failure(row, lease_until, exc, settings, now, report)
                # A refusal leaves the session reset and usable; anything else (or a 421) loses it.
                refused = isinstance(exc, smtplib.SMTPRecipientsRefused | smtplib.SMTPResponseException)
                if not refused or conn.sock is None:
                    _close(conn)
                    conn = None
            else:
                _record_sent(row, clock(), report)
    finally:
        if conn is not None:
            _close(conn)
        if waiting:
            _release(waiting, lease_until)


def _renew(
    rows: list[OutboxMessage], lease_until: dt.datetime, new_lease: dt.datetime
) -> tuple[list[OutboxMessage], dt.datetime]:
    """Move the lease of ``rows`` we still hold (``lease_until``) to ``new_lease``; return those rows and it."""
    ids = [row.id for row in rows]
    held = sa.and_(_outbox.c.id.in_(ids), _outbox.c.status == OutboxStatus.SENDING)
    with session_scope() as db:
        conn = db.connection()
        conn.execute(sa.update(_outbox).where(held, _outbox.c.lease_until == lease_until).values(lease_until=new_lease))
        kept: set[int] = set(conn.execute(sa.select(_outbox.c.id).where(held, _outbox.c.lease_until == new_lease)).scalars())
    lost = [row.id for row in rows if row.id not in kept]
    if lost:
        log.warning("Mail %s: lease lost before sending; left to the sender that holds them now", lost)
    return [row for row in rows if row.id in kept], new_lease


def _connect(settings: Settings) -> smtplib.SMTP:
    host, port, timeout = settings.smtp_host or "", settings.smtp_port, settings.smtp_timeout_seconds
    if settings.smtp_ssl:
        conn: smtplib.SMTP = smtplib.SMTP_SSL(host, port, timeout=timeout, context=ssl.create_default_context())
    else:
        conn = smtplib.SMTP(host, port, timeout=timeout)
    try:
        if settings.smtp_starttls and not settings.smtp_ssl:
            conn.starttls(context=ssl.create_default_context())
        if settings.smtp_user:
            conn.login(settings.smtp_user, settings.smtp_password or "")
    except BaseException:
        conn.close()
        raise
    return conn


def _close(conn: smtplib.SMTP) -> None:
    try:
        conn.quit()
    except Exception:
        conn.close()


def _build_message(row: OutboxMessage, settings: Settings) -> EmailMessage:
    """The email for ``row``; its Message-ID is the same on every attempt, so receivers can drop a repeat."""
    domain = parseaddr(settings.mail_from)[1].rpartition("@")[2] or "localhost"
    msg = EmailMessage()
    msg["From"] = settings.mail_from
    msg["To"] = row.to_addr
    msg["Subject"] = row.subject
    msg["Date"] = format_datetime(row.created_at)
    msg["Message-ID"] = f"<outbox.{row.id}.{row.created_at:%Y%m%d%H%M%S%f}@{domain}>"
    if row.reply_to:
        msg["Reply-To"] = row.reply_to
    if row.list_unsubscribe:
        msg["List-Unsubscribe"] = f"<{row.list_unsubscribe}>"
        msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    msg.set_content(row.body_text)
    msg.add_alternative(row.body_html or html_from_text(row.body_text), subtype="html")
    return msg


def first_name(user) -> str:
    """What a mail calls a person: their first name, else their username."""
    return (getattr(user, "first_name", "") or "").strip() or getattr(user, "username", "") or ""


def full_name(user) -> str:
    """A person a mail speaks of: first and last name, else their username."""
    name = f"{getattr(user, 'first_name', '') or ''} {getattr(user, 'last_name', '') or ''}".strip()
    return name or getattr(user, "username", "") or ""


def tell(db: Session, user: User | None, template: str, values: dict[str, object], *, kind: str | None = None) -> None:
    """Email ``user`` the email ``template`` with ``values`` (and their ``first_name``) through the outbox; nothing
    when they have no address."""
    if user is None or not user.email:
        return
    queue_email(db, template, {**values, "first_name": first_name(user)}, to=user.email, kind=kind)


def _backoff(attempts: int) -> dt.timedelta:
    """The wait after the ``attempts``-th failure: 30 s, 1 min, 2 min, ... at most an hour."""
    return min(BACKOFF_BASE * 2 ** min(attempts - 1, 16), BACKOFF_MAX)


def _describe(exc: BaseException) -> str:
    def text(value: bytes | str) -> str:
        return value.decode(errors="replace") if isinstance(value, bytes) else str(value)

    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        detail = "; ".join(f"{addr}: {code} {text(msg)}" for addr, (code, msg) in exc.recipients.items())
    elif isinstance(exc, smtplib.SMTPResponseException):
        detail = f"{exc.smtp_code} {text(exc.smtp_error)}"
    else:
        detail = f"{type(exc).__name__}: {exc}"
    return detail[:ERROR_MAX]


def _finish(row: OutboxMessage, lease_until: dt.datetime, **values) -> None:
    """Record a result for a row we claimed, unless our lease on it was lost meanwhile."""
    with session_scope() as db:
        updated = (
            db.connection()
            .execute(
                sa.update(_outbox)
                .where(
                    _outbox.c.id == row.id,
                    _outbox.c.status == OutboxStatus.SENDING,
                    _outbox.c.lease_until == lease_until,
                )
                .values(lease_until=None, **values)
            )
            .rowcount
        )
    if updated != 1:
        log.warning("Mail #%s: lease lost before its result (%s) was recorded", row.id, values.get("status"))


def _record_sent(row: OutboxMessage, now: dt.datetime, report: DeliveryReport) -> None:
    """Mark ``row`` sent: the server has accepted it, so no lease matters any more; retried through a short blip."""
    values = {"status": OutboxStatus.SENT, "attempts": row.attempts + 1, "sent_at": now, "lease_until": None}
    pause = RECORD_PAUSE_SECONDS
    for attempt in range(1, RECORD_TRIES + 1):
        try:
            with session_scope() as db:
                updated = (
                    db.connection()
                    .execute(
                        sa.update(_outbox)
                        .where(_outbox.c.id == row.id, _outbox.c.status != OutboxStatus.SENT)
                        .values(**values)
                    )
                    .rowcount
                )
            break
        except sa.exc.OperationalError:
            if attempt == RECORD_TRIES:
                log.exception("Mail #%s was sent but could not be recorded; it goes again after its lease", row.id)
                raise
            time.sleep(pause)
            pause *= 2
    if updated != 1:
        log.warning("Mail #%s was already recorded as sent by another sender", row.id)
    report.sent += 1
    log.info("Mail #%s (%s) sent to %s", row.id, row.kind, row.to_addr)


def _record_failure(
    row: OutboxMessage,
    lease_until: dt.datetime,
    exc: BaseException,
    settings: Settings,
    now: dt.datetime,
    report: DeliveryReport,
) -> None:
    attempts = row.attempts + 1
    error = _describe(exc)
    if attempts >= settings.outbox_max_attempts:
        _finish(row, lease_until, status=OutboxStatus.FAILED, attempts=attempts, last_error=error)
        report.failed += 1
        log.error(
            "Mail #%s (%s) to %s failed for good after %s attempts: %s", row.id, row.kind, row.to_addr, attempts, error
        )
    else:
        retry_at = now + _backoff(attempts)
        _finish(
            row, lease_until, status=OutboxStatus.PENDING, attempts=attempts, last_error=error, next_attempt_at=retry_at
        )
        report.retried += 1
        log.warning(
            "Mail #%s (%s) to %s: attempt %s failed (%s); next try at %s",
            row.id,
            row.kind,
            row.to_addr,
            attempts,
            error,
            retry_at.isoformat(),
        )


def _release(rows: list[OutboxMessage], lease_until: dt.datetime) -> None:
    """Hand claimed rows that were never tried back to the queue, due at once."""
    try:
        with session_scope() as db:
            db.connection().execute(
                sa.update(_outbox)
                .where(
                    _outbox.c.id.in_([row.id for row in rows]),
                    _outbox.c.status == OutboxStatus.SENDING,
                    _outbox.c.lease_until == lease_until,
                )
                .values(status=OutboxStatus.PENDING, lease_until=None)
            )
    except Exception:
        log.exception("Could not release %s claimed mail rows; they are retried when their lease ends", len(rows))


# -- the background sender --------------------------------------------------------------------------------------


async def run_sender_forever(stop_event: asyncio.Event | None = None) -> None:
    """Deliver the outbox every ``settings.outbox_interval_seconds`` until cancelled or ``stop_event`` is set.

    Each run happens in a worker thread, so the event loop never waits on the
    database or SMTP; a run that raises is logged and the loop goes on. A full
    batch is followed at once by the next one. Cancelling waits for the run in
    progress to finish, so no message is left half-recorded.

    Args:
        stop_event: set it to end the loop after the current run.
    """
    stop = stop_event or asyncio.Event()
    log.info("Mail outbox sender started")
    try:
        while not stop.is_set():
            try:
                report = await anyio.to_thread.run_sync(deliver_pending)
                if report.total >= BATCH_SIZE:
                    continue
            except Exception:
                log.exception("Mail outbox run failed; trying again in the next interval")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=get_settings().outbox_interval_seconds)
    finally:
        log.info("Mail outbox sender stopped")
