"""/sessions and /leagues: an SVL's seasons and their leagues; a league's standings and schedule."""

from __future__ import annotations

import datetime as dt

from fastapi import APIRouter, Depends, Request, Response
from pydantic import AliasChoices, ConfigDict, Field
from pydantic.json_schema import JsonDict
from sqlmodel import Session
from typing_extensions import TypedDict

from volley_app.api.routes import common
from volley_app.models import Day, LeagueFormat, LeagueSession, SkillLevel
from volley_app.services.core.actors import Actor
from volley_app.services.seasons import leagues, results, sessions

router = APIRouter(prefix=common.PREFIX, tags=["sessions and leagues"])
LEAGUE_REQUIRED = ("session", "court", "startDateTime", "numberOfWeeks", "timeIncrement", "skillLevel", "format",
                   "day", "maxTeams", "cost")  # fmt: skip


# A session's end is later than its start: the document's ranges keep every start before every end.
SESSION_START = common.local_time("20[34][0-9]")
SESSION_END = common.local_time("20[5-9][0-9]", examples=["2051-03-29T22:00"], description="Later than the start")


class SessionBody(common.Body):
    """A new session: its name and dates (an admin also names its SVL)."""

    model_config = ConfigDict(populate_by_name=True, json_schema_extra=common.required("name", "startDateTime",
                                                                                "endDateTime", "svl"))  # fmt: skip

    id: common.Received = Field(None, validation_alias=AliasChoices("id", "_id"), examples=[3], json_schema_extra=common.IDENTIFIER)
    name: common.Received = Field("", examples=["Winter 2027"], json_schema_extra=common.text(120))
    start: common.Received = Field("", alias="startDateTime", json_schema_extra=SESSION_START)
    end: common.Received = Field("", alias="endDateTime", json_schema_extra=SESSION_END)
    svl: common.Received = Field(None, description="An admin's choice of SVL (an SVL's id; another id answers 404); an SVL's "
                                       "own sessions are theirs (what they send here is not used)",
                     json_schema_extra=common.IDENTIFIER)  # fmt: skip


class SessionEdit(SessionBody):
    """A session changed: its id, and its name and dates again."""

    model_config = ConfigDict(populate_by_name=True, json_schema_extra=common.required("id", "name", "startDateTime",
                                                                                "endDateTime"))  # fmt: skip



class SessionRow(TypedDict):
    id: int | None
    _id: int | None
    name: str
    status: str
    svl: int
    startDateTime: dt.datetime  # noqa: N815 - the spec's name
    endDateTime: dt.datetime  # noqa: N815


def _session(row: LeagueSession) -> SessionRow:
    return {"id": row.id, "_id": row.id, "name": row.name, "status": row.status.value, "svl": row.svl_id,
            "startDateTime": row.start_at, "endDateTime": row.end_at}  # fmt: skip


@router.get("/sessions", openapi_extra=common.access(common.OPERATOR), responses={401: common.ERRORS[401], 403: common.ERRORS[403],
                                                                      422: common.ERRORS[422]})  # fmt: skip
def list_sessions(request: Request, response: Response, actor: Actor = Depends(common.acting)) -> list[common.Row]:
    """An SVL's current sessions (an admin: every session) a page at a time by start: ``page`` (the bookmark
    of X-Next-Page / X-Previous-Page), ``search`` (the session's or its venue's name), ``size``; the total in
    X-Total-Count."""
    p = common.list_params(request)
    found = common.call(sessions.sessions_page, actor, filters={"q": p["search"]}, bookmark=p["bookmark"], size=p["size"])
    return common.paged(response, found)


@router.get("/sessions/{session_id}", openapi_extra=common.access(common.OPERATOR), responses={**common.ERRORS})
def get_session(session_id: str, actor: Actor = Depends(common.acting)) -> common.Row:
    return common.with_ids(common.call(sessions.get_session, actor, session_id))


@router.post("/sessions", status_code=201, openapi_extra=common.access(common.OPERATOR), responses={**common.ERRORS})
def create_session(body: SessionBody, actor: Actor = Depends(common.acting)) -> SessionRow:
    """A new session in Registration; ``status`` and ``user`` in the body are ignored (the server decides)."""
    row = common.call(sessions.create_session, actor, name=body.name, start=body.start, end=body.end, svl_id=body.svl)
    return _session(row)


@router.patch("/sessions", openapi_extra=common.access(common.OPERATOR), responses={**common.ERRORS})
def update_session(body: SessionEdit, actor: Actor = Depends(common.acting)) -> SessionRow:
    """Rename or move a session (its SVL or an admin); the status follows the dates."""
    row = common.call(sessions.update_session, actor, body.id, name=body.name, start=body.start, end=body.end)
    return _session(row)


@router.delete("/sessions", openapi_extra=common.access(common.OPERATOR), responses={**common.ERRORS})
def delete_session(body: common.Deletion, actor: Actor = Depends(common.acting)) -> common.Deleted:
    """Delete a session (archived when it has history)."""
    outcome = common.call(sessions.delete_session, actor, body.id)
    return common.deleted(body.id, outcome)


def _or_null(schema: JsonDict) -> JsonDict:
    return {"anyOf": [schema, {"type": "null"}]}


class LeagueBody(common.Body):
    """A new league in a session: the form of spec section 5 (``day`` is the start's weekday), and the league's
    roster and sub rules (each left out: the default for a new league, unchanged for a league changed)."""

    model_config = ConfigDict(populate_by_name=True, json_schema_extra=common.required(*LEAGUE_REQUIRED))

    id: common.Received = Field(None, validation_alias=AliasChoices("id", "_id"), examples=[3], json_schema_extra=common.IDENTIFIER)
    session: common.Received = Field(None, examples=[3], json_schema_extra=common.IDENTIFIER)
    court: common.Received = Field("", examples=["Court 1"], json_schema_extra=common.text(100))
    start: common.Received = Field("", alias="startDateTime", json_schema_extra=common.LOCAL_TIME)
    number_of_weeks: common.Received = Field("", alias="numberOfWeeks", examples=[8], json_schema_extra=common.integer(1, 52))
    time_increment: common.Received = Field("", alias="timeIncrement", examples=[60], json_schema_extra=common.integer(1, 600))
    skill_level: common.Received = Field("", alias="skillLevel", examples=["B"], json_schema_extra=common.one_of(SkillLevel))
    format: common.Received = Field("", examples=["6s"], json_schema_extra=common.one_of(LeagueFormat))
    gender_requirement: common.Received = Field("", alias="genderRequirement", examples=["Coed"],
                                    json_schema_extra=common.text(100, optional=True))  # fmt: skip
    day: common.Received = Field("", examples=["Monday"], description="The start's weekday", json_schema_extra=common.one_of(Day))
    max_teams: common.Received = Field("", alias="maxTeams", examples=[8], json_schema_extra=common.integer(2, 64))
    cost: common.Received = Field("", examples=[300], description="Dollars per team", json_schema_extra=common.integer(0, 10_000))
    cash: common.Received = Field(False, json_schema_extra=common.BOOLEAN)
    active: common.Received = Field(None, description="Only when changing a league", json_schema_extra=common.BOOLEAN)
    svl: common.Received = Field(None, description="Ignored: a league belongs to its session's SVL")
    schedule_generated: common.Received = Field(None, alias="scheduleGenerated", description="Ignored: generating is its own call")
    roster_min: common.Received = Field(None, alias="rosterMin", examples=[6], description="Fewest players on a roster "
                                 "(null: the format's)", json_schema_extra=_or_null(common.integer(1, leagues.MAX_ROSTER)))
    roster_max: common.Received = Field(None, alias="rosterMax", examples=[12], description="Most players on a roster "
                                 "(null: the format's)", json_schema_extra=_or_null(common.integer(1, leagues.MAX_ROSTER)))
    teams_per_player: common.Received = Field(None, alias="teamsPerPlayer", examples=[1],
                                       description="How many of the league's teams one player may be on (null: 1)",
                                       json_schema_extra=_or_null(common.integer(1, leagues.MAX_TEAMS_PER_PLAYER)))
    women_on_court: common.Received = Field(None, alias="womenOnCourt", examples=[2], description="Women a team must have on "
                                     "court, at most the format's players on court (null: no rule)",
                                     json_schema_extra=_or_null(common.integer(0, max(leagues.ON_COURT.values()))))
    subs_from_other_teams: common.Received = Field(None, alias="subsFromOtherTeams", json_schema_extra=common.BOOLEAN,
                                            description="A player rostered on another of the league's teams may sub")
    sub_levels_below: common.Received = Field(None, alias="subLevelsBelow", examples=[1], description="How many levels under "
                                       "the league's skill a sub may be rated (null: any)",
                                       json_schema_extra=_or_null(common.integer(0, leagues.SUB_LEVELS)))
    sub_levels_above: common.Received = Field(None, alias="subLevelsAbove", examples=[1], description="How many levels over "
                                       "the league's skill a sub may be rated (null: any)",
                                       json_schema_extra=_or_null(common.integer(0, leagues.SUB_LEVELS)))
    playoff_min_games: common.Received = Field(None, alias="playoffMinGames", examples=[3], description="Regular-season games "
                                        "a rostered player needs for the playoffs, at most the weeks (null: none)",
                                        json_schema_extra=_or_null(common.integer(0, leagues.MAX_WEEKS)))
    playoff_subs_approved: common.Received = Field(None, alias="playoffSubsApproved", json_schema_extra=common.BOOLEAN,
                                            description="Playoff subs play only with the operator's approval")
    refund_full_until: common.Received = Field(None, alias="refundFullUntil", description="Refunds in full until then, on the "
                                        "venue's clock (null: no such date)", json_schema_extra=_or_null(common.LOCAL_TIME))
    refund_until: common.Received = Field(None, alias="refundUntil", description="Refunds less the fee until then, after "
                                   "refundFullUntil (null: none)", json_schema_extra=_or_null(common.LOCAL_TIME))
    refund_fee: common.Received = Field(None, alias="refundFee", examples=[25], description="Dollars kept of a refund until "
                                 "refundUntil", json_schema_extra=_or_null(common.integer(0, 10_000)))
    payment_mode: common.Received = Field(None, alias="paymentMode", examples=["shares"], description="Who pays the "
                                   "team's fee: \"captain\" at registration, or \"shares\": the captain's deposit "
                                   "holds the place and each rostered player pays a share",
                                   json_schema_extra={"type": "string", "enum": ["captain", "shares"]})
    deposit: common.Received = Field(None, examples=[50], description="Dollars the captain pays at registration in a "
                              "shared league (below the team's fee)", json_schema_extra=_or_null(common.integer(0, 10_000)))
    shares_due: common.Received = Field(None, alias="sharesDue", description="When the shares are due, on the venue's "
                                 "clock (null: by the league's start)", json_schema_extra=_or_null(common.LOCAL_TIME))
    agent_fee: common.Received = Field(None, alias="agentFee", examples=[40], description="Dollars a free agent pays to "
                                "register alone (null: the league takes no free agents)",
                                json_schema_extra=_or_null(common.integer(0, 10_000)))


class LeagueEdit(LeagueBody):
    """A league changed: its id and the whole form again (plus ``active``); a rule left out stays as it is."""

    model_config = ConfigDict(populate_by_name=True, json_schema_extra=common.required("id", *LEAGUE_REQUIRED[1:]))


LEAGUE_FORM = ("court", "start", "number_of_weeks", "time_increment", "skill_level", "format", "gender_requirement",
               "day", "max_teams", "cost", "cash")  # fmt: skip


def _league_fields(body: LeagueBody) -> common.Row:
    fields = {k: getattr(body, k) for k in LEAGUE_FORM}
    if body.active is not None:
        fields["active"] = body.active
    fields |= {k: getattr(body, k) for k in leagues.RULE_FIELDS if k in body.model_fields_set}
    fields |= {k: getattr(body, k) for k in ("refund_full_until", "refund_until", "refund_fee", "payment_mode",
                                             "deposit", "shares_due", "agent_fee") if k in body.model_fields_set}  # fmt: skip
    return fields


def _league(db: Session, actor: Actor, league_id: object) -> common.Row:
    return common.with_ids(leagues.get_league(db, actor, league_id))


def _create_league(db: Session, actor: Actor, session_id: object, fields: dict) -> common.Row:
    return _league(db, actor, leagues.create_league(db, actor, session_id=session_id, **fields).id)


def _update_league(db: Session, actor: Actor, league_id: object, fields: dict) -> common.Row:
    return _league(db, actor, leagues.update_league(db, actor, league_id, **fields).id)


@router.get("/leagues", openapi_extra=common.access(common.LOGGED_IN), responses={401: common.ERRORS[401], 403: common.ERRORS[403],
                                                                     422: common.ERRORS[422]})  # fmt: skip
def list_leagues(
    request: Request, response: Response, actor: Actor = Depends(common.acting), sort: str = common.sort_query(leagues.LEAGUE_ORDERS)
) -> list[common.Row]:
    """Leagues a page at a time, as the leagues screen lists them (``search``, ``day``, ``format``, ``skill``;
    ``sort`` by start, or latest first with ``-start``); with ``session`` every league of that session by start
    (its SVL or an admin)."""
    q = request.query_params
    if q.get("session"):
        return common.whole(response, common.call(leagues.list_leagues, actor, session_id=q.get("session")))
    p = common.list_params(request)
    filters = {"q": p["search"], **{k: q.get(k, "") for k in ("day", "format", "skill")}}
    found = common.call(leagues.leagues_page, actor, filters=filters, bookmark=p["bookmark"], size=p["size"], sort=sort)
    return common.paged(response, found)


@router.get("/leagues/{league_id}", openapi_extra=common.access(common.LOGGED_IN), responses={**common.ERRORS})
def get_league(league_id: str, actor: Actor = Depends(common.acting)) -> common.Row:
    return common.with_ids(common.call(leagues.get_league, actor, league_id))


@router.get("/leagues/{league_id}/standings", openapi_extra=common.access(common.LOGGED_IN), responses={**common.ERRORS})
def standings(league_id: str, actor: Actor = Depends(common.acting)) -> common.Row:
    """A league's standings: each team's wins and losses, from the games' results."""
    found = common.call(results.standings, actor, league_id)
    return {"league": common.with_ids(found["league"]), "teams": [common.with_ids(t) for t in found["teams"]]}


@router.post("/leagues", status_code=201, openapi_extra=common.access(common.OPERATOR), responses={**common.ERRORS})
def create_league(body: LeagueBody, actor: Actor = Depends(common.acting)) -> common.Row:
    """A new league in a session the caller manages (its SVL and venue come from the session)."""
    return common.call(_create_league, actor, body.session, _league_fields(body))


@router.patch("/leagues", openapi_extra=common.access(common.OPERATOR), responses={**common.ERRORS})
def update_league(body: LeagueEdit, actor: Actor = Depends(common.acting)) -> common.Row:
    """Change a league (its SVL or an admin): the whole form again, plus ``active``."""
    return common.call(_update_league, actor, body.id, _league_fields(body))


@router.delete("/leagues", openapi_extra=common.access(common.OPERATOR), responses={**common.ERRORS})
def delete_league(body: common.Deletion, actor: Actor = Depends(common.acting)) -> common.Deleted:
    """Delete a league (archived when it has teams, games or payments)."""
    outcome = common.call(leagues.delete_league, actor, body.id)
    return common.deleted(body.id, outcome)
