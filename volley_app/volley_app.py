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
