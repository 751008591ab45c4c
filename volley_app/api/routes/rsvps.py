"""Game answers: a team's games with each member's In / Out / Maybe, a member's own answer, their next games."""

from __future__ import annotations

from collections.abc import Mapping

from fastapi import APIRouter, Depends, Request, Response
from pydantic import ConfigDict, Field

from volley_app.api.routes import common
from volley_app.models import RsvpAnswer
from volley_app.services.core import paging
from volley_app.services.core.actors import Actor
from volley_app.services.teams import rsvps, team_settings

router = APIRouter(prefix=common.PREFIX, tags=["game answers"])


class Answer(common.Body):
    model_config = ConfigDict(populate_by_name=True, json_schema_extra=common.required("answer"))

    answer: common.Received = Field(None, examples=["In"], json_schema_extra=common.one_of(RsvpAnswer))
    team: common.Received = Field(None, examples=[5], description="Which of your teams, when you are on both of the game's",
                           json_schema_extra=common.IDENTIFIER)  # fmt: skip


class Settings(common.Body):
    model_config = ConfigDict(populate_by_name=True, json_schema_extra=common.required("reminderDays", "deadlineHours"))

    reminder_days: common.Received = Field(None, alias="reminderDays", examples=[3], description=(
        "Days before a game that members who have not answered get a reminder (0: no reminder)"),
        json_schema_extra=common.integer(*team_settings.REMINDER_DAYS))
    deadline_hours: common.Received = Field(None, alias="deadlineHours", examples=[48], description=(
        "Hours before a game that a team still short is told (its captain and co-captains)"),
        json_schema_extra=common.integer(*team_settings.DEADLINE_HOURS))


def _game(row: Mapping[str, object]) -> common.Row:
    """A game with its answers, every name in camelCase (the members' answers too)."""
    out = common.with_ids({**row, "id": row["game_id"]})
    cells = row.get("cells")
    out["answers"] = [{common.camel(k): v for k, v in c.items()} for c in cells] if isinstance(cells, list) else []
    out.pop("cells", None)
    return out


@router.get("/teams/{team_id}/games", openapi_extra=common.access(common.LOGGED_IN), responses={**common.ERRORS})
def team_games(team_id: str, request: Request, response: Response, actor: Actor = Depends(common.acting)) -> list[common.Row]:
    """The team's games, the coming ones first, each with every current member's answer (``answers``), the counts
    In / Out / Maybe / no answer against what the format needs, and whether the game is short. The team's members,
    the league's operator and admins; ``page`` (the bookmark of X-Next-Page / X-Previous-Page) and ``size``; the
    total in X-Total-Count."""
    p = common.list_params(request)
    found = common.call(rsvps.games_page, actor, team_id=team_id, bookmark=p["bookmark"], size=p["size"] or rsvps.GAMES_PAGE)
    return common.paged(response, found, _game)


@router.post("/games/{game_id}/rsvp", openapi_extra=common.access(common.LOGGED_IN), responses={**common.ERRORS})
def answer(game_id: str, body: Answer, actor: Actor = Depends(common.acting)) -> common.Row:
    """Answer In, Out or Maybe for one of your team's coming games (a member of the team); answering again
    changes the answer. Answers the game with its counts."""
    return _game(common.call(rsvps.answer, actor, game_id=game_id, answer=body.answer, team_id=body.team))


@router.get("/my-next-games", openapi_extra=common.access(common.LOGGED_IN), responses={401: common.ERRORS[401], 403: common.ERRORS[403]})
def my_next_games(response: Response, actor: Actor = Depends(common.acting)) -> list[common.Row]:
    """The caller's next games (up to five) across the teams they are on, nearest first, with their own answer
    (``mine``); the count in X-Total-Count."""
    found = [common.with_ids({**g, "id": g["game_id"]}) for g in common.call(rsvps.my_next_games, actor)]
    return common.paged(response, paging.Page(rows=found, total=len(found), size=max(len(found), 1)), dict)


@router.get("/teams/{team_id}/settings", openapi_extra=common.access(common.LOGGED_IN), responses={**common.ERRORS})
def get_settings(team_id: str, actor: Actor = Depends(common.acting)) -> common.Row:
    """The team's answer settings (``reminderDays``, ``deadlineHours``) and whether the caller may change them
    (``canEdit``). The team's members, the league's operator and admins."""
    return common.with_ids(common.call(team_settings.team_settings, actor, team_id=team_id))


@router.patch("/teams/{team_id}/settings", openapi_extra=common.access(common.LOGGED_IN), responses={**common.ERRORS})
def update_settings(team_id: str, body: Settings, actor: Actor = Depends(common.acting)) -> common.Row:
    """Set when reminders go (``reminderDays``, 0 to 14 days before a game, 0: none) and when a team still short is
    told (``deadlineHours``, 2 to 168 hours before): the team's captain, a co-captain, the league's operator or an
    admin. Answers the settings as saved."""
    return common.with_ids(common.call(team_settings.update_settings, actor, team_id=team_id, reminder_days=body.reminder_days,
                         deadline_hours=body.deadline_hours))
