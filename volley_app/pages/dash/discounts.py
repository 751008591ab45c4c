"""Discount codes (/dash/discounts): an SVL's codes for their leagues, sessions and venue (an admin: every venue's),
a page at a time; making a code, changing it, deactivating it."""

from __future__ import annotations

from typing import cast

import reflex as rx
from reflex.vars import ArrayVar, ObjectVar

from volley_app import routes
from volley_app.components.forms import checkbox_field, error_line, notice_line, select_field, submit_button, text_field
from volley_app.components.layout import button_row, column
from volley_app.components.paging import pager, search_form
from volley_app.components.tables import card, cell, responsive, table_or_empty
from volley_app.registry import Body, screen
from volley_app.services.core.errors import DomainError
from volley_app.services.money import discounts as svc
from volley_app.state.auth import AuthState
from volley_app.state.forms import FormState, form_values
from volley_app.state.paging import PagedList

ERROR_ID = "discount-form-error"
FIELDS = ("code", "scope", "scope_id", "percent", "amount", "max_uses", "per_player", "expires", "active")
SHOWN = ("id", "code", "applies_to", "off", "uses", "per_player", "expires", "status", "venue", "percent", "amount",
         "max_uses", "expires_input", "active")  # fmt: skip


class DiscountsState(PagedList, FormState, AuthState):
    _fields = FIELDS
    _error_id = ERROR_ID
    _filter_names = svc.CODE_FILTERS

    rows: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    notice: rx.Field[str] = rx.field("")
    scopes: rx.Field[dict[str, list[dict[str, str]]]] = rx.field(default_factory=dict)
    scope: rx.Field[str] = rx.field("league")
    # The code the form changes ({} while it makes a new one), as its row showed it.
    editing: rx.Field[dict[str, str]] = rx.field(default_factory=dict)

    _listing = staticmethod(svc.codes_page)

    def _show(self, rows: list, failure: DomainError | None) -> None:
        self.error = failure.message if failure else self.error
        self.rows = [{k: ("yes" if v is True else "" if v is False else str(v)) for k, v in r.items() if k in SHOWN}
                     for r in rows]  # fmt: skip

    async def load(self):
        self._clear_messages()
        self.notice, self.editing, self.scope = "", {}, "league"
        found = await self._open_screen(svc.screen, lambda screen: screen.codes)
        self.scopes = dict(found.scopes) if found is not None else {}  # type: ignore[arg-type]
        self._show_record()

    @rx.event
    def pick_scope(self, value: str):
        """What a new code is for: its league, session or venue list shows."""
        self.scope = value if isinstance(value, str) and value in svc.SCOPE_CHOICES else "league"

    @rx.event
    def start_editing(self, code_id: str):
        """Change a code of the page shown (the service checks the person may when it is saved)."""
        found = next((r for r in self.rows if r["id"] == str(code_id)), None)
        self._clear_messages()
        self.editing, self.notice = (dict(found) if found else {}), ""
        self._show_record()

    @rx.event
    def stop_editing(self):
        self._clear_messages()
        self.editing = {}
        self._show_record()

    @rx.event
    async def save(self, form_data: dict[str, object]):
        typed = form_values(form_data, FIELDS)
        terms = {k: typed[k] for k in ("percent", "amount", "max_uses", "per_player", "expires")}
        if self.editing:
            run = self._submit(svc.update_code, done=self._saved, submitted=terms, code_id=self.editing.get("id", ""),
                               active=typed["active"] in ("on", "true"))  # fmt: skip
        else:
            run = self._submit(svc.create_code, done=self._saved, submitted=terms, code=typed["code"],
                               scope=typed["scope"], scope_id=typed["scope_id"])  # fmt: skip
        async for event in run:
            yield event
        if self.notice:
            await self._first_page()
            yield

    def _saved(self, row: svc.CodeRow) -> None:
        verb = "saved" if self.editing else "made"
        self.notice = f"Discount code {row['code']} {verb}: {row['off']} off ({row['applies_to']})."
        self.editing = {}
        self._show_record()


def _status(r: ObjectVar[dict[str, str]]) -> rx.Component:
    color = rx.match(r["status"], ("Active", "green"), ("Inactive", "gray"), "amber")
    return rx.badge(r["status"], color_scheme=color)


def _edit_button(r: ObjectVar[dict[str, str]]) -> rx.Component:
    edit = DiscountsState.start_editing(r["id"])  # type: ignore[operator]  # reflex's rx.event types a handler as EventNamespace
    return rx.button("Edit", size="2", variant="soft", on_click=edit, min_height="44px", aria_label="Edit " + r["code"])


def _row(r: ObjectVar[dict[str, str]]) -> rx.Component:
    return rx.table.row(
        cell("Code", rx.text(r["code"], weight="bold")), cell("For", r["applies_to"]), cell("Off", r["off"]),
        cell("Uses", r["uses"]), cell("Per player", rx.cond(r["per_player"] != "", r["per_player"], "No limit")),
        cell("Expires", r["expires"]), cell("Status", _status(r)), cell("", _edit_button(r)),
    )  # fmt: skip


def _card(r: ObjectVar[dict[str, str]]) -> rx.Component:
    return card(
        rx.flex(rx.text(r["code"], weight="bold"), _status(r), justify="between", width="100%"),
        rx.text(r["off"], " off · ", r["applies_to"], size="2"),
        rx.text("Uses: ", r["uses"], " · Per player: ", rx.cond(r["per_player"] != "", r["per_player"], "no limit"),
                size="2"),  # fmt: skip
        rx.text("Expires: ", r["expires"], size="2", color_scheme="gray"),
        _edit_button(r),
        test_id="discount-code",
    )


def _choices(name: str) -> ArrayVar:
    scopes = cast(ObjectVar[dict[str, list[dict[str, str]]]], DiscountsState.scopes)
    return cast(ArrayVar, scopes[name])


def _form() -> rx.Component:
    s = DiscountsState
    e = cast(ObjectVar[dict[str, str]], s.editing)
    editing = e.length() > 0
    scope_kinds = [(k, v) for k, v in svc.SCOPE_CHOICES.items()]
    new_only = rx.fragment(
        text_field("Code", "code", s, max_length=40, required=True, placeholder="FALL10", auto_capitalize="characters",
                   hint="3 to 40 letters, digits, - or _. Players type it at checkout."),  # fmt: skip
        select_field("What it is for", "scope", scope_kinds, s, default_value="league",
                     on_change=s.pick_scope),  # fmt: skip
        rx.match(
            s.scope,
            ("league", select_field("League", "scope_id", _choices("leagues"), s, placeholder="Choose a league")),
            ("session", select_field("Session", "scope_id", _choices("sessions"), s, placeholder="Choose a session")),
            rx.cond(AuthState.status == "Admin",
                    select_field("Venue", "scope_id", _choices("venues"), s, placeholder="Choose a venue"),
                    rx.text("Every league of your venue.", size="2")),  # fmt: skip
        ),
    )
    terms = rx.grid(
        text_field("Percent off", "percent", s, inputmode="numeric", max_length=3, default_value=e["percent"],
                   hint="1 to 100; or leave it blank and give an amount"),  # fmt: skip
        text_field("Amount off ($)", "amount", s, inputmode="decimal", max_length=9, default_value=e["amount"]),
        text_field("Max uses", "max_uses", s, inputmode="numeric", max_length=6, default_value=e["max_uses"],
                   hint="Blank: no limit"),  # fmt: skip
        text_field("Uses per player", "per_player", s, inputmode="numeric", max_length=4,
                   default_value=rx.cond(editing, e["per_player"], "1"), hint="Blank: no limit"),  # fmt: skip
        text_field("Expires", "expires", s, type="datetime-local", default_value=e["expires_input"],
                   hint="Blank: never (venue time)"),  # fmt: skip
        columns=rx.breakpoints(initial="1", sm="2"), spacing="3", width="100%",
    )  # fmt: skip
    active = checkbox_field("Active (players may use it)", "active", default_checked=e["active"] == "yes")
    buttons = button_row(
        submit_button(rx.cond(editing, "Save code", "Create code"), s, width="auto"),
        rx.cond(editing, rx.button("Cancel", type="button", size="3", variant="soft", color_scheme="gray",
                                   on_click=s.stop_editing), rx.fragment()),  # fmt: skip
        spacing="3",
    )
    return rx.card(
        rx.form(
            column(
                rx.heading(rx.cond(editing, "Edit code " + e["code"], "New code"), size="4", as_="h2"),
                rx.cond(editing, rx.text(e["applies_to"], size="2", color_scheme="gray"), new_only),
                terms,
                rx.cond(editing, active, rx.fragment()),
                buttons,
                spacing="3",
            ),
            on_submit=s.save,
            key=s.form_key.to_string(),
            width="100%",
            method="post",
        ),
        width="100%",
        max_width="46rem",
    )


@screen(routes.DISCOUNTS, "Discount Codes", DiscountsState)
def discounts_page(s: type[DiscountsState]) -> Body:
    headers = ["Code", "For", "Off", "Uses", "Per player", "Expires", "Status", ""]
    wide = table_or_empty(headers, s.rows, _row, "No discount codes yet.")
    cards = rx.cond(s.rows.length() > 0, column(rx.foreach(s.rows, _card), spacing="3"),
                    rx.text("No discount codes yet.", color_scheme="gray"))  # fmt: skip
    return (
        rx.text("A code takes a percent or an amount off a team's registration in one league, one session or every "
                "league of the venue.", color_scheme="gray"),  # fmt: skip
        error_line(s.error, ERROR_ID),
        notice_line(s.notice),
        _form(),
        rx.heading("Codes", size="5", as_="h2", padding_top="1rem"),
        search_form(s, "Search codes", placeholder="Part of a code"),
        responsive(wide, cards),
        pager(s, "codes"),
    )
