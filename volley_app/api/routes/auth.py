"""/auth: login, refresh (rotating the refresh cookie), logout, logout everywhere; /users signup."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema
from pydantic.json_schema import JsonDict
from sqlmodel import Session

from volley_app.api.deps import bearer_token, client_ip
from volley_app.api.routes import common
from volley_app.services.accounts import auth, tokens
from volley_app.services.core.actors import Actor
from volley_app.settings import get_settings

router = APIRouter(prefix=common.PREFIX, tags=["auth"])
COOKIE_PATH = f"{common.PREFIX}/auth"
# This client's device token: set at a successful login, it makes the client a known device of the account.
DEVICE_COOKIE = "device"


LOGIN_TEXT: JsonDict = {"type": "string", "minLength": 1, "pattern": r"^[A-Za-z0-9.!@#$%^_+{}:;\"'<>/?~`&*()-]+$"}


TrueOrFalse = Annotated[bool | None, WithJsonSchema({}), common.only(bool | None, "trusted", "Trusted must be true or false")]


class Credentials(common.Body):
    model_config = ConfigDict(json_schema_extra=common.required("username", "password"))

    username: common.Received = Field("", examples=["pat"], json_schema_extra={**LOGIN_TEXT, "maxLength": 50})
    password: common.Received = Field("", examples=["pass1"], json_schema_extra={**LOGIN_TEXT, "maxLength": 100})
    trusted: TrueOrFalse = Field(True, description="Trust this device: the login lasts 30 days instead of 12 hours",
                                 json_schema_extra={"type": ["boolean", "null"]})  # fmt: skip


class AccessToken(BaseModel):
    accessToken: str = Field(examples=["eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9..."])  # noqa: N815 - the spec's name
    expiresAt: str = Field(examples=["2026-11-22T01:45:00+00:00"])  # noqa: N815


def _with_cookie(result: tokens.Tokens, status: int = 200, device: str = "") -> JSONResponse:
    response = JSONResponse(
        {"accessToken": result.access, "expiresAt": result.access_expires.isoformat()}, status_code=status
    )
    settings = get_settings()
    if device:
        response.set_cookie(DEVICE_COOKIE, device, max_age=auth.DEVICE_DAYS * 86400, path=COOKIE_PATH, httponly=True,
                            secure=settings.public_url.lower().startswith("https://"), samesite="strict")  # fmt: skip
    response.set_cookie(
        tokens.REFRESH_COOKIE,
        result.refresh,
        expires=result.refresh_expires,
        path=COOKIE_PATH,
        httponly=True,
        secure=settings.public_url.lower().startswith("https://"),
        samesite="strict",
    )
    return response


def _clear_cookie(response: Response) -> None:
    response.delete_cookie(tokens.REFRESH_COOKIE, path=COOKIE_PATH, httponly=True, samesite="strict")


def _login(
    db: Session, *, username: common.Received, password: common.Received, trusted: bool | None, client: str, device: str
) -> tuple[tokens.Tokens, str]:
    user = auth.check_credentials(db, username=username, password=password, client=client, device=device)
    return tokens.issue(db, auth.actor_of(user), trusted=trusted is not False), auth.remember_device(db, user, device)


@router.post("/auth", response_model=AccessToken, openapi_extra=common.access(common.ANYONE),
             responses={400: {"model": common.Message, "description": "Missing Username or Password"},
                        401: {"model": common.Message, "description": "Unauthorized (unknown user or wrong password)"},
                        202: {"model": common.Message, "description": auth.LINK_SENT},
                        429: common.ERRORS[429]})  # fmt: skip
def login(body: Credentials, request: Request) -> JSONResponse:
    """Log in: a 15-minute access token, and the refresh token in an httpOnly cookie.

    The client becomes a known device of the account (the httpOnly ``device`` cookie). While the account's
    failed-login ceiling holds, a client that is not a known device and has not failed on it gets 202, and
    with the right password a one-time sign-in link by email."""
    result, device = common.call(_login, username=body.username, password=body.password, trusted=body.trusted,
                          client=client_ip(request), device=request.cookies.get(DEVICE_COOKIE, ""))  # fmt: skip
    return _with_cookie(result, device=device)


@router.get("/auth/refresh", response_model=AccessToken, openapi_extra=common.access(common.ANYONE),
            responses={403: {"model": common.Message, "description": "Your login has expired."}})  # fmt: skip
def refresh(request: Request) -> JSONResponse:
    """A new access token for the refresh cookie, which is replaced by a new one (each works once)."""
    result = common.call(tokens.rotate, request.cookies.get(tokens.REFRESH_COOKIE, ""))
    return _with_cookie(result)


def _logout(db: Session, refresh_token: str, access_token: str) -> None:
    if refresh_token:
        tokens.logout(db, refresh_token)
    if access_token.count(".") == 2:
        tokens.logout_access(db, access_token)
    elif access_token:
        auth.logout(db, access_token)


@router.post("/auth/logout", status_code=204, openapi_extra=common.access(common.ANYONE))
def logout(request: Request) -> Response:
    """End this login (the refresh cookie's, and the bearer token's): its refresh token and every access token
    it gave. Answers 204 even without one."""
    common.call(_logout, request.cookies.get(tokens.REFRESH_COOKIE, ""), bearer_token(request))
    response = Response(status_code=204)
    _clear_cookie(response)
    return response


@router.post("/auth/logout/all", status_code=204, openapi_extra=common.access(common.LOGGED_IN),
             responses={401: common.ERRORS[401], 403: common.ERRORS[403]})  # fmt: skip
def logout_everywhere(actor: Actor = Depends(common.acting)) -> Response:
    """End every login of the caller's account: other devices, browser sessions, API tokens."""
    common.call(auth.logout_everywhere, actor)
    response = Response(status_code=204)
    _clear_cookie(response)
    return response
