"""What visitors send through the public forms: kept, so a lead is never lost."""

from __future__ import annotations

import datetime as dt

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from volley_app.models.base import UTCDateTime, enum_field, utcnow
from volley_app.models.enums import Region


def _str(length: int):
    return Field(sa_column=sa.Column(sa.String(length), nullable=False))


def _text():
    return Field(sa_column=sa.Column(sa.Text, nullable=False))


class Inquiry(SQLModel):
    """What every inquiry keeps: its id, the address to answer, and when it came (each table has its own columns)."""

    id: int | None = Field(default=None, primary_key=True)
    email: str = Field(sa_type=sa.String(254), nullable=False)
    created_at: dt.datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False, index=True)


class ContactInquiry(Inquiry, table=True):
    __tablename__ = "contact_inquiries"

    name: str = _str(100)
    body: str = _text()


class HostInquiry(Inquiry, table=True):
    __tablename__ = "host_inquiries"

    svl_name: str = _str(200)
    phone: str = _str(40)
    address: str = _str(200)
    city: str = _str(100)
    region: Region = enum_field(Region)
    zip: str = _str(10)


class PromoteInquiry(Inquiry, table=True):
    __tablename__ = "promote_inquiries"

    company_name: str = _str(200)
    phone: str = _str(40)
    why: str = _text()


class FranchiseInquiry(Inquiry, table=True):
    __tablename__ = "franchise_inquiries"

    name: str = _str(100)
    phone: str = _str(40)
    city: str = _str(100)
    region: Region = enum_field(Region)
    message: str = _text()
