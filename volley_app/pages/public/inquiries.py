"""The contact, host and promote forms: checked, stored, mailed to the provider, then /sent."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.inquiries import form_page, inquiry_form
from volley_app.registry import page
from volley_app.state.inquiries import InquiryFormState, inquiry


class ContactState(InquiryFormState, rx.State):
    _kind, _fields, _error_id = inquiry("contact")


class HostState(InquiryFormState, rx.State):
    _kind, _fields, _error_id = inquiry("host")


class PromoteState(InquiryFormState, rx.State):
    _kind, _fields, _error_id = inquiry("promote")


@page(routes.CONTACT, "Contact", on_load=ContactState.clear)
def contact_page() -> rx.Component:
    return form_page(
        "Contact",
        "Questions about leagues, subs or your account? Send us a note and we will answer within 1-2 days.",
        inquiry_form(ContactState, "contact"),
    )


@page(routes.HOST, "Host a League", on_load=HostState.clear)
def host_page() -> rx.Component:
    return form_page(
        "Host a League",
        "Have courts in or around Lexington? We bring the players, the schedule, sign-ups and payments; "
        "you bring the sand or the hardwood. Tell us about your venue and we will be in touch within 1-2 days.",
        inquiry_form(HostState, "host", pair=("region", "zip")),
    )


@page(routes.PROMOTE, "Promote", on_load=PromoteState.clear)
def promote_page() -> rx.Component:
    return form_page(
        "Promote",
        "Reach hundreds of active adult players in central Kentucky: our weekly newsletter carries two "
        "sponsor spots, and our venues have room for banners. Tell us what you would like to promote.",
        inquiry_form(PromoteState, "promote"),
    )
