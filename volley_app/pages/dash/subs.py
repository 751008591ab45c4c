"""The Subs page (/dash/subs): active subs with an Invite button, refreshed every 60 s.

The browser gets names, gender and ratings only; an invite names the sub by
id and the server looks up the address.
"""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.layout import dash_page, link_button
from volley_app.components.tables import card, responsive, table
from volley_app.registry import page
from volley_app.services import accounts, sub_requests
from volley_app.state.auth import AuthState
from volley_app.state.forms import run_action
from volley_app.state.polling import poll_page

LOAD_FAILED = "Issue accessing player info. Please log out and log back in."
REFRESH_SECONDS = 60
HEADERS = ["First Name", "Last Name", "Gender", "Hitter", "Passer", "Setter", ""]


def _shown(r: dict) -> dict[str, str]:
    """A sub as the browser gets it: names, gender, ratings and the invite link (never an email)."""
    return {
        "id": str(r["id"]),
        "first_name": r["first_name"],
        "last_name": r["last_name"],
        "gender": r["gender"],
        "hitter": r["hitter"],
        "passer": r["passer"],
        "setter": r["setter"],
        "invite": routes.invite_path(r["id"]),
    }


class SubsState(AuthState):
    sub_rows: list[dict[str, str]] = []
    subs_error: str = ""
    is_sub: bool = False
    _poll_beat: float = 0.0

    async def _reload(self) -> None:
        actor = await self._actor()
        found, failure = await run_action(sub_requests.list_subs, actor=actor)
        flag, flag_failure = await run_action(accounts.is_sub, actor=actor)
        if failure or flag_failure:
            self.sub_rows, self.subs_error = [], LOAD_FAILED
            return
        self.subs_error, self.is_sub = "", bool(flag)
        self.sub_rows = [_shown(r) for r in found or []]

    async def load(self):
        if target := sub_requests.subs_elsewhere(await self._actor()):
            self.sub_rows = []
            return rx.redirect(target)
        await self._reload()
        return SubsState.poll

    @rx.event(background=True)
    async def poll(self):
        """Reload the list every 60 s while this tab stays on the Subs page."""
        await poll_page(self, path=routes.DASH_SUBS, seconds=REFRESH_SECONDS, reload=self._reload)


def _rating(value) -> rx.Component:
    return rx.cond(value != "", value, "-")


def _invite(r: rx.Var, size: str) -> rx.Component:
    return link_button("Invite", href=r["invite"], size=size, aria_label="Invite " + r["first_name"] + " " + r["last_name"])


def _sub_card(r: rx.Var) -> rx.Component:
    return card(
        rx.flex(
            rx.vstack(
                rx.text(r["first_name"], " ", r["last_name"], weight="bold"),
                rx.text(r["gender"], size="2", color_scheme="gray"),
                rx.text(
                    "Hitter ", _rating(r["hitter"]), " · Passer ", _rating(r["passer"]), " · Setter ",
                    _rating(r["setter"]), size="2",
                ),  # fmt: skip
                spacing="1",
            ),
            _invite(r, "2"),
            justify="between",
            align="center",
            width="100%",
        ),
        test_id="sub-item",
    )


def _sub_row(r: rx.Var) -> rx.Component:
    return rx.table.row(
        rx.table.cell(r["first_name"]),
        rx.table.cell(r["last_name"]),
        rx.table.cell(r["gender"]),
        rx.table.cell(_rating(r["hitter"])),
        rx.table.cell(_rating(r["passer"])),
        rx.table.cell(_rating(r["setter"])),
        rx.table.cell(_invite(r, "1")),
        custom_attrs={"data-testid": "sub-item"},
    )


def _subs_list() -> rx.Component:
    s = SubsState
    return rx.cond(
        s.subs_error != "",
        rx.callout(s.subs_error, icon="triangle_alert", color_scheme="red", role="alert"),
        rx.cond(
            s.sub_rows.length() > 0,
            responsive(
                table(HEADERS, rx.foreach(s.sub_rows, _sub_row), size="1"),
                rx.vstack(rx.foreach(s.sub_rows, _sub_card), spacing="2", width="100%"),
            ),
            rx.text("No subs available right now.", color_scheme="gray"),
        ),
    )


@page(routes.DASH_SUBS, "Subs", on_load=SubsState.load)
def subs_page() -> rx.Component:
    s = SubsState
    return dash_page(
        rx.vstack(
            rx.heading("Subs", size="7", as_="h1"),
            rx.flex(
                link_button(
                    rx.cond(s.is_sub, "View My Sub Info", "Become a Sub"),
                    href=routes.user_path(AuthState.user_id),
                    size="2",
                ),
                link_button("Create Sub Request", href=routes.NOTES_NEW, size="2", variant="soft"),
                link_button("Open Sub Requests", href=routes.NOTES, size="2", variant="soft"),
                spacing="2",
                wrap="wrap",
            ),
            _subs_list(),
            rx.text("This list refreshes every minute.", size="1", color_scheme="gray"),
            spacing="4",
            width="100%",
        )
    )
