"""/notes (sub requests), the spec's notice calls (/acceptedRequest, /declinedRequest, /receivedRequest) and a sub's
"I can't make it" (/withdrawnRequest).

The notice calls never carry a message: the server checks the caller is the party of that request
and composes the email itself (addresses in the body are not used).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from fastapi import APIRouter, Depends, Request, Response
from pydantic import AliasChoices, BaseModel, ConfigDict, Field
from sqlmodel import Session
from typing_extensions import TypedDict

from volley_app.api.routes import common
from volley_app.models import GenderNeeded, Position, Rating, SkillLevel, SubFormat, SubStatus
from volley_app.services.core.actors import Actor
from volley_app.services.core.errors import Invalid
from volley_app.services.operations import game_requests
from volley_app.services.subs import answers, request_changes, request_lists, request_replies
from volley_app.services.subs.access import SUB_REQUEST_NOT_FOUND

router = APIRouter(prefix=common.PREFIX, tags=["sub requests"])
ID = Field(None, validation_alias=AliasChoices("id", "_id", "requestId"), examples=[9], json_schema_extra=common.IDENTIFIER)
NOTE_REQUIRED = ("team", "date", "svl", "skillLevel", "format")


class Note(common.Body):
    """A new sub request (the details of spec section 5 and what the team needs)."""

    model_config = ConfigDict(populate_by_name=True, json_schema_extra=common.required(*NOTE_REQUIRED))

    id: common.Received = ID
    team: common.Received = Field(None, examples=["Net Results"], json_schema_extra=common.text(100))
    date: common.Received = Field(None, description="The venue's time, in the future", json_schema_extra=common.LOCAL_TIME)
    svl: common.Received = Field(None, examples=["Downtown Gym"], description="Where: the location", json_schema_extra=common.text(200))
    court: common.Received = Field(None, examples=["2"], json_schema_extra=common.text(50, optional=True))
    skill_level: common.Received = Field(None, alias="skillLevel", examples=["B"], json_schema_extra=common.one_of(SkillLevel))
    format: common.Received = Field(None, examples=["6s"], json_schema_extra=common.one_of(SubFormat))
    text: common.Received = Field(None, examples=["We need a setter"], json_schema_extra=common.text(2000, message=True, optional=True))
    players_needed: common.Received = Field(None, alias="playersNeeded", examples=[1],
                                description="How many subs the team needs, 1 to 4 (default 1); one place per accept",
                                json_schema_extra=common.integer(1, 4))  # fmt: skip
    position_needed: common.Received = Field(None, alias="positionNeeded", examples=["Setter"],
                                 description="Any, Hitter, Passer or Setter (default Any)",
                                 json_schema_extra={"enum": [None, *(p.value for p in Position)]})
    gender_needed: common.Received = Field(None, alias="genderNeeded", examples=["Female"],
                               description="Any, Male or Female (default Any)",
                               json_schema_extra={"enum": [None, *(g.value for g in GenderNeeded)]})
    min_rating: common.Received = Field(None, alias="minRating", examples=["B"],
                            description="The lowest rating at the position needed: A, B, C or D (empty: any rating)",
                            json_schema_extra={"enum": [None, "", *(r.value for r in Rating)]})
    recipient: common.Received = Field(None, examples=["Anyone"],
                           description="'Anyone' (or left out): open to every sub; a sub's username (or user id): a "
                                       "request made to that sub, who is emailed",
                           json_schema_extra={"type": "string", "enum": ["Anyone"]})  # fmt: skip
    status: common.Received = Field(None, description="PATCH: Accepted or Declined (the sub's answer), Open (reopen)",
                        json_schema_extra={"enum": [None, "", *(s.value for s in SubStatus)]})  # fmt: skip
    requestor: common.Received = Field(None, description="Ignored: the caller is the requestor")
    requestor_email: common.Received = Field(None, alias="requestorEmail", description="Ignored")
    recipient_email: common.Received = Field(None, alias="recipientEmail", description="Ignored")
    completed: common.Received = Field(None, description="Ignored: a request completes when its date passes")
    places_filled: common.Received = Field(None, alias="placesFilled", description="Ignored: each accept takes one place")


class NoteEdit(Note):
    """A sub request changed by its requestor (fields left out keep their values), or a sub's answer (``status``)."""

    model_config = ConfigDict(populate_by_name=True, json_schema_extra=common.required("id"))


def _notice_schema(doc: dict) -> None:
    doc["anyOf"] = [{"required": ["id"]}, {"required": ["date", "svl"]}]


class Notice(common.Body):
    """Which request a notice is about: its ``id``, or as the spec's client says it, its ``date`` and ``svl``
    (with ``team`` when sent). The caller is the one whose token it is; addresses and names are never used."""

    model_config = ConfigDict(populate_by_name=True, json_schema_extra=_notice_schema)

    id: common.Received = ID
    date: common.Received = Field(None, examples=["2031-01-06T19:00"],
                      description="Without id: the request's date and time (ISO, with or without offset, or the long "
                                  "text of the emails), or milliseconds since 1970",
                      json_schema_extra={"anyOf": [{"type": "string", "maxLength": 100}, {"type": "integer"}]})  # fmt: skip
    svl: common.Received = Field(None, examples=["Downtown Gym"], description="Without id: the request's location",
                     json_schema_extra=common.text(200))  # fmt: skip
    team: common.Received = Field(None, description="Without id: the request's team (narrows the match when sent)",
                      json_schema_extra=common.text(100))  # fmt: skip
    requestor_email: common.Received = Field(None, alias="requestorEmail", description="Ignored: the server knows the requestor")
    recipient_email: common.Received = Field(None, alias="recipientEmail", description="Ignored")
    recipient: common.Received = Field(None, description="Ignored: the caller is the sub")
    requestor: common.Received = Field(None, description="Ignored: the server knows the requestor")
    court: common.Received = Field(None, description="Ignored")
    skill_level: common.Received = Field(None, alias="skillLevel", description="Ignored")
    format: common.Received = Field(None, description="Ignored")
    text: common.Received = Field(None, description="Ignored")


class NoteDeletion(common.Body):
    model_config = ConfigDict(json_schema_extra=common.required("id"))

    id: common.Received = ID


class Withdrawal(common.Body):
    """The request whose place the caller gives up ("I can't make it"), by its ``id``."""

    model_config = ConfigDict(populate_by_name=True, json_schema_extra=common.required("id"))

    id: common.Received = ID


class Answered(TypedDict):
    status: Literal["Success"]
    result: str


class Withdrawn(BaseModel):
    status: Literal["Success"] = Field(examples=["Success"])
    result: Literal["withdrawn"] = Field(examples=["withdrawn"], description="The place was given up")


DETAILS = ("team", "date", "svl", "court", "skill_level", "format", "text")
NEEDS = request_changes.NEEDS  # on a change, a need the body leaves out stays as it is


def _note(row: Mapping[str, object]) -> common.Row:
    out = common.with_ids({k: v for k, v in row.items() if k != "local_input"})
    out["date"] = row.get("date")
    return out


@router.get("/notes", openapi_extra=common.access(common.LOGGED_IN), responses={401: common.ERRORS[401], 403: common.ERRORS[403],
                                                                   422: common.ERRORS[422]})  # fmt: skip
def list_notes(
    request: Request, response: Response, actor: Actor = Depends(common.acting),
    sort: str = common.sort_query(request_lists.REQUEST_ORDERS),
) -> list[common.Row]:
    """Open sub requests a page at a time (``view=mine``: those the caller made or was named on).
    ``search``, ``venue``, ``date_from``, ``date_to`` filter; ``sort`` by date, or latest first with ``-date``;
    total in X-Total-Count, next page in X-Next-Page."""
    q = request.query_params
    p = common.list_params(request)
    filters = {"q": p["search"], **{k: q.get(k, "") for k in ("venue", "date_from", "date_to")}}
    fn = request_lists.notifications if q.get("view") == "mine" else request_lists.list_open
    found = common.call(fn, actor, filters=filters, bookmark=p["bookmark"], size=p["size"], sort=sort)
    return common.paged(response, found, _note)


@router.get("/notes/{note_id}", openapi_extra=common.access(common.LOGGED_IN), responses={**common.ERRORS})
def get_note(note_id: str, actor: Actor = Depends(common.acting)) -> common.Row:
    return _note(common.call(request_lists.detail, actor, note_id))


@router.post("/notes", status_code=201, openapi_extra=common.access(common.LOGGED_IN), responses={**common.ERRORS})
def create_note(body: Note, actor: Actor = Depends(common.acting)) -> common.Row:
    """A sub request by the caller: to anyone, or with ``recipient`` to one sub (emailed an invitation).

    ``playersNeeded``, ``positionNeeded``, ``genderNeeded`` and ``minRating`` say what the team needs (left out:
    one player, anyone)."""
    details = {k: getattr(body, k) for k in (*DETAILS, *NEEDS)}
    new_id = common.call(request_changes.create, actor, recipient_id=body.recipient, **details)
    return _note(common.call(request_lists.detail, actor, new_id))


class ShortTeam(common.Body):
    """The team of the game that is short of players."""

    model_config = ConfigDict(json_schema_extra=common.required("team"))

    team: common.Received = Field(None, examples=[5], description="The team's id (the caller is its captain or a co-captain)",
                           json_schema_extra=common.IDENTIFIER)  # fmt: skip


@router.post("/games/{game_id}/subs", status_code=201, openapi_extra=common.access(common.LOGGED_IN), responses={**common.ERRORS})
def find_subs(game_id: str, body: ShortTeam, actor: Actor = Depends(common.acting)) -> common.Row:
    """A short team asks for the subs it lacks for game ``game_id``: a sub request filled in from the game (places:
    how many more players the format or the gender rule needs). The team's request for that game still open is
    returned when there is one."""
    new_id = common.call(game_requests.find_subs, actor, game_id=game_id, team_id=body.team)
    return _note(common.call(request_lists.detail, actor, new_id))


def _patch(db: Session, actor: Actor, body: NoteEdit) -> common.Row:
    status = body.status
    if status is not None and not isinstance(status, str):
        raise Invalid({"status": "Status must be Open, Accepted or Declined"})
    if status == SubStatus.ACCEPTED:
        request_replies.accept(db, actor, body.id)
    elif status == SubStatus.DECLINED:
        request_replies.decline(db, actor, body.id)
    elif status == SubStatus.OPEN and request_lists.detail(db, actor, body.id)["status"] == SubStatus.DECLINED:
        request_changes.reopen(db, actor, body.id, recipient_id=body.recipient)
    elif status in (None, "", SubStatus.OPEN):
        needs = {k: getattr(body, k) for k in NEEDS if k in body.model_fields_set}
        request_changes.update(db, actor, body.id, **{k: getattr(body, k) for k in DETAILS}, **needs)
    else:
        raise Invalid({"status": "Status must be Open, Accepted or Declined"})
    return _note(request_lists.detail(db, actor, body.id))


@router.patch("/notes", openapi_extra=common.access(common.LOGGED_IN), responses={**common.ERRORS})
def update_note(body: NoteEdit, actor: Actor = Depends(common.acting)) -> common.Row:
    """The requestor changes the details (or reopens a declined request with ``status`` Open); a sub answers
    with ``status`` Accepted or Declined (the requestor is emailed). A need (``playersNeeded``, ``positionNeeded``,
    ``genderNeeded``, ``minRating``) left out of the body stays as it was."""
    return common.call(_patch, actor, body)


@router.delete("/notes", openapi_extra=common.access(common.LOGGED_IN), responses={**common.ERRORS})
def delete_note(body: NoteDeletion, actor: Actor = Depends(common.acting)) -> common.Removed:
    """The requestor cancels a request (kept, and its sub told, when a sub is on it)."""
    common.call(request_changes.delete, actor, body.id)
    return common.removed(body.id)


def _named(db: Session, actor: Actor, body: Notice, kind: str) -> object:
    if body.id not in (None, ""):
        return body.id
    return answers.notice_request(db, actor, kind=kind, date=body.date, svl=body.svl, team=body.team)


def _answer(db: Session, actor: Actor, body: Notice, accepted: bool) -> str:
    named = _named(db, actor, body, "accepted" if accepted else "declined")
    return answers.answer_notice(db, actor, named, accepted=accepted)


def _invitation(db: Session, actor: Actor, body: Notice) -> str:
    return answers.invitation_notice(db, actor, _named(db, actor, body, "received"))


@router.post("/acceptedRequest", openapi_extra=common.access(common.LOGGED_IN), responses={**common.ERRORS})
def accepted_request(body: Notice, actor: Actor = Depends(common.acting)) -> Answered:
    """A sub accepts request ``id`` (or the one with that ``date`` and ``svl`` they may answer) and its requestor is
    emailed, once (again by the same sub: nothing is sent)."""
    return {"status": "Success", "result": common.call(_answer, actor, body, True)}


@router.post("/declinedRequest", openapi_extra=common.access(common.LOGGED_IN), responses={**common.ERRORS})
def declined_request(body: Notice, actor: Actor = Depends(common.acting)) -> Answered:
    """The named sub declines request ``id`` (or the one with that ``date`` and ``svl``) and its requestor is
    emailed, once."""
    return {"status": "Success", "result": common.call(_answer, actor, body, False)}


@router.post("/receivedRequest", openapi_extra=common.access(common.LOGGED_IN), responses={**common.ERRORS})
def received_request(body: Notice, actor: Actor = Depends(common.acting)) -> Answered:
    """The requestor of request ``id`` (or of the one with that ``date``, ``svl`` and ``team``) made to one sub:
    that sub's invitation is emailed when the request is made, so this confirms it and sends nothing again."""
    return {"status": "Success", "result": common.call(_invitation, actor, body)}


WITHDRAW_REFUSED: dict[int | str, dict[str, Any]] = {
    400: {"model": common.Message, "description": "The body is not JSON, or the game has started: a place can be given up "
                                           "only before it",
          "content": {"application/json": {"example": {"message": request_replies.STARTED}}}},
    403: {"model": common.Message, "description": "The caller holds no place on that request (its requestor, another user, a "
                                           "sub who gave theirs up already), is an SVL, or the access token is invalid "
                                           "or expired (refresh, then retry once)",
          "content": {"application/json": {"example": {"message": request_replies.NO_PLACE}}}},
    404: {"model": common.Message, "description": "No such sub request (or it was cancelled)",
          "content": {"application/json": {"example": {"message": SUB_REQUEST_NOT_FOUND}}}},
}  # fmt: skip


@router.post("/withdrawnRequest", openapi_extra=common.access(common.LOGGED_IN),
             responses={**common.ERRORS, **WITHDRAW_REFUSED})  # fmt: skip
def withdrawn_request(body: Withdrawal, actor: Actor = Depends(common.acting)) -> Withdrawn:
    """A sub who holds a place on request ``id`` gives it up before the game ("I can't make it"). The place reopens
    (to the next sub on the request's invite list, or to anyone) and the requestor is emailed. Only that sub may;
    once it is given up, calling again is refused (403) and changes nothing."""
    common.call(request_replies.withdraw, actor, body.id)
    return Withdrawn(status="Success", result="withdrawn")
