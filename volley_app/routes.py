"""Every path of the product, in one place. Pages and links use these names, never string paths."""

from __future__ import annotations

from urllib.parse import quote, unquote

from volley_app.models import Role

# Public
HOME = "/"
LOGIN = "/login"
SIGNUP = "/new"
HOST = "/host"
PROMOTE = "/promote"
CONTACT = "/contact"
ABOUT = "/aboutUs"
FRANCHISE = "/franchise"
FORGOT_PASSWORD = "/forgotPassword"  # noqa: S105 - a path, not a secret

# Protected
DASH = "/dash"
DASH_LEAGUES = "/dash/leagues"
DASH_SUBS = "/dash/subs"
DASH_PROFILE = "/dash/profile"
SVL_HOME = "/dash/SVLHome"
SESSIONS = "/dash/sessions"
NOTES = "/dash/notes"

ALL_ROLES = frozenset({Role.PLAYER.value, Role.SVL.value, Role.ADMIN.value})

# Route guards of spec section 6, longest prefix wins. UX only: services check again.
GUARDS: dict[str, frozenset[str]] = {
    DASH: ALL_ROLES,
    NOTES: frozenset({Role.PLAYER.value, Role.ADMIN.value}),
    SESSIONS: frozenset({Role.SVL.value, Role.ADMIN.value}),
    "/dash/newsletterSetup": frozenset({Role.ADMIN.value}),
    "/dash/emailAll": frozenset({Role.ADMIN.value}),
    SVL_HOME: frozenset({Role.SVL.value}),
    DASH_LEAGUES: ALL_ROLES,
    "/dash/teams": ALL_ROLES,
}


def _norm(path: str) -> str:
    return "/" + path.strip("/").lower()


def roles_for(path: str) -> frozenset[str]:
    """The roles that may open ``path`` (every role for paths no guard names)."""
    p = _norm(path)
    best, roles = "", ALL_ROLES
    for prefix, allowed in GUARDS.items():
        pre = _norm(prefix)
        if (p == pre or p.startswith(pre + "/")) and len(pre) > len(best):
            best, roles = pre, allowed
    return roles


def safe_next(value: str | None, default: str = DASH) -> str:
    """A post-login target: only a path inside this site (no scheme, no //host)."""
    if not value:
        return default
    value = unquote(value)
    # Browsers drop tabs and line breaks from URLs, so "/\t/evil" would become "//evil".
    if any(ch.isspace() or ord(ch) < 32 or ord(ch) == 127 for ch in value):
        return default
    if not value.startswith("/") or value.startswith("//") or "\\" in value:
        return default
    return value


def login_with_next(path: str) -> str:
    return f"{LOGIN}?next={quote(path, safe='/')}"

# --- issue 6: public forms, password recovery, newsletter, email to all users ----------
SENT = "/sent"
FORGOT_SENT = "/forgotPasswordSent"  # noqa: S105 - a path, not a secret
FORGOT_NOT_FOUND = "/forgotPasswordNotFound"  # noqa: S105 - a path, not a secret
RESET_PASSWORD = "/resetPassword"  # noqa: S105 - a path, not a secret
RESET_PASSWORD_ROUTE = "/resetPassword/[reset_user]/[reset_token]"  # noqa: S105 - a path, not a secret
PASSWORD_UPDATED = "/passwordUpdated"  # noqa: S105 - a path, not a secret
NEWSLETTER = "/newsletter"
SUBSCRIBED = "/subscribed"
UNSUBSCRIBE = "/unsubscribe"
UNSUBSCRIBE_ROUTE = "/unsubscribe/[sub_id]/[sub_token]"
NEWSLETTER_SETUP = "/dash/newsletterSetup"
EMAIL_ALL = "/dash/emailAll"
INQUIRIES = "/dash/inquiries"
GUARDS[INQUIRIES] = frozenset({Role.ADMIN.value})

# --- Operators (issue 4): sessions, leagues, teams, schedules, games, standings -----------------
SESSIONS_NEW = "/dash/sessions/new"
SESSION_LEAGUES = "/dash/sessions/leagues"  # ?session={id}
SESSION_EDIT = "/dash/sessions/[session_id]"
LEAGUES_NEW = "/dash/leagues/new"  # ?session={id}
LEAGUE_HOME = "/dash/leagues/[league_id]"
LEAGUE_RULES = "/dash/leagues/[league_id]/LeagueRules"
LEAGUE_STANDINGS = "/dash/leagues/[league_id]/teams"
SCHEDULE = "/dash/leagues/teams/schedule"  # ?league={id}
GAME_EDIT = "/dash/leagues/teams/schedule/[game_id]"
TEST_SCHEDULE = "/dash/leagues/teams/TESTschedule"
WAITLIST = "/dash/leagues/teams/waitlist"  # ?league={id} (optional)
PLAYER_LEAGUES = "/dash/playerleagues"
TEAMS = "/dash/teams"
TEAM_EDIT = "/dash/teams/[team_id]"
GUARDS[TEST_SCHEDULE] = frozenset({Role.ADMIN.value})


def session_path(session_id: int | str) -> str:
    return f"{SESSIONS}/{session_id}"


def league_path(league_id: int | str) -> str:
    return f"{DASH_LEAGUES}/{league_id}"


def league_rules_path(league_id: int | str) -> str:
    return f"{DASH_LEAGUES}/{league_id}/LeagueRules"


def standings_path(league_id: int | str) -> str:
    return f"{DASH_LEAGUES}/{league_id}/teams"


def schedule_path(league_id: int | str) -> str:
    return f"{SCHEDULE}?league={league_id}"


def game_path(game_id: int | str) -> str:
    return f"{SCHEDULE}/{game_id}"


def team_path(team_id: int | str) -> str:
    return f"{TEAMS}/{team_id}"

# --- Players and subs (issue 3) -------------------------------------------------------
NOTES_NOTIFICATIONS = "/dash/notes/notifications"
NOTES_NEW = "/dash/notes/new"
NOTES_NEW_SPECIFIC = "/dash/notes/newspecific"
NOTE_DETAIL = "/dash/notes/[note_id]"
PLAYER_INFO = "/dash/playerinfo"
PLAYER_CONTACT = "/dash/playercontact"
PLAYER_SENT = "/dash/playersent"
USERS = "/dash/users"
USERS_NEW = "/dash/users/new"
USER_EDIT = "/dash/users/[user_id]"


def note_path(note_id: int | str) -> str:
    return f"{NOTES}/{note_id}"


def user_path(user_id: int | str) -> str:
    return f"{USERS}/{user_id}"


def invite_path(sub_id: int | str) -> str:
    """The targeted sub request form with ``sub_id`` preselected."""
    return f"{NOTES_NEW_SPECIFIC}?sub={sub_id}"


def last_segment(path: str) -> str:
    """The last part of a path ('/dash/notes/12' -> '12'), for dynamic routes."""
    return path.rstrip("/").rsplit("/", 1)[-1]

# --- Team registration and card payment (issue 5) ----------------------------------------------
TEAMS_NEW = "/dash/leagues/teams/new"  # ?league={id}
TEAMS_CHECKOUT = "/dash/leagues/teams/checkout"  # ?payment={id}
TEAMS_SUCCESS = "/dash/leagues/teams/success"  # ?payment={id}
TEAMS_WAITLIST_SUCCESS = "/dash/leagues/teams/waitlistSuccess"  # ?league={id}
TEAMS_DECLINE = "/dash/leagues/teams/decline"  # ?league={id}


def new_team_path(league_id: int | str) -> str:
    return f"{TEAMS_NEW}?league={league_id}"
