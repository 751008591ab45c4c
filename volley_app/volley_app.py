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
