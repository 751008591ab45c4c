"""A request's ordered invite list (for its requestor): build the list, invite in order, follow the queue."""

from __future__ import annotations

import reflex as rx
from reflex.vars import NumberVar, ObjectVar

from volley_app.components.forms import error_line, notice_line, select_field
from volley_app.components.layout import button_row, card_for, column, section_card
from volley_app.components.sub_requests import sub_picker
from volley_app.services.subs import invites
from volley_app.services.subs.invites import InviteRow
from volley_app.services.subs.subs_list import SubChoice
from volley_app.state.notifications import NOTIFY_ERROR_ID, SubNotifyState
from volley_app.state.sub_invites import QUEUE_ERROR_ID, InviteQueueState


def _pick(p: ObjectVar[SubChoice], i: NumberVar[int]) -> rx.Component:
    s = InviteQueueState
    last = i == s.picks.length() - 1
    label = p["label"].to(str)
    up = s.move_up(i)  # type: ignore[operator]  # rx.event's stubs: mypy sees an EventNamespace
    down = s.move_down(i)  # type: ignore[operator]  # rx.event's stubs: mypy sees an EventNamespace
    remove = s.remove(i)  # type: ignore[operator]  # rx.event's stubs: mypy sees an EventNamespace
    return rx.el.li(
        rx.hstack(
            rx.text(label, weight="medium", flex="1"),
            rx.icon_button(rx.icon("arrow_up", size=16), on_click=up, disabled=i == 0, variant="soft",
                           aria_label="Move " + label + " up", type="button"),
            rx.icon_button(rx.icon("arrow_down", size=16), on_click=down, disabled=last, variant="soft",
                           aria_label="Move " + label + " down", type="button"),
            rx.icon_button(rx.icon("x", size=16), on_click=remove, color_scheme="red", variant="soft",
                           aria_label="Remove " + label, type="button"),
            align="center", spacing="2", width="100%",
        ),
        data_testid="invite-pick",
        style={"min_height": "44px", "display": "flex", "align_items": "center"},
    )  # fmt: skip


def _builder() -> rx.Component:
    s = InviteQueueState
    return section_card(
        "Invite Subs in Order",
        rx.text("Add subs in the order to ask them. The first is invited at once and holds the request for up to "
                "2 hours (less as the game nears, never past its start); a decline or no answer in time asks the "
                "next.", size="2"),  # fmt: skip
        error_line(s.queue_error, QUEUE_ERROR_ID),
        sub_picker(s, label="Find a sub by name", noun="subs to invite", field_id="invite-search-q"),
        rx.form(
            rx.flex(
                rx.box(select_field("Sub", "pick", s.sub_options, placeholder="Choose a sub", required=False), flex="1",
                       min_width="12rem"),
                rx.button("Add to List", type="submit", variant="soft", size="3"),
                align="end", spacing="3", wrap="wrap",
            ),
            on_submit=s.add_pick, reset_on_submit=True, width="100%", method="post",
        ),  # fmt: skip
        rx.button("Add the Best 5 Suggested", on_click=s.add_best, variant="outline", size="2", type="button",
                  width="fit-content"),
        rx.cond(
            s.picks.length() > 0,
            rx.el.ol(rx.foreach(s.picks, _pick), aria_label="Subs to invite, in order",
                     style={"padding_left": "1.25rem", "width": "100%"}),  # fmt: skip
            rx.text("No subs on the list yet.", size="2", color_scheme="gray"),
        ),
        rx.form(
            column(
                select_field("If nobody accepts", "if_nobody", list(invites.IF_NOBODY.items()), default_value="open"),
                rx.button("Invite in This Order", type="submit", size="3", disabled=s.picks.length() == 0),
                spacing="3",
            ),
            on_submit=s.invite, width="100%", method="post",
        ),  # fmt: skip
    )


def _queue_line(q: ObjectVar[InviteRow]) -> rx.Component:
    return rx.el.li(
        rx.text(rx.text.strong(q["name"]), " — ", q["state"], rx.cond(q["when"] != "", rx.text.span(", ", q["when"]))),
        data_testid="invite-queue-row",
    )


def _progress() -> rx.Component:
    s = InviteQueueState
    return section_card(
        "Invite List",
        rx.el.ol(rx.foreach(s.queue, _queue_line), style={"padding_left": "1.25rem"}),
    )


def invite_queue_card() -> rx.Component:
    """The requestor's invite list and its progress, and the places taken on a request for several players."""
    s = InviteQueueState
    return column(
        notice_line(s.queue_notice),
        rx.cond(s.players != "", rx.card(rx.text(s.players, " ", rx.cond(s.places.length() > 0, "(" + s.places.join(", ") + ")", "")), width="100%")),
        rx.cond(s.queue.length() > 0, _progress()),
        rx.cond(s.can_invite, _builder()),
        spacing="3",
    )


def sub_notify_card() -> rx.Component:
    """A sub's choice of emails about sub requests: every matching open request, only invitations, or nothing."""
    s = SubNotifyState
    return card_for(
        s.is_sub,
        "Sub Request Emails",
        error_line(s.notify_error, NOTIFY_ERROR_ID),
        notice_line(s.notify_notice),
        rx.form(
            column(
                select_field("Email me about", "sub_notify", s.notify_choices, default_value=s.notify, key=s.notify),
                rx.text("Open requests match you when one of your ratings reaches their skill level.", size="2"),
                button_row(rx.button("Save", type="submit", size="3")),
                spacing="3",
            ),
            on_submit=s.save_notify, width="100%", method="post",
        ),  # fmt: skip
    )
