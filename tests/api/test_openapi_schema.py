"""Schemathesis over the whole OpenAPI schema: no server error, and every answer as documented
(its status code, content type, body schema and headers)."""

from __future__ import annotations

import os

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.generation.meta import TestPhase
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    positive_data_acceptance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.api import world as w
from tests.factories import actor_of, make_user
from volley_app.api.app import create_api
from volley_app.models import Role
from volley_app.services.accounts import tokens

schema = schemathesis.openapi.from_asgi("/api/openapi.json", create_api())
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance,
          response_headers_conformance]  # fmt: skip


@pytest.fixture
def bearer(db):
    """An admin's access token (the widest access): every operation runs past the login check."""
    admin = make_user(db, "root", Role.ADMIN)
    issued = tokens.issue(db, actor_of(admin))
    db.commit()
    return {"Authorization": f"Bearer {issued.access}"}


# Drawn cases an operation (CI draws fewer on its second database, as for tests/unit/test_fuzz.py), besides the
# boundary cases.
EXAMPLES = int(os.environ.get("SCHEMA_EXAMPLES", "12"))


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_answers_as_documented(case, bearer):
    # The drawn cases with and without a login; the boundary cases (each field's limits, one by one) with one only:
    # without it they all stop at the same 401, or reach a public route as the drawn ones do.
    for headers in (bearer,) if _boundary(case) else (bearer, {}):
        case.call_and_validate(headers=headers, checks=CHECKS)


def _boundary(case) -> bool:
    """The case is one of schemathesis's coverage cases: a field at one of its limits, or just past it."""
    return case.meta is not None and case.meta.phase.name == TestPhase.COVERAGE


def test_a_sub_request_body_documents_what_the_team_needs():
    document = create_api().openapi()
    note = document["components"]["schemas"]["Note"]["properties"]
    assert {"playersNeeded", "positionNeeded", "genderNeeded", "minRating"} <= set(note)
    assert set(note["positionNeeded"]["enum"]) == {None, "Any", "Hitter", "Passer", "Setter"}
    assert set(note["genderNeeded"]["enum"]) == {None, "Any", "Male", "Female"}
    assert set(note["minRating"]["enum"]) == {None, "", "A", "B", "C", "D"}
    assert "1 to 4" in note["playersNeeded"]["description"]
    for method, shape in (("post", "/Note"), ("patch", "/NoteEdit")):
        body = document["paths"]["/api/notes"][method]["requestBody"]["content"]["application/json"]["schema"]
        assert body["$ref"].endswith(shape)


DOCUMENT = create_api().openapi()
PATHS = sorted(DOCUMENT["paths"])


def _shape(ref_or_schema: dict) -> dict:
    if "$ref" in ref_or_schema:
        return DOCUMENT["components"]["schemas"][ref_or_schema["$ref"].rsplit("/", 1)[-1]]
    return ref_or_schema


def test_every_body_says_what_it_needs_and_what_each_field_takes():
    """A client written from the document alone sends bodies the server takes: each body names its required fields,
    and every field it reads has a type or a set of values (a field the server ignores says so)."""
    for path, operations in DOCUMENT["paths"].items():
        for method, op in operations.items():
            if "requestBody" not in op:
                continue
            shape = _shape(op["requestBody"]["content"]["application/json"]["schema"])
            needs = [shape.get("required")] if shape.get("required") else [a.get("required") for a in shape.get("anyOf", [])]
            assert needs and all(needs), f"{method.upper()} {path}: no required fields"
            assert all(set(n) <= set(shape["properties"]) for n in needs), (method, path)
            for name, field in shape["properties"].items():
                if field.get("description", "").startswith("Ignored"):
                    continue
                assert {"type", "enum", "anyOf"} & set(field), f"{method.upper()} {path}: {name} takes anything"


def test_the_specs_names_and_values_are_in_the_document():
    schemas = DOCUMENT["components"]["schemas"]
    assert {"sVLNews1Link", "sVLNews1Blurb", "vS1Link", "vS2Blurb"} <= set(schemas["Issue"]["properties"])
    assert "sVLNews1Blurb" in schemas["Issue"]["required"]
    assert schemas["Note"]["properties"]["recipient"]["enum"] == ["Anyone"]
    assert set(schemas["Note"]["properties"]["format"]["enum"]) == {"Doubles", "Quads", "5s", "6s", "Reverse Quads"}
    assert set(schemas["LeagueBody"]["properties"]["skillLevel"]["enum"]) == {"A", "B", "C+", "C", "D"}
    assert schemas["NewUser"]["properties"]["roles"]["items"]["enum"] == ["Player", "SVL", "Admin"]
    assert set(schemas["Note"]["required"]) == {"team", "date", "svl", "skillLevel", "format"}


@pytest.mark.parametrize("path", PATHS)
async def test_options_and_a_wrong_method_name_every_method_of_the_path(path):
    documented = {m.upper() for m in DOCUMENT["paths"][path]}
    url = path.replace("{", "").replace("}", "")  # any value fits a path parameter here
    transport = httpx.ASGITransport(app=create_api())
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
        options = await c.options(url)
        assert options.status_code == 204, options.text
        assert {m.strip() for m in options.headers["allow"].split(",")} == documented | {"OPTIONS"}
        wrong = await c.request(next(m for m in ("PUT", "PATCH", "DELETE", "POST") if m not in documented), url)
        assert wrong.status_code == 405
        assert {m.strip() for m in wrong.headers["allow"].split(",")} == documented


# Each kind of caller sends what the document says a body may be: the server takes it (or says who may not, or that
# the record is not there: 401, 403, 404), never refuses it as malformed. Positive data only: a few drawn cases an
# operation, and the boundary cases of its fields.
positive = schemathesis.openapi.from_asgi("/api/openapi.json", create_api())
positive.config.generation.update(modes=[GenerationMode.POSITIVE])
CALLERS = ("player", "svl", "admin")


@pytest.fixture
def world(db):
    return w.build(db)


# Operations whose well-formed bodies may still be refused by a rule no JSON schema states: it compares two fields,
# or depends on other records or on what is stored. Each of them is still checked for server errors.
BEYOND_THE_DOCUMENT = {
    "PATCH /api/users": "a new password of one's own needs the current one",
    "PATCH /api/teams": "a changed record needs a reason",
    "POST /api/teams": "a team's name is unique in its league",
    "POST /api/games": "the teams must play in that league",
    "PATCH /api/games": "the teams must play in that league",
    "DELETE /api/sessions": "an archived session is restored first",
    "DELETE /api/leagues": "an archived league is restored first",
    "POST /api/acceptedRequest": "a request open to that sub, still ahead",
    "POST /api/declinedRequest": "a request made to that sub, still open",
    "POST /api/receivedRequest": "a request made to one sub, still open",
    "POST /api/withdrawnRequest": "a place of that sub's, before the game",
    "PATCH /api/notes": "an answer fits the request's state",
    "POST /api/payment-intent": "the amount is the league's price",
    "POST /api/emailAll": "a repeat within the hour names the latest send",
    "POST /api/discount-codes": "a percent or an amount, for a league or session of the caller's, a name new to the venue",
    "PATCH /api/discount-codes/{code_id}": "a percent or an amount",
    "POST /api/payments/{payment_id}/discount-code": "a code of the league's venue that may still be used",
    "POST /api/payments/{payment_id}/confirm": "the discount and credit cover the whole price",
}


@positive.parametrize()
@settings(max_examples=2, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_a_schema_valid_request_is_taken_from_every_kind_of_caller(case, world):
    checks = [not_a_server_error]
    if f"{case.method.upper()} {case.path}" not in BEYOND_THE_DOCUMENT:
        checks.append(positive_data_acceptance)
    # The boundary cases as the widest caller; the drawn ones as every kind.
    for role in ("admin",) if _boundary(case) else CALLERS:
        case.call_and_validate(headers=w.headers(world, role), checks=checks)


def test_what_the_document_cannot_state_is_only_on_operations_it_has():
    operations = {f"{m.upper()} {p}" for p, ops in DOCUMENT["paths"].items() for m in ops}
    assert set(BEYOND_THE_DOCUMENT) <= operations
