"""Calendar feeds over HTTP (``services.seasons.calendar``): the token in the address is the reader; unknown → 404."""

from __future__ import annotations

from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse

from volley_app import db, routes
from volley_app.services.core.errors import DomainError
from volley_app.services.seasons import calendar

ICS = "text/calendar; charset=utf-8"


def _ics(data: bytes, name: str) -> Response:
    return Response(data, media_type=ICS, headers={
        "Content-Disposition": f'inline; filename="{name}.ics"', "Cache-Control": "private, max-age=300",
        "X-Robots-Tag": "noindex",
    })  # fmt: skip


def create_feeds_api() -> FastAPI:
    """The calendar feed routes, mounted in front of the app like the REST API."""
    api = FastAPI(docs_url=None, openapi_url=None, redoc_url=None, swagger_ui_oauth2_redirect_url=None)
    base = routes.calendar_feeds_base

    @api.exception_handler(DomainError)
    async def _refused(_request: Request, exc: DomainError) -> JSONResponse:
        return JSONResponse({"message": exc.message}, status_code=exc.status_code)

    @api.get(base + "/{token}.ics")
    def personal(token: str) -> Response:
        return _ics(db.call(calendar.personal_feed, token), "my-volleyball")

    @api.get(base + "/{token}/leagues/{league_id}.ics")
    def league(token: str, league_id: str) -> Response:
        return _ics(db.call(calendar.league_feed, token, league_id), f"league-{league_id}")

    @api.get(base + "/{token}/teams/{team_id}.ics")
    def team(token: str, team_id: str) -> Response:
        return _ics(db.call(calendar.team_feed, token, team_id), f"team-{team_id}")

    return api
