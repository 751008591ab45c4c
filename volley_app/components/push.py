"""My Info's card for push notifications on this device: on or off, and a test."""

from __future__ import annotations

import reflex as rx

from volley_app.components.forms import messages
from volley_app.components.layout import button_row, section_card
from volley_app.state.push import PushState

PUSH_ERROR_ID = "push-error"


def push_card() -> rx.Component:
    s = PushState
    devices = rx.cond(s.push_devices == 1, "1 device of yours takes them.", s.push_devices.to_string() + " devices of yours take them.")
    return section_card(
        "Notifications on this device",
        rx.text("Invitations to sub, answers to your requests and your games, on this phone or computer even when "
                "the app is closed.", size="2"),  # fmt: skip
        messages(s.push_error, PUSH_ERROR_ID, s.push_notice),
        rx.cond(
            s.push_known,
            rx.fragment(
                rx.text(rx.cond(s.push_on, "On for this device. ", "Off for this device. "),
                        rx.cond(s.push_devices > 0, devices, ""), size="2", id="push-state"),  # fmt: skip
                button_row(
                    rx.cond(
                        s.push_on,
                        rx.button("Turn off on this device", on_click=s.turn_off, variant="soft", color_scheme="red",
                                  size="3", loading=s.push_busy, type="button"),
                        rx.button("Turn on notifications", on_click=s.turn_on, size="3", loading=s.push_busy,
                                  disabled=~s.push_supported, type="button"),
                    ),
                    rx.cond(s.push_devices > 0, rx.button("Send a test", on_click=s.send_test, variant="soft",
                                                          size="3", type="button")),
                ),  # fmt: skip
            ),
            rx.text("Checking this browser…", size="2", color_scheme="gray"),
        ),
        on_mount=s.check_device,
    )
