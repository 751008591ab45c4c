"""Column types and helpers shared by every table."""

from __future__ import annotations

import datetime as dt
import enum
from typing import Any

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

# Stable constraint names, so migrations are the same on SQLite and PostgreSQL.
SQLModel.metadata.naming_convention = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> dt.datetime:
    """Now, timezone-aware, in UTC."""
    return dt.datetime.now(dt.UTC)


class UTCDateTime(sa.TypeDecorator):
    """A timestamp that is always timezone-aware UTC in Python.

    PostgreSQL stores ``timestamptz``; SQLite has no zone, so values are
    normalised to UTC on the way in and marked UTC on the way out. A naive
    datetime is refused rather than guessed at.
    """

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: dt.datetime | None, dialect) -> dt.datetime | None:
        if value is None:
            return None
        if value.tzinfo is None or value.utcoffset() is None:
            raise ValueError(f"naive datetime {value!r} refused: store timezone-aware values")
        value = value.astimezone(dt.UTC)
        if dialect.name == "sqlite":
            return value.replace(tzinfo=None)
        return value

    def process_result_value(self, value: dt.datetime | None, dialect) -> dt.datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=dt.UTC)
        return value.astimezone(dt.UTC)


def enum_type(enum_cls: type[enum.Enum]) -> sa.Enum:
    """A portable VARCHAR enum that stores the member *values* (e.g. 'C+')."""
    return sa.Enum(
        enum_cls,
        native_enum=False,
        create_constraint=False,
        length=max(len(m.value) for m in enum_cls) + 8,
        values_callable=lambda cls: [m.value for m in cls],
        validate_strings=True,
    )


def enum_field(enum_cls: type[enum.Enum], *, nullable: bool = False, index: bool = False, **kw: Any):
    """A SQLModel field stored as :func:`enum_type`."""
    return Field(sa_column=sa.Column(enum_type(enum_cls), nullable=nullable, index=index), **kw)


def utc_field(*, nullable: bool = False, index: bool = False, default_now: bool = False, **kw: Any):
    """A SQLModel field stored as :class:`UTCDateTime`."""
    if default_now:
        kw.setdefault("default_factory", utcnow)
    return Field(sa_column=sa.Column(UTCDateTime(), nullable=nullable, index=index), **kw)


class Delivery(SQLModel):
    """What a sender keeps of a message on its way out (an email, a push notification): its tries, when the next
    may start, the lease a sender holds it under, the last failure, and when it was written and sent."""

    attempts: int = 0
    next_attempt_at: dt.datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)
    # While a sender holds a row it is being sent until this time; after it, another may retry.
    lease_until: dt.datetime | None = Field(default=None, sa_type=UTCDateTime, nullable=True)
    last_error: str | None = Field(default=None, sa_type=sa.Text, nullable=True)
    created_at: dt.datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)
    sent_at: dt.datetime | None = Field(default=None, sa_type=UTCDateTime, nullable=True)


def fk(target: str, *, nullable: bool = False, ondelete: str = "CASCADE", index: bool = True, **kw: Any):
    """A foreign key field to ``target`` ("table.id")."""
    return Field(
        default=None,
        sa_column=sa.Column(
            sa.Integer, sa.ForeignKey(target, ondelete=ondelete), nullable=nullable, index=index
        ),
        **kw,
    )


def archived_index(table: str) -> sa.Index:
    """The index of a table's archived rows in the Archive's order (newest first, then by id): only those rows,
    so that no planner takes it for the far more common "not archived" and reads most of the table through it."""
    kept = sa.text("archived_at IS NOT NULL")
    return sa.Index(f"ix_{table}_archived_at_id", "archived_at", "id", sqlite_where=kept, postgresql_where=kept)


def table_of(model: type[SQLModel]) -> sa.Table:
    """The table SQLAlchemy gives a table model, for Core queries (SQLModel's classes do not declare it)."""
    return model.__table__  # type: ignore[attr-defined]
