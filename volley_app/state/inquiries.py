"""The public forms' states (no login): each visit starts clean, and the services see the client's address."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import reflex as rx

from volley_app import routes
from volley_app.services.mail import inquiries
from volley_app.state.forms import TRAP_FIELD, FormState, form_values


class PublicFormState(FormState, mixin=True):
    """A form anyone may send: signup, forgot password, newsletter, the inquiries."""

    def clear(self):
        """on_load: no message left over from another visit."""
        self._clear_messages()

    def _send(self, fn: Callable[..., Any], *, done: Callable[[Any], Any], **kwargs: Any):
        """Submit to ``fn`` with the client's address (for its rate limits); ``done`` gets the result."""
        client = self.router.session.client_ip or "unknown"
        return self._submit(fn, as_actor=False, done=done, client=client, **kwargs)


def inquiry_error_id(kind: str) -> str:
    """The id of the error line of inquiry form ``kind``."""
    return f"{kind}-error"


def inquiry(kind: str) -> tuple[str, tuple[str, ...], str]:
    """What the state of inquiry form ``kind`` (a key of ``services.mail.inquiries.FORMS``) sets: its kind, fields, error id."""
    return kind, tuple(inquiries.FORMS[kind].fields), inquiry_error_id(kind)


class InquiryFormState(PublicFormState, mixin=True):
    """One inquiry form; each subclass sets ``_kind, _fields, _error_id = inquiry(kind)``."""

    _kind: str = "contact"

    @rx.event
    def submit(self, form_data: dict | None = None):
        fields = self._fields
        data = form_values(form_data, (*fields, TRAP_FIELD))
        return self._send(
            inquiries.submit,
            done=lambda _r: rx.redirect(routes.SENT),
            kind=self._kind,
            data={name: data[name] for name in fields},
            trap=data[TRAP_FIELD],
        )
