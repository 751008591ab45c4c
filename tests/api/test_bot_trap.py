"""The REST API's public forms carry the pages' bot trap: a filled ``website`` is answered like a success, kept nowhere."""

from __future__ import annotations

import httpx
import pytest

from tests.factories import count
from volley_app.api.app import create_api
from volley_app.models import (
    ContactInquiry,
    FranchiseInquiry,
    HostInquiry,
    NewsletterSubscriber,
    OutboxMessage,
    PromoteInquiry,
    RateLimitHit,
)

FORMS = {
    "/api/contact": (ContactInquiry, {"name": "Ann", "email": "ann@example.com", "body": "Hi"}),
    "/api/host": (HostInquiry, {"svlName": "Downtown Gym", "email": "gym@example.com", "phone": "859-555-0100",
                                "address": "1 Main St", "city": "Lexington", "region": "KY", "zip": "40507"}),
    "/api/promote": (PromoteInquiry, {"why": "Knee pads", "companyName": "Pads Inc", "phone": "859-555-0100",
                                      "email": "pads@example.com"}),
    "/api/franchise": (FranchiseInquiry, {"phone": "859-555-0100", "city": "Louisville", "region": "KY",
                                          "message": "Leagues here", "name": "Sam Doe", "email": "sam@example.com"}),
    "/api/newsletter": (NewsletterSubscriber, {"email": "fan@example.com", "referral": "A friend"}),
}  # fmt: skip


@pytest.fixture
async def client(db):
    transport = httpx.ASGITransport(app=create_api(), client=("198.51.100.4", 50000))
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
        yield c


@pytest.mark.parametrize("path", sorted(FORMS))
async def test_a_filled_trap_is_answered_like_a_success_and_nothing_is_kept_or_sent(client, db, path):
    model, form = FORMS[path]
    response = await client.post(path, json=form | {"website": "http://spam.example"})
    assert response.status_code == 201, response.text
    assert response.json()["id"] is None
    assert count(db, model) == 0 and count(db, OutboxMessage) == 0
    assert count(db, RateLimitHit) == 0  # a bot's form does not spend the client's budget either


@pytest.mark.parametrize("path", sorted(FORMS))
async def test_an_empty_trap_keeps_the_form(client, db, path):
    model, form = FORMS[path]
    response = await client.post(path, json=form | {"website": ""})
    assert response.status_code == 201, response.text
    assert response.json()["id"] and count(db, model) == 1


@pytest.mark.parametrize("path", sorted(FORMS))
async def test_a_trap_that_is_not_text_is_ignored_as_the_document_says(client, db, path):
    model, form = FORMS[path]
    response = await client.post(path, json=form | {"website": {}})
    assert response.status_code == 201, response.text
    assert response.json()["id"] and count(db, model) == 1
    document = (await client.get("/api/openapi.json")).json()
    shape = document["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    website = document["components"]["schemas"][shape.rsplit("/", 1)[-1]]["properties"]["website"]
    assert website["description"].startswith("Ignored unless it is text") and "type" not in website
