"""Checkout (/dash/leagues/teams/checkout?payment={id}): the breakdown, until when the place is held, then the
card form or Stripe's. A reservation that expired offers to hold a place again, or the waitlist of a full league."""

from __future__ import annotations

import reflex as rx
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.components.forms import busy, error_line, form_card, stacked_form, submit_button, text_field
from volley_app.components.layout import column, dash_page, link_button
from volley_app.components.registration import card_form, league_href, return_to_league, stripe_form, texts
from volley_app.registry import page
from volley_app.services.core.errors import DomainError
from volley_app.services.teams import registration as svc
from volley_app.settings import get_settings
from volley_app.state.auth import AuthState, actor_of_token
from volley_app.state.forms import FormState, form_values, path_arg, run_action

ERROR_ID = "card-form-error"
INFO = ("league_id", "league_name", "team_name", "league_cost", "fee", "total", "players", "status", "held_until",
        "price", "discount", "discount_code", "credit", "team_fee", "free_agent", "refund_policy")


def _again(out: svc.NextStep):
    if out["kind"] == "waitlist":
        return rx.redirect(routes.waitlist_success_path(out["league_id"]))
    if out["kind"] == "checkout":
        return rx.redirect(routes.checkout_path(out["payment_id"]))
    return CheckoutState.load  # the league filled up meanwhile: the page offers its waitlist


class CheckoutState(FormState, AuthState):
    _fields = ("code", "card_number", "expiry", "cvc", "waitlist")
    _error_id = ERROR_ID

    info: rx.Field[dict[str, str]] = rx.field(default_factory=dict)
    league_href: rx.Field[str] = rx.field(routes.DASH_LEAGUES)
    cash: rx.Field[bool] = rx.field(False)
    offline: rx.Field[bool] = rx.field(True)
    # The discount and the credit cover the whole price: the registration is confirmed with no card.
    free: rx.Field[bool] = rx.field(False)
    # The price is the league's deposit: the rest of the team's fee is shared among its roster.
    shared: rx.Field[bool] = rx.field(False)
    missing: rx.Field[bool] = rx.field(False)
    notice: rx.Field[str] = rx.field("")
    # An expired reservation of a new registration: hold a place again, or (``full``) join the waitlist.
    may_start_again: rx.Field[bool] = rx.field(False)
    full: rx.Field[bool] = rx.field(False)
    # Stripe only: what the Payment Element needs (the client secret belongs to this user's own intent).
    stripe: rx.Field[dict[str, str]] = rx.field(default_factory=dict)

    @rx.event(background=True)  # type: ignore[operator]  # rx.event is typed by a __new__ mypy skips
    async def load(self):
        """The card service (Stripe) may be asked for the payment's state: that wait holds no lock of the tab."""
        async with self:
            token, payment_id = self._token(), path_arg(self, "payment")
        found, failure = await run_action(svc.checkout, actor=await actor_of_token(token), payment_id=payment_id)
        async with self:
            return self._show_checkout(found, failure)

    def _show_checkout(self, found: svc.Checkout | None, failure: DomainError | None):
        self._clear_messages()
        self.stripe, self.notice, self.may_start_again, self.full = {}, "", False, False
        if failure is not None or found is None:
            self.info, self.missing, self.error = {}, True, failure.message if failure else ""
            return None
        if found["status"] == svc.SUCCEEDED:
            return rx.redirect(routes.success_path(found["payment_id"]))
        self.missing = False
        self.cash, self.offline, self.free = found["cash"], found["provider"] == "offline", found["free"]
        self.shared = found["shared"]
        self.info = {k: str(v) for k, v in found.items() if k in INFO}
        self.league_href = league_href(found["league_id"])
        if found["status"] in (svc.EXPIRED, svc.REFUNDED):
            self.notice = found["notice"]
            self.may_start_again = found["status"] == svc.EXPIRED and not found["offer"]
            self.full = found["full"]
        else:
            self.error = found["notice"]
        if found["client_secret"] and not self.offline:
            self.stripe = {
                "publishable_key": get_settings().stripe_publishable_key or "",
                "client_secret": found["client_secret"],
                "return_url": routes.success_path(found["payment_id"]),
                "decline_url": routes.decline_path(found["league_id"], found["payment_id"]),
            }
        return None

    def _paid(self, out: svc.Outcome):
        if out["status"] == svc.SUCCEEDED:
            return rx.redirect(routes.success_path(out["payment_id"]))
        if out["status"] == svc.EXPIRED:  # the place was released before this payment
            return CheckoutState.load
        return rx.redirect(routes.decline_path(out["league_id"], out["payment_id"]))

    @rx.event
    def apply_code(self, form_data: dict[str, object]):
        """The discount code typed (blank: none): the server checks it and prices the registration again."""
        code = form_values(form_data, ("code",))["code"]
        return self._submit(svc.apply_code, done=self._priced, payment_id=path_arg(self, "payment"), code=code)

    def _priced(self, found: svc.Checkout):
        self.form_key += 1
        return self._show_checkout(found, None)

    @rx.event
    def confirm(self, _form_data: dict[str, object]):
        """Take the place with no card: the discount and the credit cover the price (the server checks it)."""
        return self._submit(svc.confirm_free, done=self._paid, payment_id=path_arg(self, "payment"))

    @rx.event
    def pay(self, form_data: dict[str, object]):
        card = form_values(form_data, self._fields[1:4])
        return self._submit(svc.pay_offline, done=self._paid, payment_id=path_arg(self, "payment"),
                            card_number=card["card_number"], expiry=card["expiry"], cvc=card["cvc"])  # fmt: skip

    @rx.event
    def start_again(self, form_data: dict[str, object]):
        waitlist = form_values(form_data, ("waitlist",))["waitlist"]
        return self._submit(svc.hold_again, done=_again, payment_id=path_arg(self, "payment"), waitlist=waitlist)


def _info() -> ObjectVar[dict[str, str]]:
    return texts(CheckoutState.info)


def _line(label: rx.Var[str] | str, value: rx.Var[str], *, strong: bool = False) -> rx.Component:
    weight = "bold" if strong else "regular"
    return rx.flex(
        rx.text(label, weight=weight), rx.text(value, weight=weight), justify="between", width="100%", spacing="3"
    )


def _breakdown() -> rx.Component:
    s = CheckoutState
    i = _info()
    cash_note = rx.text("Cash-only league: only the fee is charged now. The league amount of ", i["league_cost"],
                        " is due in cash at the first game.", size="2")  # fmt: skip
    discount = rx.cond(i["discount"] != "", _line("Discount (" + i["discount_code"] + ")", "−" + i["discount"]),
                       rx.fragment())  # fmt: skip
    credit = rx.cond(i["credit"] != "", _line("Your credit", "−" + i["credit"]), rx.fragment())
    shared = rx.fragment(
        _line("Team fee", i["team_fee"]),
        _line("Deposit now", i["price"]),
        rx.text("The deposit holds your team's place. The rest of the fee is split among your roster: each player "
                "pays their share by their own link.", size="2", color_scheme="gray"),
    )  # fmt: skip
    whole = rx.fragment(_line("League cost", i["league_cost"]), _line("Fee ($5 × " + i["players"] + " players)", i["fee"]))
    lines = rx.cond(i["free_agent"] == "True", _line("Free agent fee", i["price"]), rx.cond(s.shared, shared, whole))
    return rx.card(
        column(
            lines,
            discount,
            credit,
            rx.separator(size="4"),
            _line("Total due now", i["total"], strong=True),
            rx.cond(s.cash, cash_note, rx.fragment()),
            rx.text(i["refund_policy"], size="2", color_scheme="gray", id="refund-policy"),
            spacing="2",
        ),
        width="100%",
    )


def _code_form() -> rx.Component:
    """The discount code: applied on the server, which says at the field why a code cannot be used."""
    s = CheckoutState
    return rx.form(
        rx.flex(
            rx.box(text_field("Discount code", "code", s, max_length=40, auto_complete="off", auto_capitalize="characters",
                              spell_check=False, default_value=i_code()), flex="1", min_width="12rem"),  # fmt: skip
            rx.button("Apply", type="submit", size="3", variant="soft", loading=s.busy, min_height="44px"),
            align="end", spacing="3", wrap="wrap", width="100%",
        ),
        on_submit=s.apply_code,
        key=s.form_key.to_string(),
        width="100%",
        method="post",
    )


def i_code() -> rx.Var[str]:
    return _info()["discount_code"]


def _confirm_form() -> rx.Component:
    s = CheckoutState
    return stacked_form(
        rx.text("Your discount and credit cover the whole price: no card is needed.", size="2"),
        submit_button("Confirm registration", s, disabled=s.busy),
        on_submit=s.confirm,
    )


def _payment() -> rx.Component:
    s = CheckoutState
    i = _info()
    label = "Pay " + i["total"]
    pay = rx.cond(s.free, _confirm_form(), rx.cond(s.offline, card_form(s, label, s.pay), stripe_form(s.stripe, label)))
    held = rx.cond(i["held_until"] != "",
                   rx.text("Your place is held for you until ", rx.text.strong(i["held_until"]), ".", size="2"))
    return rx.cond(i["status"] == svc.PENDING, column(held, _code_form(), pay, spacing="3"), rx.fragment())


def _released() -> rx.Component:
    """An expired reservation: what happened, and the way on (a place again, or the waitlist of a full league)."""
    s = CheckoutState
    again = stacked_form(
        rx.cond(s.full, rx.el.input(type="hidden", name="waitlist", value="true"), rx.fragment()),
        submit_button(rx.cond(s.full, "Join the Waitlist", "Hold a Place Again"), s),
        on_submit=s.start_again,
    )
    return rx.cond(
        s.notice != "",
        column(
            rx.callout(s.notice, icon="info", color_scheme="amber", role="status"),
            rx.cond(s.may_start_again, again, rx.fragment()),
            spacing="3",
        ),
        rx.fragment(),
    )


@page(routes.TEAMS_CHECKOUT, "Checkout", on_load=CheckoutState.load)
def checkout_page() -> rx.Component:
    s = CheckoutState
    i = _info()
    checkout = column(
        rx.text(i["team_name"], " · ", i["league_name"], color_scheme="gray"),
        _released(),
        _breakdown(),
        _payment(),
        return_to_league(s.league_href, variant="soft"),
    )
    back = link_button("Back to Leagues", href=routes.DASH_LEAGUES, variant="soft")
    loading = rx.cond(i.length() == 0, busy("Loading checkout…"), checkout)
    return dash_page(form_card("Checkout", error_line(s.error, ERROR_ID), rx.cond(s.missing, back, loading)))
