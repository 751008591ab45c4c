"""The contact, host and promote forms: checked, stored, mailed to the provider, then /sent."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import area_field, region_field, text_field
from volley_app.components.inquiries import form_page, inquiry_form, two_columns
from volley_app.registry import page
from volley_app.services import inquiries
from volley_app.state.inquiries import InquiryFormState

PHONE = {"type": "tel", "auto_complete": "tel", "placeholder": "(859) 555-0123", "max_length": 40, "required": True}
EMAIL = {"type": "email", "auto_complete": "email", "max_length": 254, "required": True}


class ContactState(InquiryFormState, rx.State):
    _kind = "contact"
    _fields = tuple(inquiries.FORMS["contact"].fields)
    _error_id = "contact-error"


class HostState(InquiryFormState, rx.State):
    _kind = "host"
    _fields = tuple(inquiries.FORMS["host"].fields)
    _error_id = "host-error"


class PromoteState(InquiryFormState, rx.State):
    _kind = "promote"
    _fields = tuple(inquiries.FORMS["promote"].fields)
    _error_id = "promote-error"


@page(routes.CONTACT, "Contact", on_load=ContactState.clear)
def contact_page() -> rx.Component:
    s = ContactState
    return form_page(
        "Contact",
        "Questions about leagues, subs or your account? Send us a note and we will answer within 1-2 days.",
        inquiry_form(
            s,
            "contact",
            "Send",
            text_field("Name", "name", s, auto_complete="name", max_length=100, required=True),
            text_field("Email", "email", s, **EMAIL),
            area_field("Message", "body", s, required=True),
        ),
    )


@page(routes.HOST, "Host a League", on_load=HostState.clear)
def host_page() -> rx.Component:
    s = HostState
    return form_page(
        "Host a League",
        "Have courts in or around Lexington? We bring the players, the schedule, sign-ups and payments; "
        "you bring the sand or the hardwood. Tell us about your venue and we will be in touch within 1-2 days.",
        inquiry_form(
            s,
            "host",
            "Send",
            text_field("Venue Name", "svl_name", s, max_length=200, auto_complete="organization", required=True),
            text_field("Email", "email", s, **EMAIL),
            text_field("Phone", "phone", s, **PHONE),
            text_field("Address", "address", s, auto_complete="street-address", max_length=200, required=True),
            text_field("City", "city", s, auto_complete="address-level2", max_length=100, required=True),
            two_columns(
                region_field(s, required=True),
                text_field("Zip", "zip", s, auto_complete="postal-code", input_mode="numeric", max_length=10, required=True),
            ),
        ),
    )


@page(routes.PROMOTE, "Promote", on_load=PromoteState.clear)
def promote_page() -> rx.Component:
    s = PromoteState
    return form_page(
        "Promote",
        "Reach hundreds of active adult players in central Kentucky: our weekly newsletter carries two "
        "sponsor spots, and our venues have room for banners. Tell us what you would like to promote.",
        inquiry_form(
            s,
            "promote",
            "Send",
            text_field("Company Name", "company_name", s, auto_complete="organization", max_length=200, required=True),
            text_field("Email", "email", s, **EMAIL),
            text_field("Phone", "phone", s, **PHONE),
            area_field("Why", "why", s, required=True),
        ),
    )
