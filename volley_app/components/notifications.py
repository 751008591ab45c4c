"""Notifications: the list of a person's notifications and My Info's card of how each kind reaches them."""

from __future__ import annotations

import reflex as rx
from reflex.vars import ObjectVar

from volley_app.components.forms import checkbox_field, messages, stacked_form, submit_button
from volley_app.components.layout import button_row, section_card
from volley_app.components.paging import pager
from volley_app.services.mail import notices
from volley_app.state.forms import flag
from volley_app.state.notifications import (
    LIST_ERROR_ID,
    PREFS_ERROR_ID,
    PUSH_PREFIX,
    NotificationListState,
    NotificationPrefsState,
    ShownNotification,
)


def _item(n: ObjectVar[ShownNotification]) -> rx.Component:
    """One notification: its title linking to its page (marked read on the way), its text and when; unread ones
    marked in words and by a bar and weight."""
    unread = n["unread"].to(bool)
    return rx.el.li(
        rx.flex(
            rx.cond(unread, rx.badge("Unread", color_scheme="orange", variant="solid", size="1"), rx.fragment()),
            rx.link(n["title"], href=n["href"], weight=rx.cond(unread, "bold", "regular"), size="3",
                    on_click=NotificationListState.open_one(n["id"]).prevent_default),  # type: ignore[operator]  # an event handler called with its argument
            align="center", spacing="2", wrap="wrap",
        ),  # fmt: skip
        rx.text(n["text"], size="2"),
        rx.text(n["when"], size="1", color_scheme="gray"),
        padding="0.75rem 0.9rem",
        border_left=rx.cond(unread, "4px solid var(--brand-orange)", f"4px solid {rx.color('gray', 4)}"),
        background=rx.cond(unread, rx.color("orange", 2), "white"),
        border_radius="var(--radius-2)",
        custom_attrs={"data-testid": "notification"},
        style={"list_style": "none", "display": "flex", "flex_direction": "column", "gap": "0.25rem"},
    )


def notification_list() -> list[rx.Component]:
    """The person's notifications, newest first, with Mark all read and the pager."""
    s = NotificationListState
    return [
        messages(s.error, LIST_ERROR_ID, s.notice),
        rx.flex(
            rx.text(rx.cond(s.unread > 0, s.unread.to_string() + " unread", "Nothing unread"), size="2",
                    custom_attrs={"data-testid": "unread-summary"}),
            rx.button("Mark all read", on_click=s.mark_all_read, disabled=s.busy | (s.unread == 0), variant="soft",
                      size="2"),
            justify="between", align="center", wrap="wrap", spacing="2", width="100%",
        ),  # fmt: skip
        rx.cond(
            s.rows.length() > 0,
            rx.el.ul(rx.foreach(s.rows, _item), style={"display": "flex", "flex_direction": "column", "gap": "0.5rem",
                                                         "padding": "0", "margin": "0", "width": "100%"}),
            rx.cond(s.loaded, rx.text("No notifications yet.", size="2"), rx.spinner(size="2", aria_label="Loading")),
        ),  # fmt: skip
        pager(s, "notifications"),
    ]


def preferences_card() -> rx.Component:
    """My Info's Notifications: for each kind, whether it is emailed and pushed to this person's devices (every one
    shows in the app)."""
    s = NotificationPrefsState

    def channel(legend: str, ticked: rx.Var, prefix: str) -> rx.Component:
        return rx.el.fieldset(
            rx.el.legend(legend, style={"font_weight": "600", "margin_bottom": "0.25rem"}),
            *[checkbox_field(k.label, prefix + kind, default_checked=flag(ticked, kind)) for kind, k in notices.KINDS.items()],
            style={"border": "none", "padding": "0", "margin": "0"},
        )

    return section_card(
        "Notifications",
        rx.text("Everything shows under the bell at the top of the page. Tick what should also be emailed to you, "
                "and what should come to the devices you turn notifications on for (below).", size="2"),  # fmt: skip
        messages(s.error, PREFS_ERROR_ID, s.prefs_notice),
        stacked_form(
            channel("Email me when", s.email_on, ""),
            channel("Notify my devices when", s.push_on, PUSH_PREFIX),
            button_row(submit_button("Save notifications", s, size="3")),
            on_submit=s.save_prefs,
            key=s.form_key,
            spacing="3",
        ),
    )
