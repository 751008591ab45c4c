"""Who gets which mail: a sub's notification setting, and one-click unsubscribe from bulk mail.

A sub chooses what the sub requests email them (``NOTIFY``), kept as their preferences of two kinds of
notification (``notices``: their invitations, every open request that matches them):

- ``every``: every open request that matches them (:func:`matches`), and their invitations;
- ``invites``: only their invitations (the default: what the app always sent);
- ``none``: nothing; an invitation still reaches them in the app (My Sub Requests), not by email.

Bulk mail (the newsletter, Email All, open-request notices) carries ``List-Unsubscribe`` (RFC 2369) and
``List-Unsubscribe-Post: List-Unsubscribe=One-Click`` (RFC 8058) pointing to :func:`unsubscribe_url`:
a token signed for that purpose (``services/core/signing.py``) that names the list and the reader. Unsubscribing from open-request
notices stops those (``invites``); from Email All sets ``announcements_off``; from the newsletter removes the
subscriber. The same token again changes nothing more and says so.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from sqlmodel import Session

from volley_app import routes
from volley_app.models import Rating, SkillLevel, User
from volley_app.services.core import signing
from volley_app.services.core.actors import Actor, load, require_actor
from volley_app.services.core.errors import Invalid, NotFound
from volley_app.services.mail import newsletter, notices

log = logging.getLogger(__name__)

EVERY, INVITES, NONE = "every", "invites", "none"
NOTIFY = {
    EVERY: "Every open request that matches me, and my invitations",
    INVITES: "Only when I'm invited",
    NONE: "Nothing (invitations still show in the app)",
}
OPEN_NOTICES, ANNOUNCEMENTS, NEWSLETTER = "open", "news", "letter"
LIST_NAMES = {
    OPEN_NOTICES: "emails about open sub requests",
    ANNOUNCEMENTS: "announcements to every player",
    NEWSLETTER: "the newsletter",
}
BAD_LINK = "This unsubscribe link is not valid. Change what you receive under Edit Info when logged in."

# A request's skill level, and the position ratings that are at least as good (A is the best).
_RANK = {"A": 4, "B": 3, "C+": 2, "C": 2, "D": 1}


def matches(user: User, skill_level: SkillLevel | str, sub_format: object = None) -> bool:
    """Whether an open request of ``skill_level`` (and format) suits the sub ``user``.

    A sub matches when one of their position ratings reaches the request's skill level (C+ asks for
    a C rating or better). Subs state no formats, so every format matches.
    """
    wanted = _RANK.get(getattr(skill_level, "value", skill_level), 0)
    ratings = (user.hitter_skill_level, user.passer_skill_level, user.setter_skill_level)
    return any(_RANK.get(r.value if isinstance(r, Rating) else str(r or ""), 0) >= wanted for r in ratings if r)


def matching_levels(skill_level: SkillLevel | str) -> list[str]:
    """The ratings that reach ``skill_level`` (for a query: any position rated one of these matches)."""
    wanted = _RANK.get(getattr(skill_level, "value", skill_level), 0)
    return [r.value for r in Rating if _RANK.get(r.value, 0) >= wanted]


# -- the sub's setting ---------------------------------------------------------------------------------------


def setting_from(email_on: Mapping[str, bool]) -> str:
    """A sub's setting, from whether the two kinds it stands for are emailed (``notices.preferences``)."""
    if email_on.get(notices.OPEN_REQUEST):
        return EVERY
    return INVITES if email_on.get(notices.SUB_INVITATION) else NONE


def kinds_of(setting: str) -> dict[str, bool]:
    """Whether each of the two kinds a sub's ``setting`` stands for is emailed."""
    return {notices.SUB_INVITATION: setting != NONE, notices.OPEN_REQUEST: setting == EVERY}


def setting_of(db: Session, user_id: int) -> str:
    """A sub's setting, from their preferences of the two kinds it stands for."""
    return setting_from({k: notices.emails(db, user_id, k) for k in (notices.OPEN_REQUEST, notices.SUB_INVITATION)})


def notification_setting(db: Session, actor: Actor | None) -> dict[str, object]:
    """The actor's setting and the choices, for Edit Info; ``is_sub``: only subs are asked."""
    actor = require_actor(actor)
    user = load(db, User, actor.user_id)
    return {"value": setting_of(db, actor.user_id), "is_sub": bool(user.sub),
            "choices": [{"value": k, "label": v} for k, v in NOTIFY.items()]}  # fmt: skip


def set_notification(db: Session, actor: Actor | None, *, value: object) -> str:
    """Save the actor's own setting (one of ``NOTIFY``). Returns it."""
    actor = require_actor(actor)
    if not isinstance(value, str) or value not in NOTIFY:
        raise Invalid({"sub_notify": "Choose what to be emailed about"})
    user = load(db, User, actor.user_id)
    assert user.id is not None  # a stored user
    for kind, email in kinds_of(value).items():
        notices.set_email(db, user.id, kind, email)
    log.info("user %s sub notifications: %s", user.id, value)
    return value


# -- unsubscribe -------------------------------------------------------------------------------------------------


def unsubscribe_token(user: User, which: str) -> str:
    return f"{which}.{user.id}.{signing.sign(signing.LIST_UNSUBSCRIBE, which, user.id, user.email)}"


def unsubscribe_url(user: User, which: str) -> str:
    """The one-click unsubscribe address of ``user`` from the list ``which`` (OPEN_NOTICES or ANNOUNCEMENTS)."""
    return routes.backend_absolute(routes.mail_unsubscribe_path(unsubscribe_token(user, which)))


def _parse(token: object) -> tuple[str, int, str]:
    parts = token.split(".") if isinstance(token, str) and len(token) < 200 else []
    if len(parts) != 3 or parts[0] not in LIST_NAMES or not parts[1].isdigit():
        raise NotFound(BAD_LINK)
    return parts[0], int(parts[1]), parts[2]


def describe(db: Session, token: object) -> str:
    """What the link unsubscribes from (NotFound: a link that is not one of ours)."""
    which, record, signature = _parse(token)
    if which == NEWSLETTER:
        from volley_app.models import NewsletterSubscriber

        row = db.get(NewsletterSubscriber, record)
        if row is None or not newsletter.token_matches(row, signature):
            raise NotFound(BAD_LINK)
        return LIST_NAMES[which]
    user = db.get(User, record)
    if user is None or not signing.verify(signing.LIST_UNSUBSCRIBE, signature, which, user.id, user.email):
        raise NotFound(BAD_LINK)
    return LIST_NAMES[which]


def unsubscribe(db: Session, token: object) -> str:
    """Act on a signed unsubscribe token. Returns what was unsubscribed from. NotFound: a forged or stale link."""
    what = describe(db, token)
    which, record, signature = _parse(token)
    if which == NEWSLETTER:
        newsletter.unsubscribe(db, subscriber_id=record, token=signature)
        return what
    user = load(db, User, record)
    if which == OPEN_NOTICES and notices.emails(db, record, notices.OPEN_REQUEST):
        notices.set_email(db, record, notices.OPEN_REQUEST, False)
    elif which == ANNOUNCEMENTS:
        user.announcements_off = True
    db.add(user)
    db.flush()
    log.info("user %s unsubscribed from %s", user.id, which)
    return what
