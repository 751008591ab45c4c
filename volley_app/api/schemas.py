"""Request and response bodies of the REST API (spec section 7 names)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Credentials(BaseModel):
    username: str = ""
    password: str = ""
    trusted: bool = True


class Signup(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    username: str = ""
    password: str = ""
    email: str = ""
    first_name: str = Field("", alias="firstName")
    last_name: str = Field("", alias="lastName")
    region: str = ""


class AccessToken(BaseModel):
    accessToken: str  # noqa: N815 - the spec's field name
    expiresAt: str  # noqa: N815


class Me(BaseModel):
    id: int
    username: str
    roles: list[str]
    status: str
    firstName: str  # noqa: N815
