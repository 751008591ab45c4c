"""Every path of the product and the builders for its links, one block per URL tree.

Pages register under these names, and pages, services and emails build every
link with the builders here: no path is pasted together anywhere else.
Dynamic segments are written ``[name]``; ``path_args`` reads them back.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from urllib.parse import quote, unquote, urlencode

from volley_app.models import Role
from volley_app.settings import get_settings

# --- public pages: /, sign up, log in, inquiries, newsletter -----------------------------
HOME = "/"
LOGIN = "/login"
SIGNUP = "/new"
HOST = "/host"
PROMOTE = "/promote"
CONTACT = "/contact"
ABOUT = "/aboutUs"
FRANCHISE = "/franchise"
SENT = "/sent"
NEWSLETTER = "/newsletter"
SUBSCRIBED = "/subscribed"
UNSUBSCRIBE = "/unsubscribe"
UNSUBSCRIBE_ROUTE = "/unsubscribe/[sub_id]/[sub_token]"

# The page for an address that is none of these (the framework serves it for every unknown path).
NOT_FOUND = "/404"

# --- password recovery ------------------------------------------------------------------
FORGOT_PASSWORD = "/forgotPassword"  # noqa: S105 - a path, not a secret
FORGOT_SENT = "/forgotPasswordSent"  # noqa: S105
FORGOT_NOT_FOUND = "/forgotPasswordNotFound"  # noqa: S105
RESET_PASSWORD = "/resetPassword"  # noqa: S105
RESET_PASSWORD_ROUTE = "/resetPassword/[reset_user]/[reset_token]"  # noqa: S105
PASSWORD_UPDATED = "/passwordUpdated"  # noqa: S105
SIGN_IN = "/signIn"
SIGN_IN_ROUTE = "/signIn/[sign_in_user]/[sign_in_token]"
TEAM_JOIN = "/join"
TEAM_JOIN_ROUTE = "/join/[join_token]"
SHARE_PAY = "/pay"
SHARE_PAY_ROUTE = "/pay/[share_token]"  # a rostered player's signed link to pay their share of the team's fee

# --- /dash: the player's home, profile, and the accounts --------------------------------
DASH = "/dash"
SVL_HOME = "/dash/SVLHome"
DASH_PROFILE = "/dash/profile"
PLAYER_INFO = "/dash/playerinfo"
PLAYER_CONTACT = "/dash/playercontact"
PLAYER_SENT = "/dash/playersent"
PLAYER_LEAGUES = "/dash/playerleagues"
USERS = "/dash/users"
USERS_NEW = "/dash/users/new"
USER_EDIT = "/dash/users/[user_id]"
NOTIFICATIONS = "/dash/notifications"  # what the app told the person (the bell's list), not the spec's notes/notifications

# --- /dash/notes and /dash/subs: sub requests and the subs list ---------------------------
SUB_REQUESTS = "/dash/notes"
MY_SUB_REQUESTS = "/dash/notes/notifications"
SUB_REQUEST_NEW = "/dash/notes/new"
SUB_REQUEST_INVITE = "/dash/notes/newspecific"  # ?sub={user id}
SUB_REQUEST = "/dash/notes/[request_id]"
DASH_SUBS = "/dash/subs"

# --- /dash/sessions: an operator's league sessions ---------------------------------------
SESSIONS = "/dash/sessions"
SESSIONS_NEW = "/dash/sessions/new"
SESSION_LEAGUES = "/dash/sessions/leagues"  # ?session={id}
SESSION_EDIT = "/dash/sessions/[session_id]"

# --- /dash/leagues: leagues, rules, standings, schedules, registration -------------------
DASH_LEAGUES = "/dash/leagues"
LEAGUES_NEW = "/dash/leagues/new"  # ?session={id}
LEAGUE_HOME = "/dash/leagues/[league_id]"
LEAGUE_RULES = "/dash/leagues/[league_id]/LeagueRules"
LEAGUE_STANDINGS = "/dash/leagues/[league_id]/teams"
LEAGUE_BRACKET = "/dash/leagues/[league_id]/bracket"
GAME_SCORE = "/dash/leagues/games/[game_id]/score"  # a captain reports or answers a score; the operator settles
LEAGUE_MESSAGE = "/dash/leagues/[league_id]/message"
LEAGUE_WAIVER = "/dash/leagues/[league_id]/waiver"
LEAGUE_ROSTERS = "/dash/leagues/[league_id]/rosters"
FREE_AGENT = "/dash/leagues/[league_id]/free-agent"  # a player registers alone
FREE_AGENTS = "/dash/leagues/[league_id]/free-agents"  # the operator places them
SCHEDULE = "/dash/leagues/teams/schedule"  # ?league={id}
GAME_EDIT = "/dash/leagues/teams/schedule/[game_id]"
TEST_SCHEDULE = "/dash/leagues/teams/TESTschedule"  # ?league={id}
WAITLIST = "/dash/leagues/teams/waitlist"  # ?league={id} (optional)
TEAMS_NEW = "/dash/leagues/teams/new"  # ?league={id}
TEAMS_CHECKOUT = "/dash/leagues/teams/checkout"  # ?payment={id}
TEAMS_SUCCESS = "/dash/leagues/teams/success"  # ?payment={id}
TEAMS_WAITLIST_SUCCESS = "/dash/leagues/teams/waitlistSuccess"  # ?league={id}
TEAMS_DECLINE = "/dash/leagues/teams/decline"  # ?league={id}

# --- /dash/teams --------------------------------------------------------------------------
TEAMS = "/dash/teams"  # ?league={id} (optional)
TEAM_EDIT = "/dash/teams/[team_id]"
TEAM_WAIVER = "/dash/teams/[team_id]/waiver"
TEAM_GAMES = "/dash/teams/[team_id]/games"
TEAM_SETTINGS = "/dash/teams/[team_id]/settings"
PAYMENT = "/dash/payments/[payment_id]"  # one payment of a league, for its operator

# --- /dash admin screens -------------------------------------------------------------------
NEWSLETTER_SETUP = "/dash/newsletterSetup"
EMAIL_ALL = "/dash/emailAll"
INQUIRIES = "/dash/inquiries"
ARCHIVE = "/dash/archive"
AUDIT_LOG = "/dash/auditLog"  # ?league={id}&user={username} (both optional)

# --- /dash/revenue: what a venue, session or league took in and gave back (SVLs and admins) ---
DISCOUNTS = "/dash/discounts"  # an SVL's own discount codes, every venue's for an admin
REVENUE = "/dash/revenue"  # ?venue={id}&session={id}&league={id}&start={YYYY-MM-DD}&end={YYYY-MM-DD} (all optional)

# --- who may open what (spec section 6) -----------------------------------------------------
ALL_ROLES = frozenset({Role.PLAYER.value, Role.SVL.value, Role.ADMIN.value})
_ADMIN = frozenset({Role.ADMIN.value})

# Longest prefix wins. UX only: the services check the acting user again.
GUARDS: dict[str, frozenset[str]] = {
    DASH: ALL_ROLES,
    SUB_REQUESTS: frozenset({Role.PLAYER.value, Role.ADMIN.value}),
    SESSIONS: frozenset({Role.SVL.value, Role.ADMIN.value}),
    "/dash/payments": frozenset({Role.SVL.value, Role.ADMIN.value}),
    SVL_HOME: frozenset({Role.SVL.value}),
    DASH_LEAGUES: ALL_ROLES,
    TEAMS: ALL_ROLES,
    TEST_SCHEDULE: _ADMIN,
    NEWSLETTER_SETUP: _ADMIN,
    EMAIL_ALL: _ADMIN,
    INQUIRIES: _ADMIN,
    ARCHIVE: _ADMIN,
    AUDIT_LOG: _ADMIN,
    REVENUE: frozenset({Role.SVL.value, Role.ADMIN.value}),
    DISCOUNTS: frozenset({Role.SVL.value, Role.ADMIN.value}),
}


# Pages guarded alone, not with the pages under them (a player's own /dash/users/{id} stays open).
ONLY: dict[str, frozenset[str]] = {
    USERS: _ADMIN,
    USERS_NEW: _ADMIN,
}


def _norm(path: str) -> str:
    return "/" + path.strip("/").lower()


def roles_for(path: str) -> frozenset[str]:
    """The roles that may open ``path`` (every role for paths no guard names)."""
    p = _norm(path)
    for exact, allowed in ONLY.items():
        if p == _norm(exact):
            return allowed
    best, roles = "", ALL_ROLES
    for prefix, allowed in GUARDS.items():
        pre = _norm(prefix)
        if (p == pre or p.startswith(pre + "/")) and len(pre) > len(best):
            best, roles = pre, allowed
    return roles


def may_open(roles: Iterable[str], path: str) -> bool:
    """Whether a user with ``roles`` may open ``path`` (its guard names one of them)."""
    return bool(set(roles) & roles_for(path))


def audience(path: str) -> str:
    """Who a guarded page is for, in words: 'venue operators', 'administrators', 'players'."""
    allowed = roles_for(path)
    if allowed == _ADMIN:
        return "administrators"
    if Role.PLAYER.value not in allowed:
        return "venue operators"
    if Role.SVL.value not in allowed:
        return "players"
    return "logged-in users"


def home_for(roles: Iterable[str]) -> str:
    """A user's own home: admins their profile, SVLs the SVL home, players the player home."""
    roles = set(roles)
    if Role.ADMIN.value in roles:
        return DASH_PROFILE
    if Role.SVL.value in roles:
        return SVL_HOME
    return DASH


def is_protected(route: str) -> bool:
    """Pages under /dash need a logged-in user."""
    return route == DASH or route.startswith(DASH + "/")


# --- reading a path back ---------------------------------------------------------------------

DYNAMIC_ROUTES = (
    UNSUBSCRIBE_ROUTE, RESET_PASSWORD_ROUTE, USER_EDIT, SUB_REQUEST, SESSION_EDIT, LEAGUE_HOME, LEAGUE_RULES,
    LEAGUE_STANDINGS, GAME_EDIT, TEAM_EDIT, TEAM_GAMES, LEAGUE_BRACKET, GAME_SCORE, LEAGUE_MESSAGE, SIGN_IN_ROUTE,
    LEAGUE_WAIVER, TEAM_WAIVER, TEAM_JOIN_ROUTE, LEAGUE_ROSTERS, TEAM_SETTINGS, PAYMENT, SHARE_PAY_ROUTE,
    FREE_AGENT, FREE_AGENTS,
)  # fmt: skip
_STATIC = frozenset(v for k, v in dict(globals()).items() if k.isupper() and isinstance(v, str) and v.startswith("/"))


def _pattern(route: str) -> re.Pattern[str]:
    parts = [f"(?P<{p[1:-1]}>[^/]+)" if p.startswith("[") else re.escape(p) for p in route.strip("/").split("/")]
    return re.compile("^/" + "/".join(parts) + "/?$")


_PATTERNS = [(_pattern(r), r) for r in DYNAMIC_ROUTES]


def path_args(path: str) -> dict[str, str]:
    """The dynamic segments of ``path`` by name ('/dash/leagues/5' -> {'league_id': '5'}).

    A static route wins over a dynamic one ('/dash/notes/new' has no note id).
    """
    path = (path or "").split("?", 1)[0]
    if path.rstrip("/") in _STATIC:
        return {}
    for pattern, _route in _PATTERNS:
        if m := pattern.match(path):
            return {k: unquote(v) for k, v in m.groupdict().items()}
    return {}


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


def after_login(target: str | None, roles: Iterable[str]) -> str:
    """Where a login (or a new account) goes: ``target`` (a ``next``; none: /dash) when it is this site's and the user's
    to open, else the user's own home."""
    path = safe_next(target)
    return path if may_open(roles, path) else home_for(roles)


# --- link builders ----------------------------------------------------------------------------


def _with(path: str, **query: int | str) -> str:
    return f"{path}?{urlencode(query)}" if query else path


def absolute(path: str) -> str:
    """``path`` as a full link for an email, on the site's public address."""
    return get_settings().public_url.rstrip("/") + path


def login_with_next(path: str) -> str:
    return _then(LOGIN, path)


def signup_with_next(path: str) -> str:
    """Sign up, then on to ``path`` (as ``login_with_next`` does after a login)."""
    return _then(SIGNUP, path)


def _then(page: str, path: str) -> str:
    return f"{page}?next={quote(path, safe='/')}"


def reset_password_path(user_id: int | str, token: str) -> str:
    return f"{RESET_PASSWORD}/{user_id}/{token}"


def sign_in_path(user_id: int | str, token: str) -> str:
    return f"{SIGN_IN}/{user_id}/{token}"


def team_join_path(token: str) -> str:
    """The page of a team invitation's signed link: the team, its league, and Join (or Sign up / Log in)."""
    return f"{TEAM_JOIN}/{token}"


def share_pay_path(token: str) -> str:
    """The page of a player's signed link to pay their share of the team's fee (no login needed)."""
    return f"{SHARE_PAY}/{token}"


def unsubscribe_path(subscriber_id: int | str, token: str) -> str:
    return f"{UNSUBSCRIBE}/{subscriber_id}/{token}"


def _record(base: str, suffix: str = "") -> Callable[[int | str], str]:
    """The builder of one record's page: '{base}/{id}{suffix}'."""
    return lambda record_id: f"{base}/{record_id}{suffix}"


def _query(path: str, name: str, *, optional: bool = False) -> Callable[..., str]:
    """The builder of a page about one record given as ``?{name}={id}`` (``optional``: the bare page without one)."""
    if optional:
        return lambda record_id=None: _with(path, **{name: record_id}) if record_id else path
    return lambda record_id: _with(path, **{name: record_id})


user_path = _record(USERS)
sub_request_path = _record(SUB_REQUESTS)
invite_path = _query(SUB_REQUEST_INVITE, "sub")  # the targeted sub request form with the sub preselected
session_path = _record(SESSIONS)
session_leagues_path = _query(SESSION_LEAGUES, "session")
new_league_path = _query(LEAGUES_NEW, "session")
league_path = _record(DASH_LEAGUES)
league_rules_path = _record(DASH_LEAGUES, "/LeagueRules")
standings_path = _record(DASH_LEAGUES, "/teams")
league_waiver_path = _record(DASH_LEAGUES, "/waiver")
league_message_path = _record(DASH_LEAGUES, "/message")
league_rosters_path = _record(DASH_LEAGUES, "/rosters")
free_agent_path = _record(DASH_LEAGUES, "/free-agent")
free_agents_path = _record(DASH_LEAGUES, "/free-agents")
schedule_path = _query(SCHEDULE, "league")
test_schedule_path = _query(TEST_SCHEDULE, "league")
game_path = _record(SCHEDULE)
waitlist_path = _query(WAITLIST, "league", optional=True)
teams_path = _query(TEAMS, "league", optional=True)
team_path = _record(TEAMS)
team_waiver_path = _record(TEAMS, "/waiver")
team_games_path = _record(TEAMS, "/games")
team_settings_path = _record(TEAMS, "/settings")
payment_path = _record("/dash/payments")
new_team_path = _query(TEAMS_NEW, "league")
checkout_path = _query(TEAMS_CHECKOUT, "payment")
success_path = _query(TEAMS_SUCCESS, "payment")
waitlist_success_path = _query(TEAMS_WAITLIST_SUCCESS, "league")


def decline_path(league_id: int | str, payment_id: int | str | None = None) -> str:
    """The card-declined page of a league, and with ``payment_id`` its way back to the same checkout."""
    return _with(TEAMS_DECLINE, league=league_id, payment=payment_id) if payment_id else _with(TEAMS_DECLINE, league=league_id)


league_bracket_path = _record(DASH_LEAGUES, "/bracket")
game_score_path = _record(DASH_LEAGUES + "/games", "/score")


def bracket_file_path(league_id: int | str) -> str:
    """A league's tournament bracket file, served by the backend's API after a permission check."""
    return f"/api/leagues/{league_id}/bracket"


calendar_feeds_base = "/api/calendar"  # served by the backend (``api.feeds``); the token in the path is the reader


def personal_feed_path(token: str) -> str:
    """A player's own calendar (their teams' games, the sub requests they accepted) at a secret address."""
    return f"{calendar_feeds_base}/{token}.ics"


def league_feed_path(token: str, league_id: int | str) -> str:
    return f"{calendar_feeds_base}/{token}/leagues/{league_id}.ics"


def team_feed_path(token: str, team_id: int | str) -> str:
    return f"{calendar_feeds_base}/{token}/teams/{team_id}.ics"


def export_path(league_id: int | str, kind: str) -> str:
    """A league's CSV export (teams, payments, standings, schedule, rosters), served by the backend after a permission check."""
    return f"/api/exports/leagues/{league_id}/{kind}.csv"


def audit_log_path(league: int | str | None = None, user: str = "") -> str:
    """The audit log, filtered by a league and/or a username (each optional)."""
    return _with(AUDIT_LOG, **{k: v for k, v in (("league", league), ("user", user)) if v})


# Answers and unsubscribes from emails, served by the backend (``api.mail_links``): the signed token is the reader.
invite_answer_base = "/api/invite-answers"
rsvp_answer_base = "/api/rsvp-answers"
mail_unsubscribe_base = "/api/unsubscribe"


def backend_absolute(path: str) -> str:
    """``path`` on the backend as a full link (emails, headers, file links of pages).

    The backend shares PUBLIC_URL's origin (``make run``, the shipped nginx), so this is ``absolute(path)``;
    only a set-up whose backend listens elsewhere (``BACKEND_URL``, the hot-reload dev server) differs.
    """
    return get_settings().backend_url.rstrip("/") + path


# The leagues anyone may browse before signing up, drawn by the backend as plain HTML (``api.public_pages``), not
# pages of the app: a shared link's preview card is read without running a script.
public_leagues_base = "/leagues"


def public_leagues_path(bookmark: str = "") -> str:
    """The public list of leagues, from the page ``bookmark`` starts (the first page without one)."""
    return _with(public_leagues_base, page=bookmark) if bookmark else public_leagues_base


def public_league_path(league_id: int | str) -> str:
    """A league's public page (its facts, standings and schedule)."""
    return f"{public_leagues_base}/{league_id}"


def drawn_by_backend(address: str) -> bool:
    """Whether ``address`` is a page the backend draws (the home page, the login, the public leagues), not one of the
    app's."""
    path = address.split("?", 1)[0].split("#", 1)[0]
    if path in (LOGIN, LOGIN + "/"):
        return True
    return path == HOME or path == public_leagues_base or path.startswith(public_leagues_base + "/")


def backend_shares_origin() -> bool:
    """Whether the backend answers on PUBLIC_URL's origin (``make run``, nginx), not on one of its own (the dev
    server's BACKEND_URL)."""
    settings = get_settings()
    return settings.backend_url.rstrip("/") == settings.public_url.rstrip("/")


def backend_page(path: str) -> str:
    """A link from the app's pages to a page the backend draws (``/``, ``/leagues``): the path where the backend
    shares PUBLIC_URL's origin (``make run``, nginx), the backend's own address where it listens elsewhere (the dev
    server)."""
    return path if backend_shares_origin() else backend_absolute(path)


def invite_answer_path(token: str) -> str:
    """An invitation's one-click Accept or Decline (the token says which, for whom, until when)."""
    return f"{invite_answer_base}/{token}"


def rsvp_answer_path(token: str) -> str:
    """A game reminder's one-click In, Out or Maybe (the token says which game, team, member and answer)."""
    return f"{rsvp_answer_base}/{token}"


def mail_unsubscribe_path(token: str) -> str:
    """A bulk mail's one-click unsubscribe (List-Unsubscribe)."""
    return f"{mail_unsubscribe_base}/{token}"


# The revenue report over the REST API (JSON in cents) and as a CSV file (the screen's signed link, or a bearer token).
revenue_api_path = "/api/revenue"
revenue_csv_path = "/api/revenue.csv"


def revenue_path(**query: int | str | None) -> str:
    """The revenue screen for a scope and days (each optional: blank ones are left out)."""
    kept: dict[str, int | str] = {k: v for k, v in query.items() if v is not None and v != ""}
    return _with(REVENUE, **kept)

