"""A new sub request: open to anyone (/dash/notes/new) or one sub invited by email (/dash/notes/newspecific?sub=id).

An invite's sub picker holds one page of subs at a time, found by name; the sub the address names stays chosen.
"""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import complete_button, complete_form, error_line, form_card, select_field
from volley_app.components.layout import column, dash_page
from volley_app.components.sub_request_form import request_fields
from volley_app.components.sub_requests import sub_picker
from volley_app.registry import page
from volley_app.services.subs import request_changes, subs_list
from volley_app.services.subs.subs_list import SubChoice
from volley_app.state.auth import AuthState
from volley_app.state.forms import form_values, path_arg, run_action
from volley_app.state.sub_requests import FORM_ERROR_ID, RequestFormState, SubPickerList


class NewSubRequestState(SubPickerList, RequestFormState, AuthState):
    targeted: rx.Field[bool] = rx.field(False)
    recipient: rx.Field[str] = rx.field("")

    async def load(self):
        self._clear_messages()
        self.targeted = (self.router.url.path or "").rstrip("/") == routes.SUB_REQUEST_INVITE
        if not self.targeted:
            self.recipient = ""
            await self._open_picker(False)
            await self._load_hints()  # the default zone's, until a venue's name is typed
            self._show_record()
            return
        # Invite a Sub: the sub the address names (offered on every page of the picker), the picker's first page
        # and the form's hints, read in one call.
        wanted = path_arg(self, "sub")
        found, failure = await run_action(subs_list.invite_screen, actor=await self._actor(), sub_id=wanted,
                                          filters=dict.fromkeys(self._filter_names, ""))  # fmt: skip
        chosen: SubChoice | None = found.chosen if found else None
        self.recipient = chosen["value"] if chosen else ""
        self._show_picker(True, (found.choices.value, found.choices.failure) if found else (None, failure), chosen)
        self._show_hints(found.hints if found else None)  # the default zone's, until a venue's name is typed
        self._show_record()

    @rx.event
    def submit(self, form_data: dict | None = None):
        values = self._request_values(form_data)
        recipient = (form_values(form_data, ("recipient",))["recipient"] or "missing") if self.targeted else None
        return self._submit(
            request_changes.create, done=lambda new_id: rx.redirect(routes.sub_request_path(new_id)), recipient_id=recipient,
            **values,
        )  # fmt: skip


def _form() -> rx.Component:
    s = NewSubRequestState
    # Only the sub picker is drawn again once the subs are loaded: what is already typed elsewhere stays.
    recipient = select_field("Sub", "recipient", s.sub_options, s, placeholder="Choose a sub",
                             default_value=s.recipient, required=True, key=s.form_key)  # fmt: skip

    # Create is enabled once team, date, location, skill and format (and on an invite, the sub) are
    # filled in: the browser decides, so typing sends nothing to the server.
    return complete_form(
        column(
            rx.cond(s.targeted, recipient, rx.fragment()),
            *request_fields(s),
            complete_button(rx.cond(s.targeted, "Send Invite", "Create Sub Request")),
            rx.cond(s.busy, rx.text("Sending…", size="2", color_scheme="gray", role="status"), rx.fragment()),
            spacing="3",
        ),
        on_submit=s.submit,
        width="100%",
    )


@page(routes.SUB_REQUEST_NEW, "Create Sub Request", on_load=NewSubRequestState.load)
@page(routes.SUB_REQUEST_INVITE, "Invite a Sub", on_load=NewSubRequestState.load)
def new_sub_request_page() -> rx.Component:
    s = NewSubRequestState
    intro = rx.cond(s.targeted, "Ask one sub to play; they get an email.",
                    "Open to anyone: every player sees it on their home page.")  # fmt: skip
    return dash_page(
        form_card(
            rx.cond(s.targeted, "Invite a Sub", "Create Sub Request"),
            rx.text(intro, color_scheme="gray"),
            error_line(s.error, FORM_ERROR_ID),
            rx.cond(s.targeted, sub_picker(s), rx.fragment()),
            _form(),
            max_width="34rem",
        )
    )
