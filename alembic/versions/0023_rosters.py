"""rosters: a team's members and invitations, the league's waiver versions and signatures, each member's answer
for each game; the league's roster sizes, gender rule and sub eligibility rules; a team's RSVP reminder days; the
game and team a sub request finds subs for. Every team's captain becomes its first member.

Revision ID: 0028
Revises: 0027
Create Date: 2026-11-26 12:50:13
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0028"
down_revision: str | None = "0027"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# A table SQLite copies to alter it keeps counting ids with AUTOINCREMENT (no id is ever reused).
KEEP_IDS = {"sqlite_autoincrement": True}


def upgrade() -> None:
    op.create_table(
        "league_waivers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_by_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["created_by_id"], ["users.id"], name=op.f("fk_league_waivers_created_by_id_users"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["league_id"], ["leagues.id"], name=op.f("fk_league_waivers_league_id_leagues"), ondelete="RESTRICT"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_league_waivers")),
        sa.UniqueConstraint("league_id", "version", name="uq_league_waivers_league_id_version"),
        sqlite_autoincrement=True,
    )
    op.create_table(
        "team_invitations",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("invited_by_id", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=17), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("answered_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("joined_user_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["invited_by_id"], ["users.id"], name=op.f("fk_team_invitations_invited_by_id_users"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["joined_user_id"], ["users.id"], name=op.f("fk_team_invitations_joined_user_id_users"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["team_id"], ["teams.id"], name=op.f("fk_team_invitations_team_id_teams"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_team_invitations_user_id_users"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_team_invitations")),
        sqlite_autoincrement=True,
    )
    with op.batch_alter_table("team_invitations", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_team_invitations_email"), ["email"], unique=False)
        batch_op.create_index("ix_team_invitations_team_id_created_at", ["team_id", "created_at"], unique=False)
        batch_op.create_index(
            "uq_team_invitations_pending",
            ["team_id", "email"],
            unique=True,
            sqlite_where=sa.text("status = 'Pending'"),
            postgresql_where=sa.text("status = 'Pending'"),
        )

    op.create_table(
        "team_members",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(length=18), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("left_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ended_by_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["ended_by_id"], ["users.id"], name=op.f("fk_team_members_ended_by_id_users"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["team_id"], ["teams.id"], name=op.f("fk_team_members_team_id_teams"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_team_members_user_id_users"), ondelete="RESTRICT"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_team_members")),
        sqlite_autoincrement=True,
    )
    with op.batch_alter_table("team_members", schema=None) as batch_op:
        batch_op.create_index("ix_team_members_user_id_left_at", ["user_id", "left_at"], unique=False)
        batch_op.create_index(
            "uq_team_members_current",
            ["team_id", "user_id"],
            unique=True,
            sqlite_where=sa.text("left_at IS NULL"),
            postgresql_where=sa.text("left_at IS NULL"),
        )

    op.create_table(
        "waiver_signatures",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("waiver_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=True),
        sa.Column("typed_name", sa.String(length=200), nullable=False),
        sa.Column("birth_date", sa.Date(), nullable=True),
        sa.Column("adult", sa.Boolean(), server_default=sa.text("false"), nullable=False),
        sa.Column("signed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ip", sa.String(length=45), nullable=True),
        sa.Column("user_agent", sa.String(length=300), nullable=True),
        sa.ForeignKeyConstraint(
            ["team_id"], ["teams.id"], name=op.f("fk_waiver_signatures_team_id_teams"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_waiver_signatures_user_id_users"), ondelete="RESTRICT"
        ),
        sa.ForeignKeyConstraint(
            ["waiver_id"],
            ["league_waivers.id"],
            name=op.f("fk_waiver_signatures_waiver_id_league_waivers"),
            ondelete="RESTRICT",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_waiver_signatures")),
        sa.UniqueConstraint("waiver_id", "user_id", name="uq_waiver_signatures_waiver_id_user_id"),
        sqlite_autoincrement=True,
    )
    with op.batch_alter_table("waiver_signatures", schema=None) as batch_op:
        batch_op.create_index("ix_waiver_signatures_user_id", ["user_id"], unique=False)

    op.create_table(
        "game_rsvps",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("answer", sa.String(length=13), nullable=True),
        sa.Column("answered_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("reminded_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_game_rsvps_game_id_games"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["team_id"], ["teams.id"], name=op.f("fk_game_rsvps_team_id_teams"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_game_rsvps_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_rsvps")),
        sa.UniqueConstraint("game_id", "team_id", "user_id", name="uq_game_rsvps_game_id_team_id_user_id"),
        sqlite_autoincrement=True,
    )
    with op.batch_alter_table("game_rsvps", schema=None) as batch_op:
        batch_op.create_index("ix_game_rsvps_user_id_game_id", ["user_id", "game_id"], unique=False)

    with op.batch_alter_table("leagues", schema=None, table_kwargs=KEEP_IDS) as batch_op:
        batch_op.add_column(sa.Column("roster_min", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("roster_max", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("teams_per_player", sa.Integer(), server_default="1", nullable=False))
        batch_op.add_column(sa.Column("women_on_court", sa.Integer(), nullable=True))
        batch_op.add_column(
            sa.Column("subs_from_other_teams", sa.Boolean(), server_default=sa.text("true"), nullable=False)
        )
        batch_op.add_column(sa.Column("sub_levels_below", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("sub_levels_above", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("playoff_min_games", sa.Integer(), nullable=True))
        batch_op.add_column(
            sa.Column("playoff_subs_approved", sa.Boolean(), server_default=sa.text("false"), nullable=False)
        )

    with op.batch_alter_table("sub_requests", schema=None, table_kwargs=KEEP_IDS) as batch_op:
        batch_op.add_column(sa.Column("game_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("team_id", sa.Integer(), nullable=True))
        batch_op.create_foreign_key(
            batch_op.f("fk_sub_requests_game_id_games"), "games", ["game_id"], ["id"], ondelete="SET NULL"
        )
        batch_op.create_foreign_key(
            batch_op.f("fk_sub_requests_team_id_teams"), "teams", ["team_id"], ["id"], ondelete="SET NULL"
        )

    with op.batch_alter_table("teams", schema=None, table_kwargs=KEEP_IDS) as batch_op:
        batch_op.add_column(sa.Column("rsvp_reminder_days", sa.Integer(), server_default="3", nullable=False))

    # Every team's captain is its first member, joined when the team was made.
    op.execute(
        "INSERT INTO team_members (team_id, user_id, role, joined_at) "
        "SELECT id, captain_id, 'Captain', created_at FROM teams WHERE captain_id IS NOT NULL"
    )


def downgrade() -> None:
    with op.batch_alter_table("teams", schema=None, table_kwargs=KEEP_IDS) as batch_op:
        batch_op.drop_column("rsvp_reminder_days")

    with op.batch_alter_table("sub_requests", schema=None, table_kwargs=KEEP_IDS) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_sub_requests_team_id_teams"), type_="foreignkey")
        batch_op.drop_constraint(batch_op.f("fk_sub_requests_game_id_games"), type_="foreignkey")
        batch_op.drop_column("team_id")
        batch_op.drop_column("game_id")

    with op.batch_alter_table("leagues", schema=None, table_kwargs=KEEP_IDS) as batch_op:
        batch_op.drop_column("playoff_subs_approved")
        batch_op.drop_column("playoff_min_games")
        batch_op.drop_column("sub_levels_above")
        batch_op.drop_column("sub_levels_below")
        batch_op.drop_column("subs_from_other_teams")
        batch_op.drop_column("women_on_court")
        batch_op.drop_column("teams_per_player")
        batch_op.drop_column("roster_max")
        batch_op.drop_column("roster_min")

    with op.batch_alter_table("game_rsvps", schema=None) as batch_op:
        batch_op.drop_index("ix_game_rsvps_user_id_game_id")

    op.drop_table("game_rsvps")
    with op.batch_alter_table("waiver_signatures", schema=None) as batch_op:
        batch_op.drop_index("ix_waiver_signatures_user_id")

    op.drop_table("waiver_signatures")
    with op.batch_alter_table("team_members", schema=None) as batch_op:
        batch_op.drop_index(
            "uq_team_members_current",
            sqlite_where=sa.text("left_at IS NULL"),
            postgresql_where=sa.text("left_at IS NULL"),
        )
        batch_op.drop_index("ix_team_members_user_id_left_at")

    op.drop_table("team_members")
    with op.batch_alter_table("team_invitations", schema=None) as batch_op:
        batch_op.drop_index(
            "uq_team_invitations_pending",
            sqlite_where=sa.text("status = 'Pending'"),
            postgresql_where=sa.text("status = 'Pending'"),
        )
        batch_op.drop_index("ix_team_invitations_team_id_created_at")
        batch_op.drop_index(batch_op.f("ix_team_invitations_email"))

    op.drop_table("team_invitations")
    op.drop_table("league_waivers")
