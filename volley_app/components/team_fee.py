"""A shared team fee on the team's page: what the team owes, who paid their share, each member's pay link (a member
sees their own; the captain, co-captains and the operator everyone's), Email pay links, and the captain's Cover the
rest."""

from __future__ import annotations

import reflex as rx
from reflex.vars import ObjectVar

from volley_app.components.forms import form_messages
from volley_app.components.layout import button_row, column, link_button
from volley_app.services.teams import shares
from volley_app.state.teams import FEE_ERROR_ID, FeeState


def _fee() -> ObjectVar[dict[str, str]]:
    return FeeState.fee.to(ObjectVar, dict[str, str])


def _row(r: ObjectVar[shares.ShareRow]) -> rx.Component:
    state = rx.cond(r["paid"] != "", rx.badge("Paid " + r["paid"].to(str), color_scheme="green"),
                    rx.cond(r["share"] != "", rx.badge("Owes " + r["share"].to(str), color_scheme="amber"),
                            rx.badge("Nothing owed", color_scheme="gray")))  # fmt: skip
    link = rx.cond(r["link"] != "", rx.link("Pay link", href=r["link"].to(str), size="2",
                                            aria_label="Pay link for " + r["name"].to(str)), rx.fragment())  # fmt: skip
    return rx.flex(
        rx.text(r["name"], weight="medium"), rx.flex(state, link, spacing="3", align="center"),
        justify="between", align="center", wrap="wrap", spacing="2", width="100%",
        custom_attrs={"data-testid": "share-row"},
    )  # fmt: skip


def fee_section() -> rx.Component:
    s = FeeState
    f = _fee()
    status = rx.cond(s.confirmed, rx.callout("Paid in full: the team's place is confirmed.", icon="circle-check",
                                             color_scheme="green", size="1"),
                     rx.text("Still owed: ", rx.text.strong(f["due"]), ", due by ", f["due_by"], ".", size="2"))  # fmt: skip
    cover = rx.cond(f["cover_link"] != "", link_button("Cover the rest (" + f["due"] + ")", href=f["cover_link"],
                                                       size="2", variant="soft"), rx.fragment())  # fmt: skip
    send = rx.cond(s.confirmed, rx.fragment(),
                   rx.button("Email pay links", on_click=s.send_links, loading=s.busy, size="2", type="button"))
    return rx.cond(
        s.shared,
        column(
            rx.heading("Team fee", size="4", as_="h2"),
            rx.text("Fee ", f["price"], " · paid ", f["paid"], ". Each player pays an equal share of what is left.",
                    size="2"),
            status,
            form_messages(s, FEE_ERROR_ID),
            rx.vstack(rx.foreach(s.rows, _row), spacing="2", width="100%"),
            button_row(send, cover, spacing="2"),
            spacing="3",
        ),
        rx.fragment(),
    )
