"""The API's tokens: what a forged, swapped, expired or reused token gets (403, and nothing changes)."""

from __future__ import annotations

import base64
import datetime as dt
import json

import jwt
import pytest
import sqlalchemy as sa

from tests.api import world as w
from tests.factories import PASSWORD, count, login_token, make_user, rows
from volley_app.models import LoginSession, RefreshToken, Role, User, utcnow
from volley_app.services.accounts import auth, recovery, tokens
from volley_app.services.core import signing
from volley_app.settings import get_settings


def _b64(data: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()


def _claims(access: str) -> dict:
    return jwt.decode(access, signing.jwt_key(signing.API_ACCESS_TOKEN), algorithms=["HS256"])


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _login(c, username: str = "pat") -> str:
    response = await c.post("/api/auth", json={"username": username, "password": PASSWORD})
    assert response.status_code == 200, response.text
    return response.json()["accessToken"]


@pytest.fixture
def pat(db):
    make_user(db, "pat")
    make_user(db, "root", Role.ADMIN)
    return db


async def test_the_access_token_is_hs256_for_15_minutes_with_the_user_info(pat):
    async with w.client() as c:
        access = await _login(c)
    assert jwt.get_unverified_header(access)["alg"] == "HS256"
    claims = _claims(access)
    [user] = rows(pat, User, User.username == "pat")
    assert claims["UserInfo"] == {"id": user.id, "username": "pat", "roles": ["Player"]}
    assert claims["exp"] - claims["iat"] == 15 * 60
    assert claims["typ"] == "access"


def _forged(access: str) -> dict[str, str]:
    claims = _claims(access)
    secret = signing.jwt_key(signing.API_ACCESS_TOKEN)
    header, payload, _sig = access.split(".")
    admin = claims | {"UserInfo": claims["UserInfo"] | {"roles": ["Admin"]}}
    return {
        "alg none": f"{_b64({'alg': 'none', 'typ': 'JWT'})}.{_b64(admin)}.",
        "alg none, no dot": f"{_b64({'alg': 'none', 'typ': 'JWT'})}.{_b64(admin)}",
        "swapped to HS512": jwt.encode(claims, secret, algorithm="HS512"),
        "another key": jwt.encode(claims, "not-the-secret-key-at-all-0123456789", algorithm="HS256"),
        "changed claims": f"{header}.{_b64(admin)}.{_sig}",
        "expired": jwt.encode(claims | {"iat": claims["iat"] - 3600, "exp": claims["iat"] - 60}, secret, "HS256"),
        "not an access token": jwt.encode(claims | {"typ": "refresh"}, secret, algorithm="HS256"),
        "no family": jwt.encode({k: v for k, v in claims.items() if k != "fam"}, secret, algorithm="HS256"),
        "unknown family": jwt.encode(claims | {"fam": "0" * 32}, secret, algorithm="HS256"),
        "another user": jwt.encode(claims | {"sub": "999999"}, secret, algorithm="HS256"),
    }


@pytest.mark.filterwarnings("ignore::jwt.warnings.InsecureKeyLengthWarning")  # the forger's HS512 with our key
async def test_forged_swapped_and_expired_tokens_are_403_and_change_nothing(pat):
    async with w.client() as c:
        access = await _login(c)
        refresh = c.cookies.get(tokens.REFRESH_COOKIE)
        bad = _forged(access) | {"the refresh token": refresh}
        for name, token in bad.items():
            before = w.snapshot(pat)
            for method, path, body in (("GET", "/api/users/me", None), ("GET", "/api/users", None),
                                       ("POST", "/api/emailAll", {"subject": "x", "body": "y"})):  # fmt: skip
                response = await c.request(method, path, json=body, headers=_bearer(token))
                assert response.status_code == 403, (name, path, response.text)
            assert w.snapshot(pat) == before, name
        assert (await c.get("/api/users/me", headers=_bearer(access))).status_code == 200


async def test_a_reused_refresh_token_revokes_the_whole_login(pat):
    async with w.client() as c:
        access = await _login(c)
        stolen = c.cookies.get(tokens.REFRESH_COOKIE)
        fresh = (await c.get("/api/auth/refresh")).json()["accessToken"]
        assert (await c.get("/api/users/me", headers=_bearer(fresh))).status_code == 200
        # the old one again (a thief's copy): refused, and the whole login ends
        c.cookies.clear()
        reused = await c.get("/api/auth/refresh", headers={"Cookie": f"{tokens.REFRESH_COOKIE}={stolen}"})
        assert reused.status_code == 403
        assert reused.json() == {"message": "Your login has expired."}
        assert count(pat, RefreshToken, RefreshToken.revoked_at.is_(None)) == 0
        for token in (access, fresh):
            assert (await c.get("/api/users/me", headers=_bearer(token))).status_code == 403


async def test_a_refresh_token_works_once(pat):
    async with w.client() as c:
        await _login(c)
        first = c.cookies.get(tokens.REFRESH_COOKIE)
        assert (await c.get("/api/auth/refresh")).status_code == 200
        second = c.cookies.get(tokens.REFRESH_COOKIE)
        assert (await c.get("/api/auth/refresh")).status_code == 200
        assert len({first, second, c.cookies.get(tokens.REFRESH_COOKIE)}) == 3
        assert count(pat, RefreshToken) == 3
        assert len({r.family for r in rows(pat, RefreshToken)}) == 1


async def test_logout_everywhere_ends_api_logins_and_browser_sessions(pat):
    browser = login_token(pat, "pat")
    async with w.client() as c:
        one = await _login(c)
        c.cookies.clear()
        two = await _login(c)
        response = await c.post("/api/auth/logout/all", headers=_bearer(one))
        assert response.status_code == 204
        for token in (one, two, browser):
            assert (await c.get("/api/users/me", headers=_bearer(token))).status_code == 403
        assert (await c.get("/api/auth/refresh")).status_code == 403
    assert auth.resolve(pat, browser) is None
    assert count(pat, LoginSession, LoginSession.revoked_at.is_(None)) == 0


async def test_a_password_reset_ends_both_kinds(pat):
    browser = login_token(pat, "pat")
    async with w.client() as c:
        access = await _login(c)
        link = recovery.request_reset(pat, email="pat@example.com", client="198.51.100.9").link
        pat.commit()
        uid, token = link.rstrip("/").split("/")[-2:]
        response = await c.post(f"/api/resetPassword/{uid}/{token}", json={"password": "newpass1"})
        assert response.status_code == 200 and response.json() == {"status": "Success"}
        assert (await c.get("/api/users/me", headers=_bearer(access))).status_code == 403
        assert (await c.get("/api/users/me", headers=_bearer(browser))).status_code == 403
        assert (await c.get("/api/auth/refresh")).status_code == 403
        # the same link twice: refused
        again = await c.post(f"/api/resetPassword/{uid}/{token}", json={"password": "newpass2"})
        assert again.status_code == 404


async def test_a_deactivated_account_loses_its_tokens(pat):
    async with w.client() as c:
        access = await _login(c)
        pat.exec(sa.update(User).where(User.username == "pat").values(active=False))
        pat.commit()
        assert (await c.get("/api/users/me", headers=_bearer(access))).status_code == 403
        assert (await c.get("/api/auth/refresh")).status_code == 403


async def test_an_expired_refresh_family_ends_its_access_tokens(pat):
    async with w.client() as c:
        access = await _login(c)
        pat.exec(sa.update(RefreshToken).values(expires_at=utcnow() - dt.timedelta(seconds=1)))
        pat.commit()
        assert (await c.get("/api/users/me", headers=_bearer(access))).status_code == 403


async def test_login_keeps_the_screens_throttle(pat):
    async with w.client() as c:
        for _ in range(3):
            assert (await c.post("/api/auth", json={"username": "pat", "password": "wrong"})).status_code == 401
        response = await c.post("/api/auth", json={"username": "pat", "password": PASSWORD})
        assert response.status_code == 429
        assert "set-cookie" not in response.headers
    assert count(pat, RefreshToken) == 0


async def test_the_refresh_cookie_is_secure_behind_https(pat, monkeypatch):
    monkeypatch.setenv("PUBLIC_URL", "https://volley.example.com")
    get_settings.cache_clear()
    try:
        async with w.client() as c:
            response = await c.post("/api/auth", json={"username": "pat", "password": PASSWORD})
        cookie = response.headers["set-cookie"].lower()
        assert "secure" in cookie and "httponly" in cookie and "samesite=strict" in cookie
    finally:
        monkeypatch.undo()
        get_settings.cache_clear()


async def test_a_token_whose_login_belongs_to_another_user_is_refused(pat):
    async with w.client() as c:
        own = await _login(c)
        c.cookies.clear()
        await _login(c, "root")
        [root] = rows(pat, User, User.username == "root")
        # pat's own login family, under the admin's id, signed with the real key
        swapped = jwt.encode(_claims(own) | {"sub": str(root.id), "UserInfo": {"id": root.id, "username": "root",
                                                                                "roles": ["Admin"]}},
                             get_settings().secret_key, algorithm="HS256")  # fmt: skip
        before = w.snapshot(pat)
        for method, path, body in (("GET", "/api/users/me", None), ("GET", "/api/users", None),
                                   ("POST", "/api/emailAll", {"subject": "x", "body": "y"})):  # fmt: skip
            response = await c.request(method, path, json=body, headers=_bearer(swapped))
            assert response.status_code == 403, (path, response.text)
        assert w.snapshot(pat) == before
        assert (await c.get("/api/users/me", headers=_bearer(own))).json()["username"] == "pat"


def _source_strings() -> set[str]:
    """Every string constant in the app's source: none of them may sign a token the app accepts."""
    import ast
    from pathlib import Path

    import volley_app

    found: set[str] = set()
    for path in Path(volley_app.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and 8 <= len(node.value) <= 200:
                found.add(node.value)
    return found


@pytest.mark.filterwarnings("ignore::jwt.warnings.InsecureKeyLengthWarning")
async def test_a_token_signed_with_any_constant_of_the_source_is_refused(pat):
    async with w.client() as c:
        access = await _login(c)
        claims = _claims(access)
        keys = _source_strings()
        assert len(keys) > 500
        for key in keys:
            forged = jwt.encode(claims, key, algorithm="HS256")
            with pytest.raises(tokens.InvalidToken):
                tokens.resolve_access(pat, forged)
        forged = jwt.encode(claims, sorted(keys)[0], algorithm="HS256")
        assert (await c.get("/api/users/me", headers=_bearer(forged))).status_code == 403
        assert (await c.get("/api/users/me", headers=_bearer(access))).status_code == 200
