"""a league's number of sets: blank plays a best of three (set 3 only when the first two are split), 3 plays all
three sets every match

Revision ID: 0026
Revises: 0025
Create Date: 2026-11-25 21:45:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0026"
down_revision: str | None = "0025"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("leagues") as batch_op:
        batch_op.add_column(sa.Column("sets_to_play", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("leagues") as batch_op:
        batch_op.drop_column("sets_to_play")
