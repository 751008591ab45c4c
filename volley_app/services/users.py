"""Creating accounts. Signup, the create-admin command and the demo seed all come through here."""

from __future__ import annotations

import logging
from collections.abc import Iterable

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from volley_app.models import Role, User
from volley_app.services import passwords, validation
from volley_app.services.errors import Invalid

log = logging.getLogger(__name__)


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
    errors = {}
    if db.exec(select(User.id).where(User.username == clean["username"])).first():
        errors["username"] = "That username is taken"
    if db.exec(select(User.id).where(User.email == clean["email"])).first():
        errors["email"] = "An account with this email already exists"
    if errors:
        raise Invalid(errors)
    user = User(
        username=clean["username"],
        password_hash=passwords.hash_password(clean["password"]),
        roles=sorted({Role(r).value for r in roles}),
        email=clean["email"],
        first_name=clean["first_name"],
        last_name=clean["last_name"],
        region=clean["region"],
        **profile,
    )
    db.add(user)
    try:
        db.flush()
    except IntegrityError:  # the same username or email, registered a moment ago
        db.rollback()
        raise Invalid({"username": "That username or email is already registered"}) from None
    log.info("user created id=%s roles=%s", user.id, user.roles)
    return user
