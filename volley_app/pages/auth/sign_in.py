"""Sign In: the emailed one-time link (/signIn/{user id}/{token}) signs its owner in on this device."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.inquiries import emailed_link_page, refusal
from volley_app.components.layout import link_button
from volley_app.registry import page
from volley_app.services.accounts import auth
from volley_app.services.core.errors import NotFound
from volley_app.state.auth import AuthState
from volley_app.state.forms import path_arg, run_action


class SignInState(rx.State):
    # "checking" until on_load has used the link, then "invalid" (a good link leaves the page).
    status: rx.Field[str] = rx.field("checking")
    link_error: rx.Field[str] = rx.field("")

    async def use_link(self):
        """on_load: use the link once; a good one signs in on this device (now a known device) and goes home."""
        self.status, self.link_error = "checking", ""
        auth_state = await self.get_state(AuthState)
        found = await run_action(
            auth.use_sign_in_link,
            user_id=path_arg(self, "sign_in_user"),
            token=path_arg(self, "sign_in_token"),
            trusted=auth_state.persist != "false",
            client=auth_state._client(),
            device=auth_state.device,
        )
        if found.failure is not None:
            self.status = "invalid"
            self.link_error = found.failure.message if isinstance(found.failure, NotFound) else auth.INVALID_SIGN_IN_LINK
            return None
        auth_state._apply_login(found.value)
        return rx.redirect(routes.home_for(found.value.actor.roles))


@page(routes.SIGN_IN_ROUTE, "Sign In", on_load=SignInState.use_link)
def sign_in_page() -> rx.Component:
    return emailed_link_page(
        "Sign In",
        SignInState.status,
        "Signing you in…",
        invalid=refusal(SignInState.link_error, link_button("Login", href=routes.LOGIN, size="3", min_height="44px")),
    )
