"""Apply the Alembic migrations from code (the start command and the tests use this)."""

from __future__ import annotations

from alembic.config import Config

from alembic import command
from volley_app.settings import ROOT


def alembic_config() -> Config:
    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(ROOT / "alembic"))
    cfg.attributes["configure_logging"] = False
    return cfg


def upgrade_to_head() -> None:
    """Bring the configured database to the newest schema."""
    command.upgrade(alembic_config(), "head")
