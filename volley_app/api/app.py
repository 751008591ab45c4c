"""The REST API, mounted under /api in the Reflex backend. Thin: every rule is in services/."""

from __future__ import annotations

from typing import Any

from fastapi import Depends, FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match
from starlette.types import Scope
from typing_extensions import TypedDict

from volley_app import db
from volley_app.api import routes
from volley_app.api.deps import current_actor
from volley_app.api.routes import common
from volley_app.api.routes.common import ANYONE, ERRORS, LOGGED_IN, access
from volley_app.services.core.actors import Actor
from volley_app.services.core.errors import DomainError, Invalid
from volley_app.services.money import payments
from volley_app.services.seasons import leagues
from volley_app.services.subs import request_lists
from volley_app.services.teams import registration
from volley_app.settings import get_settings

API_PREFIX = "/api"
NOT_JSON = "The body is not JSON."


def documented(api: FastAPI) -> dict[str, Any]:
    """The OpenAPI document, with the answers every route shares written as the API gives them:
    422 ``{"message", "errors": {field: message}}``, 400 for a body that is not JSON, and on a route
    that needs a login 401 (no token) and 403 (not allowed, or an invalid or expired token)."""
    if api.openapi_schema:
        return api.openapi_schema
    doc = get_openapi(title=api.title, version=api.version, description=API_DESCRIPTION, routes=api.routes)
    shapes = doc.setdefault("components", {}).setdefault("schemas", {})
    shapes["Message"] = common.Message.model_json_schema()
    shapes["Invalid"] = common.Invalid.model_json_schema()
    shapes.pop("HTTPValidationError", None)
    shapes.pop("ValidationError", None)
    message = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Message"}}}}
    for operations in doc.get("paths", {}).values():
        for op in operations.values():
            answers = op.setdefault("responses", {})
            answers["422"] = {"description": "A field is not valid: its message by the field's name",
                              "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Invalid"},
                                                               "example": {"message": "Team is required",
                                                                           "errors": {"team": "Team is required"}}}}}  # fmt: skip
            listed = answers.get("200", {}).get("content", {}).get("application/json", {}).get("schema", {})
            if listed.get("type") == "array":
                answers["200"]["headers"] = {
                    common.TOTAL_HEADER: {"description": "How many rows the whole list has",
                                          "schema": {"type": "string", "pattern": "^[0-9]+$"}, "required": True},
                    common.NEXT_HEADER: {"description": "The next page's `page` (absent on the last page)",
                                         "schema": {"type": "string"}},
                    common.PREVIOUS_HEADER: {"description": "The previous page's `page`", "schema": {"type": "string"}},
                }  # fmt: skip
            if "requestBody" in op:
                answers.setdefault("400", {"description": "The body is not JSON"} | message)
            if op.get("x-access", common.ANYONE) != common.ANYONE:
                answers.setdefault("401", {"description": "No access token was sent"} | message)
                answers.setdefault("403", {"description": "Not allowed, or the token is invalid or expired "
                                                          "(refresh, then retry once)"} | message)  # fmt: skip
    api.openapi_schema = doc
    return doc


def allowed_methods(api: FastAPI, scope: Scope) -> list[str]:
    """Every method the API has a route for at this request's path (HEAD with GET), in a steady order."""
    found: set[str] = set()
    for route in api.routes:
        if isinstance(route, APIRoute) and route.matches(scope)[0] != Match.NONE:
            found |= route.methods or set()
    order = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")
    return sorted(found, key=lambda m: order.index(m) if m in order else len(order))


def error_key(request: Request, field: str) -> str:
    """A field's name in an error as the caller sent it: a query parameter's own name; a body field by the name the
    body gives it (its alias, or the model's ``ERROR_NAMES`` for a field the service names otherwise); else in
    camelCase like the bodies."""
    if field in request.query_params:
        return field
    route = request.scope.get("route")
    body = getattr(getattr(route, "body_field", None), "field_info", None)
    model = getattr(body, "annotation", None)
    if isinstance(model, type) and issubclass(model, BaseModel):
        named = getattr(model, "ERROR_NAMES", {})
        if field in named:
            return named[field]
        if field in model.model_fields:
            info = model.model_fields[field]
            choices = getattr(info.validation_alias, "choices", None)
            alias = info.alias or (choices[0] if choices and isinstance(choices[0], str) else None)
            return alias or field
    return common.camel(field)


class OpenRequests(TypedDict):
    """A page of the open sub requests, as the Open Sub Requests screen shows it; ``next`` and ``previous`` are the
    bookmarks either side ("" at an end)."""

    rows: list[common.Row]
    total: int
    capped: bool
    next: str
    previous: str


class StripeAnswer(TypedDict):
    received: bool
    outcome: str


class Api(FastAPI):
    """The REST API, its OpenAPI document as :func:`documented` writes it."""

    def openapi(self) -> dict[str, Any]:
        return documented(self)


API_DESCRIPTION = """The spec's API (section 7). Log in with `POST /api/auth`: the answer's `accessToken` (15 minutes)
goes in `Authorization: Bearer ...`; the refresh token comes as an httpOnly cookie, and `GET /api/auth/refresh`
trades it for a new access token (and a new cookie: each works once). A call that answers 403 may be refreshed
and retried once; a refresh that answers 403 means 'Your login has expired.'. Lists are paged: `page` (the
`X-Next-Page` of the last answer), `search`, `size`; the total is in `X-Total-Count`, counted up to 1000: a list
with more rows answers `X-Total-Count: 1000` and `X-Total-Capped: true`. Objects carry `id` and `_id`; an error's
`errors` names each field as the body (or the query) names it. Stripe posts its events, signed, to
`/api/stripe/webhook` (400 when the signature is not Stripe's)."""


def create_api() -> FastAPI:
    """The REST API. Its docs (/api/docs, /api/openapi.json) exist only outside production."""
    hidden = get_settings().is_production
    api = Api(
        title="Volleyball leagues API",
        docs_url=None if hidden else f"{API_PREFIX}/docs",
        openapi_url=None if hidden else f"{API_PREFIX}/openapi.json",
        redoc_url=None,
        swagger_ui_oauth2_redirect_url=None,
    )

    @api.exception_handler(DomainError)
    async def _domain_error(request: Request, exc: DomainError) -> JSONResponse:
        body: dict = {"message": exc.message}
        if isinstance(exc, Invalid):
            body["errors"] = {error_key(request, k): v for k, v in exc.errors.items()}
        return JSONResponse(body, status_code=exc.status_code)

    @api.exception_handler(RequestValidationError)
    async def _bad_body(_request: Request, exc: RequestValidationError) -> JSONResponse:
        """A body that is not JSON answers 400, as the document says; one whose shape is not the route's, 422."""
        if any(e.get("type") == "json_invalid" for e in exc.errors()):
            return JSONResponse({"message": NOT_JSON}, status_code=400)
        errors = {".".join(str(p) for p in e["loc"][1:]) or "body": e["msg"] for e in exc.errors()}
        return JSONResponse({"message": "The request is not valid.", "errors": errors}, status_code=422)

    @api.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> Response:
        """The framework's own refusals (a body that is not JSON, a wrong method) in the API's one shape. A method
        the path has no route for answers 405 with every method it has in ``Allow``; OPTIONS answers 204 with them."""
        if exc.status_code == 304:
            return Response(status_code=304, headers=exc.headers)
        if exc.status_code == 405:
            allow = ", ".join(allowed_methods(api, request.scope))
            if request.method == "OPTIONS":
                return Response(status_code=204, headers={"Allow": f"{allow}, OPTIONS"})
            return JSONResponse({"message": str(exc.detail)}, status_code=405, headers={"Allow": allow})
        return JSONResponse({"message": str(exc.detail)}, status_code=exc.status_code, headers=exc.headers)

    for router in routes.ROUTERS:
        api.router.routes.extend(router.routes)  # flat, so every route is an APIRoute of the app

    @api.get(f"{API_PREFIX}/sub-requests/open", openapi_extra=access(LOGGED_IN), responses={401: ERRORS[401], 403: ERRORS[403]})
    def open_requests(request: Request, actor: Actor | None = Depends(current_actor)) -> OpenRequests:
        """One page of the open sub requests (as the Open Sub Requests screen shows): ``page`` is a bookmark."""
        params = request.query_params
        filters = {k: params.get(k, "") for k in request_lists.REQUEST_FILTERS}
        found = db.call(request_lists.list_open, actor, filters=filters, bookmark=params.get("page", ""))
        rows: list[common.Row] = [{k: v for k, v in r.items() if k not in ("date", "local_input")} for r in found.rows]
        return {"rows": rows, "total": found.total, "capped": found.capped, "next": found.next, "previous": found.previous}

    @api.get(f"{API_PREFIX}/leagues/{{league_id}}/bracket", openapi_extra=access(ANYONE), responses={**ERRORS})
    def bracket(league_id: str, request: Request, actor: Actor | None = Depends(current_actor)) -> Response:
        """A league's tournament bracket, for a reader with a bearer token or a link signed for them."""
        link = {k: request.query_params.get(k, "") for k in ("u", "e", "s")}
        found = db.call(leagues.bracket_file, actor, league_id, link=link)
        cache = {"ETag": found["etag"], "Cache-Control": "private, max-age=3600", "Vary": "Authorization"}
        if found["etag"] in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=cache)
        image = found["content_type"].startswith("image/")
        disposition = "inline" if image else f'attachment; filename="{found["filename"]}"'
        return Response(found["data"], media_type=found["content_type"],
                        headers=cache | {"Content-Disposition": disposition})  # fmt: skip

    # --- Stripe webhook (signature checked on the raw body) ----------------------------------------
    # Stripe's own call, signed by Stripe: not a client's, so not in the document (see its description).
    @api.post(f"{API_PREFIX}/stripe/webhook", openapi_extra=access(ANYONE), include_in_schema=False)
    async def stripe_webhook(request: Request) -> StripeAnswer:
        payload = await request.body()
        event = payments.parse_webhook(payload, request.headers.get("stripe-signature"))
        outcome = await db.run(registration.handle_stripe_event, event)
        return {"received": True, "outcome": outcome}

    return api
