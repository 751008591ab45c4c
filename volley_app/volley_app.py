"""The Reflex app: pages, the REST API under /api, and the mail sender in the background."""

from __future__ import annotations

import logging

import reflex as rx

from volley_app import routes
from volley_app.api.app import create_api
from volley_app.components.layout import SITE_NAME
from volley_app.pages.auth.login import LoginState, login_page
from volley_app.pages.auth.signup import signup_page
from volley_app.pages.dash.home import dash_home_page
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
app.add_page(dash_home_page, route=routes.DASH, title=_title("Home"), on_load=AuthState.dash_guard)
app.add_page(
    svl_home_page, route=routes.SVL_HOME, title=_title("SVL Home"), on_load=[AuthState.dash_guard, SVLHomeState.load]
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
