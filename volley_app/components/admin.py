"""Pieces the admin screens share."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

import reflex as rx

from volley_app.components.forms import busy
from volley_app.services.core import timefmt

if TYPE_CHECKING:
    from volley_app.state.forms import FormState


def local_time(value: dt.datetime) -> str:
    """A stored UTC time in the venue's zone, e.g. 'Nov 21, 2026 9:40 AM'."""
    return timefmt.local(value).strftime("%b %-d, %Y %-I:%M %p")


def notice(message: str | rx.Var[str]) -> rx.Component:
    """What the last action did, in green, while there is something to say."""
    return rx.cond(message != "", rx.callout(message, icon="check", color_scheme="green", size="1", role="status"))


def send_button(state: type[FormState], label: str, busy_label: str, **props: Any) -> rx.Component:
    """The form's send button, a spinner in its place while the sending is queued."""
    return rx.cond(state.busy, busy(busy_label), rx.button(label, type="submit", size="3", **props))
