"""The REST auth API (spec sections 7 and 8) through the ASGI app, on the real test database."""

from __future__ import annotations

import datetime as dt

import httpx
import pytest

from tests.factories import age_login_attempts, count, expire_logins, rows
from volley_app.api.app import create_api
from volley_app.models import LoginAttempt, LoginSession, User, utcnow

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
    assert expires.tzinfo is not None and expires > utcnow() + dt.timedelta(days=29)

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
    assert set(body["errors"]) == {"username", "password", "email", "first_name", "last_name", "region"}
    assert body["message"]
    assert count(db, User) == 0


async def test_signup_with_an_empty_body_is_422_with_errors(client, db):
    response = await client.post("/api/users", json={})
    assert response.status_code == 422
    assert set(response.json()["errors"]) >= {"username", "password", "email"}
    assert count(db, User) == 0


@pytest.mark.parametrize("change", [{"username": "NEWPLAYER", "email": "x@example.com"}, {"username": "x2x", "email": "NEW.PLAYER@example.com"}])
async def test_signup_duplicate_is_422_and_adds_nobody(client, db, change):
    await _signup(client)
    response = await client.post("/api/users", json=SIGNUP | change)
    assert response.status_code == 422
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
    assert all(r.client_ip == "198.51.100.4" for r in rows(db, LoginSession))


async def test_untrusted_login_lasts_12_hours(client):
    await _signup(client)
    response = await client.post("/api/auth", json={"username": "newplayer", "password": "pass1", "trusted": False})
    expires = dt.datetime.fromisoformat(response.json()["expiresAt"])
    assert utcnow() + dt.timedelta(hours=11) < expires <= utcnow() + dt.timedelta(hours=12)


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
    [
        {},
        {"Authorization": "Bearer "},
        {"Authorization": "Bearer garbage"},
        {"Authorization": "Bearer " + "x" * 5000},
        {"Authorization": "Basic bmV3cGxheWVyOnBhc3Mx"},
        {"Authorization": "garbage"},
    ],
)
async def test_me_without_a_valid_token_is_401(client, headers):
    await _signup(client)
    response = await client.get("/api/users/me", headers=headers)
    assert response.status_code == 401
    assert response.json() == {"message": "Unauthorized"}


async def test_me_with_the_token_in_another_scheme_is_401(client):
    token = await _signup(client)
    response = await client.get("/api/users/me", headers={"Authorization": f"Token {token}"})
    assert response.status_code == 401


async def test_me_after_the_session_expired_is_401(client, db):
    token = await _signup(client)
    expire_logins(db)
    assert (await client.get("/api/users/me", headers=_bearer(token))).status_code == 401


async def test_two_users_each_see_only_themselves(client):
    a = await _signup(client)
    b = await _signup(client, username="other", email="other@example.com", firstName="Oth")
    assert (await client.get("/api/users/me", headers=_bearer(a))).json()["username"] == "newplayer"
    assert (await client.get("/api/users/me", headers=_bearer(b))).json()["username"] == "other"


# --- refresh and logout ------------------------------------------------------------------


async def test_refresh_with_a_valid_session(client):
    token = await _signup(client)
    response = await client.get("/api/auth/refresh", headers=_bearer(token))
    assert response.status_code == 200
    body = response.json()
    assert body["accessToken"] == token
    assert dt.datetime.fromisoformat(body["expiresAt"]) > utcnow()


async def test_refresh_after_logout_is_403_login_expired(client, db):
    token = await _signup(client)
    other = (await client.post("/api/auth", json={"username": "newplayer", "password": "pass1"})).json()["accessToken"]
    response = await client.post("/api/auth/logout", headers=_bearer(token))
    assert response.status_code == 204

    refresh = await client.get("/api/auth/refresh", headers=_bearer(token))
    assert refresh.status_code == 403
    assert refresh.json() == {"message": "Your login has expired."}
    assert (await client.get("/api/users/me", headers=_bearer(token))).status_code == 401
    # Only that session ended.
    assert (await client.get("/api/auth/refresh", headers=_bearer(other))).status_code == 200
    assert count(db, LoginSession, LoginSession.revoked_at.is_not(None)) == 1


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer garbage"}])
async def test_refresh_without_a_session_is_403(client, headers):
    response = await client.get("/api/auth/refresh", headers=headers)
    assert response.status_code == 403
    assert response.json() == {"message": "Your login has expired."}


async def test_refresh_after_expiry_is_403(client, db):
    token = await _signup(client)
    expire_logins(db)
    response = await client.get("/api/auth/refresh", headers=_bearer(token))
    assert response.status_code == 403
    assert response.json() == {"message": "Your login has expired."}


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer garbage"}])
async def test_logout_without_a_session_changes_nothing(client, db, headers):
    token = await _signup(client)
    response = await client.post("/api/auth/logout", headers=headers)
    assert response.status_code == 204
    assert count(db, LoginSession, LoginSession.revoked_at.is_not(None)) == 0
    assert (await client.get("/api/auth/refresh", headers=_bearer(token))).status_code == 200


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


async def test_signups_from_one_client_are_limited_even_when_they_fail(client, db):
    from volley_app.services import ratelimit

    await _signup(client)
    answers = []
    for i in range(ratelimit.SIGNUP.limit):
        # The same address again: "already exists" tells the prober something, so these count too.
        response = await client.post("/api/users", json=SIGNUP | {"username": f"probe{i}"})
        answers.append(response.status_code)
    assert answers[: ratelimit.SIGNUP.limit - 1] == [422] * (ratelimit.SIGNUP.limit - 1)
    assert answers[-1] == 429
    assert "Please wait" in (await client.post("/api/users", json=SIGNUP | {"username": "late"})).json()["message"]
    assert count(db, User) == 1
