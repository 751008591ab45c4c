"""The contact, host and promote forms (and the franchise form on its page): checked, stored, mailed, then /sent."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import busy, error_line, focus, form_card
from volley_app.components.layout import public_page
from volley_app.pages.public.forms import TRAP_FIELD, area_field, input_field, state_field, trap_field
from volley_app.registry import page
from volley_app.services import inquiries
from volley_app.services.errors import Invalid
from volley_app.state.forms import run_action


class InquiryState(rx.State, mixin=True):
    """What every inquiry form shares; each form's state names its kind."""

    errors: dict[str, str] = {}
    error: str = ""
    loading: bool = False

    def _kind(self) -> str:
        return "contact"

    def clear(self):
        """on_load: no message left over from another visit."""
        self.errors, self.error, self.loading = {}, "", False

    async def submit(self, form_data: dict | None = None):
        if self.loading:
            return
        kind = self._kind()
        data = form_data if isinstance(form_data, dict) else {}
        fields = inquiries.FORMS[kind].fields
        values = {name: str(data.get(name) or "") for name in fields}
        self.errors, self.error, self.loading = {}, "", True
        yield
        client = self.router.session.client_ip or "unknown"
        _result, failure = await run_action(
            inquiries.submit, kind=kind, data=values, client=client, trap=str(data.get(TRAP_FIELD) or "")
        )
        self.loading = False
        if failure is not None:
            if isinstance(failure, Invalid):
                self.errors = {k: v for k, v in failure.errors.items() if k in fields}
            self.error = "Please correct the fields marked below." if self.errors else failure.message
            yield
            yield focus(f"{kind}-error")
            return
        yield rx.redirect(routes.SENT)


class ContactState(InquiryState, rx.State):
    def _kind(self) -> str:
        return "contact"


class HostState(InquiryState, rx.State):
    def _kind(self) -> str:
        return "host"


class PromoteState(InquiryState, rx.State):
    def _kind(self) -> str:
        return "promote"


class FranchiseState(InquiryState, rx.State):
    def _kind(self) -> str:
        return "franchise"


def inquiry_form(state: type[InquiryState], kind: str, button: str, *fields: rx.Component) -> rx.Component:
    """The form with its error line; fields keep their values when a submit is refused."""
    return rx.vstack(
        error_line(state.error, f"{kind}-error"),
        rx.cond(state.loading, busy("Sending…"), rx.fragment()),
        rx.form(
            rx.vstack(
                *fields,
                trap_field(),
                rx.button(button, type="submit", size="3", width="100%", disabled=state.loading),
                spacing="4",
                width="100%",
                position="relative",
            ),
            on_submit=state.submit,
            width="100%",
            display=rx.cond(state.loading, "none", "block"),
        ),
        spacing="3",
        width="100%",
    )


@page(routes.CONTACT, "Contact", on_load=ContactState.clear)
def contact_page() -> rx.Component:
    e = ContactState.errors
    return public_page(
        form_card(
            "Contact",
            rx.text("Questions about leagues, subs or your account? Send us a note and we will answer within 1-2 days.", color_scheme="gray"),
            inquiry_form(
                ContactState,
                "contact",
                "Send",
                input_field("Name", "name", e, auto_complete="name", max_length=100),
                input_field("Email", "email", e, type="email", auto_complete="email", max_length=254),
                area_field("Message", "body", e),
            ),
        )
    )


@page(routes.HOST, "Host a League", on_load=HostState.clear)
def host_page() -> rx.Component:
    e = HostState.errors
    return public_page(
        form_card(
            "Host a League",
            rx.text(
                "Have courts in or around Lexington? We bring the players, the schedule, sign-ups and payments; "
                "you bring the sand or the hardwood. Tell us about your venue and we will be in touch within 1-2 days.",
                color_scheme="gray",
            ),
            inquiry_form(
                HostState,
                "host",
                "Send",
                input_field("Venue Name", "svl_name", e, max_length=200, auto_complete="organization"),
                input_field("Email", "email", e, type="email", auto_complete="email", max_length=254),
                input_field("Phone", "phone", e, type="tel", auto_complete="tel", placeholder="(859) 555-0123", max_length=40),
                input_field("Address", "address", e, auto_complete="street-address", max_length=200),
                input_field("City", "city", e, auto_complete="address-level2", max_length=100),
                rx.grid(
                    state_field(e),
                    input_field("Zip", "zip", e, auto_complete="postal-code", input_mode="numeric", max_length=10),
                    columns={"initial": "1", "sm": "2"},
                    spacing="3",
                    width="100%",
                ),
            ),
        )
    )


@page(routes.PROMOTE, "Promote", on_load=PromoteState.clear)
def promote_page() -> rx.Component:
    e = PromoteState.errors
    return public_page(
        form_card(
            "Promote",
            rx.text(
                "Reach hundreds of active adult players in central Kentucky: our weekly newsletter carries two "
                "sponsor spots, and our venues have room for banners. Tell us what you would like to promote.",
                color_scheme="gray",
            ),
            inquiry_form(
                PromoteState,
                "promote",
                "Send",
                input_field("Company Name", "company_name", e, auto_complete="organization", max_length=200),
                input_field("Email", "email", e, type="email", auto_complete="email", max_length=254),
                input_field("Phone", "phone", e, type="tel", auto_complete="tel", placeholder="(859) 555-0123", max_length=40),
                area_field("Why", "why", e),
            ),
        )
    )


def franchise_form() -> rx.Component:
    e = FranchiseState.errors
    return inquiry_form(
        FranchiseState,
        "franchise",
        "Send",
        input_field("Name", "name", e, auto_complete="name", max_length=100),
        input_field("Email", "email", e, type="email", auto_complete="email", max_length=254),
        input_field("Phone", "phone", e, type="tel", auto_complete="tel", placeholder="(859) 555-0123", max_length=40),
        rx.grid(
            input_field("City", "city", e, auto_complete="address-level2", max_length=100),
            state_field(e),
            columns={"initial": "1", "sm": "2"},
            spacing="3",
            width="100%",
        ),
        area_field("Message", "message", e),
    )
