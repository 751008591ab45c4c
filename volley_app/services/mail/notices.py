"""Notifications: everything the app tells a person goes through :func:`notify`.

:func:`notify` records the notification (the person's list and unread count, in the app) and, in the caller's
transaction, queues its email when the person's preference for that kind says email goes. A notification links to
a page its person may open (a path from ``routes``); the caller names only people who may see it.

It also goes by push to each device of the person that takes notifications (``services/mail/push.py``), when
their preference for that kind says push goes (it does unless they turn it off): with buttons where the email has
a link that answers (a sub's Accept and Decline).

Preferences are a row per person and kind (``NotificationPreference``), a column per channel (email, push); a kind
without a row takes its default (:data:`KINDS`). A sub's "Email me about" setting (``mail_lists``) is the rows of
two kinds: their invitations, and every open request that matches them.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
from collections.abc import Mapping, Sequence
from typing import TypedDict

import sqlalchemy as sa
from sqlmodel import Session, col, select

from volley_app import routes
from volley_app.models import Notification, NotificationPreference, User, utcnow
from volley_app.services.core import live, paging, timefmt
from volley_app.services.core.actors import Actor, record_id, require_actor
from volley_app.services.core.errors import Invalid, NotFound
from volley_app.services.mail import mail, push
from volley_app.services.mail.mail_render import render

log = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True)
class Kind:
    label: str  # what My Info calls it
    email: bool = True  # whether email goes when the person chose nothing
    push: bool = True  # whether push goes (to the devices they turned it on for) when they chose nothing


SUB_INVITATION, SUB_ACCEPTED, SUB_DECLINED = "sub_invitation", "sub_accepted", "sub_declined"
OPEN_REQUEST, TEAM_SHORT, RSVP_REMINDER = "open_request", "team_short", "rsvp_reminder"
SCHEDULE_CHANGE, SCORE_TO_CONFIRM = "schedule_change", "score_to_confirm"
KINDS: dict[str, Kind] = {
    SUB_INVITATION: Kind("I'm invited to sub"),
    SUB_ACCEPTED: Kind("A sub accepts my sub request"),
    SUB_DECLINED: Kind("A sub declines my sub request"),
    OPEN_REQUEST: Kind("An open sub request matches me", email=False, push=False),
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
    push: bool


CHANNELS = ("email", "push")


# -- telling a person ---------------------------------------------------------------------------------------------


def channels(db: Session, user_id: int, kind: str) -> tuple[bool, bool]:
    """Whether ``kind`` goes to the user by email, and by push: their row, else the kind's defaults."""
    chosen = db.exec(select(NotificationPreference.email, NotificationPreference.push).where(
        NotificationPreference.user_id == user_id, NotificationPreference.kind == kind)).first()  # fmt: skip
    return (KINDS[kind].email, KINDS[kind].push) if chosen is None else (bool(chosen[0]), bool(chosen[1]))


def emails(db: Session, user_id: int, kind: str) -> bool:
    """Whether ``kind`` is emailed to the user: their row, else the kind's default."""
    return channels(db, user_id, kind)[0]


def notify(
    db: Session, user: User, kind: str, *, text: str, link: str, email: Email | None = None, title: str | None = None,
    reply_to: str | None = None, unsubscribe: str | None = None, mail_kind: str | None = None,
    actions: Sequence[push.Action] = (),
) -> Notification:  # fmt: skip
    """Tell ``user`` of something (``kind``, one of :data:`KINDS`): record the notification, and queue the email
    ``email`` (its template and values) when their preference for ``kind`` says email goes and they have an address.

    Args:
        text: a line of what happened.
        link: the path of the page it concerns (a ``routes`` builder), one ``user`` may open.
        title: the notification's title; by default the email's subject.
        reply_to, unsubscribe, mail_kind: the email's, as for ``mail.queue``.
        actions: the push notification's buttons (at most two).
    """
    assert user.id is not None and kind in KINDS  # a stored user, a known kind
    rendered = render(email[0], email[1]) if email else None
    heading = title or (rendered.subject if rendered else "")
    row = Notification(user_id=user.id, kind=kind, title=heading[:200], text=text[:500], link=link[:300])
    db.add(row)
    by_email, by_push = channels(db, user.id, kind)
    if email and rendered and user.email and by_email:
        mail.queue(db, to=user.email, subject=rendered.subject, body_text=rendered.text, body_html=rendered.html,
                   reply_to=reply_to, kind=mail_kind or email[0], unsubscribe=unsubscribe)  # fmt: skip
    if by_push:
        push.queue(db, user.id, title=row.title, body=row.text, url=row.link or routes.NOTIFICATIONS, tag=row.link,
                   actions=actions)  # fmt: skip
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
    chosen = {kind: (email, by_push) for kind, email, by_push in db.exec(
        select(NotificationPreference.kind, NotificationPreference.email, NotificationPreference.push)
        .where(NotificationPreference.user_id == actor.user_id)).all()}  # fmt: skip
    return [{"kind": k, "label": v.label, "email": bool(chosen.get(k, (v.email, v.push))[0]),
             "push": bool(chosen.get(k, (v.email, v.push))[1])} for k, v in KINDS.items()]  # fmt: skip


def set_email(db: Session, user_id: int, kind: str, email: bool) -> None:
    """Save whether ``kind`` is emailed to the user (their row, made when missing)."""
    _set(db, user_id, kind, email=bool(email))


def _set(db: Session, user_id: int, kind: str, **chosen: bool) -> None:
    """Save the user's choice of channels (``email=``, ``push=``) for ``kind``; a new row starts at the defaults."""
    row = db.exec(select(NotificationPreference).where(
        NotificationPreference.user_id == user_id, NotificationPreference.kind == kind)).first()  # fmt: skip
    row = row or NotificationPreference(user_id=user_id, kind=kind, email=KINDS[kind].email, push=KINDS[kind].push)
    for channel, on in chosen.items():
        setattr(row, channel, on)
    row.updated_at = utcnow()
    db.add(row)
    db.flush()


def _on(value: object) -> bool | None:
    """A channel's answer as a form or a JSON body gives it: True, False, or None (not an answer)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in {"on", "true", "yes", "1", "false", "off", "no", "0", ""}:
        return value.lower() in {"on", "true", "yes", "1"}
    return None


def save_preferences(db: Session, actor: Actor | None, *, email: object, push: object = None) -> list[PreferenceRow]:
    """Save which kinds go to the actor by email and by push: each maps a kind to on or off (a kind left out, or a
    channel not given, stays as it was). Returns them all."""
    actor = require_actor(actor)
    given: dict[str, Mapping] = {}
    for channel, chosen in (("email", email), ("push", push)):
        if chosen is None and channel == "push":
            continue
        if not isinstance(chosen, Mapping):
            raise Invalid({channel: f"Say for each kind whether it goes by {channel}"})
        given[channel] = chosen
    for channel, chosen in given.items():
        unknown = [str(k) for k in chosen if k not in KINDS]
        bad = [str(k) for k, v in chosen.items() if k in KINDS and _on(v) is None]
        if unknown or bad:
            raise Invalid({channel: f"Not a kind of notification, or not on or off: {', '.join((unknown + bad)[:5])}"[:200]})
    for kind in KINDS:
        picked = {channel: bool(_on(chosen[kind])) for channel, chosen in given.items() if kind in chosen}
        if picked:
            _set(db, actor.user_id, kind, **picked)
    log.info("user %s notification preferences saved", actor.user_id)
    return preferences(db, actor)
