"""A team's people: its members, the invitations to join it, the league's waiver and who signed it, and each
member's answer for each game."""

from __future__ import annotations

import datetime as dt

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from volley_app.models.base import enum_field, fk, utc_field
from volley_app.models.enums import InvitationStatus, MemberRole, RsvpAnswer

CURRENT = sa.text("left_at IS NULL")
PENDING = sa.text("status = 'Pending'")


class TeamMember(SQLModel, table=True):
    """One person on a team, from joining to leaving. A member who leaves (or is removed) keeps the row, with
    ``left_at``: the team's history (who played, who signed) stays whole; joining again adds a new row."""

    __tablename__ = "team_members"
    __table_args__ = (
        # A person is on a team once at a time.
        sa.Index("uq_team_members_current", "team_id", "user_id", unique=True, sqlite_where=CURRENT,
                 postgresql_where=CURRENT),
        # A player's teams (home, the one-team-per-league rule).
        sa.Index("ix_team_members_user_id_left_at", "user_id", "left_at"),
    )  # fmt: skip

    id: int | None = Field(default=None, primary_key=True)
    team_id: int = fk("teams.id", index=False)
    user_id: int = fk("users.id", index=False, ondelete="RESTRICT")
    role: MemberRole = enum_field(MemberRole, default=MemberRole.PLAYER)
    joined_at: dt.datetime = utc_field(default_now=True)
    left_at: dt.datetime | None = utc_field(nullable=True, default=None)
    # Who ended the membership: the member (left) or a captain, co-captain, operator or admin (removed).
    ended_by_id: int | None = fk("users.id", nullable=True, ondelete="SET NULL", index=False)


class TeamInvitation(SQLModel, table=True):
    """An invitation to join a team, sent by email to an address (an account's or not). Its link is signed and
    works once: answering it, or the captain withdrawing it, closes it."""

    __tablename__ = "team_invitations"
    __table_args__ = (
        # One open invitation per address per team.
        sa.Index("uq_team_invitations_pending", "team_id", "email", unique=True, sqlite_where=PENDING,
                 postgresql_where=PENDING),
        sa.Index("ix_team_invitations_team_id_created_at", "team_id", "created_at"),
    )  # fmt: skip

    id: int | None = Field(default=None, primary_key=True)
    team_id: int = fk("teams.id", index=False)
    email: str = Field(sa_column=sa.Column(sa.String(254), nullable=False, index=True))  # lower case
    # The account invited by username (or the one the address belonged to when invited); None: no account yet.
    user_id: int | None = fk("users.id", nullable=True, ondelete="SET NULL", index=False)
    invited_by_id: int | None = fk("users.id", nullable=True, ondelete="SET NULL", index=False)
    status: InvitationStatus = enum_field(InvitationStatus, default=InvitationStatus.PENDING)
    created_at: dt.datetime = utc_field(default_now=True)
    expires_at: dt.datetime = utc_field()
    answered_at: dt.datetime | None = utc_field(nullable=True, default=None)
    # The account that joined with it.
    joined_user_id: int | None = fk("users.id", nullable=True, ondelete="SET NULL", index=False)


class LeagueWaiver(SQLModel, table=True):
    """One version of a league's waiver text. Editing the waiver adds a version; none is ever changed."""

    __tablename__ = "league_waivers"
    __table_args__ = (sa.UniqueConstraint("league_id", "version", name="uq_league_waivers_league_id_version"),)

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = fk("leagues.id", index=False, ondelete="RESTRICT")
    version: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))
    text: str = Field(sa_column=sa.Column(sa.Text, nullable=False))
    created_at: dt.datetime = utc_field(default_now=True)
    created_by_id: int | None = fk("users.id", nullable=True, ondelete="SET NULL", index=False)


class WaiverSignature(SQLModel, table=True):
    """A person's acceptance of one waiver version: who, which version, when and from where. Never deleted (the
    account holding one is archived, not deleted)."""

    __tablename__ = "waiver_signatures"
    __table_args__ = (
        sa.UniqueConstraint("waiver_id", "user_id", name="uq_waiver_signatures_waiver_id_user_id"),
        sa.Index("ix_waiver_signatures_user_id", "user_id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    waiver_id: int = fk("league_waivers.id", index=False, ondelete="RESTRICT")
    user_id: int = fk("users.id", index=False, ondelete="RESTRICT")
    team_id: int | None = fk("teams.id", nullable=True, ondelete="SET NULL", index=False)
    typed_name: str = Field(sa_column=sa.Column(sa.String(200), nullable=False))
    birth_date: dt.date | None = Field(default=None, sa_column=sa.Column(sa.Date))
    adult: bool = Field(default=False, sa_column=sa.Column(sa.Boolean, nullable=False, server_default=sa.text("false")))
    signed_at: dt.datetime = utc_field(default_now=True)
    ip: str | None = Field(default=None, sa_column=sa.Column(sa.String(45)))
    user_agent: str | None = Field(default=None, sa_column=sa.Column(sa.String(300)))


class GameRsvp(SQLModel, table=True):
    """A member's answer for one of their team's games (``answer`` None: asked by a reminder, not answered)."""

    __tablename__ = "game_rsvps"
    __table_args__ = (
        sa.UniqueConstraint("game_id", "team_id", "user_id", name="uq_game_rsvps_game_id_team_id_user_id"),
        sa.Index("ix_game_rsvps_user_id_game_id", "user_id", "game_id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = fk("games.id", index=False)
    team_id: int = fk("teams.id", index=False)
    user_id: int = fk("users.id", index=False)
    answer: RsvpAnswer | None = enum_field(RsvpAnswer, nullable=True, default=None)
    answered_at: dt.datetime | None = utc_field(nullable=True, default=None)
    reminded_at: dt.datetime | None = utc_field(nullable=True, default=None)


class ShortTeamNotice(SQLModel, table=True):
    """A team told, once, that it is short of players for a game (by its RSVP deadline)."""

    __tablename__ = "short_team_notices"
    __table_args__ = (sa.UniqueConstraint("game_id", "team_id", name="uq_short_team_notices_game_id_team_id"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = fk("games.id", index=False)
    team_id: int = fk("teams.id", index=False)
    players: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))  # how many it lacked
    sent_at: dt.datetime = utc_field(default_now=True)


class ShareReminder(SQLModel, table=True):
    """A member reminded, once per kind ("due_soon", "overdue"), of the share of the team's fee they owe."""

    __tablename__ = "share_reminders"
    __table_args__ = (
        sa.UniqueConstraint("team_id", "user_id", "kind", name="uq_share_reminders_team_id_user_id_kind"),
    )

    id: int | None = Field(default=None, primary_key=True)
    team_id: int = fk("teams.id", index=False)
    user_id: int = fk("users.id", index=False)
    kind: str = Field(sa_column=sa.Column(sa.String(20), nullable=False))
    sent_at: dt.datetime = utc_field(default_now=True)
