"""My Info (/dash/playerinfo): the user's own record, the fields their role sees (the service picks them)."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.layout import dash_page, link_button
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


def _item(label: str, value) -> rx.Component:
    return rx.data_list.item(rx.data_list.label(label), rx.data_list.value(value))


@page(routes.PLAYER_INFO, "My Info", on_load=PlayerInfoState.load)
def player_info_page() -> rx.Component:
    s = PlayerInfoState
    i = s.info
    return dash_page(
        rx.vstack(
            rx.heading("My Info", size="7", as_="h1"),
            rx.cond(s.info_error != "", rx.text(s.info_error, color_scheme="red", role="alert")),
            rx.card(
                rx.data_list.root(
                    _item("Username", i["username"]),
                    _item("Email", i["email"]),
                    _item("First Name", i["first_name"]),
                    rx.cond(s.show_player, _item("Last Name", i["last_name"])),
                    rx.cond(s.show_player, _item("Gender", i["gender"])),
                    rx.cond(s.show_address, _item("Address", i["address"])),
                    rx.cond(s.show_address, _item("City", i["city"])),
                    _item("State", i["region"]),
                    rx.cond(s.show_player, _item("Active Sub", i["sub"])),
                    rx.cond(s.show_player, _item("Hitter Rating", i["hitter"])),
                    rx.cond(s.show_player, _item("Passer Rating", i["passer"])),
                    rx.cond(s.show_player, _item("Setter Rating", i["setter"])),
                    orientation={"initial": "vertical", "sm": "horizontal"},
                ),
                width="100%",
            ),
            rx.cond(i["edit"], link_button("Edit Info", href=i["edit"], size="3")),
            spacing="4",
            width="100%",
            max_width="40rem",
        )
    )
