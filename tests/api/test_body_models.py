"""Each body is one model: the served document names its required fields and the values a field takes, and a body
that is not what it should be is a clear 4xx in the API's one error shape, never a server error."""

from __future__ import annotations

import pytest

from tests.api import world as w
from volley_app.api.app import NOT_JSON
from volley_app.models import Day, LeagueFormat, SkillLevel

LEAGUE = {"court": "C", "startDateTime": "2031-01-06T18:30", "numberOfWeeks": 8, "timeIncrement": 60,
          "skillLevel": "B", "format": "6s", "day": "Monday", "maxTeams": 8, "cost": 300}  # fmt: skip


async def test_the_served_document_names_a_bodys_required_fields_and_its_choices():
    async with w.client() as c:
        served = await c.get("/api/openapi.json")
    assert served.status_code == 200
    document = served.json()
    body = document["paths"]["/api/leagues"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    league = document["components"]["schemas"][body["$ref"].rsplit("/", 1)[-1]]
    assert set(league["required"]) == {"session", *LEAGUE}
    fields = league["properties"]
    assert set(fields["skillLevel"]["enum"]) == {s.value for s in SkillLevel}
    assert set(fields["format"]["enum"]) == {f.value for f in LeagueFormat}
    assert set(fields["day"]["enum"]) == {d.value for d in Day}
    assert (fields["numberOfWeeks"]["type"], fields["numberOfWeeks"]["minimum"]) == ("integer", 1)
    assert "number_of_weeks" not in fields  # the body's own names


@pytest.mark.parametrize(
    ("content", "status", "errors"),
    [
        (b"{not json", 400, None),
        (b"[1, 2]", 422, {"body"}),
        (b'"a league"', 422, {"body"}),
        (b"null", 422, {"body"}),
    ],
    ids=["not JSON", "a list", "a string", "null"],
)
async def test_a_body_that_is_no_object_is_refused_in_the_apis_shape(db, content, status, errors):
    x = w.build(db)
    before = w.snapshot(db)
    async with w.client() as c:
        response = await c.post("/api/leagues", content=content,
                                 headers=w.headers(x, "svl") | {"Content-Type": "application/json"})  # fmt: skip
    assert response.status_code == status, response.text
    answer = response.json()
    assert answer["message"]
    if errors is None:
        assert answer == {"message": NOT_JSON}
    else:
        assert set(answer) == {"message", "errors"} and set(answer["errors"]) == errors
    assert w.snapshot(db) == before


async def test_fields_of_another_json_type_are_each_named_in_words_at_once(db):
    x = w.build(db)
    before = w.snapshot(db)
    body = LEAGUE | {"session": x["sid"], "numberOfWeeks": {"weeks": 8}, "skillLevel": ["B"], "day": 7, "cash": "no"}
    async with w.client() as c:
        response = await c.post("/api/leagues", json=body, headers=w.headers(x, "svl"))
    assert response.status_code == 422, response.text
    errors = response.json()["errors"]
    assert {"numberOfWeeks", "skillLevel", "day"} <= set(errors)
    assert all(message and "Input should" not in message for message in errors.values())
    assert response.json()["message"] in errors.values()
    assert w.snapshot(db) == before


@pytest.mark.parametrize(
    ("path", "body", "field", "message"),
    [
        ("/api/auth", {"username": "pat", "password": "pass1", "trusted": "yes"}, "trusted", "Trusted must be true or false"),
        ("/api/auth", {"username": "pat", "password": "pass1", "trusted": 1}, "trusted", "Trusted must be true or false"),
        ("/api/newsletter", {"email": "new.fan@example.com", "referral": 7}, "referral", "Referral must be text"),
        ("/api/newsletter", {"email": "new.fan@example.com", "referral": ["a"]}, "referral", "Referral must be text"),
    ],
)
async def test_a_typed_field_of_another_json_type_is_refused_in_words(db, path, body, field, message):
    w.build(db)
    before = w.snapshot(db)
    async with w.client() as c:
        response = await c.post(path, json=body)
    assert response.status_code == 422, response.text
    assert response.json() == {"message": message, "errors": {field: message}}
    assert w.snapshot(db) == before
