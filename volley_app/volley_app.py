"""The Reflex app: pages, the REST API under /api, and the mail sender in the background."""

from __future__ import annotations

import logging

import reflex as rx

from volley_app import routes
from volley_app.api.app import create_api
from volley_app.components.layout import SITE_NAME
from volley_app.pages.auth.login import LoginState, login_page
from volley_app.pages.auth.signup import signup_page
from volley_app.pages.dash import notes, profile, subs_page, users
from volley_app.pages.dash.home import PlayerHomeState, dash_home_page
from volley_app.pages.dash.svl_home import SVLHomeState, svl_home_page
from volley_app.pages.public.landing import landing_page
from volley_app.services import mail
from volley_app.state.auth import AuthState

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")


def _title(name: str) -> str:
    return f"{name} | {SITE_NAME}"


app = rx.App(
    api_transformer=create_api(),
    head_components=[rx.el.link(rel="icon", href="/favicon.svg", type="image/svg+xml")],
    html_lang="en",
)

app.add_page(landing_page, route=routes.HOME, title=SITE_NAME)
app.add_page(login_page, route=routes.LOGIN, title="Login", on_load=LoginState.on_load)
app.add_page(signup_page, route=routes.SIGNUP, title=_title("Sign Up"))
app.add_page(
    dash_home_page, route=routes.DASH, title=_title("Home"), on_load=[AuthState.dash_guard, PlayerHomeState.load]
)
app.add_page(
    svl_home_page, route=routes.SVL_HOME, title=_title("SVL Home"), on_load=[AuthState.dash_guard, SVLHomeState.load]
)

# --- issue 6: public forms, password recovery, newsletter, email to all users ----------
from volley_app.pages.auth import recovery as _recovery  # noqa: E402
from volley_app.pages.dash import outreach as _outreach  # noqa: E402
from volley_app.pages.public import about as _about  # noqa: E402
from volley_app.pages.public import forms as _forms  # noqa: E402
from volley_app.pages.public import inquiries as _inquiries  # noqa: E402
from volley_app.pages.public import newsletter as _newsletter  # noqa: E402

app.add_page(_inquiries.contact_page, route=routes.CONTACT, title=_title("Contact"), on_load=_inquiries.ContactState.clear)
app.add_page(_inquiries.host_page, route=routes.HOST, title=_title("Host a League"), on_load=_inquiries.HostState.clear)
app.add_page(_inquiries.promote_page, route=routes.PROMOTE, title=_title("Promote"), on_load=_inquiries.PromoteState.clear)
app.add_page(_about.franchise_page, route=routes.FRANCHISE, title=_title("Franchise"), on_load=_inquiries.FranchiseState.clear)
app.add_page(_about.about_page, route=routes.ABOUT, title=_title("About Us"))
app.add_page(_forms.sent_page, route=routes.SENT, title=_title("Sent Successfully"))
app.add_page(_recovery.forgot_page, route=routes.FORGOT_PASSWORD, title=_title("Forgot Password"), on_load=_recovery.ForgotState.clear)
app.add_page(_recovery.forgot_sent_page, route=routes.FORGOT_SENT, title=_title("Check Your Email"))
app.add_page(_recovery.forgot_not_found_page, route=routes.FORGOT_NOT_FOUND, title=_title("Email Not Found"))
app.add_page(_recovery.reset_page, route=routes.RESET_PASSWORD_ROUTE, title=_title("Reset Password"), on_load=_recovery.ResetState.check)
app.add_page(_recovery.password_updated_page, route=routes.PASSWORD_UPDATED, title=_title("Password Updated"))
app.add_page(_newsletter.newsletter_page, route=routes.NEWSLETTER, title=_title("Newsletter"), on_load=_newsletter.NewsletterSignupState.clear)
app.add_page(_newsletter.subscribed_page, route=routes.SUBSCRIBED, title=_title("Subscribed"))
app.add_page(_newsletter.unsubscribe_page, route=routes.UNSUBSCRIBE_ROUTE, title=_title("Unsubscribe"), on_load=_newsletter.UnsubscribeState.unsubscribe)
app.add_page(
    _outreach.newsletter_setup_page,
    route=routes.NEWSLETTER_SETUP,
    title=_title("New Newsletter"),
    on_load=[AuthState.dash_guard, _outreach.NewsletterSetupState.load],
)
app.add_page(
    _outreach.email_all_page,
    route=routes.EMAIL_ALL,
    title=_title("Email All Users"),
    on_load=[AuthState.dash_guard, _outreach.EmailAllState.load],
)
app.add_page(
    _outreach.inquiries_page,
    route=routes.INQUIRIES,
    title=_title("Inquiries"),
    on_load=[AuthState.dash_guard, _outreach.InquiriesState.load],
)
# --- end issue 6 ------------------------------------------------------------------------
# --- Players and subs (issue 3) ---------------------------------------------------------
_ISSUE3_PAGES = [
    (notes.notes_page, routes.NOTES, "Open Sub Requests", notes.NotesListState.load),
    (notes.notifications_page, routes.NOTES_NOTIFICATIONS, "My Sub Requests", notes.NotificationsState.load),
    (notes.new_note_page, routes.NOTES_NEW, "Create Sub Request", notes.NewNoteState.load),
    (notes.new_note_page, routes.NOTES_NEW_SPECIFIC, "Invite a Sub", notes.NewNoteState.load),
    (notes.note_detail_page, routes.NOTE_DETAIL, "Sub Request", notes.NoteDetailState.load),
    (subs_page.subs_page, routes.DASH_SUBS, "Subs", subs_page.SubsState.load),
    (profile.profile_page, routes.DASH_PROFILE, "Profile", None),
    (profile.player_info_page, routes.PLAYER_INFO, "My Info", profile.PlayerInfoState.load),
    (profile.player_contact_page, routes.PLAYER_CONTACT, "Contact Us", profile.PlayerContactState.load),
    (profile.player_sent_page, routes.PLAYER_SENT, "Sent Successfully", None),
    (users.users_page, routes.USERS, "All Users", users.UsersListState.load),
    (users.new_svl_page, routes.USERS_NEW, "Create New SVL", users.NewSVLState.load),
    (users.edit_user_page, routes.USER_EDIT, "Edit Info", users.EditUserState.load),
]
for _page, _route, _name, _load in _ISSUE3_PAGES:
    app.add_page(
        _page,
        route=_route,
        title=_title(_name),
        on_load=[AuthState.dash_guard, _load] if _load else AuthState.dash_guard,
    )

app.register_lifespan_task(mail.run_sender_forever)


# --- Operators (issue 4): sessions, leagues, teams, schedules, games, standings -----------------
from volley_app.pages.dash import games as _games  # noqa: E402
from volley_app.pages.dash import leagues as _leagues  # noqa: E402
from volley_app.pages.dash import sessions as _sessions  # noqa: E402
from volley_app.pages.dash import teams as _teams  # noqa: E402

_OPERATOR_PAGES = [
    (_sessions.sessions_page, routes.SESSIONS, "Sessions", _sessions.SessionsState),
    (_sessions.new_session_page, routes.SESSIONS_NEW, "New Session", _sessions.NewSessionState),
    (_sessions.session_leagues_page, routes.SESSION_LEAGUES, "Session Leagues", _sessions.SessionLeaguesState),
    (_sessions.edit_session_page, routes.SESSION_EDIT, "Session", _sessions.EditSessionState),
    (_leagues.leagues_page, routes.DASH_LEAGUES, "Leagues", _leagues.LeaguesState),
    (_leagues.new_league_page, routes.LEAGUES_NEW, "New League", _leagues.NewLeagueState),
    (_leagues.league_home_page, routes.LEAGUE_HOME, "League", _leagues.LeagueHomeState),
    (_leagues.rules_page, routes.LEAGUE_RULES, "League Rules", _leagues.LeagueRulesState),
    (_leagues.player_leagues_page, routes.PLAYER_LEAGUES, "Leagues", _leagues.PlayerLeaguesState),
    (_games.standings_page, routes.LEAGUE_STANDINGS, "Standings", _games.StandingsState),
    (_games.schedule_page, routes.SCHEDULE, "Schedule", _games.ScheduleState),
    (_games.game_edit_page, routes.GAME_EDIT, "Edit Game", _games.GameEditState),
    (_games.test_schedule_page, routes.TEST_SCHEDULE, "Test Schedule", _games.TestScheduleState),
    (_teams.waitlist_page, routes.WAITLIST, "Waitlist", _teams.WaitlistState),
    (_teams.teams_page, routes.TEAMS, "Teams", _teams.TeamsState),
    (_teams.team_edit_page, routes.TEAM_EDIT, "Team", _teams.TeamEditState),
]
for _page, _route, _name, _state in _OPERATOR_PAGES:
    app.add_page(_page, route=_route, title=_title(_name), on_load=[AuthState.dash_guard, _state.load])


# --- Team registration and card payment (issue 5) ----------------------------------------------
from volley_app.pages.dash import registration as _registration  # noqa: E402

_REGISTRATION_PAGES = [
    (_registration.new_team_page, routes.TEAMS_NEW, "Register a Team", _registration.NewTeamState),
    (_registration.checkout_page, routes.TEAMS_CHECKOUT, "Checkout", _registration.CheckoutState),
    (_registration.success_page, routes.TEAMS_SUCCESS, "Team Registered", _registration.RegisteredState),
    (_registration.waitlist_success_page, routes.TEAMS_WAITLIST_SUCCESS, "Waitlist", _registration.LeagueLinkState),
    (_registration.decline_page, routes.TEAMS_DECLINE, "Payment Failed", _registration.LeagueLinkState),
]
for _page, _route, _name, _state in _REGISTRATION_PAGES:
    app.add_page(_page, route=_route, title=_title(_name), on_load=[AuthState.dash_guard, _state.load])
