"""What visitors send through the public forms: kept, so a lead is never lost."""

from __future__ import annotations

import datetime as dt

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from volley_app.models.base import enum_field, utc_field
from volley_app.models.enums import Region


def _str(length: int):
    return Field(sa_column=sa.Column(sa.String(length), nullable=False))


class ContactInquiry(SQLModel, table=True):
    __tablename__ = "contact_inquiries"

    id: int | None = Field(default=None, primary_key=True)
    name: str = _str(100)
    email: str = _str(254)
    body: str = Field(sa_column=sa.Column(sa.Text, nullable=False))
    created_at: dt.datetime = utc_field(default_now=True, index=True)


class HostInquiry(SQLModel, table=True):
    __tablename__ = "host_inquiries"

    id: int | None = Field(default=None, primary_key=True)
    svl_name: str = _str(200)
    email: str = _str(254)
    phone: str = _str(40)
    address: str = _str(200)
    city: str = _str(100)
    region: Region = enum_field(Region)
    zip: str = _str(10)
    created_at: dt.datetime = utc_field(default_now=True, index=True)


class PromoteInquiry(SQLModel, table=True):
    __tablename__ = "promote_inquiries"

    id: int | None = Field(default=None, primary_key=True)
    company_name: str = _str(200)
    email: str = _str(254)
    phone: str = _str(40)
    why: str = Field(sa_column=sa.Column(sa.Text, nullable=False))
    created_at: dt.datetime = utc_field(default_now=True, index=True)


class FranchiseInquiry(SQLModel, table=True):
    __tablename__ = "franchise_inquiries"

    id: int | None = Field(default=None, primary_key=True)
    name: str = _str(100)
    email: str = _str(254)
    phone: str = _str(40)
    city: str = _str(100)
    region: Region = enum_field(Region)
    message: str = Field(sa_column=sa.Column(sa.Text, nullable=False))
    created_at: dt.datetime = utc_field(default_now=True, index=True)
