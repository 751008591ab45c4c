"""The REST API, mounted under /api in the Reflex backend. Thin: every rule is in services/."""

from __future__ import annotations

from fastapi import Depends, FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from volley_app import db
from volley_app.api import schemas
from volley_app.api.deps import bearer_token, client_ip, current_actor
from volley_app.services import accounts, auth, leagues, payments, registration, sub_requests
from volley_app.services.errors import DomainError, Invalid
from volley_app.services.permissions import Actor, require_actor
from volley_app.settings import get_settings

API_PREFIX = "/api"


def _token_body(result: auth.LoginResult) -> schemas.AccessToken:
    return schemas.AccessToken(accessToken=result.token, expiresAt=result.expires_at.isoformat())


def create_api() -> FastAPI:
    """The REST API. Its docs (/api/docs, /api/openapi.json) exist only outside production."""
    hidden = get_settings().is_production
    api = FastAPI(
        title="Volleyball leagues API",
        docs_url=None if hidden else f"{API_PREFIX}/docs",
        openapi_url=None if hidden else f"{API_PREFIX}/openapi.json",
        redoc_url=None,
        swagger_ui_oauth2_redirect_url=None,
    )

    @api.exception_handler(DomainError)
    async def _domain_error(_request: Request, exc: DomainError) -> JSONResponse:
        body: dict = {"message": exc.message}
        if isinstance(exc, Invalid):
            body["errors"] = exc.errors
        return JSONResponse(body, status_code=exc.status_code)

    @api.exception_handler(RequestValidationError)
    async def _bad_body(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = {".".join(str(p) for p in e["loc"][1:]) or "body": e["msg"] for e in exc.errors()}
        return JSONResponse({"message": "The request is not valid.", "errors": errors}, status_code=422)

    @api.post(f"{API_PREFIX}/auth", response_model=schemas.AccessToken)
    def login(body: schemas.Credentials, request: Request):
        result = db.call(
            auth.login, username=body.username, password=body.password, trusted=body.trusted, client=client_ip(request)
        )
        return _token_body(result)

    @api.post(f"{API_PREFIX}/auth/logout", status_code=204)
    def logout(request: Request):
        db.call(auth.logout, bearer_token(request))
        return Response(status_code=204)

    @api.get(f"{API_PREFIX}/auth/refresh", response_model=schemas.AccessToken)
    def refresh(request: Request):
        """Confirms a session still holds (spec: a refresh that fails answers 403 'Your login has expired.')."""
        token = bearer_token(request)
        actor = db.call(auth.resolve, token) if token else None
        if actor is None:
            return JSONResponse({"message": auth.SESSION_EXPIRED}, status_code=403)
        expires = db.call(auth.session_expiry, token)
        return schemas.AccessToken(accessToken=token, expiresAt=expires.isoformat())

    @api.post(f"{API_PREFIX}/users", response_model=schemas.AccessToken, status_code=201)
    def signup(body: schemas.Signup, request: Request):
        result = db.call(accounts.signup, **body.model_dump(), trusted=True, client=client_ip(request))
        return _token_body(result)

    @api.get(f"{API_PREFIX}/users/me", response_model=schemas.Me)
    def me(actor: Actor | None = Depends(current_actor)):
        actor = require_actor(actor)
        return schemas.Me(
            id=actor.user_id, username=actor.username, roles=list(actor.roles), status=actor.status, firstName=actor.first_name
        )

    @api.get(f"{API_PREFIX}/sub-requests/open")
    def open_requests(request: Request, actor: Actor | None = Depends(current_actor)):
        """One page of the open sub requests (as the Open Sub Requests screen shows): ``page`` is a bookmark."""
        params = request.query_params
        filters = {k: params.get(k, "") for k in sub_requests.REQUEST_FILTERS}
        found = db.call(sub_requests.list_open, actor, filters=filters, bookmark=params.get("page", ""))
        rows = [{k: v for k, v in r.items() if k not in ("date", "local_input")} for r in found.rows]
        return {"rows": rows, "total": found.total, "next": found.next, "previous": found.previous}

    @api.get(f"{API_PREFIX}/leagues/{{league_id}}/bracket")
    def bracket(league_id: str, request: Request, actor: Actor | None = Depends(current_actor)):
        """A league's tournament bracket, for a reader with a bearer token or a link signed for them."""
        link = {k: request.query_params.get(k, "") for k in ("u", "e", "s")}
        found = db.call(leagues.bracket_file, actor, league_id, link=link)
        cache = {"ETag": found["etag"], "Cache-Control": "private, max-age=3600", "Vary": "Authorization"}
        if found["etag"] in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=cache)
        image = found["content_type"].startswith("image/")
        disposition = "inline" if image else 'attachment; filename="tournament-bracket"'
        return Response(found["data"], media_type=found["content_type"],
                        headers=cache | {"Content-Disposition": disposition})  # fmt: skip

    # --- Stripe webhook (signature checked on the raw body) ----------------------------------------
    @api.post(f"{API_PREFIX}/stripe/webhook")
    async def stripe_webhook(request: Request):
        payload = await request.body()
        event = payments.parse_webhook(payload, request.headers.get("stripe-signature"))
        outcome = await db.run(registration.handle_stripe_event, event)
        return {"received": True, "outcome": outcome}

    return api
