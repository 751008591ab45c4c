"""A team's roster: its members and their roles, invitations to join, leaving and removing; a league's rosters."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import APIRouter, Depends, Request, Response
from pydantic import ConfigDict, Field
from sqlmodel import Session

from volley_app.api.routes import common
from volley_app.models import MemberRole
from volley_app.services.core.actors import Actor
from volley_app.services.core.errors import Forbidden
from volley_app.services.teams import invitations, rosters

router = APIRouter(prefix=common.PREFIX, tags=["rosters"])


class NewInvitation(common.Body):
    model_config = ConfigDict(populate_by_name=True, json_schema_extra=common.required("to"))

    to: common.Received = Field(None, examples=["friend@example.com"], description="An email address or a player's username",
                         json_schema_extra=common.text(254))  # fmt: skip


class RoleChange(common.Body):
    model_config = ConfigDict(populate_by_name=True, json_schema_extra=common.required("role"))

    role: common.Received = Field(None, examples=["Co-captain"], description="Captain hands over the captaincy",
                           json_schema_extra=common.one_of(MemberRole))  # fmt: skip


def _roster(found: rosters.Roster) -> common.Row:
    out = common.with_ids({k: v for k, v in found.items() if k not in ("members", "invitations")})
    out["members"] = [common.with_ids(m) for m in found["members"]]
    out["invitations"] = [common.with_ids(i) for i in found["invitations"]]
    return out


def _changed(db: Session, actor: Actor, team_id: str, change: Callable[[Session], object]) -> common.Row:
    """Run ``change`` then answer the roster as it is now (a member who left no longer sees it: then the team's id
    alone)."""
    change(db)
    try:
        return _roster(rosters.roster(db, actor, team_id))
    except Forbidden:
        return {"teamId": team_id, "members": [], "invitations": []}


@router.get("/teams/{team_id}/roster", openapi_extra=common.access(common.LOGGED_IN), responses={**common.ERRORS})
def get_roster(team_id: str, actor: Actor = Depends(common.acting)) -> common.Row:
    """The team's members (captain, co-captains, players) with what the caller may do to each, the league's size
    and women-on-court rules against it, and (for those who run it) the invitations waiting. Members, the league's
    SVL and admins."""
    return _roster(common.call(rosters.roster, actor, team_id))


@router.post("/teams/{team_id}/invitations", status_code=201, openapi_extra=common.access(common.LOGGED_IN), responses={**common.ERRORS})
def invite(team_id: str, body: NewInvitation, actor: Actor = Depends(common.acting)) -> common.Row:
    """Invite an address or a username (the captain, a co-captain, the league's SVL or an admin): a signed link
    valid 14 days is emailed. A full roster, a member, an address already invited are refused (422); so many a
    day (429)."""
    return common.with_ids(common.call(invitations.invite, actor, team_id, to=body.to))


@router.delete("/teams/{team_id}/invitations/{invitation_id}", openapi_extra=common.access(common.LOGGED_IN), responses={**common.ERRORS})
def withdraw_invitation(team_id: str, invitation_id: str, actor: Actor = Depends(common.acting)) -> common.Row:
    """Withdraw a waiting invitation: its link stops working (the invitation is kept, Withdrawn)."""
    return common.with_ids(common.call(invitations.withdraw, actor, team_id, invitation_id))


@router.post("/teams/{team_id}/leave", openapi_extra=common.access(common.LOGGED_IN), responses={**common.ERRORS})
def leave(team_id: str, actor: Actor = Depends(common.acting)) -> common.Row:
    """The caller leaves the team (the captain hands over the captaincy first: 422 until then)."""
    return common.call(_changed, actor, team_id, lambda db: rosters.leave(db, actor, team_id))


@router.delete("/teams/{team_id}/members/{user_id}", openapi_extra=common.access(common.LOGGED_IN), responses={**common.ERRORS})
def remove_member(team_id: str, user_id: str, actor: Actor = Depends(common.acting)) -> common.Row:
    """Take a member off the roster (the captain; a co-captain for players; the league's SVL or an admin). The
    membership is kept, ended; the member and the team are emailed. Answers the roster."""
    return common.call(_changed, actor, team_id, lambda db: rosters.remove_member(db, actor, team_id, user_id))


@router.patch("/teams/{team_id}/members/{user_id}", openapi_extra=common.access(common.LOGGED_IN), responses={**common.ERRORS})
def change_role(team_id: str, user_id: str, body: RoleChange, actor: Actor = Depends(common.acting)) -> common.Row:
    """Make a member co-captain or player, or hand them the captaincy (the captain, the league's SVL or an admin).
    Answers the roster."""
    return common.call(_changed, actor, team_id, lambda db: rosters.set_role(db, actor, team_id, user_id, body.role))


@router.get("/leagues/{league_id}/rosters", openapi_extra=common.access(common.OPERATOR), responses={**common.ERRORS})
def league_rosters(league_id: str, request: Request, response: Response, actor: Actor = Depends(common.acting)) -> list[common.Row]:
    """Every member of the league's teams (its SVL or an admin) a page at a time, by team; ``search`` (a name,
    username or team); ``page`` (the bookmark of X-Next-Page / X-Previous-Page) and ``size``; the total in
    X-Total-Count."""
    p = common.list_params(request)
    found = common.call(rosters.league_rosters, actor, league_id=league_id, filters={"q": p["search"]},
                 bookmark=p["bookmark"], size=p["size"])  # fmt: skip
    return common.paged(response, found)
