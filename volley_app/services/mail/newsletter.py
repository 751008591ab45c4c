"""Newsletter: public signup, one-click unsubscribe, and the admin's composer and send.

A subscriber's unsubscribe link carries a signature of its id and address
(``services/core/signing.py``), so it works without a login and cannot be guessed
for someone else. Every newsletter email carries its reader's own link.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, func, select

from volley_app import routes
from volley_app.models import NEWSLETTER_SECTIONS, NewsletterIssue, NewsletterSubscriber, utcnow
from volley_app.services.core import audit, paging, ratelimit, signing, validation
from volley_app.services.core.actors import Actor, load, require_admin
from volley_app.services.core.errors import Invalid, NotFound
from volley_app.services.core.screens import Part, part
from volley_app.services.mail import mail, mail_render

log = logging.getLogger(__name__)

SUBJECT = "This week in Lexington volleyball"
SIGNUP_LIMIT = 10
SIGNUP_WINDOW = dt.timedelta(hours=1)
BAD_UNSUBSCRIBE_LINK = "This unsubscribe link is not valid, or this address was already unsubscribed."

# Section name -> its label in the composer and the group it is printed under in the email.
SECTION_LABELS = {
    "headline1": "Headline 1", "headline2": "Headline 2", "headline3": "Headline 3",
    "ad1": "Ad 1", "ad2": "Ad 2",
    "svl_news1": "SVL News 1", "svl_news2": "SVL News 2",
    "vs1": "vS 1", "vs2": "vS 2",
}  # fmt: skip
GROUPS = (
    ("Headlines", ("headline1", "headline2", "headline3")),
    ("From our venues", ("svl_news1", "svl_news2")),
    ("vS", ("vs1", "vs2")),
    ("From our sponsors", ("ad1", "ad2")),
)
ISSUE_FIELDS = tuple(f"{s}_{part}" for s in NEWSLETTER_SECTIONS for part in ("link", "blurb"))


# -- subscribers ---------------------------------------------------------------------------------


def subscribe(
    db: Session, *, email: object, referral: object = "", client: str = "", trap: object = ""
) -> NewsletterSubscriber | None:
    """Add a subscriber; signing up again with the same address is fine and changes nothing.

    ``trap``: the bot-trap field, empty for a person; filled, the signup is answered like a success
    but nothing is kept (None).

    Raises:
        Invalid: the email is missing or malformed, or the referral is too long.
        RateLimited: too many signups from this client lately.
    """
    clean = validation.collect(
        email=(validation.email, email),
        referral=(validation.optional, referral, "referral", "Referral"),
    )
    if isinstance(trap, str) and trap.strip():
        log.info("newsletter bot trap filled (client=%s): dropped", client)
        return None
    ratelimit.hit(db, scope="newsletter", key=client or "unknown", limit=SIGNUP_LIMIT, window=SIGNUP_WINDOW)
    existing = db.exec(select(NewsletterSubscriber).where(NewsletterSubscriber.email == clean["email"])).first()
    if existing is not None:
        return existing
    row = NewsletterSubscriber(email=clean["email"], referral=clean["referral"] or None)
    try:
        with db.begin_nested():
            db.add(row)
    except IntegrityError:  # the same address, signed up a moment ago in another request
        return db.exec(select(NewsletterSubscriber).where(NewsletterSubscriber.email == clean["email"])).one()
    return row


def unsubscribe_token(subscriber_id: int, email: str) -> str:
    return signing.sign(signing.NEWSLETTER_UNSUBSCRIBE, subscriber_id, email)


def token_matches(subscriber: NewsletterSubscriber, token: object) -> bool:
    """Whether ``token`` is the subscriber's unsubscribe token (one signed with an earlier key too)."""
    return signing.verify(signing.NEWSLETTER_UNSUBSCRIBE, token, subscriber.id, subscriber.email)


def unsubscribe_link(subscriber: NewsletterSubscriber) -> str:
    assert subscriber.id is not None  # a stored subscriber
    return routes.absolute(routes.unsubscribe_path(subscriber.id, unsubscribe_token(subscriber.id, subscriber.email)))


def one_click_unsubscribe(subscriber: NewsletterSubscriber) -> str:
    """The issue's List-Unsubscribe address: one POST (RFC 8058) removes the subscriber (``api.mail_links``)."""
    assert subscriber.id is not None  # a stored subscriber
    token = f"letter.{subscriber.id}.{unsubscribe_token(subscriber.id, subscriber.email)}"
    return routes.backend_absolute(routes.mail_unsubscribe_path(token))


def unsubscribe(db: Session, *, subscriber_id: object, token: object) -> str:
    """Remove the subscriber the link names. Returns the address removed.

    Raises:
        NotFound: the link is malformed, or its token does not match (a link for
            an address that already left is NotFound too: nothing to do).
    """
    row = load(db, NewsletterSubscriber, subscriber_id, BAD_UNSUBSCRIBE_LINK)
    if not token_matches(row, token):
        raise NotFound(BAD_UNSUBSCRIBE_LINK)
    sid, email = row.id, row.email
    db.delete(row)
    db.flush()
    log.info("newsletter subscriber #%s unsubscribed", sid)
    return email


def list_subscribers(db: Session, actor: Actor | None) -> list[NewsletterSubscriber]:
    require_admin(actor)
    return list(db.exec(select(NewsletterSubscriber).order_by(col(NewsletterSubscriber.created_at).desc())))


def subscribers_page(
    db: Session, actor: Actor | None, *, filters: dict | None = None, bookmark: object = "", size: object = paging.PAGE_SIZE
) -> paging.Page:
    """One page of the subscribers, newest first (admin only); ``filters``: ``q`` a part of the address."""
    require_admin(actor)
    f = filters if isinstance(filters, dict) else {}
    query = select(NewsletterSubscriber)
    if text := paging.search_text(f.get("q")):
        query = query.where(paging.contains(text, col(NewsletterSubscriber.email), col(NewsletterSubscriber.referral)))
    query = query.order_by(col(NewsletterSubscriber.created_at).desc(), col(NewsletterSubscriber.id).desc())

    def project(found: list) -> list[dict]:
        return [{"id": r.id, "email": r.email, "referral": r.referral or "", "created_at": r.created_at}
                for (r,) in found]  # fmt: skip

    return paging.keyset(db, query, kinds=(dt.datetime, int), project=project, bookmark=bookmark, size=paging.page_size(size))


def delete_subscriber(db: Session, actor: Actor | None, *, subscriber_id: object) -> None:
    actor = require_admin(actor)
    row = load(db, NewsletterSubscriber, subscriber_id, "Subscriber not found")
    audit.record(
        db, actor, action="delete", entity="newsletter_subscriber", entity_id=row.id,
        summary=f"Newsletter subscriber {row.email} deleted", before={"email": row.email, "referral": row.referral},
    )  # fmt: skip
    db.delete(row)
    db.flush()


def subscriber_count(db: Session) -> int:
    return db.exec(select(func.count()).select_from(NewsletterSubscriber)).one()


def subscriber_total(db: Session, actor: Actor | None) -> int:
    """How many subscribers an issue goes to (admin only)."""
    require_admin(actor)
    return subscriber_count(db)


@dataclasses.dataclass(frozen=True)
class SetupScreen:
    """What the newsletter page shows, read in one call: the subscribers' page and how many an issue goes to."""

    subscribers: Part[paging.Page]
    total: int


def setup_screen(db: Session, actor: Actor | None, *, filters: dict | None = None, bookmark: object = "") -> SetupScreen:
    """The newsletter page for ``actor`` (admin only): the subscribers' page ``bookmark`` found by ``filters`` and
    how many subscribers an issue goes to."""
    return SetupScreen(part(subscribers_page, db, actor, filters=filters, bookmark=bookmark),
                       subscriber_total(db, actor))


# -- issues --------------------------------------------------------------------------------------


def clean_issue(data: dict) -> dict[str, str]:
    """Check the composer's fields: every blurb required, every link empty or an http(s) address."""
    data = data if isinstance(data, dict) else {}
    checks: dict[str, tuple] = {}
    for section in NEWSLETTER_SECTIONS:
        label = SECTION_LABELS[section]
        checks[f"{section}_link"] = (validation.link, data.get(f"{section}_link"), f"{section}_link", f"{label} link")
        checks[f"{section}_blurb"] = (
            validation.text,
            data.get(f"{section}_blurb"),
            f"{section}_blurb",
            f"{label} blurb",
            2000,
        )
    return validation.collect(**checks)


def _email_values(values: dict[str, str], unsubscribe_url: str) -> dict[str, object]:
    """What the newsletter template shows of an issue: only the sections with something in them."""
    groups = []
    for title, sections in GROUPS:
        items = []
        for section in sections:
            blurb = (values.get(f"{section}_blurb") or "").strip()
            link = (values.get(f"{section}_link") or "").strip()
            if blurb or link:
                items.append({"blurb": blurb, "link": link})
        if items:
            groups.append({"title": title, "entries": items})
    return {"subject": SUBJECT, "groups": groups, "unsubscribe": unsubscribe_url}


def render(values: dict[str, str], unsubscribe_url: str) -> str:
    """The plain-text body of an issue, exactly as each subscriber receives it (their own unsubscribe link)."""
    return mail_render.render("newsletter", _email_values(values, unsubscribe_url)).text


def _queue_issue(db: Session, values: dict[str, str], sub: NewsletterSubscriber) -> None:
    mail.queue_email(db, "newsletter", _email_values(values, unsubscribe_link(sub)), to=sub.email,
                     unsubscribe=one_click_unsubscribe(sub))  # fmt: skip


def preview(values: dict) -> str:
    """What a subscriber will read, with a sample unsubscribe link."""
    safe = {k: v if isinstance(v, str) else "" for k, v in (values if isinstance(values, dict) else {}).items()}
    sample = routes.absolute(routes.UNSUBSCRIBE + "/…")
    return render(safe, sample)


def send_issue(
    db: Session, actor: Actor | None, *, data: dict, confirmed: object = None, now: dt.datetime | None = None
) -> tuple[NewsletterIssue, int]:
    """Store an issue and queue one email per subscriber (admin only).

    Returns:
        The stored issue and how many messages were queued.

    Raises:
        Unauthorized / Forbidden: not an admin. Invalid: a blurb is missing or a link is malformed.
    """
    actor = require_admin(actor)
    values: dict[str, Any] = clean_issue(data)  # the issue's columns by name
    if confirmed is not None and str(confirmed).strip() != str(subscriber_count(db)):
        raise Invalid({"confirmed": f"It goes to {subscriber_count(db)} subscribers now. Tick the box again to send it."})
    now = now or utcnow()
    issue = NewsletterIssue(**values, created_by_id=actor.user_id, created_at=now, sent_at=now)
    db.add(issue)
    db.flush()
    sent = 0
    for sub in db.exec(select(NewsletterSubscriber).order_by(col(NewsletterSubscriber.id))).all():
        _queue_issue(db, values, sub)
        sent += 1
    audit.record(db, actor, action="send", entity="newsletter_issue", entity_id=issue.id,
                 summary=f"Newsletter issue sent to {sent} subscribers", after={"recipients": sent})  # fmt: skip
    log.info("newsletter issue #%s queued for %s subscribers by user #%s", issue.id, sent, actor.user_id)
    return issue, sent


NO_SUBSCRIBER = "No subscriber has that email"


def send_to_subscriber(db: Session, actor: Actor | None, *, email: object, data: dict) -> NewsletterSubscriber:
    """An issue to one subscriber (admin only), as the spec's client sends an issue: once per subscriber.

    The server composes the message (the same body as :func:`send_issue`, with that subscriber's
    own unsubscribe link) and queues it in the outbox; an address that is not subscribed gets nothing.
    """
    actor = require_admin(actor)
    values = clean_issue(data)
    address = validation.email(email)
    sub = db.exec(select(NewsletterSubscriber).where(NewsletterSubscriber.email == address)).first()
    if sub is None:
        raise NotFound(NO_SUBSCRIBER)
    _queue_issue(db, values, sub)
    audit.record(db, actor, action="send", entity="newsletter_subscriber", entity_id=sub.id,
                 summary=f"Newsletter issue sent to subscriber {sub.email}")  # fmt: skip
    log.info("newsletter queued to subscriber #%s by user #%s", sub.id, actor.user_id)
    return sub
