"""Uploaded files (tournament brackets), kept in the database so every instance of the app reads them."""

from __future__ import annotations

import datetime as dt

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from volley_app.models.base import utc_field


class StoredFile(SQLModel, table=True):
    __tablename__ = "stored_files"

    id: int | None = Field(default=None, primary_key=True)
    # The server-made name a record refers to (``League.tournament_file``); never a name from a client.
    name: str = Field(sa_column=sa.Column(sa.String(200), nullable=False, unique=True))
    content_type: str = Field(sa_column=sa.Column(sa.String(100), nullable=False))
    size: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))
    # PostgreSQL bytea, SQLite blob; at most UPLOAD_MAX_BYTES (checked before it is written).
    data: bytes = Field(sa_column=sa.Column(sa.LargeBinary, nullable=False))
    created_at: dt.datetime = utc_field(default_now=True)
