"""Player signup (spec sections 2 and 5): then logged in and at /dash, or where ``?next=`` says (a league's registration)."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import (
    password_field,
    region_field,
    submit_button,
    text_field,
    username_field,
)
from volley_app.components.inquiries import form_page, kept_form, two_columns
from volley_app.components.layout import page_link
from volley_app.registry import page
from volley_app.services.accounts import accounts
from volley_app.services.core.validation import PASSWORD_RULE, USERNAME_RULE
from volley_app.services.teams import invitations
from volley_app.state.auth import AuthState
from volley_app.state.forms import form_values, path_arg, run_action
from volley_app.state.inquiries import PublicFormState

ERROR_ID = "signup-error"


class SignupState(PublicFormState, rx.State):
    _fields = accounts.SIGNUP_FIELDS
    _error_id = ERROR_ID

    # Signing up from a team invitation's link (?join={token}): the account joins the team as it is made.
    joining: rx.Field[bool] = rx.field(False)
    # Signing up on the way somewhere (?next=, a league's registration): Log in goes on there too.
    login_href: rx.Field[str] = rx.field(routes.backend_page(routes.LOGIN))

    async def load(self):
        """on_load: no message left over; from an invitation's link, its address filled in."""
        self.clear()
        target = path_arg(self, "next")
        self.login_href = routes.backend_page(routes.login_with_next(routes.safe_next(target)) if target else routes.LOGIN)
        token = path_arg(self, "join")
        self.joining = bool(token)
        if not token:
            return None
        found, _failure = await run_action(invitations.invited_email, join_token=token)
        return rx.set_value("email", found) if found else None

    @rx.event
    async def signup(self, form_data: dict | None = None):
        data = form_values(form_data, self._fields)
        data["username"] = data["username"].lower()
        auth_state = await self.get_state(AuthState)
        token = path_arg(self, "join")
        trusted = auth_state.persist != "false"

        def logged_in(result):
            auth_state._apply_login(result)
            return rx.redirect(routes.after_login(path_arg(self, "next"), result.actor.roles))

        def joined(result: invitations.SignedUp):
            auth_state._apply_login(result.login)
            return rx.redirect(routes.team_path(result.team_id) if result.team_id else routes.team_join_path(token))

        if token:
            return self._send(invitations.signup_and_join, done=joined, join_token=token, trusted=trusted, **data)
        return self._send(accounts.signup, done=logged_in, trusted=trusted, **data)


@page(routes.SIGNUP, "Sign Up", on_load=SignupState.load)
def signup_page() -> rx.Component:
    s = SignupState
    return form_page(
        "Sign Up",
        "Create your player account to find subs, sub for others and join leagues.",
        kept_form(
            s,
            "Creating your account…",
            username_field(s, hint=USERNAME_RULE, required=True, auto_focus=True),
            password_field("Password", "password", s, hint=PASSWORD_RULE, required=True),
            text_field("Email", "email", s, type="email", auto_complete="email", required=True),
            two_columns(
                text_field("First Name", "first_name", s, auto_complete="given-name", required=True),
                text_field("Last Name", "last_name", s, auto_complete="family-name", required=True),
                spacing="4",
            ),
            region_field(s, required=True),
            submit_button(rx.cond(s.joining, "Sign Up and Join the Team", "Sign Up"), s),
            on_submit=s.signup,
            error_id=ERROR_ID,
        ),
        rx.text("Already have an account? ", page_link("Log in", href=s.login_href, backend=True), size="2"),
    )
