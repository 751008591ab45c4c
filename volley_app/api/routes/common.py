"""What every route module shares: the acting user, ids in answers, paged lists, documented errors."""

from __future__ import annotations

import dataclasses
import enum
import types
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Annotated, Any

from fastapi import Depends, Query, Request, Response
from pydantic import (
    AliasChoices,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    JsonValue,
    WithJsonSchema,
    model_validator,
)
from pydantic.json_schema import JsonDict
from typing_extensions import TypedDict

from volley_app import db
from volley_app.api.deps import current_actor
from volley_app.services.core import errors, paging
from volley_app.services.core.actors import Actor, require_actor
from volley_app.services.money import payments

PREFIX = "/api"
TOTAL_HEADER = "X-Total-Count"  # the rows counted, up to paging.COUNT_CAP (1000)
CAPPED_HEADER = "X-Total-Capped"  # "true" when the list has more rows than X-Total-Count says
NEXT_HEADER = "X-Next-Page"
PREVIOUS_HEADER = "X-Previous-Page"

# Who a route is for: the permission matrix in the tests reads this from each route.
ANYONE = "anyone"
LOGGED_IN = "logged-in"
PLAYER = "player"
OPERATOR = "svl"  # an SVL or an admin
ADMIN = "admin"


class Body(BaseModel):
    """A request body. A JSON number that is whole (``2.0``) is the integer it is, as JSON Schema counts it."""

    @model_validator(mode="before")
    @classmethod
    def _whole_numbers(cls, data: object) -> object:
        if not isinstance(data, dict):
            return data
        return {k: int(v) if isinstance(v, float) and v.is_integer() and abs(v) < 2**63 else v for k, v in data.items()}


# A body field as it arrives: any JSON value. The service it goes to reads it and names every field that is not
# what it takes, all at once and in the words of spec section 5; each field's schema says what it takes.
Received = Annotated[str | int | float | bool | list[object] | dict[str, object] | None, WithJsonSchema({})]


def only(kinds: type | types.UnionType, field: str, message: str) -> BeforeValidator:
    """A field's check of its JSON type: anything else is refused in words, as the services refuse a field (422)."""

    def check(value: object) -> object:
        if not isinstance(value, kinds):
            raise errors.Invalid({field: message})
        return value

    return BeforeValidator(check)


class Message(BaseModel):
    message: str


class Invalid(BaseModel):
    message: str
    errors: dict[str, str]


ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": Message, "description": "No access token was sent",
          "content": {"application/json": {"example": {"message": "Unauthorized"}}}},
    403: {"model": Message, "description": "Not allowed, or the access token is invalid or expired (refresh and retry once)",
          "content": {"application/json": {"example": {"message": "No access"}}}},
    404: {"model": Message, "description": "No such object",
          "content": {"application/json": {"example": {"message": "Not found"}}}},
    422: {"model": Invalid, "description": "A field is not valid: its message by the field's name",
          "content": {"application/json": {"example": {"message": "Team is required",
                                                       "errors": {"team": "Team is required"}}}}},
    429: {"model": Message, "description": "Too many tries lately",
          "content": {"application/json": {"example": {"message": "Too many tries. Please wait a minute."}}}},
}  # fmt: skip
PUBLIC_ERRORS: dict[int | str, dict[str, Any]] = {k: ERRORS[k] for k in (404, 422, 429)}
CONFLICT = {"model": Invalid, "description": "Well formed, but it clashes with what is stored (a username taken)",
            "content": {"application/json": {"example": {"message": "That username or email is already registered",
                                                         "errors": {"username": "That username or email is already "
                                                                                "registered"}}}}}  # fmt: skip
CARD_SERVICE_SLOW = {"model": Message, "description": "The card service did not answer in time: nothing was charged",
                     "content": {"application/json": {"example": {"message": payments.PROVIDER_SLOW}}}}  # fmt: skip


# --- what a body's fields take, as the services check them (spec section 5) ------------------------------------
# Characters no one-line field takes (controls, line and paragraph separators, the bidirectional overrides, BOM);
# a message also takes tabs and line breaks.
_REFUSED = r"\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff"
_REFUSED_IN_MESSAGE = r"\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff"
_ENDS = rf"[^\s{_REFUSED}]"


def text(max_length: int = 100, *, message: bool = False, optional: bool = False, **more: JsonValue) -> JsonDict:
    """A text field: plain text of at most ``max_length`` characters (``message``: lines too), not blank unless
    ``optional``; no leading or trailing space (the server trims it)."""
    inner = _REFUSED_IN_MESSAGE if message else _REFUSED
    body = rf"{_ENDS}([^{inner}]*{_ENDS})?"
    pattern = rf"^({body})?$" if optional else rf"^{body}$"
    return {"type": "string", "maxLength": max_length, **({} if optional else {"minLength": 1}), "pattern": pattern,
            **more}  # fmt: skip


def one_of(values: Iterable[str | enum.Enum], **more: JsonValue) -> JsonDict:
    return {"type": "string", "enum": [v.value if isinstance(v, enum.Enum) else v for v in values], **more}


def integer(low: int, high: int, **more: JsonValue) -> JsonDict:
    return {"type": "integer", "minimum": low, "maximum": high, **more}


IDENTIFIER: JsonDict = {"type": "integer", "minimum": 1, "maximum": 2**31 - 1}
BOOLEAN: JsonDict = {"type": "boolean"}
EMAIL: JsonDict = {"type": "string", "maxLength": 254, "examples": ["pat@example.com"],
                   "pattern": r"^[a-z0-9]{1,20}([._+-][a-z0-9]{1,20}){0,2}@([a-z0-9]{1,20}(-[a-z0-9]{1,20})?\.){1,3}(com|org|net|us)$"}  # fmt: skip
# A venue's wall-clock time from a date-time input; the dates the server takes are in the future, up to 2100.
def local_time(years: str = "20[3-9][0-9]", **more: JsonValue) -> JsonDict:
    """A date-time input's value in a year that ``years`` matches."""
    return {"type": "string", "examples": ["2031-01-06T18:30"],
            "pattern": rf"^{years}-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])T([01][0-9]|2[0-3]):[0-5][0-9]$", **more}


LOCAL_TIME = local_time()


# Signup and Create SVL both take these (a username of letters, a password of the shorter set); signup takes more.
USERNAME: JsonDict = {"type": "string", "pattern": r"^[a-z]{3,20}$", "examples": ["newplayer"],
            "description": "A signup takes 3-50 letters, digits or . ! @ # $ % ^ _ + { } : ; \" ' < > / ? ~ ` & * ( ) -; "
                           "an SVL account 3-20 letters"}  # fmt: skip
PASSWORD: JsonDict = {"type": "string", "pattern": r"^[A-Za-z0-9!@#$%]{4,100}$", "examples": ["pass1"],
            "description": "4-100 characters (a signup takes the username's symbols too)"}  # fmt: skip
ROLES: JsonDict = {"type": "array", "items": {"type": "string", "enum": ["Player", "SVL", "Admin"]}, "minItems": 1,
         "uniqueItems": True}  # fmt: skip


def required(*names: str) -> Callable[[JsonDict], None]:
    """A model's ``json_schema_extra``: the fields a body must have, by the names the body uses."""

    def add(doc: JsonDict) -> None:
        doc["required"] = list(names)

    return add


@dataclasses.dataclass(frozen=True)
class Route:
    """One row of the route table: how it is called and who may call it."""

    method: str
    path: str
    access: str
    summary: str


def access(level: str) -> dict[str, Any]:
    """The ``openapi_extra`` naming who a route is for (read back into the route table)."""
    return {"x-access": level}


def acting(actor: Actor | None = Depends(current_actor)) -> Actor:
    """The logged-in caller (401 without a token, 403 with a bad one)."""
    return require_actor(actor)


class Deletion(Body):
    """The object a DELETE names, by ``id`` (or the spec's ``_id``)."""

    model_config = ConfigDict(json_schema_extra=required("id"))

    id: Received = Field(None, validation_alias=AliasChoices("id", "_id"), examples=[5], json_schema_extra=IDENTIFIER)


# A DELETE's answer: the id it named, as sent; ``message`` says what became of the object (deleted, or archived).
class Removed(TypedDict):
    id: Received
    _id: Received


class Deleted(Removed):
    message: str


def removed(object_id: Received) -> Removed:
    return {"id": object_id, "_id": object_id}


def deleted(object_id: Received, outcome: str) -> Deleted:
    return {"id": object_id, "_id": object_id, "message": outcome}


# A row of an answer, by the names the spec's clients read.
Row = dict[str, object]


def with_ids(row: Mapping[str, object]) -> Row:
    """A row as the spec's clients read it: ``_id`` beside ``id``, names in camelCase."""
    out = {camel(k): v for k, v in row.items()}
    if "id" in out:
        out["_id"] = out["id"]
    return out


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


def list_params(request: Request) -> dict[str, str]:
    """``page`` (the bookmark of X-Next-Page), ``search`` and ``size`` of a paged list."""
    q = request.query_params
    return {"bookmark": q.get("page", ""), "search": q.get("search", q.get("q", "")), "size": q.get("size", "")}


def sort_query(orders: Mapping[str, object]) -> Any:
    """The ``sort`` query parameter of a paged list: one of ``orders`` by name (blank: the first)."""
    names = list(orders)
    return Query(names[0], description=f"The order: {', '.join(names)} (default {names[0]}); any other is refused (422)",
                 json_schema_extra={"enum": names})  # fmt: skip


def paged(response: Response, found: paging.Page, project: Callable[[Mapping[str, object]], Row] = with_ids) -> list[Row]:
    response.headers[TOTAL_HEADER] = str(found.total)
    if found.capped:
        response.headers[CAPPED_HEADER] = "true"
    if found.next:
        response.headers[NEXT_HEADER] = found.next
    if found.previous:
        response.headers[PREVIOUS_HEADER] = found.previous
    return [project(r) for r in found.rows]


def whole(
    response: Response, rows: Sequence[Mapping[str, object]], project: Callable[[Mapping[str, object]], Row] = with_ids
) -> list[Row]:
    """A list the service answers whole (it is small: one league's teams or games)."""
    response.headers[TOTAL_HEADER] = str(len(rows))
    return [project(r) for r in rows]


def body_id(body: Mapping[str, object]) -> object:
    """The id of the object a PATCH or DELETE body names (``id`` or the spec's ``_id``)."""
    return body.get("id", body.get("_id"))


call = db.call
