"""My Info (/dash/playerinfo): the user's own record, the fields their role sees (the service picks them)."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.layout import column, dash_page, details, labelled, link_button, page_heading
from volley_app.models import REGIONS
from volley_app.registry import page
from volley_app.services import accounts
from volley_app.state.auth import AuthState
from volley_app.state.forms import run_action


class PlayerInfoState(AuthState):
    info: dict[str, str] = {}
    show_address: bool = False
    show_player: bool = False
    info_error: str = ""

    async def load(self):
        rec, failure = await run_action(accounts.my_info, actor=await self._actor())
        if failure:
            self.info, self.info_error = {}, failure.message
            self.show_address = self.show_player = False
            return
        self.info_error = ""
        self.show_address, self.show_player = rec["show_address"], rec["show_player"]
        self.info = {
            "username": rec["username"],
            "email": rec["email"],
            "first_name": rec["first_name"],
            "last_name": rec["last_name"],
            "gender": rec["gender"] or "-",
            "address": rec["address"] or "-",
            "city": rec["city"] or "-",
            "region": REGIONS.get(rec["region"], rec["region"]) or "-",
            "sub": "Yes" if rec["sub"] else "No",
            "hitter": rec["hitter"] or "-",
            "passer": rec["passer"] or "-",
            "setter": rec["setter"] or "-",
            "edit": routes.user_path(rec["id"]),
        }


@page(routes.PLAYER_INFO, "My Info", on_load=PlayerInfoState.load)
def player_info_page() -> rx.Component:
    s = PlayerInfoState
    i = s.info

    def player(label: str, name: str) -> rx.Component:
        return rx.cond(s.show_player, labelled(label, i[name]))

    def address(label: str, name: str) -> rx.Component:
        return rx.cond(s.show_address, labelled(label, i[name]))

    return dash_page(
        column(
            page_heading("My Info"),
            rx.cond(s.info_error != "", rx.text(s.info_error, color_scheme="red", role="alert")),
            rx.card(
                details(
                    labelled("Username", i["username"]),
                    labelled("Email", i["email"]),
                    labelled("First Name", i["first_name"]),
                    player("Last Name", "last_name"),
                    player("Gender", "gender"),
                    address("Address", "address"),
                    address("City", "city"),
                    labelled("State", i["region"]),
                    player("Active Sub", "sub"),
                    player("Hitter Rating", "hitter"),
                    player("Passer Rating", "passer"),
                    player("Setter Rating", "setter"),
                ),
                width="100%",
            ),
            rx.cond(i["edit"], link_button("Edit Info", href=i["edit"], size="3")),
            max_width="40rem",
        )
    )
