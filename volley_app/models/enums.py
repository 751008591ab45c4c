"""The enumerations of spec section 3. Values are the spec's words."""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING


class StrEnum(enum.StrEnum):
    @classmethod
    def values(cls) -> list[str]:
        return [m.value for m in cls]


class Role(StrEnum):
    PLAYER = "Player"
    SVL = "SVL"
    ADMIN = "Admin"


class MemberRole(StrEnum):
    """A team member's part: the captain (one, ``teams.captain_id``), co-captains (they run the roster too), players."""

    CAPTAIN = "Captain"
    CO_CAPTAIN = "Co-captain"
    PLAYER = "Player"


class InvitationStatus(StrEnum):
    PENDING = "Pending"
    ACCEPTED = "Accepted"
    DECLINED = "Declined"
    WITHDRAWN = "Withdrawn"  # the captain took it back, or the inviter left the team


class RsvpAnswer(StrEnum):
    """A member's answer for one game."""

    IN = "In"
    OUT = "Out"
    MAYBE = "Maybe"


class Gender(StrEnum):
    MALE = "Male"
    FEMALE = "Female"


class SkillLevel(StrEnum):
    """League and sub request skill levels."""

    A = "A"
    B = "B"
    C_PLUS = "C+"
    C = "C"
    D = "D"


class Rating(StrEnum):
    """A sub's hitter, passer and setter ratings."""

    A = "A"
    B = "B"
    C = "C"
    D = "D"


class SubFormat(StrEnum):
    DOUBLES = "Doubles"
    QUADS = "Quads"
    FIVES = "5s"
    SIXES = "6s"
    REVERSE_QUADS = "Reverse Quads"


class LeagueFormat(StrEnum):
    DOUBLES = "doubles"
    QUADS = "quads"
    FIVES = "5s"
    SIXES = "6s"
    REVERSE_QUADS = "reverseQuads"


class Day(StrEnum):
    MONDAY = "Monday"
    TUESDAY = "Tuesday"
    WEDNESDAY = "Wednesday"
    THURSDAY = "Thursday"
    FRIDAY = "Friday"
    SATURDAY = "Saturday"
    SUNDAY = "Sunday"


class SubStatus(StrEnum):
    OPEN = "Open"
    ACCEPTED = "Accepted"
    DECLINED = "Declined"


class Position(StrEnum):
    """The position a sub request needs filled ("Any": whichever the sub plays best)."""

    ANY = "Any"
    HITTER = "Hitter"
    PASSER = "Passer"
    SETTER = "Setter"


class GenderNeeded(StrEnum):
    """Who a sub request needs: anyone, a man or a woman (the format's rules on court, spec section 9)."""

    ANY = "Any"
    MALE = "Male"
    FEMALE = "Female"


class SubOutcome(StrEnum):
    """What the requestor says happened after the game: the sub played, or did not show."""

    PLAYED = "Played"
    NO_SHOW = "No-show"


class SessionStatus(StrEnum):
    REGISTRATION = "Registration"
    ACTIVE = "Active"
    INACTIVE = "Inactive"


class LeagueStage(StrEnum):
    REGISTRATION = "Registration"
    ACTIVE = "Active"
    INACTIVE = "Inactive"


class GameType(StrEnum):
    LEAGUE = "League"
    TOURNAMENT = "Tournament"


class Ranking(StrEnum):
    """How a league orders its standings (services/seasons/results.py says what each one compares)."""

    STANDARD = "standard"
    FIVB = "fivb"
    SET_PERCENT = "set_percent"


class ReportStatus(StrEnum):
    """A captain's score report: waiting for the other captain, confirmed, disputed, or settled by the operator."""

    PENDING = "pending"
    CONFIRMED = "confirmed"
    DISPUTED = "disputed"
    SETTLED = "settled"


class OutboxStatus(StrEnum):
    PENDING = "pending"
    SENDING = "sending"
    SENT = "sent"
    FAILED = "failed"


# The 50 US states plus DC: code -> name.
REGIONS: dict[str, str] = {
    "AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas", "CA": "California",
    "CO": "Colorado", "CT": "Connecticut", "DE": "Delaware", "DC": "District of Columbia",
    "FL": "Florida", "GA": "Georgia", "HI": "Hawaii", "ID": "Idaho", "IL": "Illinois",
    "IN": "Indiana", "IA": "Iowa", "KS": "Kansas", "KY": "Kentucky", "LA": "Louisiana",
    "ME": "Maine", "MD": "Maryland", "MA": "Massachusetts", "MI": "Michigan", "MN": "Minnesota",
    "MS": "Mississippi", "MO": "Missouri", "MT": "Montana", "NE": "Nebraska", "NV": "Nevada",
    "NH": "New Hampshire", "NJ": "New Jersey", "NM": "New Mexico", "NY": "New York",
    "NC": "North Carolina", "ND": "North Dakota", "OH": "Ohio", "OK": "Oklahoma", "OR": "Oregon",
    "PA": "Pennsylvania", "RI": "Rhode Island", "SC": "South Carolina", "SD": "South Dakota",
    "TN": "Tennessee", "TX": "Texas", "UT": "Utah", "VT": "Vermont", "VA": "Virginia",
    "WA": "Washington", "WV": "West Virginia", "WI": "Wisconsin", "WY": "Wyoming",
}  # fmt: skip

if TYPE_CHECKING:  # the checker reads a class; its members are the codes above

    class Region(StrEnum):
        pass

else:
    Region = StrEnum("Region", {code: code for code in REGIONS})
