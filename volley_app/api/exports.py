"""CSV exports over HTTP (``services.operations.exports``): for the league's SVL and admins, by bearer token or signed link."""

from __future__ import annotations

from fastapi import Depends, FastAPI, Request, Response
from fastapi.responses import JSONResponse

from volley_app import db
from volley_app.api.deps import current_actor
from volley_app.services.core.actors import Actor
from volley_app.services.core.errors import DomainError
from volley_app.services.operations import exports


def create_exports_api() -> FastAPI:
    """The export routes, mounted in front of the app like the REST API."""
    api = FastAPI(docs_url=None, openapi_url=None, redoc_url=None, swagger_ui_oauth2_redirect_url=None)

    @api.exception_handler(DomainError)
    async def _refused(_request: Request, exc: DomainError) -> JSONResponse:
        return JSONResponse({"message": exc.message}, status_code=exc.status_code)

    @api.get("/api/exports/leagues/{league_id}/{kind}.csv")
    def export(league_id: str, kind: str, request: Request, actor: Actor | None = Depends(current_actor)) -> Response:
        link = {k: request.query_params.get(k, "") for k in ("u", "e", "s")}
        found = db.call(exports.export_by_link, actor, league_id, kind, link=link)
        return Response(found["data"], media_type="text/csv; charset=utf-8", headers={
            "Content-Disposition": f'attachment; filename="{found["name"]}"', "Cache-Control": "private, no-store",
        })  # fmt: skip

    return api
