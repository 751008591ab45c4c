"""One payment of a league (/dash/payments/{id}), for the league's operator and admins: what it brought in and gave
back, and a form to refund it (in full or in part) or give the payer credit instead, with what the league's refund
policy proposes."""

from __future__ import annotations

import secrets

import reflex as rx
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.components.forms import (
    area_field,
    checkbox_field,
    record_form,
    submit_button,
    text_field,
)
from volley_app.components.layout import button_row, details, labelled, link_button, section_card
from volley_app.components.tables import row, table_or_empty
from volley_app.registry import Body, record
from volley_app.services.money import refunds as svc
from volley_app.state.auth import AuthState
from volley_app.state.forms import FormState, form_values, path_arg

ERROR_ID = "payment-error"
FIELDS = ("amount", "reason", "as_credit")


class PaymentState(FormState, AuthState):
    _fields = FIELDS
    _error_id = ERROR_ID
    # One refund per form shown: the form sends the key it was drawn with, so a second click (a double click, even
    # one sent after the first was done and the form drawn anew) sends the same key and is the same refund.
    refund_key: rx.Field[str] = rx.field("")

    found: rx.Field[dict[str, str]] = rx.field(default_factory=dict)
    history: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    may_give_back: rx.Field[bool] = rx.field(False)
    notice: rx.Field[str] = rx.field("")

    def _shown(self, found: svc.PaymentScreen | None) -> None:
        self.refund_key = secrets.token_hex(16)
        self.history = [{k: str(v) for k, v in h.items()} for h in found["history"]] if found else []
        self.may_give_back = bool(found and found["may_give_back"])
        self.found = {k: str(v) for k, v in found.items() if k != "history"} if found else {}
        if found:
            self.found["league_href"] = routes.league_path(found["league_id"])

    async def load(self) -> None:
        self.notice = ""
        await self._read()

    async def _read(self) -> None:
        self._shown(await self._read_record(svc.payment_screen, payment_id=path_arg(self, "payment_id")))

    @rx.event
    async def refresh(self) -> None:
        """The payment read again, keeping what the last action said."""
        await self._read()

    def _given(self, done: svc.GivenBack):
        self.notice = done["message"]
        return type(self).refresh

    @rx.event
    def give_back(self, form_data: dict[str, object]):
        self.notice = ""
        return self._submit(svc.give_back, done=self._given, payment_id=path_arg(self, "payment_id"),
                            submitted=form_values(form_data, (*FIELDS, "key")))  # fmt: skip


def _history_row(h: ObjectVar[dict[str, str]]) -> rx.Component:
    return row(h["what"], h["amount"], rx.text(h["time"], class_name="nowrap"), h["by"], h["reason"])


def _form() -> rx.Component:
    s = PaymentState
    f = s.found.to(dict[str, str])
    return record_form(
        s,
        rx.text(f["policy"], size="2"),
        rx.text(f["proposal_why"], size="2", color_scheme="gray"),
        text_field("Amount ($)", "amount", s, default_value=f["proposal"], input_mode="decimal", required=True,
                   hint="Up to " + f["left"] + ": what is left of this payment."),
        area_field("Reason", "reason", s, rows="2", max_length=300, required=True,
                   hint="The payer is emailed this reason."),
        checkbox_field("Give it as credit for a later registration instead of a refund to the card", "as_credit"),
        rx.el.input(type="hidden", name="key", value=s.refund_key),
        submit_button("Give back", s, width="auto"),
        on_submit=s.give_back,
    )  # fmt: skip


@record(routes.PAYMENT, "Payment", PaymentState, ERROR_ID, name="team_name", shown="id")
def payment_page(s: type[PaymentState], f: ObjectVar[dict[str, str]]) -> Body:
    return (
        section_card("Payment", details(
            labelled("League", f["league_name"]),
            labelled("Team", f["team_name"]),
            labelled("Paid by", f["payer"]),
            labelled("Charged", f["amount"]),
            labelled("Kept after what was given back", f["paid"]),
            labelled("Left to give back", f["left"]),
            labelled("Status", f["status"]),
            labelled("Started", f["time"]),
        )),
        section_card("History", table_or_empty(["What", "Amount", "When", "By", "Reason"], s.history,
                                               _history_row, "Nothing recorded yet.")),
        rx.cond(s.may_give_back, section_card("Refund or credit", _form(), max_width="36rem")),
        button_row(link_button("Back to the league", href=f["league_href"], variant="soft", size="2")),
    )  # fmt: skip
