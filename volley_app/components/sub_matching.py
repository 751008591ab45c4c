"""A request's Suggested subs panel, its Played / No-show marks, and a sub's availability card (Edit Info)."""

from __future__ import annotations

import reflex as rx
from reflex.vars import ObjectVar, StringVar

from volley_app.components.forms import checkbox_field, error_line, notice_line, text_field
from volley_app.components.layout import button_row, card_for, column
from volley_app.components.paging import pager
from volley_app.components.tables import card
from volley_app.services.subs import availability
from volley_app.state.sub_invites import InviteQueueState
from volley_app.state.sub_matching import (
    SUGGESTIONS_ERROR_ID,
    AvailabilityState,
    Mark,
    OutcomeState,
    SuggestedSub,
    SuggestionsState,
)

AVAILABILITY_ERROR_ID = "availability-error"
OUTCOME_ERROR_ID = "outcome-error"


def _suggested(r: ObjectVar[SuggestedSub], after_invite=None) -> rx.Component:
    s = SuggestionsState
    name = r["name"].to(str)
    invite_one = s.invite(r["id"])  # type: ignore[operator]  # rx.event's stubs: mypy sees an EventNamespace
    clicked = [invite_one, after_invite] if after_invite is not None else invite_one
    add = InviteQueueState.add_suggested(r["id"])  # type: ignore[operator]  # rx.event's stubs: mypy sees an EventNamespace
    invite = rx.cond(
        (r["eligible"] != "") & s.can_invite,
        rx.hstack(
            rx.button("Invite", size="2", on_click=clicked, aria_label="Invite " + name),
            rx.button("Add to List", size="2", variant="soft", on_click=add,
                      aria_label="Add " + name + " to the invite list"),
            spacing="2",
        ),
        rx.fragment(),
    )
    return card(
        rx.vstack(
            rx.text(r["name"], weight="bold"),
            rx.text(r["reason"], size="2"),
            rx.text(r["gender"], " · ", r["ratings"], " · ", r["record"], size="1", color_scheme="gray"),
            invite,
            spacing="2",
            width="100%",
        ),
        test_id="suggested-sub",
    )


def suggestions_panel(after_invite=None) -> rx.Component:
    """Suggested subs for the request on the page (its requestor's, while open): ranked, with reasons, a page at a
    time; "Show ineligible" lists the others with why. ``after_invite``: an event that reloads the request."""
    s = SuggestionsState
    invite_hint = rx.cond(
        s.can_invite,
        rx.text("Best fit first. Invite one: they are emailed and the request waits for their answer.", size="2"),
        rx.text("Waiting for the invited sub's answer.", size="2", color_scheme="gray"),
    )
    heading = rx.cond(s.show_ineligible, "Subs who cannot take it", "Suggested subs")
    return card_for(
        s.suggestions_shown,
        heading,
        rx.text("Needs: ", s.needs, size="2", weight="medium"),
        rx.cond(s.show_ineligible, rx.text("Each with the reason they are not suggested.", size="2"), invite_hint),
        rx.button(
            rx.cond(s.show_ineligible, "Show suggested subs", "Show ineligible"),
            on_click=s.toggle_ineligible,
            variant="outline",
            size="2",
            aria_pressed=rx.cond(s.show_ineligible, "true", "false"),
            width="fit-content",
        ),
        error_line(s.suggest_error, SUGGESTIONS_ERROR_ID),
        notice_line(s.suggest_notice),
        rx.cond(
            s.suggested.length() > 0,
            rx.vstack(rx.foreach(s.suggested, lambda r: _suggested(r, after_invite)), spacing="2", width="100%"),
            rx.text(rx.cond(s.show_ineligible, "Every active sub may take it.", "No sub fits this request yet."),
                    color_scheme="gray"),  # fmt: skip
        ),
        pager(s, "suggested subs"),
        custom_attrs={"data-testid": "suggestions"},
    )


def _mark_row(r: ObjectVar[Mark]) -> rx.Component:
    """One sub who took a place: their name, their mark, and the two buttons that set it."""
    s = OutcomeState
    name, outcome = r["name"].to(str), r["outcome"].to(str)
    played = s.mark(r["id"], "Played")  # type: ignore[operator]  # rx.event's stubs: mypy sees an EventNamespace
    no_show = s.mark(r["id"], "No-show")  # type: ignore[operator]  # rx.event's stubs: mypy sees an EventNamespace
    return card(
        rx.vstack(
            rx.text(name, weight="bold"),
            rx.text(rx.cond(outcome != "", "Marked: " + outcome, "Not marked yet"), size="2"),
            button_row(
                rx.button("Played", color_scheme="green", size="3", on_click=played,
                          aria_label="Played: " + name, aria_pressed=rx.cond(outcome == "Played", "true", "false")),
                rx.button("No-show", color_scheme="red", variant="soft", size="3", on_click=no_show,
                          aria_label="No-show: " + name, aria_pressed=rx.cond(outcome == "No-show", "true", "false")),
                spacing="3",
            ),
            spacing="2",
            width="100%",
        ),
        test_id="sub-mark",
    )  # fmt: skip


def outcome_panel() -> rx.Component:
    """After the game, the requestor marks each sub who took a place Played or No-show (changeable for a few days)."""
    s = OutcomeState
    return card_for(
        s.can_mark,
        "How did it go?",
        rx.text("Did each sub play? Your answer counts in their record.", size="2"),
        error_line(s.outcome_error, OUTCOME_ERROR_ID),
        notice_line(s.outcome_notice),
        rx.vstack(rx.foreach(s.marks, _mark_row), spacing="2", width="100%"),
    )


def _date_row(day: StringVar) -> rx.Component:
    s = AvailabilityState
    remove = s.remove_date(day)  # type: ignore[operator]  # rx.event's stubs: mypy sees an EventNamespace
    return rx.hstack(
        rx.text(day, size="2"),
        rx.button("Remove", size="1", variant="soft", color_scheme="red", type="button",
                  on_click=remove, aria_label="Remove " + day),  # fmt: skip
        align="center",
        spacing="3",
        custom_attrs={"data-testid": "unavailable-date"},
    )


def availability_section() -> rx.Component:
    """When the sub can play: weekdays and a weekly cap (one form), and dates they cannot (added one by one)."""
    s = AvailabilityState
    week = rx.form(
        column(
            rx.text("Days you usually can play", size="2", weight="medium"),
            rx.flex(
                *[checkbox_field(day[:3], f"day-{day}", default_checked=s.avail_days.contains(day),
                                 aria_label=day) for day in availability.DAYS],  # fmt: skip
                wrap="wrap",
                spacing="3",
            ),
            text_field("Weekly cap", "cap", type="number", min="1", max=str(availability.CAP_MAX),
                       default_value=s.avail_cap, hint="At most this many subs a week; blank for no cap"),  # fmt: skip
            rx.button("Save Availability", type="submit", size="2"),
            spacing="3",
        ),
        key=s.avail_key,
        on_submit=s.save_week,
        method="post",
        width="100%",
    )
    dates = rx.form(
        rx.flex(
            text_field("Date you cannot play", "day", type="date"),
            rx.button("Add Date", type="submit", size="2", variant="soft"),
            align="end",
            gap="3",
            wrap="wrap",
        ),
        key=s.avail_key,
        on_submit=s.add_date,
        method="post",
        width="100%",
    )
    return card_for(
        s.avail_loaded,
        "Sub Availability",
        rx.text("Requestors see you suggested on these days: ", s.avail_summary, ".", size="2"),
        error_line(s.avail_error, AVAILABILITY_ERROR_ID),
        notice_line(s.avail_notice),
        week,
        dates,
        rx.cond(
            s.avail_dates.length() > 0,
            rx.vstack(rx.foreach(s.avail_dates, _date_row), spacing="1"),
            rx.text("No dates you cannot play.", size="2", color_scheme="gray"),
        ),
        variant="surface",
        custom_attrs={"data-testid": "availability"},
    )
