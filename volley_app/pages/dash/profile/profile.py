"""Profile (/dash/profile): links to what the user may do, by their role (the service picks them)."""

from __future__ import annotations

import reflex as rx
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.components.layout import dash_screen, link_button
from volley_app.registry import page
from volley_app.services.accounts import accounts
from volley_app.state.auth import AuthState
from volley_app.state.forms import run_action


class ProfileState(AuthState):
    links: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)

    async def load(self):
        found = await run_action(accounts.profile_links, actor=await self._actor())
        self.links = found.value if found.failure is None else []


def _profile_link(link: ObjectVar[dict[str, str]]) -> rx.Component:
    return link_button(link["label"], href=link["href"], variant="soft", size="3", width="100%", justify="start")


@page(routes.DASH_PROFILE, "Profile", on_load=ProfileState.load)
def profile_page() -> rx.Component:
    return dash_screen(
        "Profile",
        rx.grid(
            rx.foreach(ProfileState.links, _profile_link),
            columns={"initial": "1", "sm": "2", "md": "3"},
            spacing="3",
            width="100%",
        ),
    )
