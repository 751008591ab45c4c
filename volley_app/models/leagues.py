"""League sessions, leagues, teams and games."""

from __future__ import annotations

import datetime as dt

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from volley_app.models.base import archived_index, enum_field, enum_type, fk, utc_field
from volley_app.models.enums import (
    Day,
    GameType,
    LeagueFormat,
    LeagueStage,
    Ranking,
    Region,
    ReportStatus,
    SessionStatus,
    SkillLevel,
)


class LeagueSession(SQLModel, table=True):
    """The spec's "Session": a season a venue operator (SVL) runs leagues in."""

    __tablename__ = "league_sessions"
    __table_args__ = (
        sa.Index("ix_league_sessions_svl_status_start", "svl_id", "status", "start_at"),
        archived_index("league_sessions"),
    )

    id: int | None = Field(default=None, primary_key=True)
    svl_id: int = fk("users.id", index=False)
    name: str = Field(sa_column=sa.Column(sa.String(120), nullable=False))
    status: SessionStatus = enum_field(SessionStatus, index=True, default=SessionStatus.REGISTRATION)
    start_at: dt.datetime = utc_field(index=True)
    end_at: dt.datetime = utc_field()
    created_by_id: int | None = fk("users.id", nullable=True, ondelete="SET NULL")
    created_at: dt.datetime = utc_field(default_now=True)
    # Archived: hidden from normal lists, kept with everything in it, restorable by an admin.
    archived_at: dt.datetime | None = utc_field(nullable=True, default=None)
    archived_by_id: int | None = fk("users.id", nullable=True, ondelete="SET NULL", index=False)


# Who pays a team's fee: its captain at registration, or each rostered player a share after the captain's deposit.
CAPTAIN_PAYS, SHARES = "captain", "shares"
PAYMENT_MODES = (CAPTAIN_PAYS, SHARES)


class League(SQLModel, table=True):
    __tablename__ = "leagues"
    __table_args__ = (sa.Index("ix_leagues_active_start", "active", "start_at"), archived_index("leagues"))

    id: int | None = Field(default=None, primary_key=True)
    session_id: int = fk("league_sessions.id")
    svl_id: int = fk("users.id")
    court: str = Field(sa_column=sa.Column(sa.String(100), nullable=False))  # the first (or only) court
    # Every court the league plays on, one name a line, the first being ``court``; None: ``court`` alone.
    courts: str | None = Field(default=None, sa_column=sa.Column(sa.Text))
    start_at: dt.datetime = utc_field()
    # Registration and the waitlist close then (None: at the start).
    registration_deadline: dt.datetime | None = utc_field(nullable=True, default=None)
    number_of_weeks: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))
    time_increment: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))  # minutes between games
    skill_level: SkillLevel = enum_field(SkillLevel)
    format: LeagueFormat = enum_field(LeagueFormat)
    gender_requirement: str | None = Field(default=None, sa_column=sa.Column(sa.String(100)))
    day: Day = enum_field(Day)
    max_teams: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))
    cost_cents: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))
    cash: bool = Field(default=False, sa_column=sa.Column(sa.Boolean, nullable=False, server_default=sa.text("false")))
    stage: LeagueStage = enum_field(LeagueStage, default=LeagueStage.REGISTRATION)
    active: bool = Field(default=True, sa_column=sa.Column(sa.Boolean, nullable=False, server_default=sa.text("true")))
    schedule_generated: bool = Field(default=False, sa_column=sa.Column(sa.Boolean, nullable=False, server_default=sa.text("false")))
    # The tournament bracket: the server-made name of its stored file (services/core/uploads.py).
    tournament_file: str | None = Field(default=None, sa_column=sa.Column(sa.String(200)))
    tournament_content_type: str | None = Field(default=None, sa_column=sa.Column(sa.String(100)))
    address: str | None = Field(default=None, sa_column=sa.Column(sa.String(200)))
    city: str | None = Field(default=None, sa_column=sa.Column(sa.String(100)))
    region: Region | None = enum_field(Region, nullable=True, default=None)
    # How long a place offered to a waitlisted team is held for it.
    offer_hold_hours: int = Field(default=48, sa_column=sa.Column(sa.Integer, nullable=False, server_default="48"))
    # How the standings are ordered (a choice of services/seasons/results.RANKINGS).
    ranking: Ranking = Field(
        default=Ranking.STANDARD,
        sa_column=sa.Column(enum_type(Ranking), nullable=False, server_default=Ranking.STANDARD.value),
    )
    # How many sets a match has: None plays a best of three (set 3 only after a split), 3 plays all three.
    sets_to_play: int | None = Field(default=None, sa_column=sa.Column(sa.Integer))
    # Roster sizes (None: the format's, services/seasons/leagues.ROSTER_SIZES) and how many of the league's teams
    # one player may be on.
    roster_min: int | None = Field(default=None, sa_column=sa.Column(sa.Integer))
    roster_max: int | None = Field(default=None, sa_column=sa.Column(sa.Integer))
    teams_per_player: int = Field(default=1, sa_column=sa.Column(sa.Integer, nullable=False, server_default="1"))
    # The gender rule, checked: at least this many women on court (None: no rule).
    women_on_court: int | None = Field(default=None, sa_column=sa.Column(sa.Integer))
    # Who may sub: one rostered on another of the league's teams; ratings this many levels under or over the
    # league's skill (None: any); in playoffs, rostered players with this many regular-season games played, and
    # subs only with the operator's approval.
    subs_from_other_teams: bool = Field(default=True, sa_column=sa.Column(sa.Boolean, nullable=False,
                                                                          server_default=sa.text("true")))
    sub_levels_below: int | None = Field(default=None, sa_column=sa.Column(sa.Integer))
    sub_levels_above: int | None = Field(default=None, sa_column=sa.Column(sa.Integer))
    playoff_min_games: int | None = Field(default=None, sa_column=sa.Column(sa.Integer))
    playoff_subs_approved: bool = Field(default=False, sa_column=sa.Column(sa.Boolean, nullable=False,
                                                                           server_default=sa.text("false")))
    # The refund policy: in full until ``refund_full_until``, then less ``refund_fee_cents`` until
    # ``refund_until``, then none. No dates: refunds are the operator's call, proposed in full.
    refund_full_until: dt.datetime | None = utc_field(nullable=True, default=None)
    refund_until: dt.datetime | None = utc_field(nullable=True, default=None)
    refund_fee_cents: int = Field(default=0, sa_column=sa.Column(sa.Integer, nullable=False, server_default="0"))
    # Who pays the team's fee: its captain at registration ("captain"), or each rostered player a share
    # ("shares"): the captain's deposit holds the place, the rest is split among the roster, due by ``shares_due_at``.
    payment_mode: str = Field(default=CAPTAIN_PAYS, sa_column=sa.Column(sa.String(10), nullable=False,
                                                                     server_default="captain"))
    deposit_cents: int = Field(default=0, sa_column=sa.Column(sa.Integer, nullable=False, server_default="0"))
    shares_due_at: dt.datetime | None = utc_field(nullable=True, default=None)
    # Players may register alone as free agents for this fee, in cents (None: the league takes no free agents).
    agent_fee_cents: int | None = Field(default=None, sa_column=sa.Column(sa.Integer, nullable=True))
    created_at: dt.datetime = utc_field(default_now=True)
    archived_at: dt.datetime | None = utc_field(nullable=True, default=None)
    archived_by_id: int | None = fk("users.id", nullable=True, ondelete="SET NULL", index=False)


class Team(SQLModel, table=True):
    __tablename__ = "teams"
    __table_args__ = (sa.UniqueConstraint("league_id", "team_name", name="uq_teams_league_id_team_name"),)

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = fk("leagues.id")
    captain_id: int | None = fk("users.id", nullable=True, ondelete="SET NULL")  # the spec's "user"
    team_name: str = Field(sa_column=sa.Column(sa.String(100), nullable=False))
    paid: bool = Field(default=False, sa_column=sa.Column(sa.Boolean, nullable=False, server_default=sa.text("false")))
    waitlist: bool = Field(default=False, sa_column=sa.Column(sa.Boolean, nullable=False, server_default=sa.text("false")))
    created_at: dt.datetime = utc_field(default_now=True)
    # Withdrawn: out of the league's play; its played games (and results) stay.
    withdrawn_at: dt.datetime | None = utc_field(nullable=True, default=None)
    # Members who have not answered for a game are reminded this many days before it.
    rsvp_reminder_days: int = Field(default=3, sa_column=sa.Column(sa.Integer, nullable=False, server_default="3"))
    # Answers are due this many hours before a game: a team still short then is told (its captains are emailed).
    rsvp_deadline_hours: int = Field(default=48, sa_column=sa.Column(sa.Integer, nullable=False, server_default="48"))


class Game(SQLModel, table=True):
    __tablename__ = "games"
    __table_args__ = (sa.Index("ix_games_league_start", "league_id", "start_at"),)

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = fk("leagues.id", index=False)
    team1_id: int | None = fk("teams.id", nullable=True)
    team2_id: int | None = fk("teams.id", nullable=True)  # None: a BYE
    start_at: dt.datetime = utc_field()
    team1_game1_score: int | None = None
    team1_game2_score: int | None = None
    team1_game3_score: int | None = None
    team2_game1_score: int | None = None
    team2_game2_score: int | None = None
    team2_game3_score: int | None = None
    type: GameType = enum_field(GameType, default=GameType.LEAGUE)
    round: int = 0
    match: int = 0
    court: str | None = Field(default=None, sa_column=sa.Column(sa.String(100)))
    # Bumped whenever the game moves (calendar apps replace an event with a higher SEQUENCE).
    sequence: int = Field(default=0, sa_column=sa.Column(sa.Integer, nullable=False, server_default="0"))
    # The team that did not play (withdrew or did not show): the other team wins by forfeit.
    forfeit_team_id: int | None = fk("teams.id", nullable=True, ondelete="SET NULL", index=False)


class StandingAdjustment(SQLModel, table=True):
    """An operator's correction to a team's record, with the reason: added to what the games say."""

    __tablename__ = "standing_adjustments"

    id: int | None = Field(default=None, primary_key=True)
    team_id: int = fk("teams.id", ondelete="RESTRICT")
    wins: int = Field(default=0, sa_column=sa.Column(sa.Integer, nullable=False, server_default="0"))
    losses: int = Field(default=0, sa_column=sa.Column(sa.Integer, nullable=False, server_default="0"))
    reason: str = Field(sa_column=sa.Column(sa.String(300), nullable=False))
    created_by_id: int | None = fk("users.id", nullable=True, ondelete="SET NULL", index=False)
    created_at: dt.datetime = utc_field(default_now=True)

class PlayoffSeed(SQLModel, table=True):
    """A team's seed in its league's generated playoff bracket (1 is the best record)."""

    __tablename__ = "playoff_seeds"
    __table_args__ = (sa.UniqueConstraint("league_id", "seed", name="uq_playoff_seeds_league_id_seed"),)

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = fk("leagues.id", index=False)
    team_id: int = fk("teams.id", ondelete="RESTRICT")
    seed: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))


class ScoreReport(SQLModel, table=True):
    """A captain's report of their own game's score; it counts once the other captain confirms it."""

    __tablename__ = "score_reports"
    __table_args__ = (sa.Index("ix_score_reports_game_status", "game_id", "status"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = fk("games.id", index=False)
    team_id: int = fk("teams.id", index=False, ondelete="RESTRICT")  # the reporting captain's team
    reported_by_id: int | None = fk("users.id", nullable=True, ondelete="SET NULL", index=False)
    team1_game1_score: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))
    team2_game1_score: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))
    team1_game2_score: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))
    team2_game2_score: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))
    team1_game3_score: int | None = None
    team2_game3_score: int | None = None
    status: ReportStatus = enum_field(ReportStatus, index=True, default=ReportStatus.PENDING)
    note: str | None = Field(default=None, sa_column=sa.Column(sa.String(300)))  # why it was disputed
    answered_by_id: int | None = fk("users.id", nullable=True, ondelete="SET NULL", index=False)
    answered_at: dt.datetime | None = utc_field(nullable=True, default=None)
    created_at: dt.datetime = utc_field(default_now=True)
