"""Pay a share (/pay/{token}): the page of a rostered player's signed link, no login needed. It shows the team's
fee, what is paid and what this player pays now, then the card form (or Stripe's); a captain's "cover the rest"
link pays all that is left. Stripe comes back here with ``?paid={payment id}``, and the server verifies it."""

from __future__ import annotations

import reflex as rx
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.components.forms import error_line, stacked_form, submit_button
from volley_app.components.inquiries import emailed_link_page, refusal
from volley_app.components.layout import column, link_button
from volley_app.components.registration import card_form, stripe_form, texts
from volley_app.registry import page
from volley_app.services.core.errors import DomainError
from volley_app.services.teams import shares
from volley_app.settings import get_settings
from volley_app.state.auth import AuthState
from volley_app.state.forms import FormState, form_values, path_arg, run_action

ERROR_ID = "share-pay-error"
INFO = ("team_name", "league_name", "player", "price", "paid", "due", "due_by", "share", "credit", "notice")


class SharePayState(FormState, AuthState):
    _fields = ("card_number", "expiry", "cvc")
    _error_id = ERROR_ID

    # "checking" until the link is read; then "pay", "nothing" (the notice says why), "paid" or "invalid".
    status: rx.Field[str] = rx.field("checking")
    info: rx.Field[dict[str, str]] = rx.field(default_factory=dict)
    whole: rx.Field[bool] = rx.field(False)
    notice: rx.Field[str] = rx.field("")
    free: rx.Field[bool] = rx.field(False)
    offline: rx.Field[bool] = rx.field(True)
    payment_id: rx.Field[int] = rx.field(0)
    link_error: rx.Field[str] = rx.field("")
    stripe: rx.Field[dict[str, str]] = rx.field(default_factory=dict)

    def _link(self) -> str:  # the link's token
        return path_arg(self, "share_token")

    @rx.event(background=True)  # type: ignore[operator]  # rx.event is typed by a __new__ mypy skips
    async def load(self):
        """Read the link (the card service may be asked for the payment's intent: that wait holds no lock of the
        tab); back from the card service, verify its payment instead."""
        async with self:
            token, paid = self._link(), path_arg(self, "paid")
            self._clear_messages()
        if paid.isdigit():
            done, failure = await run_action(shares.confirm_return, token=token, payment_id=int(paid))
            async with self:
                return self._show_paid(done, failure)
        found, failure = await run_action(shares.screen, token=token)
        async with self:
            return self._show(found, failure)

    def _show(self, found: shares.ShareScreen | None, failure: DomainError | None) -> None:
        self.stripe = {}
        if failure is not None or found is None:
            self.status, self.link_error = "invalid", failure.message if failure else shares.BAD_LINK
            return
        self.info = {k: str(found[k]) for k in INFO}  # type: ignore[literal-required]
        self.whole, self.free = found["whole"], found["free"]
        self.offline, self.payment_id = found["provider"] == "offline", found["payment_id"]
        self.status = "pay" if found["payment_id"] else "nothing"
        if found["client_secret"] and not self.offline:
            back = f"{routes.share_pay_path(self._link())}?paid={found['payment_id']}"
            self.stripe = {"publishable_key": get_settings().stripe_publishable_key or "",
                           "client_secret": found["client_secret"], "return_url": back, "decline_url": back}  # fmt: skip

    def _show_paid(self, done: shares.Paid | None, failure: DomainError | None) -> None:
        if failure is not None or done is None:
            self.status, self.link_error = "invalid", failure.message if failure else shares.BAD_LINK
            return
        if done["status"] == "succeeded":
            self.status, self.notice = "paid", done["message"]
        else:
            self.status, self.error = "nothing", done["message"] or "The card was declined. Open the link to try again."

    def _after(self, done: shares.Paid) -> None:
        if done["status"] == "succeeded":
            self.status, self.notice = "paid", done["message"]
        else:
            self.error = done["message"] or "The card was declined."

    @rx.event
    def pay(self, form_data: dict[str, object]):
        return self._submit(shares.pay_offline, done=self._after, as_actor=False, token=self._link(),
                            payment_id=self.payment_id, submitted=form_values(form_data, self._fields))  # fmt: skip


def _info() -> ObjectVar[dict[str, str]]:
    return texts(SharePayState.info)


def _summary() -> rx.Component:
    i = _info()
    return column(
        rx.heading(i["team_name"], size="5", as_="h2"),
        rx.text("League: ", i["league_name"]),
        rx.text("Team fee ", i["price"], " · paid so far ", i["paid"], " · still owed ", i["due"], size="2"),
        rx.text("Due by ", i["due_by"], ".", size="2", color_scheme="gray"),
        spacing="2",
    )


def _pay() -> rx.Component:
    s = SharePayState
    i = _info()
    free = stacked_form(rx.text("Your credit covers it: no card is needed.", size="2"),
                        submit_button("Confirm", s, disabled=s.busy), on_submit=s.pay)  # fmt: skip
    what = rx.cond(s.whole, "The rest of the fee", "Your share")
    credit = rx.cond(i["credit"] != "", rx.text("Your credit of ", i["credit"], " is taken off.", size="2"), rx.fragment())
    return column(
        _summary(),
        rx.text(i["player"], ": ", what, " ", rx.text.strong(i["share"]), size="3"),
        credit,
        error_line(s.error, ERROR_ID),
        rx.cond(s.free, free, rx.cond(s.offline, card_form(s, "Pay " + i["share"], s.pay),
                                      stripe_form(s.stripe, "Pay " + i["share"]))),
        spacing="4",
    )


@page(routes.SHARE_PAY_ROUTE, "Pay Your Share", on_load=SharePayState.load)
def share_pay_page() -> rx.Component:
    s = SharePayState
    i = _info()
    home = link_button("Go to the app", href=routes.DASH, size="3", variant="soft")
    return emailed_link_page(
        "Pay Your Share",
        s.status,
        "Opening your payment link…",
        pay=_pay(),
        nothing=column(_summary(), error_line(s.error, ERROR_ID),
                       rx.cond(i["notice"] != "", rx.callout(i["notice"], icon="info", role="status"), rx.fragment()),
                       home, spacing="4"),  # fmt: skip
        paid=column(rx.callout(s.notice, icon="circle-check", color_scheme="green", role="status"), home, spacing="4"),
        invalid=refusal(s.link_error, link_button("Go home", href=routes.HOME, size="3")),
    )
