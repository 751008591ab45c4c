"""Every table of the product. Importing this package registers them all (Alembic needs that)."""

from volley_app.models.base import UTCDateTime, utcnow
from volley_app.models.enums import (
    REGIONS,
    Day,
    GameType,
    Gender,
    LeagueFormat,
    LeagueStage,
    OutboxStatus,
    Rating,
    Region,
    Role,
    SessionStatus,
    SkillLevel,
    SubFormat,
    SubStatus,
)
from volley_app.models.inquiries import ContactInquiry, FranchiseInquiry, HostInquiry, PromoteInquiry
from volley_app.models.leagues import Game, League, LeagueSession, Team
from volley_app.models.mail import OutboxMessage
from volley_app.models.newsletter import NEWSLETTER_SECTIONS, NewsletterIssue, NewsletterSubscriber
from volley_app.models.outreach import EmailAllJob, EmailAllRecipient, RateLimitHit
from volley_app.models.payments import Payment
from volley_app.models.subs import SubRequest
from volley_app.models.users import LoginAttempt, LoginSession, PasswordResetToken, User

__all__ = [
    "NEWSLETTER_SECTIONS", "REGIONS", "ContactInquiry", "Day", "FranchiseInquiry", "Game",
    "GameType", "Gender", "HostInquiry", "League", "LeagueFormat", "LeagueSession", "LeagueStage",
    "LoginAttempt", "LoginSession", "NewsletterIssue", "NewsletterSubscriber", "OutboxMessage",
    "OutboxStatus", "PasswordResetToken", "Payment", "PromoteInquiry", "Rating", "Region", "Role",
    "SessionStatus", "SkillLevel", "EmailAllJob", "EmailAllRecipient", "RateLimitHit", "SubFormat", "SubRequest", "SubStatus", "Team", "User", "UTCDateTime", "utcnow",
]  # fmt: skip
