"""/leagues/{id}/waiver: a league's waiver (read it, its operator posts a new version) and its signatures (a member
signs, the operator lists them)."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request, Response
from pydantic import ConfigDict, Field

from volley_app.api.deps import client_ip
from volley_app.api.routes.common import (
    BOOLEAN,
    ERRORS,
    IDENTIFIER,
    LOGGED_IN,
    OPERATOR,
    PREFIX,
    Body,
    Received,
    Row,
    access,
    acting,
    call,
    list_params,
    paged,
    required,
    text,
    with_ids,  # fmt: skip
)
from volley_app.services.core.actors import Actor
from volley_app.services.core.errors import NotFound
from volley_app.services.teams import waivers

router = APIRouter(prefix=PREFIX, tags=["waivers"])


class WaiverText(Body):
    model_config = ConfigDict(populate_by_name=True, json_schema_extra=required("text"))

    text: Received = Field("", examples=["I take part at my own risk."], json_schema_extra=text(waivers.TEXT_MAX, message=True))


class Signature(Body):
    """The typed full name, and either ``birthDate`` or ``adult`` (the "18 or older" attestation)."""

    model_config = ConfigDict(populate_by_name=True, json_schema_extra=required("typedName"))

    typed_name: Received = Field("", alias="typedName", examples=["Pat Tester"],
                                 json_schema_extra=text(waivers.TYPED_NAME_MAX))  # fmt: skip
    birth_date: Received = Field(None, alias="birthDate", examples=["1990-04-21"],
                                 json_schema_extra={"type": "string", "format": "date"})  # fmt: skip
    adult: Received = Field(False, description=f"I am {waivers.MINIMUM_AGE} or older", json_schema_extra=BOOLEAN)
    team: Received = Field(None, description="The signer's team (left out: their team in the league)",
                           json_schema_extra=IDENTIFIER)  # fmt: skip


def _current(db, actor: Actor, league_id: str) -> waivers.WaiverVersion:
    found = waivers.current_waiver(db, actor, league_id=league_id)
    if found is None:
        raise NotFound(waivers.NO_WAIVER)
    return found


@router.get("/leagues/{league_id}/waiver", openapi_extra=access(LOGGED_IN), responses={**ERRORS})
def get_waiver(league_id: str, actor: Actor = Depends(acting)) -> Row:
    """The league's current waiver (404 when it has none yet), for whoever may see the league."""
    return with_ids(call(_current, actor, league_id))


@router.post("/leagues/{league_id}/waiver", status_code=201, openapi_extra=access(OPERATOR), responses={**ERRORS})
def save_waiver(league_id: str, body: WaiverText, actor: Actor = Depends(acting)) -> Row:
    """Save the waiver's text as a new version (the league's SVL or an admin); the same text adds nothing.
    Members sign each new version again."""
    return with_ids(call(waivers.save_waiver, actor, league_id=league_id, text=body.text))


@router.post("/leagues/{league_id}/waiver/signatures", status_code=201, openapi_extra=access(LOGGED_IN),
             responses={**ERRORS})  # fmt: skip
def sign_waiver(league_id: str, body: Signature, request: Request, actor: Actor = Depends(acting)) -> Row:
    """Sign the league's current waiver (a current member of one of its teams). Signing it again answers the first
    signature (``already`` true) and writes nothing."""
    found = call(waivers.sign_waiver, actor, league_id=league_id, team_id=body.team, typed_name=body.typed_name,
                 birth_date=body.birth_date, adult=body.adult, ip=client_ip(request),
                 user_agent=request.headers.get("user-agent", ""))  # fmt: skip
    return with_ids(found)


@router.get("/leagues/{league_id}/waiver/signatures", openapi_extra=access(OPERATOR), responses={**ERRORS})
def list_signatures(league_id: str, request: Request, response: Response, actor: Actor = Depends(acting)) -> list[Row]:
    """The league's signatures of every version, newest first (its SVL or an admin), a page at a time: ``search``
    (the signer's name or username), ``page`` (the bookmark of X-Next-Page / X-Previous-Page) and ``size``; the
    total in X-Total-Count."""
    p = list_params(request)
    found = call(waivers.signatures_page, actor, league_id=league_id, filters={"q": p["search"]},
                 bookmark=p["bookmark"], size=p["size"])  # fmt: skip
    return paged(response, found)
