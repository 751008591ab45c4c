"""/leagues/{id}/waiver: a league's waiver (read it, its operator posts a new version) and its signatures (a member
signs, the operator lists them)."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request, Response
from pydantic import ConfigDict, Field

from volley_app.api.deps import client_ip
from volley_app.api.routes import common
from volley_app.services.core.actors import Actor
from volley_app.services.core.errors import NotFound
from volley_app.services.teams import waivers

router = APIRouter(prefix=common.PREFIX, tags=["waivers"])


class WaiverText(common.Body):
    model_config = ConfigDict(populate_by_name=True, json_schema_extra=common.required("text"))

    text: common.Received = Field("", examples=["I take part at my own risk."], json_schema_extra=common.text(waivers.TEXT_MAX, message=True))


class Signature(common.Body):
    """The typed full name, and either ``birthDate`` or ``adult`` (the "18 or older" attestation)."""

    model_config = ConfigDict(populate_by_name=True, json_schema_extra=common.required("typedName"))

    typed_name: common.Received = Field("", alias="typedName", examples=["Pat Tester"],
                                 json_schema_extra=common.text(waivers.TYPED_NAME_MAX))  # fmt: skip
    birth_date: common.Received = Field(None, alias="birthDate", examples=["1990-04-21"],
                                 json_schema_extra={"type": "string", "format": "date"})  # fmt: skip
    adult: common.Received = Field(False, description=f"I am {waivers.MINIMUM_AGE} or older", json_schema_extra=common.BOOLEAN)
    team: common.Received = Field(None, description="The signer's team (left out: their team in the league)",
                           json_schema_extra=common.IDENTIFIER)  # fmt: skip


def _current(db, actor: Actor, league_id: str) -> waivers.WaiverVersion:
    found = waivers.current_waiver(db, actor, league_id=league_id)
    if found is None:
        raise NotFound(waivers.NO_WAIVER)
    return found


@router.get("/leagues/{league_id}/waiver", openapi_extra=common.access(common.LOGGED_IN), responses={**common.ERRORS})
def get_waiver(league_id: str, actor: Actor = Depends(common.acting)) -> common.Row:
    """The league's current waiver (404 when it has none yet), for whoever may see the league."""
    return common.with_ids(common.call(_current, actor, league_id))


@router.post("/leagues/{league_id}/waiver", status_code=201, openapi_extra=common.access(common.OPERATOR), responses={**common.ERRORS})
def save_waiver(league_id: str, body: WaiverText, actor: Actor = Depends(common.acting)) -> common.Row:
    """Save the waiver's text as a new version (the league's SVL or an admin); the same text adds nothing.
    Members sign each new version again."""
    return common.with_ids(common.call(waivers.save_waiver, actor, league_id=league_id, text=body.text))


@router.post("/leagues/{league_id}/waiver/signatures", status_code=201, openapi_extra=common.access(common.LOGGED_IN),
             responses={**common.ERRORS})  # fmt: skip
def sign_waiver(league_id: str, body: Signature, request: Request, actor: Actor = Depends(common.acting)) -> common.Row:
    """Sign the league's current waiver (a current member of one of its teams). Signing it again answers the first
    signature (``already`` true) and writes nothing."""
    found = common.call(waivers.sign_waiver, actor, league_id=league_id, team_id=body.team, typed_name=body.typed_name,
                 birth_date=body.birth_date, adult=body.adult, ip=client_ip(request),
                 user_agent=request.headers.get("user-agent", ""))  # fmt: skip
    return common.with_ids(found)


@router.get("/leagues/{league_id}/waiver/signatures", openapi_extra=common.access(common.OPERATOR), responses={**common.ERRORS})
def list_signatures(league_id: str, request: Request, response: Response, actor: Actor = Depends(common.acting)) -> list[common.Row]:
    """The league's signatures of every version, newest first (its SVL or an admin), a page at a time: ``search``
    (the signer's name or username), ``page`` (the bookmark of X-Next-Page / X-Previous-Page) and ``size``; the
    total in X-Total-Count."""
    p = common.list_params(request)
    found = common.call(waivers.signatures_page, actor, league_id=league_id, filters={"q": p["search"]},
                 bookmark=p["bookmark"], size=p["size"])  # fmt: skip
    return common.paged(response, found)
