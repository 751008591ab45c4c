"""free agents: players who register alone into a league, and the league's fee for them

Revision ID: 0034
Revises: 0033
Create Date: 2026-11-26 22:50:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op


revision: str = "0034"
down_revision: str | None = "0033"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

KEEP_IDS = {"sqlite_autoincrement": True}
LIVE = sa.text("status IN ('pending_payment', 'waiting', 'placed')")


def upgrade() -> None:
    with op.batch_alter_table("leagues", table_kwargs=KEEP_IDS) as batch:
        batch.add_column(sa.Column("agent_fee_cents", sa.Integer(), nullable=True))
    op.create_table(
        "free_agents",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.String(length=10), server_default="Any", nullable=False),
        sa.Column("hitter", sa.String(length=2), server_default="", nullable=False),
        sa.Column("passer", sa.String(length=2), server_default="", nullable=False),
        sa.Column("setter", sa.String(length=2), server_default="", nullable=False),
        sa.Column("gender", sa.String(length=10), server_default="", nullable=False),
        sa.Column("availability", sa.String(length=300), server_default="", nullable=False),
        sa.Column("payment_id", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=20), server_default="pending_payment", nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=True),
        sa.Column("placed_by_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["league_id"], ["leagues.id"], name=op.f("fk_free_agents_league_id_leagues"),
                                ondelete="RESTRICT"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_free_agents_user_id_users"),
                                ondelete="RESTRICT"),
        sa.ForeignKeyConstraint(["payment_id"], ["payments.id"], name=op.f("fk_free_agents_payment_id_payments"),
                                ondelete="RESTRICT"),
        sa.ForeignKeyConstraint(["team_id"], ["teams.id"], name=op.f("fk_free_agents_team_id_teams"),
                                ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["placed_by_id"], ["users.id"], name=op.f("fk_free_agents_placed_by_id_users"),
                                ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_free_agents")),
        sqlite_autoincrement=True,
    )
    with op.batch_alter_table("free_agents", schema=None) as batch:
        batch.create_index("ix_free_agents_user_id", ["user_id"], unique=False)
        batch.create_index("ix_free_agents_league_id_status", ["league_id", "status"], unique=False)
        batch.create_index("uq_free_agents_live", ["league_id", "user_id"], unique=True, sqlite_where=LIVE,
                           postgresql_where=LIVE)


def downgrade() -> None:
    with op.batch_alter_table("free_agents", schema=None) as batch:
        batch.drop_index("uq_free_agents_live", sqlite_where=LIVE, postgresql_where=LIVE)
        batch.drop_index("ix_free_agents_league_id_status")
        batch.drop_index("ix_free_agents_user_id")
    op.drop_table("free_agents")
    with op.batch_alter_table("leagues", table_kwargs=KEEP_IDS) as batch:
        batch.drop_column("agent_fee_cents")
