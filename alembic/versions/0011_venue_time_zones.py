"""venue time zones: each venue (SVL account) has an IANA time zone its dates are entered and shown in

Revision ID: 0016
Revises: 0012
Create Date: 2026-11-22 05:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Existing venues keep the zone every date was shown in until now (the TIME_ZONE default).
    op.add_column(
        "users",
        sa.Column("time_zone", sa.String(length=64), server_default="America/New_York", nullable=False),
    )


def downgrade() -> None:
    op.drop_column("users", "time_zone")
