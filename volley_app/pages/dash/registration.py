"""Team registration (issue 5): new team or waitlist, checkout with the card form, success, waitlist success, decline."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import busy, error_line, field, focus, form_card, text_input
from volley_app.components.layout import dash_page, link_button
from volley_app.components.react.stripe import stripe_payment_form
from volley_app.pages.dash.ops_common import error_text
from volley_app.registry import page
from volley_app.services import registration as svc
from volley_app.settings import get_settings
from volley_app.state.auth import AuthState
from volley_app.state.forms import run_action

DECLINE_LINE_1 = "There was an error processing the payment card"
DECLINE_LINE_2 = "Please confirm card number, expiration date, and CVC and try again"


def _digits(value: object) -> str:
    """A numeric id from the query string, or '' (never trusted further than that: services check)."""
    text = str(value or "").strip()
    return text if text.isdigit() and len(text) < 12 else ""


def _league_href(lid: rx.Var) -> rx.Var:
    return rx.cond(lid != "", routes.DASH_LEAGUES + "/" + lid, routes.DASH_LEAGUES)


# --- new team (or the waitlist form) ---------------------------------------------------------------


class NewTeamState(AuthState):
    lid: str = ""
    league_name: str = ""
    full: bool = False
    may_register: bool = False
    cash: bool = False
    price: dict[str, str] = {}
    team_errors: dict[str, str] = {}
    error: str = ""
    saving: bool = False
    loaded: bool = False

    async def load(self):
        self.team_errors, self.error, self.saving, self.loaded = {}, "", False, False
        actor = await self._actor()
        self.lid = _digits(self.router.url.query_parameters.get("league", ""))
        found, failure = await run_action(svc.options, actor=actor, league_id=self.lid)
        self.loaded = True
        if failure is not None:
            self.may_register, self.league_name, self.error = False, "", failure.message
            return
        self.league_name, self.full, self.may_register, self.cash = (
            found["league_name"],
            found["full"],
            found["may_register"],
            found["cash"],
        )
        self.price = {k: str(found[k]) for k in ("league_cost", "fee", "total", "players")}
        if not self.may_register:
            self.error = svc.OPERATORS_CANNOT_REGISTER if (actor and (actor.is_admin or actor.is_svl)) else svc.NOT_OPEN

    async def submit(self, form_data: dict):
        if self.saving:
            return
        data = form_data if isinstance(form_data, dict) else {}
        self.saving, self.team_errors, self.error = True, {}, ""
        yield
        actor = await self._actor()
        self.lid = _digits(self.router.url.query_parameters.get("league", ""))
        out, failure = await run_action(svc.register, actor=actor, league_id=self.lid, team_name=data.get("team_name"))
        self.saving = False
        if failure is not None:
            self.team_errors = dict(getattr(failure, "errors", {}) or {})
            self.error = failure.message
            yield focus("team-form-error")
            return
        if out["kind"] == "waitlist":
            yield rx.redirect(f"{routes.TEAMS_WAITLIST_SUCCESS}?league={out['league_id']}")
        else:
            yield rx.redirect(f"{routes.TEAMS_CHECKOUT}?payment={out['payment_id']}")


@page(routes.TEAMS_NEW, "Register a Team", on_load=NewTeamState.load)
def new_team_page() -> rx.Component:
    s = NewTeamState
    return dash_page(
        form_card(
            "Register a Team",
            rx.text(s.league_name, color_scheme="gray"),
            error_line(s.error, "team-form-error"),
            rx.cond(
                s.may_register,
                rx.form(
                    rx.vstack(
                        rx.cond(
                            s.full,
                            rx.callout(svc.LEAGUE_FULL, icon="info", color_scheme="amber"),
                            rx.text(
                                "League cost ",
                                s.price["league_cost"],
                                " plus a fee of ",
                                s.price["fee"],
                                " ($5 × ",
                                s.price["players"],
                                " players).",
                                size="2",
                                color_scheme="gray",
                            ),
                        ),  # fmt: skip
                        field(
                            "Team Name",
                            text_input("team_name", max_length=100, auto_focus=True),
                            field_id="team_name",
                            error=s.team_errors.get("team_name", ""),
                        ),  # fmt: skip
                        rx.button(
                            rx.cond(s.full, "Join Waitlist", "Continue to Checkout"),
                            type="submit",
                            size="3",
                            width="100%",
                            loading=s.saving,
                        ),
                        spacing="4",
                        width="100%",
                    ),
                    on_submit=s.submit,
                    width="100%",
                ),
                rx.fragment(),
            ),
            link_button("Return to League", href=_league_href(s.lid), variant="soft"),
        )
    )


# --- checkout -----------------------------------------------------------------------------------------


class CheckoutState(AuthState):
    pid: str = ""
    info: dict[str, str] = {}
    cash: bool = False
    offline: bool = True
    card_errors: dict[str, str] = {}
    error: str = ""
    missing: bool = False
    paying: bool = False
    # Stripe only: what the Payment Element needs (the client secret belongs to this user's own intent).
    stripe_key: str = ""
    client_secret: str = ""
    return_path: str = ""
    decline_path: str = ""

    async def load(self):
        self.card_errors, self.error, self.paying = {}, "", False
        self.stripe_key, self.client_secret = "", ""
        actor = await self._actor()
        self.pid = _digits(self.router.url.query_parameters.get("payment", ""))
        found, failure = await run_action(svc.checkout, actor=actor, payment_id=self.pid)
        if failure is not None:
            self.info, self.missing, self.error = {}, True, failure.message
            return
        if found["status"] == svc.SUCCEEDED:
            return rx.redirect(f"{routes.TEAMS_SUCCESS}?payment={found['payment_id']}")
        self.missing = False
        self.cash, self.offline = found["cash"], found["provider"] == "offline"
        self.info = {
            k: str(found[k])
            for k in ("league_id", "league_name", "team_name", "league_cost", "fee", "total", "players", "status")
        }
        if found["status"] != svc.PENDING:
            self.error = "This payment was already processed. Return to the league to try again."
            return None
        if not self.offline and found["client_secret"]:
            self.stripe_key = get_settings().stripe_publishable_key or ""
            self.client_secret = found["client_secret"]
            self.return_path = f"{routes.TEAMS_SUCCESS}?payment={found['payment_id']}"
            self.decline_path = f"{routes.TEAMS_DECLINE}?league={found['league_id']}"
        return None

    async def pay(self, form_data: dict):
        if self.paying:
            return
        data = form_data if isinstance(form_data, dict) else {}
        self.paying, self.card_errors, self.error = True, {}, ""
        yield
        actor = await self._actor()
        self.pid = _digits(self.router.url.query_parameters.get("payment", ""))
        out, failure = await run_action(
            svc.pay_offline,
            actor=actor,
            payment_id=self.pid,
            card_number=data.get("card_number"),
            expiry=data.get("expiry"),
            cvc=data.get("cvc"),
        )
        if failure is not None:
            self.paying = False
            self.card_errors = dict(getattr(failure, "errors", {}) or {})
            self.error = failure.message
            yield focus("card-form-error")
            return
        if out["status"] == svc.SUCCEEDED:
            yield rx.redirect(f"{routes.TEAMS_SUCCESS}?payment={out['payment_id']}")
        else:
            yield rx.redirect(f"{routes.TEAMS_DECLINE}?league={out['league_id']}")


def _line(label: rx.Var | str, value: rx.Var, *, strong: bool = False) -> rx.Component:
    return rx.flex(
        rx.text(label, weight="bold" if strong else "regular"),
        rx.text(value, weight="bold" if strong else "regular"),
        justify="between",
        width="100%",
        spacing="3",
    )


def _card_form() -> rx.Component:
    s = CheckoutState
    e = s.card_errors
    return rx.form(
        rx.vstack(
            field("Card number", text_input("card_number", inputmode="numeric", auto_complete="cc-number", max_length=23,
                                            placeholder="4242 4242 4242 4242"),
                  field_id="card_number", error=e.get("card_number", "")),
            rx.grid(
                field("Expiry (MM/YY)", text_input("expiry", auto_complete="cc-exp", max_length=7, placeholder="MM/YY"),
                      field_id="expiry", error=e.get("expiry", "")),
                field("CVC", text_input("cvc", inputmode="numeric", auto_complete="cc-csc", max_length=4, placeholder="123"),
                      field_id="cvc", error=e.get("cvc", "")),
                columns="2", spacing="3", width="100%",
            ),
            rx.button("Pay " + s.info["total"], type="submit", size="3", width="100%", loading=s.paying, disabled=s.paying),
            rx.text("Test mode: no real card is charged.", size="1", color_scheme="gray"),
            spacing="4",
            width="100%",
        ),
        on_submit=s.pay,
        width="100%",
    )  # fmt: skip


@page(routes.TEAMS_CHECKOUT, "Checkout", on_load=CheckoutState.load)
def checkout_page() -> rx.Component:
    s = CheckoutState
    i = s.info
    return dash_page(
        form_card(
            "Checkout",
            error_line(s.error, "card-form-error"),
            rx.cond(
                s.missing,
                link_button("Back to Leagues", href=routes.DASH_LEAGUES, variant="soft"),
                rx.cond(
                    s.info.length() == 0,
                    busy("Loading checkout…"),
                    rx.vstack(
                        rx.text(i["team_name"], " · ", i["league_name"], color_scheme="gray"),
                        rx.card(
                            rx.vstack(
                                _line("League cost", i["league_cost"]),
                                _line("Fee ($5 × " + i["players"] + " players)", i["fee"]),
                                rx.separator(size="4"),
                                _line("Total due now", i["total"], strong=True),
                                rx.cond(
                                    s.cash,
                                    rx.text(
                                        "Cash-only league: only the fee is charged now. The league amount of ",
                                        i["league_cost"],
                                        " is due in cash at the first game.",
                                        size="2",
                                    ),
                                    rx.fragment(),
                                ),  # fmt: skip
                                spacing="2",
                                width="100%",
                            ),
                            width="100%",
                        ),
                        rx.cond(
                            i["status"] == "pending",
                            rx.cond(
                                s.offline,
                                _card_form(),
                                rx.box(
                                    stripe_payment_form(
                                        publishable_key=s.stripe_key,
                                        client_secret=s.client_secret,
                                        return_url=s.return_path,
                                        decline_url=s.decline_path,
                                        label="Pay " + i["total"],
                                    ),
                                    width="100%",
                                ),
                            ),
                            rx.fragment(),
                        ),
                        link_button("Return to League", href=_league_href(i["league_id"]), variant="soft"),
                        spacing="4",
                        width="100%",
                    ),
                ),
            ),
        )
    )


# --- success, waitlist success, decline -------------------------------------------------------------------


class RegisteredState(AuthState):
    info: dict[str, str] = {}
    cash: bool = False
    error: str = ""

    async def load(self):
        actor = await self._actor()
        params = self.router.url.query_parameters
        pid = _digits(params.get("payment", ""))
        if params.get("payment_intent"):  # back from Stripe: verify on the server before showing anything
            back, _f = await run_action(svc.confirm_stripe_return, actor=actor, payment_id=pid)
            if back and back["status"] == "declined":
                return rx.redirect(f"{routes.TEAMS_DECLINE}?league={back['league_id']}")
            if back and back["status"] == "processing":
                self.info, self.error = {}, "Your payment is still processing. Refresh this page in a moment."
                return None
        found, failure = await run_action(svc.result, actor=actor, payment_id=pid)
        if failure is not None:
            self.info, self.error = {}, failure.message
            return None
        self.error, self.cash = "", found["cash"]
        self.info = {
            k: str(found[k]) for k in ("league_id", "league_name", "team_name", "paid", "league_cost", "first_game")
        }
        return None


@page(routes.TEAMS_SUCCESS, "Team Registered", on_load=RegisteredState.load)
def success_page() -> rx.Component:
    s = RegisteredState
    i = s.info
    return dash_page(
        form_card(
            "Team Registered",
            error_text(s.error),
            rx.cond(
                (s.error == "") & (s.info.length() == 0),
                busy("Confirming your payment…"),
                rx.fragment(),
            ),
            rx.cond(
                s.info.length() > 0,
                rx.vstack(
                    rx.callout(i["team_name"] + " is registered in " + i["league_name"] + ".", icon="check",
                               color_scheme="green", role="status"),
                    rx.text("Paid by card: ", i["paid"]),
                    rx.cond(
                        s.cash,
                        rx.text("The league amount of ", i["league_cost"], " is due in cash at the first game, ",
                                rx.text.strong(i["first_game"]), "."),
                        rx.text("Please send your Venmo payment by the day of the first game: ",
                                rx.text.strong(i["first_game"]), "."),
                    ),
                    spacing="3",
                    width="100%",
                ),
                rx.fragment(),
            ),
            link_button("Return to League", href=_league_href(i["league_id"]), variant="soft"),
        )
    )  # fmt: skip


class LeagueLinkState(AuthState):
    lid: str = ""

    def load(self):
        self.lid = _digits(self.router.url.query_parameters.get("league", ""))


@page(routes.TEAMS_WAITLIST_SUCCESS, "Waitlist", on_load=LeagueLinkState.load)
def waitlist_success_page() -> rx.Component:
    return dash_page(
        form_card(
            "You're on the Waitlist",
            rx.callout(
                "Your team has joined the waitlist for this league.", icon="check", color_scheme="green", role="status"
            ),
            rx.text("We will let you know if an opening becomes available."),
            link_button("Return to League", href=_league_href(LeagueLinkState.lid), variant="soft"),
        )
    )


@page(routes.TEAMS_DECLINE, "Payment Failed", on_load=LeagueLinkState.load)
def decline_page() -> rx.Component:
    return dash_page(
        form_card(
            "Payment Failed",
            rx.callout(DECLINE_LINE_1, icon="triangle_alert", color_scheme="red", role="alert"),
            rx.text(DECLINE_LINE_2),
            link_button("Return to League", href=_league_href(LeagueLinkState.lid)),
        )
    )
