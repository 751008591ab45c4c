"""Notifications: everything the app tells a person goes through :func:`notify`.

:func:`notify` records the notification (the person's list and unread count, in the app) and, in the caller's
transaction, queues its email when the person's preference for that kind says email goes. A notification links to
a page its person may open (a path from ``routes``); the caller names only people who may see it.

Preferences are a row per person and kind (``NotificationPreference``), a column per channel (email); a kind
without a row takes its default (:data:`KINDS`). A sub's "Email me about" setting (``mail_lists``) is the rows of
two kinds: their invitations, and every open request that matches them.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
from collections.abc import Mapping
from typing import TypedDict

import sqlalchemy as sa
from sqlmodel import Session, col, select

from volley_app.models import Notification, NotificationPreference, User, utcnow
from volley_app.services.core import live, paging, timefmt
from volley_app.services.core.actors import Actor, record_id, require_actor
from volley_app.services.core.errors import Invalid, NotFound
from volley_app.services.mail import mail
from volley_app.services.mail.mail_render import render

log = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True)
class Kind:
    label: str  # what My Info calls it
    email: bool = True  # whether email goes when the person chose nothing


SUB_INVITATION, SUB_ACCEPTED, SUB_DECLINED = "sub_invitation", "sub_accepted", "sub_declined"
OPEN_REQUEST, TEAM_SHORT, RSVP_REMINDER = "open_request", "team_short", "rsvp_reminder"
SCHEDULE_CHANGE, SCORE_TO_CONFIRM = "schedule_change", "score_to_confirm"
KINDS: dict[str, Kind] = {
    SUB_INVITATION: Kind("I'm invited to sub"),
    SUB_ACCEPTED: Kind("A sub accepts my sub request"),
    SUB_DECLINED: Kind("A sub declines my sub request"),
    OPEN_REQUEST: Kind("An open sub request matches me", email=False),
    TEAM_SHORT: Kind("My team is short of players for a game"),
    RSVP_REMINDER: Kind("A game of my team needs my answer"),
    SCHEDULE_CHANGE: Kind("My team's schedule changes"),
    SCORE_TO_CONFIRM: Kind("A score waits for me to confirm it"),
}

# The unread count stops here: past it the bell says "99+".
UNREAD_CAP = 99
NOT_FOUND = "This notification was not found"
SAVED = "Saved: how each kind of notification reaches you."

Email = tuple[str, Mapping[str, object]]


class NotificationRow(TypedDict):
    id: int
    kind: str
    title: str
    text: str
    link: str
    when: str
    unread: bool


class PreferenceRow(TypedDict):
    kind: str
    label: str
    email: bool


# -- telling a person ---------------------------------------------------------------------------------------------


def emails(db: Session, user_id: int, kind: str) -> bool:
    """Whether ``kind`` is emailed to the user: their row, else the kind's default."""
    chosen = db.exec(select(NotificationPreference.email).where(
        NotificationPreference.user_id == user_id, NotificationPreference.kind == kind)).first()  # fmt: skip
    return KINDS[kind].email if chosen is None else bool(chosen)


def notify(
    db: Session, user: User, kind: str, *, text: str, link: str, email: Email | None = None, title: str | None = None,
    reply_to: str | None = None, unsubscribe: str | None = None, mail_kind: str | None = None,
) -> Notification:  # fmt: skip
    """Tell ``user`` of something (``kind``, one of :data:`KINDS`): record the notification, and queue the email
    ``email`` (its template and values) when their preference for ``kind`` says email goes and they have an address.

    Args:
        text: a line of what happened.
        link: the path of the page it concerns (a ``routes`` builder), one ``user`` may open.
        title: the notification's title; by default the email's subject.
        reply_to, unsubscribe, mail_kind: the email's, as for ``mail.queue``.
    """
    assert user.id is not None and kind in KINDS  # a stored user, a known kind
    rendered = render(email[0], email[1]) if email else None
    heading = title or (rendered.subject if rendered else "")
    row = Notification(user_id=user.id, kind=kind, title=heading[:200], text=text[:500], link=link[:300])
    db.add(row)
    if email and rendered and user.email and emails(db, user.id, kind):
        mail.queue(db, to=user.email, subject=rendered.subject, body_text=rendered.text, body_html=rendered.html,
                   reply_to=reply_to, kind=mail_kind or email[0], unsubscribe=unsubscribe)  # fmt: skip
    db.flush()
    live.notices_changed(db, user.id)
    return row


# -- reading and marking ------------------------------------------------------------------------------------------


def unread_count(db: Session, user_id: int) -> int:
    """How many of the user's notifications are unread, counted up to ``UNREAD_CAP + 1`` (one indexed count)."""
    unread = select(col(Notification.id)).where(Notification.user_id == user_id, col(Notification.read_at).is_(None))
    found, capped = paging.count_rows(db, unread, UNREAD_CAP)
    return found + 1 if capped else found


def count_text(count: int) -> str:
    """The bell's count: "" for none, "99+" past the cap."""
    return "" if count <= 0 else (f"{UNREAD_CAP}+" if count > UNREAD_CAP else str(count))


def _row(n: Notification) -> NotificationRow:
    assert n.id is not None  # a stored row
    return {"id": n.id, "kind": n.kind, "title": n.title, "text": n.text, "link": n.link, "unread": n.read_at is None,
            "when": timefmt.date_time(n.created_at, labelled=True)}  # fmt: skip


def notifications_page(db: Session, actor: Actor | None, *, filters: dict | None = None, bookmark: object = "",
                       size: object = paging.PAGE_SIZE) -> paging.Page:  # fmt: skip
    """One page of the actor's own notifications, newest first; ``extra["unread"]``: their unread count."""
    actor = require_actor(actor)
    query = (select(Notification).where(Notification.user_id == actor.user_id)
             .order_by(col(Notification.created_at).desc(), col(Notification.id).desc()))  # fmt: skip
    found = paging.keyset(db, query, kinds=(dt.datetime, int), bookmark=bookmark, size=paging.page_size(size),
                          project=lambda rows: [_row(r[0]) for r in rows])  # fmt: skip
    found.extra["unread"] = unread_count(db, actor.user_id)
    return found


def _own(db: Session, actor: Actor, notification_id: object) -> Notification:
    """The actor's notification; another person's answers as one that does not exist."""
    row = db.get(Notification, record_id(notification_id, NOT_FOUND))
    if row is None or row.user_id != actor.user_id:
        raise NotFound(NOT_FOUND)
    return row


def mark_read(db: Session, actor: Actor | None, *, notification_id: object, now: dt.datetime | None = None) -> str:
    """Mark one of the actor's notifications read (once: reading it again keeps the first time). Returns its link."""
    actor = require_actor(actor)
    row = _own(db, actor, notification_id)
    if row.read_at is None:
        row.read_at = now or utcnow()
        db.add(row)
        db.flush()
        live.notices_changed(db, actor.user_id)
    return row.link


def mark_all_read(db: Session, actor: Actor | None, *, now: dt.datetime | None = None) -> int:
    """Mark every unread notification of the actor read; returns how many were."""
    actor = require_actor(actor)
    table = Notification.__table__  # type: ignore[attr-defined]
    marked = db.connection().execute(
        sa.update(table).where(table.c.user_id == actor.user_id, table.c.read_at.is_(None)).values(read_at=now or utcnow())
    ).rowcount  # fmt: skip
    if marked:
        live.notices_changed(db, actor.user_id)
    return int(marked or 0)


# -- preferences --------------------------------------------------------------------------------------------------


def preferences(db: Session, actor: Actor | None) -> list[PreferenceRow]:
    """Every kind with whether it is emailed to the actor, in the order of :data:`KINDS`."""
    actor = require_actor(actor)
    chosen = dict(db.exec(select(NotificationPreference.kind, NotificationPreference.email)
                          .where(NotificationPreference.user_id == actor.user_id)).all())  # fmt: skip
    return [{"kind": k, "label": v.label, "email": bool(chosen.get(k, v.email))} for k, v in KINDS.items()]


def set_email(db: Session, user_id: int, kind: str, email: bool) -> None:
    """Save whether ``kind`` is emailed to the user (their row, made when missing)."""
    row = db.exec(select(NotificationPreference).where(
        NotificationPreference.user_id == user_id, NotificationPreference.kind == kind)).first()  # fmt: skip
    row = row or NotificationPreference(user_id=user_id, kind=kind)
    row.email, row.updated_at = bool(email), utcnow()
    db.add(row)
    db.flush()


def _on(value: object) -> bool | None:
    """A channel's answer as a form or a JSON body gives it: True, False, or None (not an answer)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in {"on", "true", "yes", "1", "false", "off", "no", "0", ""}:
        return value.lower() in {"on", "true", "yes", "1"}
    return None


def save_preferences(db: Session, actor: Actor | None, *, email: object) -> list[PreferenceRow]:
    """Save which kinds are emailed to the actor: ``email`` maps a kind to on or off (a kind it leaves out stays as
    it was). Returns them all."""
    actor = require_actor(actor)
    if not isinstance(email, Mapping):
        raise Invalid({"email": "Say for each kind whether it is emailed"})
    unknown = [str(k) for k in email if k not in KINDS]
    bad = [str(k) for k, v in email.items() if k in KINDS and _on(v) is None]
    if unknown or bad:
        raise Invalid({"email": f"Not a kind of notification, or not on or off: {', '.join((unknown + bad)[:5])}"[:200]})
    for kind in KINDS:
        if kind in email:
            set_email(db, actor.user_id, kind, bool(_on(email[kind])))
    log.info("user %s notification preferences saved", actor.user_id)
    return preferences(db, actor)
