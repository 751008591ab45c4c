"""Request and response bodies of the REST API (spec section 7 names)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

# Text fields are typed Any on purpose: the services judge every value (null, a
# number, a list...) and answer with the spec's messages, not a framework's.


class Credentials(BaseModel):
    username: Any = ""
    password: Any = ""
    trusted: bool = True


class Signup(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    username: Any = ""
    password: Any = ""
    email: Any = ""
    first_name: Any = Field("", alias="firstName")
    last_name: Any = Field("", alias="lastName")
    region: Any = ""


class AccessToken(BaseModel):
    accessToken: str  # noqa: N815 - the spec's field name
    expiresAt: str  # noqa: N815


class Me(BaseModel):
    id: int
    username: str
    roles: list[str]
    status: str
    firstName: str  # noqa: N815
