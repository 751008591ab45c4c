"""/teams (registering is creating one) and /games (a league's schedule and its scores)."""

from __future__ import annotations

from typing import ClassVar

from fastapi import APIRouter, Depends, Request, Response
from pydantic import AliasChoices, ConfigDict, Field
from pydantic.json_schema import JsonDict
from sqlmodel import Session

from volley_app.api.routes import common
from volley_app.models import GameType
from volley_app.services.core.actors import Actor
from volley_app.services.seasons import games, schedule, scheduling, scoring
from volley_app.services.teams import registration, teams

router = APIRouter(prefix=common.PREFIX, tags=["teams and games"])
ID = Field(None, validation_alias=AliasChoices("id", "_id"), examples=[5], json_schema_extra=common.IDENTIFIER)
TEAM2: JsonDict = {"anyOf": [common.IDENTIFIER, {"type": "string", "enum": ["BYE"]}]}
SCORE = common.integer(0, 99)


class NewTeam(common.Body):
    model_config = ConfigDict(populate_by_name=True, json_schema_extra=common.required("league", "teamName"))

    league: common.Received = Field(None, examples=[2], json_schema_extra=common.IDENTIFIER)
    team_name: common.Received = Field("", alias="teamName", examples=["Net Results"], json_schema_extra=common.text(100))
    waitlist: common.Received = Field(False, description="Join the waitlist when the league is full", json_schema_extra=common.BOOLEAN)
    user: common.Received = Field(None, description="Ignored: the caller is the captain")
    paid: common.Received = Field(None, description="Ignored: a team is paid when its payment succeeds")
    wins: common.Received = Field(None, description="Ignored: records come from the games")
    losses: common.Received = Field(None, description="Ignored: records come from the games")


class TeamEdit(common.Body):
    model_config = ConfigDict(populate_by_name=True, json_schema_extra=common.required("id"))

    id: common.Received = Field(None, validation_alias=AliasChoices("id", "_id"), examples=[5], json_schema_extra=common.IDENTIFIER)
    team_name: common.Received = Field(None, alias="teamName", description="Admins only", json_schema_extra=common.text(100))
    paid: common.Received = Field(None, description="Admins only", json_schema_extra=common.BOOLEAN)
    wins: common.Received = Field(None, description="A correction of the record (with a reason)", json_schema_extra=common.integer(0, 999))
    losses: common.Received = Field(None, description="A correction of the record (with a reason)", json_schema_extra=common.integer(0, 999))
    reason: common.Received = Field(None, description="Why the record is corrected", json_schema_extra=common.text(300, optional=True))
    waitlist: common.Received = Field(None, description="Ignored: a team leaves the waitlist when it is offered a place")



@router.get("/teams", openapi_extra=common.access(common.LOGGED_IN), responses={401: common.ERRORS[401], 403: common.ERRORS[403],
                                                                   422: common.ERRORS[422]})  # fmt: skip
def list_teams(request: Request, response: Response, actor: Actor = Depends(common.acting)) -> list[common.Row]:
    """Teams the caller may see (a player: theirs; an SVL: their leagues'; an admin: all) a page at a time, by
    league then joining order; ``league``, ``waitlist`` (true/false) and ``search`` (the team's or its captain's
    name) narrow it; ``page`` (the bookmark of X-Next-Page / X-Previous-Page) and ``size``; the total in
    X-Total-Count."""
    q = request.query_params
    p = common.list_params(request)
    wait = {"true": True, "false": False}.get(q.get("waitlist", "").lower())
    found = common.call(teams.teams_page, actor, waitlist=wait, league_id=q.get("league", ""), filters={"q": p["search"]},
                 bookmark=p["bookmark"], size=p["size"])  # fmt: skip
    return common.paged(response, found)


@router.get("/teams/{team_id}", openapi_extra=common.access(common.LOGGED_IN), responses={**common.ERRORS})
def get_team(team_id: str, actor: Actor = Depends(common.acting)) -> common.Row:
    return common.with_ids(common.call(teams.get_team, actor, team_id))


@router.post("/teams", status_code=201, openapi_extra=common.access(common.PLAYER), responses={**common.ERRORS})
def register_team(body: NewTeam, actor: Actor = Depends(common.acting)) -> common.Row:
    """Register a team: a place is held and a payment started (``kind`` checkout, pay it through
    /payment-intent with ``paymentId``), or the team joins a full league's waitlist (``kind`` waitlist)."""
    out = common.call(registration.register, actor, league_id=body.league, team_name=body.team_name, waitlist=body.waitlist)
    found = common.with_ids(out)
    if "teamId" in found:
        found["id"] = found["_id"] = found["teamId"]
    return found


def _edit(db: Session, actor: Actor, team_id: object, fields: dict) -> common.Row:
    current = teams.get_team(db, actor, team_id)
    kept = {"team_name": current["team_name"], "paid": current["paid"], "wins": current["wins"],
            "losses": current["losses"]}  # fmt: skip
    fields = kept | {
        k: v for k, v in fields.items() if v is not None
    }
    teams.update_team(db, actor, team_id, **fields)
    return common.with_ids(teams.get_team(db, actor, team_id))


@router.patch("/teams", openapi_extra=common.access(common.OPERATOR), responses={**common.ERRORS})
def update_team(body: TeamEdit, actor: Actor = Depends(common.acting)) -> common.Row:
    """Correct a team (the league's SVL or an admin): its record with a reason; its name and paid only an admin."""
    fields = body.model_dump(exclude={"id", "waitlist"})
    return common.call(_edit, actor, body.id, fields)


@router.delete("/teams", openapi_extra=common.access(common.OPERATOR), responses={**common.ERRORS})
def delete_team(body: common.Deletion, actor: Actor = Depends(common.acting)) -> common.Deleted:
    """Delete a team without history (one with results or payments withdraws instead)."""
    outcome = common.call(teams.delete_team, actor, body.id)
    return common.deleted(body.id, outcome)


# --- games ----------------------------------------------------------------------------------------------

SCORES = {f: "".join(p[:1].upper() + p[1:] if i else p for i, p in enumerate(f.split("_")))
          for pair in scoring.SCORE_FIELDS for f in pair}  # fmt: skip


class NewGames(common.Body):
    """``league`` alone: generate the league's whole schedule. With ``team1``, ``team2`` and ``dateTime``:
    add one game to it."""

    model_config = ConfigDict(populate_by_name=True, json_schema_extra=common.required("league"))
    ERROR_NAMES: ClassVar[dict[str, str]] = {"start": "dateTime", "game_type": "type", "round_number": "round"}

    league: common.Received = Field(None, examples=[2], json_schema_extra=common.IDENTIFIER)
    team1: common.Received = Field(None, examples=[5], description="One game: a playing team of the league",
                       json_schema_extra=common.IDENTIFIER)  # fmt: skip
    team2: common.Received = Field(None, examples=[6], description="One game: a playing team of the league, or BYE",
                       json_schema_extra=TEAM2)  # fmt: skip
    date_time: common.Received = Field(None, alias="dateTime", description="One game: venue time", json_schema_extra=common.LOCAL_TIME)
    type: common.Received = Field(None, examples=["League"], description="One game: League (default) or Tournament",
                      json_schema_extra=common.one_of(GameType))  # fmt: skip
    round: common.Received = Field(None, examples=[1], description="One game: its round (default: its week)",
                       json_schema_extra=common.integer(1, 200))  # fmt: skip
    match: common.Received = Field(None, examples=[1], description="One game: its match in the round (default: the next one)",
                       json_schema_extra=common.integer(1, 200))  # fmt: skip
    court: common.Received = Field(None, examples=["Court 1"], description="One game: one of the league's courts (optional)",
                       json_schema_extra=common.text(100, optional=True))  # fmt: skip

    def one_game(self) -> bool:
        return any(v not in (None, "") for v in (self.team1, self.team2, self.date_time))


def _scores_schema(doc: dict) -> None:
    doc["required"] = ["id"]
    doc.setdefault("properties", {}).update({name: SCORE for name in SCORES.values()})


class GameEdit(common.Body):
    model_config = ConfigDict(populate_by_name=True, extra="allow", json_schema_extra=_scores_schema)
    ERROR_NAMES: ClassVar[dict[str, str]] = {"start": "dateTime"}

    id: common.Received = ID
    team1: common.Received = Field(None, examples=[5], json_schema_extra=common.IDENTIFIER)
    team2: common.Received = Field(None, examples=[6], description="A team id, or BYE", json_schema_extra=TEAM2)
    date_time: common.Received = Field(None, alias="dateTime", json_schema_extra=common.LOCAL_TIME)


def _edit_game(db: Session, actor: Actor, game_id: object, body: dict) -> common.Row:
    current = games.get_game(db, actor, game_id)
    scores: dict[str, object] = {f: body.get(camel, current.get(f)) for f, camel in SCORES.items()}
    team1 = body.get("team1") if body.get("team1") is not None else current["team1_id"]
    team2 = body.get("team2") if body.get("team2") is not None else (current["team2_id"] or "BYE")
    start = body.get("date_time") if body.get("date_time") is not None else current["start_at"]
    scores = {k: ("" if v is None else v) for k, v in scores.items()}
    game = games.update_game(db, actor, game_id, team1=team1, team2=team2, start=start, **scores)
    return common.with_ids(games.get_game(db, actor, game.id))


@router.get("/games", openapi_extra=common.access(common.LOGGED_IN), responses={**common.ERRORS})
def list_games(request: Request, response: Response, actor: Actor = Depends(common.acting)) -> list[common.Row]:
    """Games a page at a time by date and time, each with its week: with ``league`` that league's; without, the
    caller's (a player: their teams' games; an SVL: their leagues'; an admin: every league's). ``page`` (the
    bookmark of X-Next-Page / X-Previous-Page) and ``size``; the total in X-Total-Count."""
    p = common.list_params(request)
    found = common.call(schedule.games_page, actor, league_id=request.query_params.get("league", ""),
                 bookmark=p["bookmark"], size=p["size"])  # fmt: skip
    return common.paged(response, found)


@router.get("/games/{game_id}", openapi_extra=common.access(common.OPERATOR), responses={**common.ERRORS})
def get_game(game_id: str, actor: Actor = Depends(common.acting)) -> common.Row:
    return common.with_ids(common.call(games.get_game, actor, game_id))


def _add_game(db: Session, actor: Actor, body: NewGames) -> common.Row:
    game = games.add_game(
        db, actor, body.league, team1=body.team1, team2=body.team2, start=body.date_time, game_type=body.type,
        round_number=body.round, match=body.match, court=body.court,
    )  # fmt: skip
    return common.with_ids(games.get_game(db, actor, game.id))


@router.post("/games", status_code=201, openapi_extra=common.access(common.OPERATOR), responses={**common.ERRORS})
def create_games(body: NewGames, actor: Actor = Depends(common.acting)) -> common.Row:
    """Games of a league (its SVL or an admin). With ``team1``, ``team2`` and ``dateTime`` (and optionally
    ``type``, ``round``, ``match``, ``court``): add one game, answered as the game (both captains are emailed).
    With ``league`` alone: generate the whole schedule once, answered as ``{"league", "games": count}``."""
    if body.one_game():
        return common.call(_add_game, actor, body)
    made = common.call(scheduling.generate, actor, body.league)
    return {"league": body.league, "games": made}


@router.patch("/games", openapi_extra=common.access(common.OPERATOR), responses={**common.ERRORS})
def update_game(body: GameEdit, actor: Actor = Depends(common.acting)) -> common.Row:
    """Change a game (the league's SVL or an admin): teams, date and time, the six scores
    (``team1Game1Score`` … ``team2Game3Score``). Fields left out keep their values."""
    data = body.model_dump(exclude={"id"}) | {k: v for k, v in (body.model_extra or {}).items() if k in SCORES.values()}
    return common.call(_edit_game, actor, body.id, data)


@router.delete("/games", openapi_extra=common.access(common.OPERATOR), responses={**common.ERRORS})
def delete_game(body: common.Deletion, actor: Actor = Depends(common.acting)) -> common.Deleted:
    """Take an unplayed game off the schedule (the league's SVL or an admin); both captains are emailed.
    A game with a score, a forfeit or a reported score is refused (422): results are never deleted."""
    outcome = common.call(games.delete_game, actor, body.id)
    return common.deleted(body.id, outcome)
