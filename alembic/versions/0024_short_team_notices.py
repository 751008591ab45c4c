"""short team notices: a team told once that it is short of players for a game; a team's RSVP deadline (hours
before a game)

Revision ID: 0029
Revises: 0028
Create Date: 2026-11-26 13:20:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op


revision: str = "0029"
down_revision: str | None = "0028"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# A table SQLite copies to alter it keeps counting ids with AUTOINCREMENT (no id is ever reused).
KEEP_IDS = {"sqlite_autoincrement": True}


def upgrade() -> None:
    op.create_table(
        "short_team_notices",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_short_team_notices_game_id_games"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["team_id"], ["teams.id"], name=op.f("fk_short_team_notices_team_id_teams"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_short_team_notices")),
        sa.UniqueConstraint("game_id", "team_id", name="uq_short_team_notices_game_id_team_id"),
        sqlite_autoincrement=True,
    )
    with op.batch_alter_table("teams", schema=None, table_kwargs=KEEP_IDS) as batch_op:
        batch_op.add_column(sa.Column("rsvp_deadline_hours", sa.Integer(), server_default="48", nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("teams", schema=None, table_kwargs=KEEP_IDS) as batch_op:
        batch_op.drop_column("rsvp_deadline_hours")

    op.drop_table("short_team_notices")
