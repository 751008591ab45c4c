"""Free agents: a player registers alone into a league (then pays at the payment's checkout) or withdraws; the
league's SVL or an admin lists them, places one on a team or forms a new team of several."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request, Response
from pydantic import ConfigDict, Field

from volley_app.api.routes import common
from volley_app.models.enums import Gender, Position, Rating
from volley_app.services.core.actors import Actor
from volley_app.services.teams import free_agents

router = APIRouter(prefix=common.PREFIX, tags=["free agents"])


class Registration(common.Body):
    model_config = ConfigDict(populate_by_name=True, json_schema_extra=common.required("position"))

    position: common.Received = Field(None, examples=["Setter"], json_schema_extra=common.one_of(Position))
    hitter: common.Received = Field(None, examples=["B"], json_schema_extra=common.one_of(Rating))
    passer: common.Received = Field(None, examples=["C"], json_schema_extra=common.one_of(Rating))
    setter: common.Received = Field(None, examples=["A"], json_schema_extra=common.one_of(Rating))
    gender: common.Received = Field(None, examples=["Female"], json_schema_extra=common.one_of(Gender))
    availability: common.Received = Field(None, examples=["Mondays and Wednesdays"],
                                          json_schema_extra=common.text(300, optional=True))  # fmt: skip
    typed_name: common.Received = Field(None, alias="typedName", examples=["Amy Agent"],
                                        description="The full name the league's waiver is signed with (when it has one)",
                                        json_schema_extra=common.text(200, optional=True))  # fmt: skip
    birth_date: common.Received = Field(None, alias="birthDate", examples=["1990-04-21"],
                                        json_schema_extra=common.text(10, optional=True))  # fmt: skip
    adult: common.Received = Field(None, examples=[True], json_schema_extra=common.BOOLEAN)


@router.get("/leagues/{league_id}/free-agents", openapi_extra=common.access(common.OPERATOR), responses={**common.ERRORS})
def list_agents(league_id: str, request: Request, response: Response, actor: Actor = Depends(common.acting)) -> list[common.Row]:
    """The league's free agents, those waiting first (its SVL or an admin), a page at a time: ``page`` (the bookmark
    of X-Next-Page / X-Previous-Page) and ``size``; the total in X-Total-Count. ``search``: a player's name or
    username."""
    p = common.list_params(request)
    found = common.call(free_agents.agents_page, actor, league_id=league_id, filters={"q": p["search"]},
                        bookmark=p["bookmark"], size=p["size"])  # fmt: skip
    return common.paged(response, found)


@router.post("/leagues/{league_id}/free-agents", status_code=201, openapi_extra=common.access(common.PLAYER),
             responses={**common.ERRORS})  # fmt: skip
def register(league_id: str, body: Registration, actor: Actor = Depends(common.acting)) -> common.Row:
    """Register the caller alone into the league, signing its waiver: ``paymentId`` is the payment of the league's
    free-agent fee, paid as a registration is (``/api/payments/{id}/...``). Registering again before paying answers
    the same payment."""
    return common.with_ids(common.call(
        free_agents.register, actor, league_id=league_id, position=body.position, hitter=body.hitter,
        passer=body.passer, setter=body.setter, gender=body.gender, availability=body.availability,
        typed_name=body.typed_name, birth_date=body.birth_date, adult=body.adult,
    ))  # fmt: skip


class Placement(common.Body):
    model_config = ConfigDict(populate_by_name=True, json_schema_extra=common.required("team"))

    team: common.Received = Field(None, examples=[3], json_schema_extra=common.IDENTIFIER)


@router.post("/free-agents/{agent_id}/place", openapi_extra=common.access(common.OPERATOR), responses={**common.ERRORS})
def place(agent_id: str, body: Placement, actor: Actor = Depends(common.acting)) -> common.Row:
    """Place a waiting free agent on one of the league's playing teams (its SVL or an admin): they join its roster,
    and they and the captain are emailed."""
    return common.with_ids(common.call(free_agents.place, actor, agent_id=agent_id, team_id=body.team))


class NewTeam(common.Body):
    model_config = ConfigDict(populate_by_name=True, json_schema_extra=common.required("agents", "captain", "teamName"))

    agents: common.Received = Field(None, examples=[[4, 5, 6]], description="The free agents who form the team",
                                    json_schema_extra={"type": "array", "items": common.IDENTIFIER, "minItems": 1})  # fmt: skip
    captain: common.Received = Field(None, examples=[5], description="The free agent who captains it",
                                     json_schema_extra=common.IDENTIFIER)  # fmt: skip
    team_name: common.Received = Field(None, alias="teamName", examples=["Strays"], json_schema_extra=common.text(100))


@router.post("/leagues/{league_id}/free-agents/team", status_code=201, openapi_extra=common.access(common.OPERATOR),
             responses={**common.ERRORS})  # fmt: skip
def form_team(league_id: str, body: NewTeam, actor: Actor = Depends(common.acting)) -> common.Row:
    """Form a new team of waiting free agents, one as its captain, when the league has a place free (its SVL or an
    admin)."""
    return common.with_ids(common.call(free_agents.form_team, actor, league_id=league_id, agent_ids=body.agents,
                                       captain_id=body.captain, team_name=body.team_name))  # fmt: skip


@router.delete("/free-agents/{agent_id}", openapi_extra=common.access(common.PLAYER), responses={**common.ERRORS})
def withdraw(agent_id: str, actor: Actor = Depends(common.acting)) -> common.Row:
    """Withdraw the caller's own free-agent registration while not placed: a payment made is given back as the
    league's refund policy says now."""
    return {"message": common.call(free_agents.withdraw, actor, agent_id=agent_id)}
