"""Alembic environment: the app's settings give the URL, its models the metadata."""

from __future__ import annotations

import logging.config

import sqlalchemy as sa
from sqlmodel import SQLModel

import volley_app.models  # noqa: F401 - registers every table
from alembic import context
from volley_app.db import get_engine
from volley_app.models.base import UTCDateTime

config = context.config
if config.config_file_name is not None and config.attributes.get("configure_logging", True):
    logging.config.fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = SQLModel.metadata


def render_item(type_, obj, autogen_context):
    """Render app column types as plain SQLAlchemy types, so migrations import nothing of ours."""
    if type_ == "type" and isinstance(obj, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    if type_ == "type" and isinstance(obj, sa.Enum) and not obj.native_enum:
        # A portable enum is a VARCHAR in the database; the allowed values live in the models.
        return f"sa.String(length={obj.length})"
    if type_ == "type" and type(obj).__module__.startswith("sqlmodel"):
        autogen_context.imports.add("import sqlmodel")
    return False


def _configure(connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        render_item=render_item,
        compare_type=True,
        compare_server_default=False,
    )


def run_migrations_offline() -> None:
    context.configure(
        url=str(get_engine().url),
        target_metadata=target_metadata,
        literal_binds=True,
        render_item=render_item,
    )
    with context.begin_transaction():
        context.run_migrations()


def _foreign_keys(connection, on: bool) -> None:
    """SQLite rebuilds a table to change it; with foreign keys on, dropping the old copy would
    run its ON DELETE actions. So they are off while migrating (before any transaction starts,
    or SQLite ignores the switch), and checked once the migrations are done."""
    if connection.dialect.name != "sqlite":
        return
    if on:
        problems = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
        if problems:
            raise RuntimeError(f"foreign keys broken by the migration: {problems[:5]}")
    connection.exec_driver_sql(f"PRAGMA foreign_keys={'ON' if on else 'OFF'}")


def _migrate(connection) -> None:
    _foreign_keys(connection, False)
    try:
        _configure(connection)
        with context.begin_transaction():
            context.run_migrations()
        if connection.in_transaction():
            connection.commit()
    finally:
        _foreign_keys(connection, True)


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _migrate(connection)
        return
    with get_engine().connect() as connection:
        _migrate(connection)
        connection.commit()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
