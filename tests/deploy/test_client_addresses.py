"""`make prod`'s topology: behind nginx each visitor is their own client, and a header names nobody."""

from __future__ import annotations

import httpx
from sqlmodel import Session, select

from tests.factories import PASSWORD, make_user
from volley_app import db as dbmod
from volley_app.models import LoginAttempt


def _visitor(address: str, url: str) -> httpx.Client:
    return httpx.Client(base_url=url, transport=httpx.HTTPTransport(local_address=address), timeout=15)


def _login(client: httpx.Client, password: str, **headers) -> httpx.Response:
    return client.post("/api/auth", json={"username": "frankprod", "password": password}, headers=headers)


def test_two_visitors_are_two_clients_and_a_header_names_nobody(deployment):
    with Session(dbmod.get_engine()) as db:
        make_user(db, "frankprod")
    with _visitor("127.0.10.1", deployment.url) as guesser, _visitor("127.0.10.2", deployment.url) as owner:
        for n in range(3):
            response = _login(guesser, "wrong-guess", **{"X-Forwarded-For": f"203.0.113.{n}"})
            assert response.status_code == 401, response.text
        assert _login(guesser, PASSWORD, **{"X-Forwarded-For": "127.0.10.2"}).status_code == 429
        response = _login(owner, PASSWORD)
        assert response.status_code == 200, response.text
    with Session(dbmod.get_engine()) as db:
        clients = set(db.exec(select(LoginAttempt.client).where(LoginAttempt.username == "frankprod")).all())
    assert clients == {"127.0.10.1"}
