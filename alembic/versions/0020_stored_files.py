"""uploaded files in the database (stored_files), so every instance reads them without a shared disk;
the brackets already in UPLOAD_DIR are copied in (the files stay where they were)

Revision ID: 0025
Revises: 0024
Create Date: 2026-11-25 21:40:00
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Sequence
from pathlib import Path

import sqlalchemy as sa

from alembic import op

revision: str = "0025"
down_revision: str | None = "0024"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# What the app knew as the type of each kind of bracket it accepted (services/core/uploads.py).
_TYPES = {".png": "image/png", ".pdf": "application/pdf", ".jpg": "image/jpeg", ".doc": "application/msword"}


def _upload_dir() -> Path:
    root = Path(__file__).resolve().parents[2]
    return Path(os.environ.get("UPLOAD_DIR") or root / "var" / "uploads")


def upgrade() -> None:
    stored = op.create_table(
        "stored_files",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("content_type", sa.String(length=100), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("name"),
        sqlite_autoincrement=True,
    )
    conn = op.get_bind()
    leagues = sa.table("leagues", sa.column("tournament_file", sa.String), sa.column("tournament_content_type", sa.String))
    rows = conn.execute(sa.select(leagues.c.tournament_file, leagues.c.tournament_content_type)
                        .where(leagues.c.tournament_file.is_not(None)).distinct()).all()  # fmt: skip
    folder = _upload_dir()
    for name, content_type in rows:
        path = folder / name
        if "/" in name or "\\" in name or name.startswith(".") or not path.is_file():
            continue  # not on this machine: the app still reads it from UPLOAD_DIR where it is
        data = path.read_bytes()
        kind = content_type or _TYPES.get(path.suffix.lower(), "application/octet-stream")
        conn.execute(sa.insert(stored).values(name=name, content_type=kind, size=len(data), data=data,
                                              created_at=dt.datetime.now(dt.UTC)))  # fmt: skip


def downgrade() -> None:
    op.drop_table("stored_files")
