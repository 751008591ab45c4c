"""Accounts and everything login needs."""

from __future__ import annotations

import datetime as dt

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from volley_app.models.base import UTCDateTime, archived_index, enum_field, utc_field, utcnow
from volley_app.models.enums import Gender, Rating, Region, Role


class User(SQLModel, table=True):
    __tablename__ = "users"
    # The Subs list, by name, a page at a time.
    __table_args__ = (
        sa.Index("ix_users_sub_active_first_name_last_name_id", "sub", "active", "first_name", "last_name", "id"),
        sa.Index("ix_users_calendar_token", "calendar_token", unique=True),
        # A venue found by the name a sub request's location gives, in any case (``venues.zones_by_name``).
        sa.Index("ix_users_lower_first_name", sa.func.lower(sa.literal_column("first_name"))),
        # The admin's users list sorted by name.
        sa.Index("ix_users_last_name_first_name_id", "last_name", "first_name", "id"),
        archived_index("users"),
    )

    id: int | None = Field(default=None, primary_key=True)
    username: str = Field(sa_column=sa.Column(sa.String(50), nullable=False, unique=True))
    password_hash: str = Field(sa_column=sa.Column(sa.String(100), nullable=False))
    roles: list[str] = Field(default_factory=lambda: [Role.PLAYER.value], sa_column=sa.Column(sa.JSON, nullable=False))
    # Stored lower-case; unique so one address is one account.
    email: str = Field(sa_column=sa.Column(sa.String(254), nullable=False, unique=True))
    first_name: str = Field(sa_column=sa.Column(sa.String(100), nullable=False))
    last_name: str = Field(default="", sa_column=sa.Column(sa.String(100), nullable=False, server_default=""))
    gender: Gender | None = enum_field(Gender, nullable=True, default=None)
    address: str | None = Field(default=None, sa_column=sa.Column(sa.String(200)))
    city: str | None = Field(default=None, sa_column=sa.Column(sa.String(100)))
    region: Region | None = enum_field(Region, nullable=True, default=None)
    sub: bool = Field(default=False, sa_column=sa.Column(sa.Boolean, nullable=False, index=True, server_default=sa.text("false")))
    hitter_skill_level: Rating | None = enum_field(Rating, nullable=True, default=None)
    passer_skill_level: Rating | None = enum_field(Rating, nullable=True, default=None)
    setter_skill_level: Rating | None = enum_field(Rating, nullable=True, default=None)
    # The weekdays a sub usually can play: bit 0 Monday ... bit 6 Sunday (127: every day).
    sub_days: int = Field(default=127, sa_column=sa.Column(sa.Integer, nullable=False, server_default="127"))
    # At most this many subs a week (None: no cap).
    sub_weekly_cap: int | None = Field(default=None, sa_column=sa.Column(sa.Integer))
    active: bool = Field(default=True, sa_column=sa.Column(sa.Boolean, nullable=False, server_default=sa.text("true")))
    created_at: dt.datetime = utc_field(default_now=True)
    updated_at: dt.datetime = utc_field(default_now=True)
    # A deleted account with history (payments, teams, requests, venues) is archived: no login, kept.
    archived_at: dt.datetime | None = utc_field(nullable=True, default=None)
    # The secret in the address of this user's calendar feed (None: no feed). A calendar app holds the
    # address to subscribe without logging in; a new token makes the old address answer 404.
    calendar_token: str | None = Field(default=None, sa_column=sa.Column(sa.String(64)))
    # A venue's (SVL's) IANA time zone: its sessions, leagues, games and sub requests are entered and shown in it.
    time_zone: str = Field(
        default="America/New_York",
        sa_column=sa.Column(sa.String(64), nullable=False, server_default="America/New_York"),
    )
    # Unsubscribed from the league's announcements to every user (Email All).
    announcements_off: bool = Field(default=False, sa_column=sa.Column(sa.Boolean, nullable=False, server_default=sa.text("false")))
    # A sub's record, kept from the places they took on requests not cancelled (``services/subs/sub_records.py``):
    # games marked played, marked no-show, and the date of the latest request they took (None: never).
    sub_played: int = Field(default=0, sa_column=sa.Column(sa.Integer, nullable=False, server_default="0"))
    sub_no_shows: int = Field(default=0, sa_column=sa.Column(sa.Integer, nullable=False, server_default="0"))
    sub_last_date: dt.datetime | None = utc_field(nullable=True, default=None)
    # Places given up within a day of the game, on requests not cancelled.
    sub_late_withdrawals: int = Field(default=0, sa_column=sa.Column(sa.Integer, nullable=False, server_default="0"))


class UserToken(SQLModel):
    """A secret given to one user (a login, a reset link): they hold the random token, we keep its hash."""

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(default=None, foreign_key="users.id", ondelete="CASCADE", nullable=False, index=True)
    token_hash: str = Field(sa_type=sa.String(64), nullable=False, unique=True)
    created_at: dt.datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)


class LoginSession(UserToken, table=True):
    """One logged-in device. The browser holds only the random token."""

    __tablename__ = "login_sessions"

    trusted: bool = Field(default=False, sa_column=sa.Column(sa.Boolean, nullable=False))
    expires_at: dt.datetime = utc_field(index=True)
    last_seen_at: dt.datetime = utc_field(default_now=True)
    revoked_at: dt.datetime | None = utc_field(nullable=True, default=None)
    client_ip: str = Field(default="", sa_column=sa.Column(sa.String(64), nullable=False, server_default=""))


class LoginAttempt(SQLModel, table=True):
    """Failed logins, counted per account and per client to throttle guessing."""

    __tablename__ = "login_attempts"
    __table_args__ = (
        sa.Index("ix_login_attempts_username_at", "username", "at"),
        sa.Index("ix_login_attempts_client_at", "client", "at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    username: str = Field(sa_column=sa.Column(sa.String(100), nullable=False))
    client: str = Field(sa_column=sa.Column(sa.String(64), nullable=False))
    at: dt.datetime = utc_field(default_now=True)


class PasswordResetToken(UserToken, table=True):
    """A password reset link: the email holds the token; it works once, until it expires."""

    __tablename__ = "password_reset_tokens"

    expires_at: dt.datetime = utc_field()
    used_at: dt.datetime | None = utc_field(nullable=True, default=None)


class SignInLink(UserToken, table=True):
    """A one-time sign-in link emailed when the account's failed-login ceiling holds a right password back."""

    __tablename__ = "sign_in_links"

    expires_at: dt.datetime = utc_field()
    used_at: dt.datetime | None = utc_field(nullable=True, default=None)


class KnownDevice(UserToken, table=True):
    """A browser or API client that logged in to the account: it holds a random device token (a cookie), we keep
    its HMAC bound to the user. The failed-login ceilings do not hold a known device back."""

    __tablename__ = "known_devices"

    last_seen_at: dt.datetime = utc_field(default_now=True)


class RefreshToken(UserToken, table=True):
    """One refresh token of the REST API (held in an httpOnly cookie). Each refresh replaces it with a
    new one of the same family; a replaced one used again revokes the family (it was stolen)."""

    __tablename__ = "refresh_tokens"

    family: str = Field(sa_column=sa.Column(sa.String(64), nullable=False, index=True))
    expires_at: dt.datetime = utc_field()
    used_at: dt.datetime | None = utc_field(nullable=True, default=None)
    revoked_at: dt.datetime | None = utc_field(nullable=True, default=None)
