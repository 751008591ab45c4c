"""Reset Password: the emailed link (/resetPassword/{user id}/{token}) opens the new-password form (then the Password
Updated confirmation, ``pages/public/confirmations.py``)."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import password_field, submit_button
from volley_app.components.inquiries import emailed_link_page, kept_form, refusal
from volley_app.components.layout import link_button
from volley_app.registry import page
from volley_app.services.accounts import recovery
from volley_app.services.core.errors import Invalid, NotFound
from volley_app.services.core.validation import RESET_PASSWORD_RULE
from volley_app.state.forms import FormState, focus, form_values, path_arg, run_action

RESET_ERROR = "reset-error"
MISMATCH = "The passwords do not match"


class ResetState(FormState, rx.State):
    # "checking" until on_load has looked at the link, then "ok" or "invalid".
    status: rx.Field[str] = rx.field("checking")
    link_error: rx.Field[str] = rx.field("")

    _fields = ("password", "confirm")
    _error_id = RESET_ERROR

    def _link(self) -> dict[str, str]:
        return {"user_id": path_arg(self, "reset_user"), "token": path_arg(self, "reset_token")}

    async def check(self):
        """on_load: say at once when the link is no good, rather than after a new password was typed."""
        self._clear_messages()
        _r, failure = await run_action(recovery.check_link, **self._link())
        if failure is None:
            self.status, self.link_error = "ok", ""
        else:
            self.status = "invalid"
            self.link_error = failure.message if isinstance(failure, NotFound) else recovery.INVALID_LINK

    def _show_failure(self, failure) -> None:
        if isinstance(failure, NotFound):  # the link was used or expired meanwhile
            self.status, self.link_error = "invalid", failure.message
            return
        super()._show_failure(failure)
        if isinstance(failure, Invalid) and not self.errors:
            self.errors = {"password": failure.message}

    @rx.event
    def save(self, form_data: dict | None = None):
        data = form_values(form_data, self._fields)
        if data["password"] != data["confirm"]:
            self.errors, self.error = {"confirm": MISMATCH}, ""
            return focus("confirm")
        return self._submit(
            recovery.reset_password,
            as_actor=False,
            done=lambda _r: rx.redirect(routes.PASSWORD_UPDATED),
            password=data["password"],
            submitted=self._link(),
        )


@page(routes.RESET_PASSWORD_ROUTE, "Reset Password", on_load=ResetState.check)
def reset_page() -> rx.Component:
    return emailed_link_page(
        "Reset Password",
        ResetState.status,
        "Checking your link…",
        invalid=refusal(ResetState.link_error, link_button("Ask for a New Link", href=routes.FORGOT_PASSWORD, size="3")),
        ok=kept_form(
            ResetState,
            "Saving…",
            password_field("New Password", "password", ResetState, required=True, auto_focus=True,
                           hint=RESET_PASSWORD_RULE),
            password_field("Confirm New Password", "confirm", ResetState, required=True),
            submit_button("Set New Password"),
            on_submit=ResetState.save,
            error_id=RESET_ERROR,
        ),
    )  # fmt: skip
