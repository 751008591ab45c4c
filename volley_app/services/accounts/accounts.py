"""Accounts: creating users (signup, create-admin, the demo seed, Create New SVL), a user's own
record (My Info, Edit user), the admin's users list and player contact.

Field visibility follows the acting user's display status (spec section 2):
SVL and admin see address and city; non-SVL see last name, gender and the sub
section. A user edits their own record; an admin edits any record (roles and
active too) but an admin's edit of another user never changes the last name.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterable

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from volley_app import routes
from volley_app.models import (
    Gender,
    Rating,
    Role,
    User,
    utcnow,
)
from volley_app.services.accounts import auth, passwords, venues
from volley_app.services.core import audit, paging, ratelimit, validation
from volley_app.services.core.actors import Actor, display_status, load, record_id, require_actor, require_admin
from volley_app.services.core.errors import Conflict, Forbidden, Invalid
from volley_app.services.mail import mail
from volley_app.settings import get_settings

log = logging.getLogger(__name__)

SVL_USERNAME_RULE = validation.SVL_USERNAME_RULE
SVL_PASSWORD_RULE = validation.SHORT_PASSWORD_RULE
MESSAGE_MAX = 5000


# --- creating accounts ------------------------------------------------------------------------


TAKEN = {"username": "That username is taken", "email": "An account with this email already exists"}
REGISTERED = "That username or email is already registered"


def _taken(db: Session, username: str, email: str, *, other_than: int | None = None) -> dict[str, str]:
    """Messages for a username or an email another account already has."""
    others = [User.id != other_than] if other_than is not None else []
    errors = {}
    if db.exec(select(User.id).where(User.username == username, *others)).first():
        errors["username"] = TAKEN["username"]
    if db.exec(select(User.id).where(User.email == email, *others)).first():
        errors["email"] = TAKEN["email"]
    return errors


def _add_user(db: Session, clean: dict, roles: list[str], **profile) -> User:
    """Add the account of checked values; a username or email registered a moment ago is refused."""
    user = User(
        username=clean["username"],
        password_hash=passwords.hash_password(clean["password"]),
        roles=roles,
        email=clean["email"],
        first_name=clean["first_name"],
        last_name=clean.get("last_name", ""),
        region=clean["region"],
        **profile,
    )
    db.add(user)
    try:
        db.flush()
    except IntegrityError:  # the same username or email, registered a moment ago
        db.rollback()
        raise Conflict({"username": REGISTERED}) from None
    return user


def create_user(
    db: Session,
    *,
    username: object,
    password: object,
    email: object,
    first_name: object,
    last_name: object,
    region: object,
    roles: Iterable[Role] = (Role.PLAYER,),
    **profile,
) -> User:
    """Validate (spec section 5 signup rules) and add a user; every bad field is reported at once."""
    clean = validation.collect(
        username=(validation.username, username),
        password=(validation.password, password),
        email=(validation.email, email),
        first_name=(validation.name, first_name, "first_name", "First name"),
        last_name=(validation.name, last_name, "last_name", "Last name"),
        region=(validation.region, region),
    )
    errors = _taken(db, clean["username"], clean["email"])
    if errors:
        raise Conflict(errors)
    user = _add_user(db, clean, sorted({Role(r).value for r in roles}), **profile)
    log.info("user created id=%s roles=%s", user.id, user.roles)
    return user


SIGNUP_FIELDS = ("username", "password", "email", "first_name", "last_name", "region")


def signup(db: Session, *, trusted: bool = True, client: str = "", **form: object) -> auth.LoginResult:
    """Create a Player account from the signup form's ``SIGNUP_FIELDS`` (spec section 5 rules) and log it in.

    Raises:
        RateLimited: too many accounts, "already taken" answers or tries from this client lately.
    """
    user = register_player(db, client=client, **form)
    return auth.start_session(db, user, trusted=bool(trusted), client=client)


def register_player(db: Session, *, client: str = "", **form: object) -> User:
    """Create a Player account from ``SIGNUP_FIELDS`` (signup without a browser session: the REST API's tokens).

    Accounts created and "already taken" answers count per client, and so do bursts of tries; a person's
    refused typos do not (``ratelimit.signup``).
    """
    use = ratelimit.signup(db, client)
    try:
        return create_user(db, **{name: form.get(name) for name in SIGNUP_FIELDS}, roles=[Role.PLAYER])
    except Invalid as exc:
        ratelimit.signup_refused(db, client, use, taken=bool(set(exc.errors.values()) & {*TAKEN.values(), REGISTERED}))
        raise


# --- one user's record, the users list, player contact -----------------------------------------


def _visible(status: str) -> dict[str, bool]:
    """Which field groups a viewer of display status ``status`` sees."""
    return {"show_address": status in (Role.SVL.value, Role.ADMIN.value), "show_player": status != Role.SVL.value}


def _record(user: User) -> dict:
    return {
        "id": user.id,
        "username": user.username,
        "email": user.email,
        "first_name": user.first_name,
        "last_name": user.last_name,
        "gender": user.gender.value if user.gender else "",
        "address": user.address or "",
        "city": user.city or "",
        "region": user.region.value if user.region else "",
        "sub": user.sub,
        "hitter": user.hitter_skill_level.value if user.hitter_skill_level else "",
        "passer": user.passer_skill_level.value if user.passer_skill_level else "",
        "setter": user.setter_skill_level.value if user.setter_skill_level else "",
        "roles": list(user.roles),
        "active": user.active,
        "time_zone": user.time_zone if Role.SVL.value in user.roles else "",
    }


def _project(user: User, status: str) -> dict:
    """The record with the fields a viewer of ``status`` may not see blanked."""
    rec = _record(user) | _visible(status)
    if not rec["show_address"]:
        rec["address"] = rec["city"] = ""
    if not rec["show_player"]:
        rec.update(last_name="", gender="", sub=False, hitter="", passer="", setter="")
    return rec


def my_info(db: Session, actor: Actor | None) -> dict:
    """The actor's own record, fields per their display status."""
    actor = require_actor(actor)
    return _project(access_user(db, actor, actor.user_id), actor.status)


def edit_form(db: Session, actor: Actor | None, user_id: object) -> dict:
    """What the edit form of ``user_id`` starts with: own record for everyone, any for admins."""
    actor = require_actor(actor)
    user = access_user(db, actor, user_id)
    rec = _project(user, actor.status)
    rec["is_admin_view"] = actor.is_admin
    rec["last_name_locked"] = actor.is_admin and user.id != actor.user_id
    rec["own_account"] = user.id == actor.user_id
    # A venue's (SVL's) time zone: edited by the venue itself and by admins (the only ones who reach its record).
    rec["show_time_zone"] = Role.SVL.value in user.roles
    rec["time_zones"] = venues.zone_choices(user.time_zone) if rec["show_time_zone"] else []
    return rec


def _optional_text(value: object, field: str, label: str, max_length: int) -> str | None:
    return validation.optional(value, field, label, max_length) or None


CURRENT_PASSWORD_REQUIRED = "Enter your current password to choose a new one"  # noqa: S105 - a message
CURRENT_PASSWORD_WRONG = "The current password is not right"  # noqa: S105 - a message


def _current_password(value: object, user: User) -> None:
    if not isinstance(value, str) or not value:
        raise Invalid({"current_password": CURRENT_PASSWORD_REQUIRED})
    if len(value) > 1000 or not passwords.verify_password(value, user.password_hash):
        raise Invalid({"current_password": CURRENT_PASSWORD_WRONG})


def update_user(
    db: Session,
    actor: Actor | None,
    user_id: object,
    *,
    username: object,
    email: object,
    first_name: object,
    region: object,
    password: object = "",
    current_password: object = "",
    last_name: object = None,
    gender: object = None,
    address: object = None,
    city: object = None,
    sub: object = None,
    hitter: object = None,
    passer: object = None,
    setter: object = None,
    roles: object = None,
    active: object = None,
    time_zone: object = None,
    zone_confirmed: object = None,
) -> None:
    """Save an edit of ``user_id`` (spec section 5, Edit user). Fields the actor does not see are left alone.

    A new password for one's own account needs the current one; it then ends every other
    session of the account (this one stays). An admin's new password for someone else ends
    all of theirs. An admin's edit of any account is in the audit log (roles, active, names; a
    new password only as such). A venue's (SVL's) time zone (``time_zone``, an IANA name; None keeps it) is
    changed by the venue or an admin, and is in the audit log whoever changes it. While the venue has games,
    leagues or sessions to come, a new zone is saved only with ``zone_confirmed`` true: until then the edit is
    refused with the question of what moves (``venues.zone_change_question``) under ``time_zone_confirm``.
    """
    actor = require_actor(actor)
    user = access_user(db, actor, user_id)
    assert user.id is not None  # a stored user
    before = audit.snapshot(user, USER_AUDIT_FIELDS) | {"password": ""}
    seen = _visible(actor.status)
    checks: dict = {
        "username": (validation.username, username),
        "email": (validation.email, email),
        "first_name": (validation.name, first_name, "first_name", "First name"),
        "region": (validation.region, region),
    }
    if isinstance(password, str) and password != "":
        checks["password"] = (validation.password, password)
        if user.id == actor.user_id:
            checks["current_password"] = (_current_password, current_password, user)
    lock_last = actor.is_admin and user.id != actor.user_id
    if seen["show_player"] and not lock_last:
        checks["last_name"] = (validation.name, last_name, "last_name", "Last name")
    if seen["show_player"]:
        checks["gender"] = (validation.optional_choice, gender, Gender, "gender", "gender")
        for name, value in (("hitter", hitter), ("passer", passer), ("setter", setter)):
            checks[name] = (validation.optional_choice, value, Rating, name, "rating")
    if seen["show_address"]:
        checks["address"] = (_optional_text, address, "address", "Address", 200)
        checks["city"] = (_optional_text, city, "city", "City", 100)
    if Role.SVL.value in user.roles and time_zone is not None:
        checks["time_zone"] = (venues.check_zone, time_zone)
    new_roles: list[str] | None = None
    errors: dict[str, str] = {}
    if actor.is_admin and roles is not None:
        picked = roles if isinstance(roles, list | tuple) else []
        try:
            new_roles = sorted({Role(r).value for r in picked})
        except ValueError:
            new_roles = []
        if not new_roles:
            errors["roles"] = "Choose at least one role"
        elif user.id == actor.user_id and Role.ADMIN.value not in new_roles:
            errors["roles"] = "You cannot remove your own Admin role"
    try:
        clean = validation.collect(**checks)
    except Invalid as exc:
        errors.update(exc.errors)
        clean = {}
    if not errors:
        errors = _taken(db, clean["username"], clean["email"], other_than=user.id)
    if not errors and "time_zone" in clean and zone_confirmed is not True and (
        question := venues.zone_change_question(db, user.id, user.time_zone, clean["time_zone"])
    ):
        errors = {venues.ZONE_CONFIRM: question}
    if errors:
        raise Invalid(errors)
    user.username = clean["username"]
    user.email = clean["email"]
    user.first_name = clean["first_name"]
    user.region = clean["region"]
    if "last_name" in clean:
        user.last_name = clean["last_name"]
    if seen["show_player"]:
        user.gender = clean["gender"]
        user.sub = bool(sub) if isinstance(sub, bool) else str(sub).lower() in ("true", "on", "1")
        user.hitter_skill_level, user.passer_skill_level = clean["hitter"], clean["passer"]
        user.setter_skill_level = clean["setter"]
    if seen["show_address"]:
        user.address, user.city = clean["address"], clean["city"]
    if "time_zone" in clean:
        user.time_zone = clean["time_zone"]
    if new_roles is not None:
        user.roles = new_roles
    if actor.is_admin and isinstance(active, bool) and user.id != actor.user_id:
        user.active = active
    password_changed = "password" in clean
    if password_changed:
        user.password_hash = passwords.hash_password(clean["password"])
    user.updated_at = utcnow()
    db.add(user)
    try:
        db.flush()
    except IntegrityError:
        db.rollback()
        raise Conflict({"username": REGISTERED}) from None
    if password_changed:
        keep = actor.session_id if user.id == actor.user_id else None
        auth.revoke_all_sessions(db, user.id, except_session=keep)
    if actor.is_admin or user.time_zone != before["time_zone"]:
        audit.record_change(db, actor, entity="user", row=user, before=before, fields=USER_AUDIT_FIELDS,
                            summary=f"Account {user.username} changed", subject_user_id=user.id,
                            extra={"password": "changed" if password_changed else ""})  # fmt: skip
    log.info("user %s updated by user %s", user.id, actor.user_id)


USER_AUDIT_FIELDS = ("username", "email", "first_name", "last_name", "roles", "active", "sub", "time_zone")


def can_create_svl(actor: Actor | None) -> bool:
    """Whether the actor may open SVL accounts (admins only): the rule ``create_svl`` enforces."""
    return actor is not None and actor.is_admin


def new_svl_form(db: Session, actor: Actor | None) -> dict:
    """What Create New SVL starts with (admin only): the roles ticked at first."""
    require_admin(actor)
    return {"roles": [Role.SVL.value]}


# The orders of the users list: by username (the default), by name (last, then first), newest first.
USER_ORDERS = {
    "username": paging.Order((User.username, User.id), (str, int)),
    "name": paging.Order((User.last_name, User.first_name, User.id), (str, str, int)),
    "newest": paging.Order((col(User.created_at).desc(), col(User.id).desc()), (dt.datetime, int)),
}


def list_users(
    db: Session, actor: Actor | None, *, filters: dict | None = None, bookmark: object = "", size: object = paging.PAGE_SIZE,
    sort: object = "",
) -> paging.Page:
    """One page of the users: id, username, name and roles (admin only), in one of ``USER_ORDERS`` (``sort``).

    ``filters``: ``q`` matches the username, the first or last name, or the email address.
    """
    require_admin(actor)
    order = paging.sort_order(sort, USER_ORDERS)
    f = filters if isinstance(filters, dict) else {}
    where: list[sa.ColumnElement[bool]] = [col(User.archived_at).is_(None)]
    if text := paging.search_text(f.get("q")):
        where.append(paging.contains(text, col(User.username), col(User.first_name), col(User.last_name), col(User.email)))
    query = (
        sa.select(col(User.id), col(User.username), col(User.first_name), col(User.last_name), col(User.roles))
        .where(*where)
        .order_by(*order.columns)
    )

    def project(found: list) -> list[dict]:
        return [
            {"id": uid, "username": name, "name": f"{first} {last}".strip(), "roles": ", ".join(roles)}
            for uid, name, first, last, roles in found
        ]

    return paging.keyset(db, query, kinds=order.kinds, project=project, bookmark=bookmark, size=paging.page_size(size))


def create_svl(
    db: Session,
    actor: Actor | None,
    *,
    username: object,
    password: object,
    first_name: object,
    email: object,
    region: object,
    roles: object = None,
) -> int:
    """Create an SVL account (admin only; spec section 5, Create SVL). Returns the new id."""
    require_admin(actor)

    errors: dict[str, str] = {}
    picked = roles if isinstance(roles, list | tuple) and roles else [Role.SVL.value]
    try:
        clean_roles = sorted({Role(r).value for r in picked})
    except ValueError:
        clean_roles = []
        errors["roles"] = "Choose at least one role"
    try:
        clean = validation.collect(
            username=(validation.svl_username, username),
            password=(validation.short_password, password),
            first_name=(validation.name, first_name, "first_name", "Name"),
            email=(validation.email, email),
            region=(validation.region, region),
        )
    except Invalid as exc:
        errors.update(exc.errors)
        clean = {}
    if not errors and (taken := _taken(db, clean["username"], clean["email"])):
        raise Conflict(taken)
    if errors:
        raise Invalid(errors)
    user = _add_user(db, clean, clean_roles)
    audit.record(db, actor, action="create", entity="user", entity_id=user.id, subject_user_id=user.id,
                 summary=f"Account {user.username} created ({', '.join(user.roles)})",
                 after=audit.snapshot(user, USER_AUDIT_FIELDS))  # fmt: skip
    log.info("SVL account %s created by admin %s", user.id, require_actor(actor).user_id)
    assert user.id is not None  # flushed
    return user.id


def player_contact(db: Session, actor: Actor | None, *, message: object) -> None:
    """A logged-in user's message to the provider, through the outbox."""
    actor = require_actor(actor)
    text = validation.text(message, "message", "Message", MESSAGE_MAX)
    user = access_user(db, actor, actor.user_id)
    mail.queue_email(
        db, "player_contact", {"username": user.username, "first_name": user.first_name, "last_name": user.last_name,
                               "status": display_status(user.roles), "email": user.email, "message": text},
        to=get_settings().provider_email, reply_to=user.email,
    )  # fmt: skip


def is_sub(db: Session, actor: Actor | None) -> bool:
    """Whether the actor is signed up as an active sub ('Edit My Sub Info' or 'Become a Sub')."""
    actor = require_actor(actor)
    user = db.get(User, actor.user_id)
    return bool(user and user.sub)


# --- the profile page ---------------------------------------------------------------------------

# (label, where it goes, who sees it by display status; "operator": an admin or an SVL).
_PROFILE_LINKS = (
    ("Notifications", routes.MY_SUB_REQUESTS, "not_svl"),
    ("New Newsletter", routes.NEWSLETTER_SETUP, "admin"),
    ("Create Sub Request", routes.SUB_REQUEST_NEW, "not_svl"),
    ("All Open Sub Requests", routes.SUB_REQUESTS, "admin"),
    ("Add Session", routes.SESSIONS_NEW, "operator"),
    ("All Sessions", routes.SESSIONS, "admin"),
    ("My Sessions", routes.SESSIONS, "svl"),
    ("Revenue", routes.REVENUE, "operator"),
    ("Discounts", routes.DISCOUNTS, "operator"),
    ("All Leagues", routes.DASH_LEAGUES, "admin"),
    ("All Users", routes.USERS, "admin"),
    ("Create New SVL", routes.USERS_NEW, "admin"),
    ("Email All Users", routes.EMAIL_ALL, "admin"),
    ("Inquiries", routes.INQUIRIES, "admin"),
    ("Audit Log", routes.AUDIT_LOG, "admin"),
    ("Archive", routes.ARCHIVE, "admin"),
    ("My Info", routes.PLAYER_INFO, "everyone"),
    ("Contact Us", routes.PLAYER_CONTACT, "not_admin"),
)


def profile_links(db: Session, actor: Actor | None) -> list[dict[str, str]]:
    """The links the profile page offers the actor, by their display status (spec section 4), in page order."""
    status = require_actor(actor).status
    admin, svl = status == Role.ADMIN.value, status == Role.SVL.value
    shown = {
        "everyone": True,
        "admin": admin,
        "svl": svl,
        "operator": admin or svl,
        "not_svl": not svl,
        "not_admin": not admin,
    }
    return [{"label": label, "href": href} for label, href, who in _PROFILE_LINKS if shown[who]]


# --- loading a user by id -------------------------------------------------------------------------

USER_NOT_FOUND = "User not found"


def access_user(db: Session, actor: Actor | None, user_id: object) -> User:
    """The user ``user_id`` when the actor may see and change them: themselves, or anyone for an admin.

    Raises:
        Unauthorized: nobody is logged in.
        Forbidden: another user's record and the actor is not an admin (said before whether it exists).
        NotFound: no such user.
    """
    actor = require_actor(actor)
    uid = record_id(user_id, USER_NOT_FOUND)
    if uid != actor.user_id and not actor.is_admin:
        raise Forbidden()
    return load(db, User, uid, USER_NOT_FOUND)
