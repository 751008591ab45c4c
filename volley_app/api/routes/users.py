"""/users: signup (or an admin's new SVL), the users list, one user, edit, delete; /playerContact."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import JSONResponse
from pydantic import AliasChoices, BaseModel, ConfigDict, Field
from pydantic.json_schema import JsonDict
from sqlmodel import Session

from volley_app.api.deps import client_ip, current_actor
from volley_app.api.routes import auth as auth_routes
from volley_app.api.routes import common
from volley_app.models import REGIONS, Gender, Rating
from volley_app.services.accounts import accounts, auth, tokens
from volley_app.services.core import timefmt
from volley_app.services.core.actors import Actor, require_actor
from volley_app.services.operations import account_lifecycle

router = APIRouter(prefix=common.PREFIX, tags=["users"])


REGION = common.one_of(sorted(REGIONS), description="A US state's code (or DC)")
RATING: JsonDict = {"type": "string", "enum": ["", *(r.value for r in Rating)], "description": "A to D, or empty"}


class NewUser(common.Body):
    model_config = ConfigDict(populate_by_name=True, json_schema_extra=common.required(
        "username", "password", "email", "firstName", "lastName", "region"))  # fmt: skip

    username: common.Received = Field("", examples=["newplayer"], json_schema_extra=common.USERNAME)
    password: common.Received = Field("", examples=["pass1"], json_schema_extra=common.PASSWORD)
    email: common.Received = Field("", examples=["new.player@example.com"], json_schema_extra=common.EMAIL)
    first_name: common.Received = Field("", alias="firstName", examples=["New"], json_schema_extra=common.text(100))
    last_name: common.Received = Field("", alias="lastName", examples=["Player"], json_schema_extra=common.text(100))
    region: common.Received = Field("", examples=["KY"], json_schema_extra=REGION)
    roles: common.Received = Field(None, description="Only an admin's new account: SVL (and Admin) roles; ignored for a signup",
                       json_schema_extra=common.ROLES)  # fmt: skip


class UserEdit(common.Body):
    model_config = ConfigDict(populate_by_name=True, json_schema_extra=common.required("id"))

    id: common.Received = Field(None, validation_alias=AliasChoices("id", "_id"), examples=[7], json_schema_extra=common.IDENTIFIER)
    username: common.Received = Field(None, json_schema_extra=common.USERNAME)
    email: common.Received = Field(None, json_schema_extra=common.EMAIL)
    first_name: common.Received = Field(None, alias="firstName", json_schema_extra=common.text(100))
    last_name: common.Received = Field(None, alias="lastName", json_schema_extra=common.text(100))
    region: common.Received = Field(None, json_schema_extra=REGION)
    gender: common.Received = Field(None, json_schema_extra={"type": "string", "enum": ["", *(g.value for g in Gender)]})
    address: common.Received = Field(None, json_schema_extra=common.text(200, optional=True))
    city: common.Received = Field(None, json_schema_extra=common.text(100, optional=True))
    sub: common.Received = Field(None, json_schema_extra=common.BOOLEAN)
    hitter: common.Received = Field(None, alias="hitterSkillLevel", json_schema_extra=RATING)
    passer: common.Received = Field(None, alias="passerSkillLevel", json_schema_extra=RATING)
    setter: common.Received = Field(None, alias="setterSkillLevel", json_schema_extra=RATING)
    roles: common.Received = Field(None, description="Admins only", json_schema_extra=common.ROLES)
    active: common.Received = Field(None, description="Admins only", json_schema_extra=common.BOOLEAN)
    password: common.Received = Field("", description="Only when changed (one's own: with currentPassword)",
                          json_schema_extra=common.PASSWORD)  # fmt: skip
    current_password: common.Received = Field("", alias="currentPassword", description="Needed to change one's own password",
                                  json_schema_extra={"type": "string", "maxLength": 100})  # fmt: skip
    time_zone: common.Received = Field(None, alias="timeZone", description="A venue's (SVL's) IANA time zone",
                           json_schema_extra=common.one_of(timefmt.COMMON_ZONES))  # fmt: skip
    zone_confirmed: common.Received = Field(None, alias="zoneConfirmed", description="true: change the time zone although "
                                "it moves the clock time of the venue's games to come (else 422 says what moves)",
                                json_schema_extra=common.BOOLEAN)  # fmt: skip



class Me(BaseModel):
    id: int
    username: str
    roles: list[str]
    status: str
    firstName: str  # noqa: N815


class PlayerContact(common.Body):
    ERROR_NAMES: ClassVar[dict[str, str]] = {"message": "body"}
    model_config = ConfigDict(json_schema_extra=common.required("body"))

    body: common.Received = Field("", examples=["When does the next season start?"], json_schema_extra=common.text(5000, message=True))
    name: common.Received = Field("", description="Ignored: the server names the logged-in user")
    email: common.Received = Field("", description="Ignored: the server uses the logged-in user's address")


def _signup(db: Session, *, client: str, **form: common.Received) -> tokens.Tokens:
    user = accounts.register_player(db, client=client, **form)
    return tokens.issue(db, auth.actor_of(user))


@router.post("/users", status_code=201, openapi_extra=common.access(common.ANYONE),
             responses={201: {"description": "A signup: an access token (and the refresh cookie); an admin's new "
                                             "account: its id"}, **common.PUBLIC_ERRORS, 403: common.ERRORS[403],
                        409: common.CONFLICT})  # fmt: skip
def create_user(body: NewUser, request: Request, actor: Actor | None = Depends(current_actor)) -> JSONResponse:
    """Sign up as a Player (roles in the body are ignored), or, as an admin with ``roles``, create an SVL account."""
    form = body.model_dump(exclude={"roles"})
    if actor is not None and actor.is_admin and body.roles is not None:
        new_id = common.call(accounts.create_svl, actor, roles=body.roles,
                      **{k: form[k] for k in ("username", "password", "first_name", "email", "region")})  # fmt: skip
        return JSONResponse({"id": new_id, "_id": new_id}, status_code=201)
    result = common.call(_signup, client=client_ip(request), **form)
    return auth_routes._with_cookie(result, status=201)


@router.get("/users", openapi_extra=common.access(common.ADMIN), responses={401: common.ERRORS[401], 403: common.ERRORS[403],
                                                               422: common.ERRORS[422]})  # fmt: skip
def users(
    request: Request, response: Response, actor: Actor = Depends(common.acting), sort: str = common.sort_query(accounts.USER_ORDERS)
) -> list[common.Row]:
    """Every user, a page at a time (admins): ``search`` matches username, names, email; ``sort`` by username,
    name (last, first) or newest first; total in X-Total-Count."""
    p = common.list_params(request)
    found = common.call(accounts.list_users, actor, filters={"q": p["search"]}, bookmark=p["bookmark"], size=p["size"],
                 sort=sort)  # fmt: skip
    return common.paged(response, found, _listed)


def _listed(row: Mapping[str, object]) -> common.Row:
    """A row of the users list, its roles a list as everywhere else."""
    roles = row.get("roles", [])
    return common.with_ids({**row, "roles": roles.split(", ") if isinstance(roles, str) and roles else roles or []})


@router.get("/users/me", response_model=Me, openapi_extra=common.access(common.LOGGED_IN),
            responses={401: common.ERRORS[401], 403: common.ERRORS[403]})  # fmt: skip
def me(actor: Actor | None = Depends(current_actor)) -> Me:
    actor = require_actor(actor)
    return Me(id=actor.user_id, username=actor.username, roles=list(actor.roles), status=actor.status,
              firstName=actor.first_name)  # fmt: skip


@router.get("/users/{user_id}", openapi_extra=common.access(common.LOGGED_IN),
            responses={401: common.ERRORS[401], 403: common.ERRORS[403], 404: common.ERRORS[404]})  # fmt: skip
def user(user_id: str, actor: Actor = Depends(common.acting)) -> common.Row:
    """One account as its owner (or an admin) sees it."""
    return common.with_ids(common.call(accounts.edit_form, actor, user_id))


def _edit(db: Session, actor: Actor, body: dict) -> common.Row:
    uid = common.body_id(body)
    current = accounts.edit_form(db, actor, uid)
    fields = {k: v for k, v in body.items() if k not in ("id", "_id") and v is not None}
    for name in ("username", "email", "first_name", "region", "last_name", "gender", "address", "city", "sub",
                 "hitter", "passer", "setter"):  # fmt: skip
        fields.setdefault(name, current[name])
    accounts.update_user(db, actor, uid, **fields)
    return accounts.edit_form(db, actor, uid)


@router.patch("/users", openapi_extra=common.access(common.LOGGED_IN), responses={**common.ERRORS, 409: common.CONFLICT})
def edit_user(body: UserEdit, actor: Actor = Depends(common.acting)) -> common.Row:
    """Change one's own account (an admin: anyone's). Fields left out keep their values; roles and active are
    an admin's; a new password of one's own needs ``currentPassword`` and ends the other logins."""
    return common.with_ids(common.call(_edit, actor, body.model_dump()))


@router.delete("/users", openapi_extra=common.access(common.LOGGED_IN), responses={**common.ERRORS})
def delete_user(body: common.Deletion, actor: Actor = Depends(common.acting)) -> common.Removed:
    """Delete one's own account (an admin: anyone's); one with history is archived instead. Its logins end."""
    common.call(account_lifecycle.delete_user, actor, body.id)
    return common.removed(body.id)


@router.post("/playerContact", openapi_extra=common.access(common.LOGGED_IN), responses={**common.ERRORS},
             response_model=common.Message)  # fmt: skip
def player_contact(body: PlayerContact, actor: Actor = Depends(common.acting)) -> common.Message:
    """A logged-in user's message to the provider; the server names the sender (name and email are not trusted)."""
    common.call(accounts.player_contact, actor, message=body.body)
    return common.Message(message="Received")
