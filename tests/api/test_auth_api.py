"""The REST auth API (spec sections 7 and 8) through the ASGI app, on the real test database."""

from __future__ import annotations

import datetime as dt

import httpx
import pytest
import sqlalchemy as sa

from tests.factories import age_login_attempts, count, rows
from volley_app.api.app import create_api
from volley_app.models import LoginAttempt, LoginSession, RefreshToken, User, utcnow
from volley_app.services.accounts import tokens

SIGNUP = {
    "username": "NewPlayer",
    "password": "pass1",
    "email": "New.Player@Example.com",
    "firstName": "New",
    "lastName": "Player",
    "region": "KY",
}


@pytest.fixture
async def client(db):
    """An HTTP client on the API; the ``db`` fixture empties every table afterwards."""
    transport = httpx.ASGITransport(app=create_api(), client=("198.51.100.4", 50000))
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
        yield c


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _signup(client, **kw) -> str:
    response = await client.post("/api/users", json=SIGNUP | kw)
    assert response.status_code == 201, response.text
    return response.json()["accessToken"]


# --- POST /api/users (signup) -------------------------------------------------------


async def test_signup_creates_a_player_and_returns_a_token(client, db):
    response = await client.post("/api/users", json=SIGNUP)
    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"accessToken", "expiresAt"}
    assert body["accessToken"]
    expires = dt.datetime.fromisoformat(body["expiresAt"])
    assert expires.tzinfo is not None and utcnow() + dt.timedelta(minutes=14) < expires <= utcnow() + dt.timedelta(minutes=15)
    [refresh] = rows(db, RefreshToken)
    assert refresh.expires_at > utcnow() + dt.timedelta(days=29)
    assert count(db, LoginSession) == 0  # the API's login is its tokens, not a browser session

    [user] = rows(db, User)
    assert (user.username, user.email, user.first_name, user.last_name, user.region, user.roles) == (
        "newplayer", "new.player@example.com", "New", "Player", "KY", ["Player"],
    )  # fmt: skip

    me = await client.get("/api/users/me", headers=_bearer(body["accessToken"]))
    assert me.status_code == 200
    assert me.json()["username"] == "newplayer"


async def test_signup_with_bad_input_is_422_with_every_field_and_creates_nobody(client, db):
    response = await client.post(
        "/api/users",
        json={"username": "x", "password": "a b", "email": "nope", "firstName": "", "lastName": "", "region": "ZZ"},
    )
    assert response.status_code == 422
    body = response.json()
    assert set(body["errors"]) == {"username", "password", "email", "firstName", "lastName", "region"}
    assert body["message"]
    assert count(db, User) == 0


async def test_signup_with_an_empty_body_is_422_with_errors(client, db):
    response = await client.post("/api/users", json={})
    assert response.status_code == 422
    assert set(response.json()["errors"]) >= {"username", "password", "email"}
    assert count(db, User) == 0


@pytest.mark.parametrize("change", [{"username": "NEWPLAYER", "email": "x@example.com"}, {"username": "x2x", "email": "NEW.PLAYER@example.com"}])
async def test_signup_duplicate_is_409_and_adds_nobody(client, db, change):
    await _signup(client)
    response = await client.post("/api/users", json=SIGNUP | change)
    assert response.status_code == 409  # well formed, but taken: a conflict with what is stored
    assert set(response.json()["errors"]) & {"username", "email"}
    assert count(db, User) == 1


async def test_signup_cannot_choose_roles(client, db):
    await _signup(client, roles=["Admin"], active=True, sub=True)
    [user] = rows(db, User)
    assert user.roles == ["Player"]


# --- POST /api/auth (login) ------------------------------------------------------------


async def test_login_returns_a_token(client, db):
    await _signup(client)
    response = await client.post("/api/auth", json={"username": "NewPlayer", "password": "pass1"})
    assert response.status_code == 200
    token = response.json()["accessToken"]
    me = await client.get("/api/users/me", headers=_bearer(token))
    assert me.json()["username"] == "newplayer"
    cookie = response.headers["set-cookie"].lower()
    assert "refresh_token=" in cookie and "httponly" in cookie and "samesite=strict" in cookie
    assert "path=/api/auth" in cookie and "secure" not in cookie  # the test address is http


async def test_untrusted_login_refreshes_for_12_hours(client, db):
    await _signup(client)
    await client.post("/api/auth", json={"username": "newplayer", "password": "pass1", "trusted": False})
    newest = rows(db, RefreshToken)[-1]
    assert utcnow() + dt.timedelta(hours=11) < newest.expires_at <= utcnow() + dt.timedelta(hours=12)


@pytest.mark.parametrize(
    "body",
    [{}, {"username": "newplayer"}, {"password": "pass1"}, {"username": "", "password": "pass1"}, {"username": "newplayer", "password": ""}],
)
async def test_login_missing_username_or_password_is_400(client, body):
    await _signup(client)
    response = await client.post("/api/auth", json=body)
    assert response.status_code == 400
    assert response.json() == {"message": "Missing Username or Password"}


async def test_login_unknown_user_and_wrong_password_are_the_same_401(client):
    await _signup(client)
    wrong = await client.post("/api/auth", json={"username": "newplayer", "password": "wrong"})
    unknown = await client.post("/api/auth", json={"username": "nobody", "password": "pass1"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() == {"message": "Unauthorized"}


async def test_login_is_throttled_with_429_and_the_owner_gets_in_after_the_wait(client, db):
    await _signup(client)
    for _ in range(3):
        assert (await client.post("/api/auth", json={"username": "newplayer", "password": "bad"})).status_code == 401
    assert count(db, LoginAttempt) == 3
    response = await client.post("/api/auth", json={"username": "newplayer", "password": "pass1"})
    assert response.status_code == 429
    assert "wait 2 seconds" in response.json()["message"]
    assert "accessToken" not in response.json()
    # Once the wait has passed the right password works again.
    age_login_attempts(db, dt.timedelta(seconds=3))
    response = await client.post("/api/auth", json={"username": "newplayer", "password": "pass1"})
    assert response.status_code == 200


# --- GET /api/users/me -------------------------------------------------------------------


async def test_me_returns_own_data_and_no_password_hash(client, db):
    token = await _signup(client)
    response = await client.get("/api/users/me", headers=_bearer(token))
    assert response.status_code == 200
    body = response.json()
    [user] = rows(db, User)
    assert body == {"id": user.id, "username": "newplayer", "roles": ["Player"], "status": "Player", "firstName": "New"}
    assert user.password_hash not in response.text
    assert "$2b$" not in response.text
    assert "password" not in response.text.lower()
    assert token not in response.text


@pytest.mark.parametrize(
    "headers",
    [{}, {"Authorization": "Bearer "}, {"Authorization": "Basic bmV3cGxheWVyOnBhc3Mx"}, {"Authorization": "garbage"}],
)
async def test_me_without_a_token_is_401(client, headers):
    await _signup(client)
    response = await client.get("/api/users/me", headers=headers)
    assert response.status_code == 401
    assert response.json() == {"message": "Unauthorized"}


@pytest.mark.parametrize("token", ["garbage", "x" * 5000, "a.b.c"])
async def test_me_with_an_invalid_token_is_403_so_clients_refresh(client, token):
    await _signup(client)
    response = await client.get("/api/users/me", headers=_bearer(token))
    assert response.status_code == 403


async def test_me_with_the_token_in_another_scheme_is_401(client):
    token = await _signup(client)
    response = await client.get("/api/users/me", headers={"Authorization": f"Token {token}"})
    assert response.status_code == 401


async def test_two_users_each_see_only_themselves(client):
    a = await _signup(client)
    b = await _signup(client, username="other", email="other@example.com", firstName="Oth")
    assert (await client.get("/api/users/me", headers=_bearer(a))).json()["username"] == "newplayer"
    assert (await client.get("/api/users/me", headers=_bearer(b))).json()["username"] == "other"


# --- refresh and logout ------------------------------------------------------------------


async def test_refresh_rotates_the_cookie_and_gives_a_new_access_token(client, db):
    await _signup(client)
    first = client.cookies.get(tokens.REFRESH_COOKIE)
    response = await client.get("/api/auth/refresh")
    assert response.status_code == 200
    body = response.json()
    assert (await client.get("/api/users/me", headers=_bearer(body["accessToken"]))).status_code == 200
    second = client.cookies.get(tokens.REFRESH_COOKIE)
    assert first and second and first != second
    assert count(db, RefreshToken, RefreshToken.used_at.is_not(None)) == 1


async def test_refresh_after_logout_is_403_login_expired(client, db):
    token = await _signup(client)
    response = await client.post("/api/auth/logout", headers=_bearer(token))
    assert response.status_code == 204
    refresh = await client.get("/api/auth/refresh")
    assert refresh.status_code == 403
    assert refresh.json() == {"message": "Your login has expired."}
    # the access token of that login ends with it
    assert (await client.get("/api/users/me", headers=_bearer(token))).status_code == 403


async def test_logout_ends_only_that_login(client, db):
    token = await _signup(client)
    client.cookies.clear()
    other = (await client.post("/api/auth", json={"username": "newplayer", "password": "pass1"})).json()["accessToken"]
    saved = dict(client.cookies)
    client.cookies.clear()
    assert (await client.post("/api/auth/logout", headers=_bearer(token))).status_code == 204
    client.cookies.update(saved)
    assert (await client.get("/api/users/me", headers=_bearer(token))).status_code == 403
    assert (await client.get("/api/users/me", headers=_bearer(other))).status_code == 200
    assert (await client.get("/api/auth/refresh")).status_code == 200


async def test_refresh_without_a_cookie_is_403(client):
    response = await client.get("/api/auth/refresh", headers={"Cookie": f"{tokens.REFRESH_COOKIE}=garbage"})
    assert response.status_code == 403
    assert response.json() == {"message": "Your login has expired."}
    assert (await client.get("/api/auth/refresh")).status_code == 403


async def test_refresh_after_expiry_is_403(client, db):
    await _signup(client)
    db.exec(sa.update(RefreshToken).values(expires_at=utcnow() - dt.timedelta(seconds=1)))
    db.commit()
    response = await client.get("/api/auth/refresh")
    assert response.status_code == 403
    assert response.json() == {"message": "Your login has expired."}


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer garbage"}])
async def test_logout_without_a_login_changes_nothing(client, db, headers):
    await _signup(client)
    saved = dict(client.cookies)
    client.cookies.clear()
    response = await client.post("/api/auth/logout", headers=headers)
    assert response.status_code == 204
    assert count(db, RefreshToken, RefreshToken.revoked_at.is_not(None)) == 0
    client.cookies.update(saved)
    assert (await client.get("/api/auth/refresh")).status_code == 200


# --- bodies of the wrong shape ----------------------------------------------------------
#
# A body whose fields are not strings (null, a number) must reach the services, not stop at
# FastAPI's own validation (422 {"detail": [...]}, with no "message" as spec section 8 wants).
# Login without a usable username/password answers 400 'Missing Username or Password'; a bad
# signup 422 with "errors".


@pytest.mark.parametrize(
    "body",
    [{"username": None, "password": "pass1"}, {"username": "newplayer", "password": None}, {"username": 5, "password": "pass1"}],
)
async def test_login_with_non_text_fields_is_400_missing(client, body):
    response = await client.post("/api/auth", json=body)
    assert response.status_code == 400, response.text
    assert response.json() == {"message": "Missing Username or Password"}


async def test_signup_with_non_text_fields_is_422_with_errors(client, db):
    response = await client.post("/api/users", json=SIGNUP | {"username": 5, "region": None})
    assert response.status_code == 422
    body = response.json()
    assert "message" in body and "errors" in body, body
    assert {"username", "region"} <= set(body["errors"])
    assert count(db, User) == 0


# --- signup limit (probing which addresses have accounts stays slow) ---------------------------------------


async def test_signups_from_one_client_that_find_an_address_taken_are_limited(client, db):
    from volley_app.services.core import ratelimit

    await _signup(client)
    answers = []
    for i in range(ratelimit.SIGNUP_TAKEN.limit + 1):
        # The same address again: "already exists" tells the prober something, so these count.
        response = await client.post("/api/users", json=SIGNUP | {"username": f"probe{i}"})
        answers.append(response.status_code)
    assert answers == [409] * ratelimit.SIGNUP_TAKEN.limit + [429]
    assert "Please wait" in (await client.post("/api/users", json=SIGNUP | {"username": "late"})).json()["message"]
    assert count(db, User) == 1


# --- nobody locks the owner out ------------------------------------------------------------------


def _from(address: str) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=create_api(), client=(address, 50000))
    return httpx.AsyncClient(transport=transport, base_url="http://test")


async def _spray(username: str, n: int) -> None:
    """``n`` wrong passwords on ``username``, each from another address."""
    for i in range(n):
        async with _from(f"203.0.113.{i + 1}") as guesser:
            response = await guesser.post("/api/auth", json={"username": username, "password": "wrong"})
            assert response.status_code == 401, response.text


def _sign_in_mails(db) -> list:
    from volley_app.models import OutboxMessage

    db.expire_all()
    return [m for m in rows(db, OutboxMessage) if m.kind == "sign_in_link"]


async def test_at_the_account_ceiling_the_owner_gets_a_sign_in_link_not_a_wait(client, db, settings):
    from tests.factories import make_user
    from volley_app.services.accounts import auth

    make_user(db, "erin")
    await _spray("erin", settings.login_max_failures_per_account)
    response = await client.post("/api/auth", json={"username": "erin", "password": "pass1"})
    assert response.status_code == 202, response.text
    assert response.json() == {"message": auth.LINK_SENT}
    assert "we emailed you a sign-in link" in response.json()["message"]
    assert tokens.REFRESH_COOKIE not in response.cookies and "accessToken" not in response.json()
    [mail] = _sign_in_mails(db)
    assert mail.to_addr == "erin@example.com" and "/signIn/" in mail.body_text
    assert count(db, RefreshToken) == 0


async def test_an_api_login_makes_the_client_a_known_device_that_the_ceiling_does_not_hold(client, db, settings):
    from tests.factories import make_user

    make_user(db, "erin")
    first = await client.post("/api/auth", json={"username": "erin", "password": "pass1"})
    assert first.status_code == 200
    set_cookie = [h for h in first.headers.get_list("set-cookie") if h.startswith("device=")]
    assert set_cookie and "HttpOnly" in set_cookie[0] and "Path=/api/auth" in set_cookie[0]
    device = client.cookies.get("device")
    await _spray("erin", settings.login_max_failures_per_account)
    # The same device, from a new address: signs in as usual.
    async with _from("192.0.2.77") as laptop:
        again = await laptop.post("/api/auth", json={"username": "erin", "password": "pass1"},
                                  headers={"Cookie": f"device={device}"})  # fmt: skip
        assert again.status_code == 200, again.text
        assert "accessToken" in again.json()
    # The address the device used, without its cookie, is a new device.
    async with _from("198.51.100.4") as stranger:
        assert (await stranger.post("/api/auth", json={"username": "erin", "password": "pass1"})).status_code == 202
    assert len(_sign_in_mails(db)) == 1
