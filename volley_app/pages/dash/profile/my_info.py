"""My Info (/dash/playerinfo): the user's own record, the fields their role sees (the service picks them)."""

from __future__ import annotations

from typing import cast

import reflex as rx
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.components.calendar import add_to_calendar, webcal
from volley_app.components.layout import column, dash_page, details, labelled, link_button, page_heading
from volley_app.components.notifications import preferences_card
from volley_app.components.push import push_card
from volley_app.components.sub_invites import sub_notify_card
from volley_app.models import REGIONS
from volley_app.registry import page
from volley_app.services.core.errors import DomainError
from volley_app.services.operations import profile
from volley_app.services.seasons import calendar
from volley_app.state.auth import AuthState
from volley_app.state.files import backend_address
from volley_app.state.forms import flag, flags, run_action
from volley_app.state.notifications import NotificationPrefsState, SubNotifyState


class PlayerInfoState(AuthState):
    info: rx.Field[dict[str, str]] = rx.field(default_factory=dict)
    shows: rx.Field[dict[str, bool]] = rx.field(default_factory=dict)  # show_address, show_player
    info_error: rx.Field[str] = rx.field("")
    feed_url: rx.Field[str] = rx.field("")
    feed_subscribe: rx.Field[str] = rx.field("")
    feed_notice: rx.Field[str] = rx.field("")
    credit: rx.Field[str] = rx.field("")  # the player's credit left ('' when none)

    def _show_feed(self, path: str | None) -> None:
        self.feed_url = backend_address(path) if path else ""
        self.feed_subscribe = webcal(self.feed_url) if path else ""

    async def load(self):
        """My Info in one read: the record, the calendar feed, (the sub's card) the sub request emails, and which
        notifications are emailed."""
        self.feed_notice = ""
        found, failure = await run_action(profile.my_info, actor=await self._actor())
        notify = await self.get_state(SubNotifyState)
        prefs = await self.get_state(NotificationPrefsState)
        if failure is not None or found is None:
            self._show_feed(None)
            self.credit = ""
            self._show_info(None, failure)
            notify._show_on_open(None, failure)
            prefs._show_prefs(None, failure)
            return
        self._show_feed(found.feed.value)
        left = found.credit.value
        self.credit = left["balance"] if left is not None and left["balance_cents"] > 0 else ""
        self._show_info(found.info.value, found.info.failure)
        notify._show_on_open(found.notifications.value, found.notifications.failure)
        prefs._show_prefs(found.preferences.value, found.preferences.failure)

    def _show_info(self, rec: dict | None, failure: DomainError | None) -> None:
        if failure is not None or rec is None:
            self.info, self.info_error = {}, failure.message if failure else ""
            self.shows = flags(None, "show_address", "show_player")
            return
        self.info_error = ""
        self.shows = flags(rec, "show_address", "show_player")
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


    async def _change_feed(self, change, notice: str) -> None:
        """``change`` the calendar feed (it answers the feed's new address, or None once the feed is off), then say so."""
        path, failure = await run_action(change, actor=await self._actor())
        if failure is None:
            self._show_feed(path)
        self.feed_notice = notice if failure is None else failure.message

    @rx.event
    async def new_feed_address(self):
        await self._change_feed(calendar.regenerate, "Your calendar has a new address; the old one no longer works.")

    @rx.event
    async def turn_feed_off(self):
        await self._change_feed(calendar.revoke, "Your calendar feed is off: its address no longer works.")


def _credit_card() -> rx.Component:
    s = PlayerInfoState
    return rx.card(
        rx.vstack(
            rx.heading("My credit", size="4", as_="h2"),
            rx.text("You have ", rx.text.strong(s.credit), " of credit.", size="3", id="my-credit"),
            rx.text("It is spent automatically at your next registration.", size="2", color_scheme="gray"),
            spacing="2",
            width="100%",
        ),
        width="100%",
    )


def _calendar_card() -> rx.Component:
    s = PlayerInfoState
    return rx.card(
        rx.vstack(
            rx.heading("My calendar", size="4", as_="h2"),
            rx.text("Your teams' games and the sub requests you accepted, in your phone's calendar. "
                    "The address is private: anyone who has it can see your games.", size="2"),  # fmt: skip
            rx.cond(s.feed_notice != "", rx.text(s.feed_notice, size="2", role="status")),
            rx.cond(
                s.feed_url != "",
                rx.vstack(
                    add_to_calendar(s.feed_subscribe, s.feed_url),
                    rx.code(s.feed_url, id="calendar-feed-url", size="1", style={"word_break": "break-all"}),
                    rx.flex(
                        rx.button("New address", on_click=PlayerInfoState.new_feed_address, variant="soft", size="2"),
                        rx.button("Turn off", on_click=PlayerInfoState.turn_feed_off, variant="soft",
                                  color_scheme="red", size="2"),
                        spacing="3", wrap="wrap",
                    ),  # fmt: skip
                    spacing="2", width="100%",
                ),  # fmt: skip
                rx.button("Turn on my calendar feed", on_click=PlayerInfoState.new_feed_address, size="2"),
            ),
            spacing="3",
            width="100%",
        ),
        width="100%",
    )


@page(routes.PLAYER_INFO, "My Info", on_load=PlayerInfoState.load)
def player_info_page() -> rx.Component:
    s = PlayerInfoState
    i = cast(ObjectVar[dict[str, str]], s.info)  # Reflex's Field stubs give mypy an ArrayVar for a dict field

    def player(label: str, name: str) -> rx.Component:
        return rx.cond(flag(s.shows, "show_player"), labelled(label, i[name]))

    def address(label: str, name: str) -> rx.Component:
        return rx.cond(flag(s.shows, "show_address"), labelled(label, i[name]))

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
            rx.cond(s.credit != "", _credit_card()),
            _calendar_card(),
            sub_notify_card(),
            preferences_card(),
            push_card(),
            max_width="40rem",
        )
    )
