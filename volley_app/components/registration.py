"""What the registration and payment screens share: the way back to the league, their texts by name, and the card
forms (the offline provider's fields, Stripe's Payment Element)."""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.components.forms import stacked_form, submit_button, text_field
from volley_app.components.layout import link_button
from volley_app.components.react.stripe import stripe_payment_form


def league_href(league_id: object) -> str:
    """The league's home when the address named one, else the leagues list."""
    text = str(league_id or "").strip()
    return routes.league_path(text) if text.isdigit() else routes.DASH_LEAGUES


def return_to_league(href: rx.Var[str] | str, **props: Any) -> rx.Component:
    return link_button("Return to League", href=href, **props)


def texts(field: rx.Var) -> ObjectVar[dict[str, str]]:
    """A state's texts by name (a ``dict[str, str]`` field), each read as ``texts(field)["name"]``."""
    return field.to(ObjectVar, dict[str, str])


def card_form(state, label: rx.Var[str], on_submit) -> rx.Component:
    """The offline provider's card fields (test mode) and the Pay button: ``state`` has card_number, expiry, cvc."""
    return stacked_form(
        text_field("Card number", "card_number", state, inputmode="numeric", auto_complete="cc-number", max_length=23,
                   placeholder="4242 4242 4242 4242"),
        rx.grid(
            text_field("Expiry (MM/YY)", "expiry", state, auto_complete="cc-exp", max_length=7, placeholder="MM/YY"),
            text_field("CVC", "cvc", state, inputmode="numeric", auto_complete="cc-csc", max_length=4, placeholder="123"),
            columns="2", spacing="3", width="100%",
        ),
        submit_button(label, state, disabled=state.busy),
        rx.text("Test mode: no real card is charged.", size="1", color_scheme="gray"),
        on_submit=on_submit,
    )  # fmt: skip


def stripe_form(stripe: rx.Var, label: rx.Var[str]) -> rx.Component:
    """Stripe's Payment Element for the intent a state's ``stripe`` texts name (key, secret, where it returns)."""
    keys = ("publishable_key", "client_secret", "return_url", "decline_url")
    return rx.box(stripe_payment_form(**{k: texts(stripe)[k] for k in keys}, label=label), width="100%")
