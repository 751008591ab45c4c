"""courts and calendars: a league plays on one or more named courts, a game on one; games count their
moves; a user's calendar feed token; a league's registration deadline

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-22 01:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("leagues", sa.Column("courts", sa.Text(), nullable=True))
    op.add_column("leagues", sa.Column("registration_deadline", sa.DateTime(timezone=True), nullable=True))
    op.add_column("games", sa.Column("court", sa.String(length=100), nullable=True))
    op.add_column("games", sa.Column("sequence", sa.Integer(), server_default="0", nullable=False))
    op.add_column("users", sa.Column("calendar_token", sa.String(length=64), nullable=True))
    op.create_index("ix_users_calendar_token", "users", ["calendar_token"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_users_calendar_token", table_name="users")
    op.drop_column("users", "calendar_token")
    op.drop_column("games", "sequence")
    op.drop_column("games", "court")
    op.drop_column("leagues", "registration_deadline")
    op.drop_column("leagues", "courts")
