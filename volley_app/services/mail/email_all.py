"""Email to every active user (admin): one job, one outbox message per user, each user exactly once.

The job and its messages are written in one transaction, each user once (the
unique (job, user) pair in ``email_all_recipients``), and the outbox delivers
each row at most once per acceptance: an SMTP failure half-way leaves the rest
pending, and the sender resumes with them, mailing nobody twice.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging

from sqlmodel import Session, col, func, select

from volley_app.models import EmailAllJob, EmailAllRecipient, OutboxMessage, OutboxStatus, User, utcnow
from volley_app.services.core import audit, paging, timefmt, validation
from volley_app.services.core.actors import Actor, require_admin
from volley_app.services.core.errors import Invalid
from volley_app.services.core.screens import Part, part
from volley_app.services.mail import mail, mail_lists

log = logging.getLogger(__name__)

BODY_MAX = 20_000
COUNT_CHANGED = "It goes to {n} people now. Tick the box again to send it to them."


def confirm_count(confirmed: object, n: int) -> None:
    """The number of people the sender confirmed (``None``: a caller without the step) must be the real one."""
    if confirmed is not None and str(confirmed).strip() != str(n):
        raise Invalid({"confirmed": COUNT_CHANGED.format(n=n)})


def audience_count(db: Session, actor: Actor | None) -> int:
    """How many people Email All reaches now: every active user who did not unsubscribe (admin only)."""
    require_admin(actor)
    return db.exec(select(func.count()).select_from(User).where(*_AUDIENCE)).one()


REPEAT_WINDOW = dt.timedelta(hours=1)
REPEAT_QUESTION = (
    'An email went to every user at {when} ("{subject}"). Tick "Send it again" to send another within the hour.'
)


def recent_send(db: Session, actor: Actor | None, now: dt.datetime | None = None) -> dict[str, str] | None:
    """The Email All sent within the last hour, if any: its id (what a repeat confirms) and when, in words."""
    require_admin(actor)
    now = now or utcnow()
    job = db.exec(
        select(EmailAllJob).where(EmailAllJob.created_at > now - REPEAT_WINDOW).order_by(col(EmailAllJob.id).desc())
    ).first()
    if job is None:
        return None
    when = timefmt.clock(job.created_at, labelled=True)
    return {"id": str(job.id), "when": when, "subject": job.subject,
            "question": REPEAT_QUESTION.format(when=when, subject=job.subject)}  # fmt: skip


def confirm_repeat(db: Session, actor: Actor | None, repeat_of: object, now: dt.datetime | None = None) -> None:
    """A second Email All within the hour goes only when the sender confirmed a repeat of the latest one.

    ``repeat_of`` is the id of the send the sender saw; a double-click of a confirmed repeat names a send
    that is no longer the latest, so it is refused and the message goes once.
    """
    actor = require_admin(actor)
    # One sender's sends one at a time (two requests at once: the second waits, then sees the first).
    db.exec(select(User.id).where(User.id == actor.user_id).with_for_update()).first()
    recent = recent_send(db, actor, now)
    if recent is not None and str(repeat_of if repeat_of is not None else "").strip() != recent["id"]:
        raise Invalid({"repeat": recent["question"]})


# Every active user but those who unsubscribed from the announcements (List-Unsubscribe).
_AUDIENCE = (col(User.active).is_(True), col(User.announcements_off).is_(False))


@dataclasses.dataclass(frozen=True)
class JobStatus:
    id: int
    subject: str
    created_at: dt.datetime
    queued: int
    sent: int
    pending: int
    failed: int


def send(
    db: Session, actor: Actor | None, *, subject: object, body: object, confirmed: object = None,
    repeat_of: object = None, now: dt.datetime | None = None,
) -> JobStatus:
    """Queue ``subject``/``body`` to every active user (admin only).

    Raises:
        Unauthorized / Forbidden: not an admin.
        Invalid: subject or body missing, too long, or a subject of more than one line; another Email All
            went within the hour and ``repeat_of`` does not confirm a repeat of it (:func:`confirm_repeat`).
    """
    actor = require_admin(actor)
    clean = validation.collect(
        subject=(validation.name, subject, "subject", "Subject", 200),
        body=(validation.text, body, "body", "Message", BODY_MAX),
    )
    if any(ch in clean["subject"] for ch in "\r\n"):
        raise Invalid({"subject": "The subject must be one line"})
    confirm_count(confirmed, audience_count(db, actor))
    now = now or utcnow()
    confirm_repeat(db, actor, repeat_of, now)
    job = EmailAllJob(subject=clean["subject"], body_text=clean["body"], created_by_id=actor.user_id, created_at=now)
    db.add(job)
    db.flush()
    users = db.exec(select(User).where(*_AUDIENCE).order_by(col(User.id))).all()
    seen: set[int] = set()
    assert job.id is not None  # flushed above
    for user in users:
        user_id = user.id
        assert user_id is not None  # a stored user
        if user_id in seen:
            continue
        seen.add(user_id)
        off = mail_lists.unsubscribe_url(user, mail_lists.ANNOUNCEMENTS)
        row = mail.queue_email(db, "email_all", {"subject": job.subject, "body": job.body_text, "unsubscribe": off},
                               to=user.email, unsubscribe=off)  # fmt: skip
        db.add(EmailAllRecipient(job_id=job.id, user_id=user_id, outbox_id=row.id))
    job.queued = len(seen)
    db.add(job)
    db.flush()
    audit.record(
        db, actor, action="send", entity="email_all", entity_id=job.id,
        summary=f"Email All sent to {job.queued} users: {job.subject}", after={"subject": job.subject, "recipients": job.queued},
    )  # fmt: skip
    log.info("email-all job #%s queued %s messages (admin #%s)", job.id, job.queued, actor.user_id)
    return _status(db, job)


def _statuses(db: Session, jobs: list[EmailAllJob]) -> list[JobStatus]:
    """Each job with how many of its messages were sent or failed so far: one grouped count for them all."""
    counts: dict[tuple[int, OutboxStatus], int] = {
        (job_id, status): n
        for job_id, status, n in db.exec(
            select(col(EmailAllRecipient.job_id), col(OutboxMessage.status), func.count())
            .join(EmailAllRecipient, col(EmailAllRecipient.outbox_id) == OutboxMessage.id)
            .where(col(EmailAllRecipient.job_id).in_([j.id for j in jobs] or [-1]))
            .group_by(col(EmailAllRecipient.job_id), col(OutboxMessage.status))
        ).all()
    }
    out = []
    for job in jobs:
        assert job.id is not None  # a stored job
        sent = counts.get((job.id, OutboxStatus.SENT), 0)
        failed = counts.get((job.id, OutboxStatus.FAILED), 0)
        out.append(JobStatus(id=job.id, subject=job.subject, created_at=job.created_at, queued=job.queued, sent=sent,
                             failed=failed, pending=max(job.queued - sent - failed, 0)))  # fmt: skip
    return out


def _status(db: Session, job: EmailAllJob) -> JobStatus:
    return _statuses(db, [job])[0]


def recent_jobs(db: Session, actor: Actor | None, *, limit: int = 20) -> list[JobStatus]:
    """The latest jobs with how many of their messages were sent so far (admin only)."""
    require_admin(actor)
    jobs = db.exec(select(EmailAllJob).order_by(col(EmailAllJob.id).desc()).limit(limit)).all()
    return _statuses(db, list(jobs))


# The filters of the jobs list: free text (the subject).
JOB_FILTERS = ("q",)


def jobs_page(
    db: Session, actor: Actor | None, *, filters: dict | None = None, bookmark: object = "", size: object = paging.PAGE_SIZE
) -> paging.Page:
    """One page of the jobs, newest first, with how many of their messages were sent so far (admin only).

    ``filters``: ``q``, words of the subject.
    """
    require_admin(actor)
    f = filters if isinstance(filters, dict) else {}
    query = select(EmailAllJob).order_by(col(EmailAllJob.id).desc())
    if text := paging.search_text(f.get("q")):
        query = query.where(paging.contains(text, col(EmailAllJob.subject)))
    return paging.keyset(db, query, kinds=(int,), project=lambda found: _statuses(db, [r[0] for r in found]),
                         bookmark=bookmark, size=paging.page_size(size))  # fmt: skip


@dataclasses.dataclass(frozen=True)
class EmailAllScreen:
    """What the Email All page shows, read in one call: the jobs' page, who a send reaches, the send it repeats."""

    jobs: Part[paging.Page]
    audience: int
    recent: dict[str, str] | None  # recent_send


def screen(db: Session, actor: Actor | None, *, filters: dict | None = None, bookmark: object = "") -> EmailAllScreen:
    """The Email All page for ``actor`` (admin only): the jobs' page ``bookmark`` found by ``filters``, how many
    people a send reaches now, and the send of the last hour a new one would repeat."""
    return EmailAllScreen(
        jobs=part(jobs_page, db, actor, filters=filters, bookmark=bookmark),
        audience=audience_count(db, actor),
        recent=recent_send(db, actor),
    )


def recipients(db: Session, job_id: int) -> list[int | None]:
    """The user ids a job mails (for tests and support); None for a user deleted since."""
    return list(db.exec(select(col(EmailAllRecipient.user_id)).where(col(EmailAllRecipient.job_id) == job_id)))
