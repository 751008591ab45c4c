"""Schemathesis over the whole OpenAPI schema: no server error, and every answer as documented
(its status code, content type, body schema and headers)."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.factories import actor_of, make_user
from volley_app.api.app import create_api
from volley_app.models import Role
from volley_app.services import tokens

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


@schema.parametrize()
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_answers_as_documented(case, bearer):
    for headers in (bearer, {}):
        case.call_and_validate(headers=headers, checks=CHECKS)


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
