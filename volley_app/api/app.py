"""The REST API, mounted under /api in the Reflex backend. Thin: every rule is in services/."""

from __future__ import annotations

from fastapi import Depends, FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from volley_app import db
from volley_app.api import schemas
from volley_app.api.deps import bearer_token, client_ip, current_actor
from volley_app.services import accounts, auth, payments, registration
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

    # --- Stripe webhook (signature checked on the raw body) ----------------------------------------
    @api.post(f"{API_PREFIX}/stripe/webhook")
    async def stripe_webhook(request: Request):
        payload = await request.body()
        event = payments.parse_webhook(payload, request.headers.get("stripe-signature"))
        outcome = await db.run(registration.handle_stripe_event, event)
        return {"received": True, "outcome": outcome}

    return api
