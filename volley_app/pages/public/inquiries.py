"""The contact, host and promote forms: checked, stored, mailed to the provider, then /sent."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.inquiries import form_page, inquiry_form
from volley_app.registry import page
from volley_app.services.mail import inquiries
from volley_app.state.inquiries import InquiryFormState, inquiry


class ContactState(InquiryFormState, rx.State):
    _kind, _fields, _error_id = inquiry("contact")


class HostState(InquiryFormState, rx.State):
    _kind, _fields, _error_id = inquiry("host")


class PromoteState(InquiryFormState, rx.State):
    _kind, _fields, _error_id = inquiry("promote")


def _inquiry_page(route: str, state: type[InquiryFormState], kind: str, intro: str, **form: tuple[str, str]) -> None:
    """Declare the page at ``route`` that is the form of inquiry ``kind``, under its title and ``intro``."""
    title = inquiries.FORMS[kind].title

    def component() -> rx.Component:
        return form_page(title, intro, inquiry_form(state, kind, **form))

    component.__name__ = component.__qualname__ = f"{kind}_page"
    page(route, title, on_load=state.clear)(component)


_inquiry_page(routes.CONTACT, ContactState, "contact",
              "Questions about leagues, subs or your account? Send us a note and we will answer within 1-2 days.")
_inquiry_page(routes.HOST, HostState, "host",
              "Have courts in or around Lexington? We bring the players, the schedule, sign-ups and payments; "
              "you bring the sand or the hardwood. Tell us about your venue and we will be in touch within 1-2 days.",
              pair=("region", "zip"))
_inquiry_page(routes.PROMOTE, PromoteState, "promote",
              "Reach hundreds of active adult players in central Kentucky: our weekly newsletter carries two "
              "sponsor spots, and our venues have room for banners. Tell us what you would like to promote.")  # fmt: skip
