"""Every table of the product. Importing this package registers them all (Alembic needs that)."""

from sqlmodel import SQLModel

from volley_app.models.audit import AuditEntry
from volley_app.models.base import UTCDateTime, utcnow
from volley_app.models.enums import (
    REGIONS,
    Day,
    GameType,
    Gender,
    GenderNeeded,
    InvitationStatus,
    LeagueFormat,
    LeagueStage,
    MemberRole,
    OutboxStatus,
    Position,
    Ranking,
    Rating,
    Region,
    ReportStatus,
    Role,
    RsvpAnswer,
    SessionStatus,
    SkillLevel,
    SubFormat,
    SubOutcome,
    SubStatus,
)
from volley_app.models.files import StoredFile
from volley_app.models.inquiries import ContactInquiry, FranchiseInquiry, HostInquiry, Inquiry, PromoteInquiry
from volley_app.models.leagues import Game, League, LeagueSession, PlayoffSeed, ScoreReport, StandingAdjustment, Team
from volley_app.models.ledger import LEDGER_KINDS, LedgerEntry, Refund
from volley_app.models.mail import OutboxMessage
from volley_app.models.newsletter import NEWSLETTER_SECTIONS, NewsletterIssue, NewsletterSubscriber
from volley_app.models.outreach import EmailAllJob, EmailAllRecipient, RateLimitHit
from volley_app.models.payments import Payment
from volley_app.models.reminders import SubRequestReminder
from volley_app.models.rosters import (
    GameRsvp,
    LeagueWaiver,
    ShareReminder,
    ShortTeamNotice,
    TeamInvitation,
    TeamMember,
    WaiverSignature,
)
from volley_app.models.subs import (
    AWAITING_APPROVAL,
    SubInvite,
    SubPlaceRefusal,
    SubRequest,
    SubRequestPlace,
    SubUnavailableDate,
    SubWithdrawal,
)
from volley_app.models.users import (
    KnownDevice,
    LoginAttempt,
    LoginSession,
    PasswordResetToken,
    RefreshToken,
    SignInLink,
    User,
)

__all__ = [
    "NEWSLETTER_SECTIONS", "REGIONS", "AuditEntry", "StandingAdjustment", "ContactInquiry", "Day", "FranchiseInquiry", "Game",
    "GameType", "Gender", "HostInquiry", "Inquiry", "League", "LeagueFormat", "LeagueSession", "LeagueStage",
    "LoginAttempt", "LoginSession", "NewsletterIssue", "NewsletterSubscriber", "OutboxMessage",
    "OutboxStatus", "PasswordResetToken", "Payment", "PromoteInquiry", "Rating", "Region", "Role",
    "RefreshToken", "SessionStatus", "KnownDevice", "SignInLink", "SkillLevel", "EmailAllJob", "EmailAllRecipient", "RateLimitHit", "SubFormat", "SubInvite", "SubRequest", "AWAITING_APPROVAL", "SubPlaceRefusal", "SubRequestPlace", "SubStatus", "SubWithdrawal", "Team", "User", "UTCDateTime", "utcnow",
    "PlayoffSeed", "Ranking", "ReportStatus", "ScoreReport",
    "GenderNeeded", "Position", "SubOutcome", "SubUnavailableDate", "SubRequestReminder", "StoredFile",
    "GameRsvp", "InvitationStatus", "LeagueWaiver", "MemberRole", "RsvpAnswer", "TeamInvitation", "TeamMember",
    "WaiverSignature", "ShareReminder", "ShortTeamNotice", "LEDGER_KINDS", "LedgerEntry", "Refund",
]  # fmt: skip

# No id is ever reused: on SQLite every table counts its ids with AUTOINCREMENT (PostgreSQL
# sequences never go back), so an old link can never open a newer, different record.
for _table in SQLModel.metadata.tables.values():
    _table.dialect_options["sqlite"]["autoincrement"] = True

from volley_app.models.discounts import DISCOUNT_SCOPES, DiscountCode  # noqa: E402 - after the tables it refers to

__all__ += ["DISCOUNT_SCOPES", "DiscountCode"]

from volley_app.models.free_agents import FreeAgent  # noqa: E402 - after the tables it refers to

__all__ += ["FreeAgent"]

from volley_app.models.push import PushMessage, PushSubscription  # noqa: E402 - after the tables it refers to

__all__ += ["PushMessage", "PushSubscription"]
from volley_app.models.notifications import Notification, NotificationPreference  # noqa: E402 - after the tables it refers to

__all__ += ["Notification", "NotificationPreference"]
