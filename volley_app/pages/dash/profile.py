"""Profile links (/dash/profile), My Info (/dash/playerinfo) and the player contact form
(/dash/playercontact, then /dash/playersent).
"""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import error_line, field, focus, form_card
from volley_app.components.layout import dash_page, link_button
from volley_app.models import REGIONS
from volley_app.registry import page
from volley_app.services import accounts
from volley_app.state.auth import AuthState
from volley_app.state.forms import run_action

CONTACT_ERROR_ID = "contact-error"


# --- profile links ---------------------------------------------------------------------


def _profile_link(label: str, href: str) -> rx.Component:
    return link_button(label, href=href, variant="soft", size="3", width="100%", justify="start")


@page(routes.DASH_PROFILE, "Profile")
def profile_page() -> rx.Component:
    status = AuthState.status
    admin = status == "Admin"
    svl = status == "SVL"
    return dash_page(
        rx.vstack(
            rx.heading("Profile", size="7", as_="h1"),
            rx.grid(
                rx.cond(svl, rx.fragment(), _profile_link("Notifications", routes.NOTES_NOTIFICATIONS)),
                rx.cond(admin, _profile_link("New Newsletter", routes.NEWSLETTER_SETUP)),
                rx.cond(svl, rx.fragment(), _profile_link("Create Sub Request", routes.NOTES_NEW)),
                rx.cond(admin, _profile_link("All Open Sub Requests", routes.NOTES)),
                rx.cond(admin | svl, _profile_link("Add Session", routes.SESSIONS_NEW)),
                rx.cond(admin, _profile_link("All Sessions", routes.SESSIONS)),
                rx.cond(svl, _profile_link("My Sessions", routes.SESSIONS)),
                rx.cond(admin, _profile_link("All Leagues", routes.DASH_LEAGUES)),
                rx.cond(admin, _profile_link("All Users", routes.USERS)),
                rx.cond(admin, _profile_link("Create New SVL", routes.USERS_NEW)),
                rx.cond(admin, _profile_link("Email All Users", routes.EMAIL_ALL)),
                rx.cond(admin, _profile_link("Inquiries", routes.INQUIRIES)),
                _profile_link("My Info", routes.PLAYER_INFO),
                rx.cond(admin, rx.fragment(), _profile_link("Contact Us", routes.PLAYER_CONTACT)),
                columns={"initial": "1", "sm": "2", "md": "3"},
                spacing="3",
                width="100%",
            ),
            spacing="4",
            width="100%",
        )
    )


# --- My Info -----------------------------------------------------------------------------------


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


# --- player contact -----------------------------------------------------------------------------


class PlayerContactState(AuthState):
    message: str = ""
    contact_error: str = ""
    sending: bool = False

    async def load(self):
        self.message, self.contact_error, self.sending = "", "", False

    @rx.event
    def set_message(self, value: str):
        value = value if isinstance(value, str) else ""
        if value != self.message:
            self.message = value[:5000]
            self.contact_error = ""

    async def send(self, form_data: dict | None = None):
        if self.sending:
            return
        data = form_data if isinstance(form_data, dict) else {}
        if isinstance(data.get("message"), str):
            self.message = data["message"][:5000]
        self.sending, self.contact_error = True, ""
        yield
        _, failure = await run_action(accounts.player_contact, actor=await self._actor(), message=self.message)
        self.sending = False
        if failure:
            self.contact_error = failure.message
            yield focus(CONTACT_ERROR_ID)
            return
        self.message = ""
        yield rx.redirect(routes.PLAYER_SENT)


@page(routes.PLAYER_CONTACT, "Contact Us", on_load=PlayerContactState.load)
def player_contact_page() -> rx.Component:
    s = PlayerContactState
    return dash_page(
        form_card(
            "Contact Us",
            rx.text("Questions, ideas or trouble? Send us a message and we will reply by email.", color_scheme="gray"),
            error_line(s.contact_error, CONTACT_ERROR_ID),
            rx.form(
                rx.vstack(
                    field(
                        "Message",
                        rx.text_area(
                            id="message",
                            name="message",
                            value=s.message,
                            on_change=s.set_message,
                            required=True,
                            rows="6",
                            width="100%",
                            max_length=5000,
                        ),
                        field_id="message",
                    ),
                    rx.button("Send", type="submit", size="3", width="100%", disabled=s.sending | (s.message.strip() == "")),
                    spacing="3",
                    width="100%",
                ),
                on_submit=s.send,
                width="100%",
            ),
        )
    )


@page(routes.PLAYER_SENT, "Sent Successfully")
def player_sent_page() -> rx.Component:
    return dash_page(
        form_card(
            "Sent Successfully",
            rx.text("Thank you for your message. Our team will reach out shortly."),
            rx.text(
                "If you do not hear from us in 1-2 days, please check that the email address on your account "
                "is correct and try again."
            ),
            link_button("Back to Profile", href=routes.DASH_PROFILE, size="3"),
        )
    )
