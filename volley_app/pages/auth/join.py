"""Join a team (/join/{token}): the page of an invitation's emailed link. It shows the team and its league; a
person logged in joins in one tap, one without an account signs up (the address filled in) and joins, one with
an account logs in and comes back here."""

from __future__ import annotations

import reflex as rx
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.components.forms import error_line
from volley_app.components.inquiries import emailed_link_page, refusal
from volley_app.components.layout import button_row, column, link_button
from volley_app.registry import page
from volley_app.services.teams import invitations
from volley_app.state.auth import AuthState
from volley_app.state.forms import FormState, path_arg, run_action

ERROR_ID = "join-error"


class JoinState(FormState, AuthState):
    _fields = ()
    _error_id = ERROR_ID

    # "checking" until the link is read, then the next step (join, login, signup, member) or "invalid".
    status: rx.Field[str] = rx.field("checking")
    link_error: rx.Field[str] = rx.field("")
    invitation: rx.Field[dict[str, str]] = rx.field(default_factory=dict)

    def _join_token(self) -> str:
        return path_arg(self, "join_token")

    async def load(self) -> None:
        """on_load: read the link (nothing changes), and say what to do next."""
        self._clear_messages()
        self.status, self.link_error = "checking", ""
        token = self._join_token()
        found, failure = await run_action(invitations.preview, actor=await self._actor(), join_token=token)
        if failure is not None or found is None:
            self.status, self.link_error = "invalid", failure.message if failure else invitations.BAD_LINK
            self.invitation = {}
            return
        self.invitation = {
            "team": found["team_name"], "league": found["league_name"], "inviter": found["inviter"],
            "email": found["email"], "team_href": routes.team_path(found["team_id"]),
            "login_href": routes.backend_page(routes.login_with_next(routes.team_join_path(token))),
            "signup_href": f"{routes.SIGNUP}?join={token}",
        }  # fmt: skip
        self.status = found["next"]

    @rx.event
    def join(self):
        return self._submit(invitations.join, done=lambda team_id: rx.redirect(routes.team_path(team_id)),
                            join_token=self._join_token())  # fmt: skip


def _invitation() -> ObjectVar[dict[str, str]]:
    return JoinState.invitation.to(ObjectVar, dict[str, str])


def _about() -> rx.Component:
    i = _invitation()
    return column(
        rx.heading(i["team"], size="5", as_="h2"),
        rx.text("League: ", i["league"]),
        rx.cond(i["inviter"] != "", rx.text(i["inviter"], " invites you to join the team."), rx.fragment()),
        spacing="2",
    )


def _step(*actions: rx.Component) -> rx.Component:
    return column(_about(), error_line(JoinState.error, ERROR_ID), *actions, spacing="4")


@page(routes.TEAM_JOIN_ROUTE, "Join a Team", on_load=JoinState.load)
def join_page() -> rx.Component:
    s = JoinState
    i = _invitation()
    join = rx.button("Join the team", on_click=s.join, loading=s.busy, size="3", width="100%")
    sign_up = link_button("Sign up and join", href=i["signup_href"], size="3")
    log_in = link_button("Log in and join", href=i["login_href"], backend=True, size="3")
    return emailed_link_page(
        "Join a Team",
        s.status,
        "Opening your invitation…",
        join=_step(join),
        signup=_step(rx.text("Make your player account for ", rx.text.strong(i["email"]), " and join."),
                     button_row(sign_up, link_button("I have an account: log in", href=i["login_href"], backend=True, variant="soft",
                                                     size="3"))),  # fmt: skip
        login=_step(rx.text("Log in to join the team."), button_row(log_in)),
        member=_step(rx.text("You are on the team."), link_button("Go to the team", href=i["team_href"], size="3")),
        invalid=refusal(s.link_error, link_button("Go home", href=routes.HOME, size="3")),
    )
