"""Sub request lists the home and the sub request pages share: the open list, My Sub Requests, their links.

Each list is a table on wider screens and a list of cards on a phone.
"""

from __future__ import annotations

import reflex as rx
from reflex.vars import ArrayVar, ObjectVar

from volley_app import routes
from volley_app.components.layout import button_row, dash_screen, link_button
from volley_app.components.paging import date_filter, pager, search_form, text_filter
from volley_app.components.tables import card, cell, responsive, table
from volley_app.state.auth import AuthState
from volley_app.state.sub_requests import ListedRequest


def status_color(status: rx.Var):
    """Accepted green, Declined red, Open blue."""
    return rx.match(status, ("Accepted", "green"), ("Declined", "red"), "blue")


def status_badge(status: rx.Var) -> rx.Component:
    return rx.badge(status, color_scheme=status_color(status))


def page_error(message: rx.Var) -> rx.Component:
    """A list's load failure, read out when it appears."""
    return rx.cond(message != "", rx.text(message, color_scheme="red", role="alert"), rx.fragment())


def _view(r: ObjectVar[ListedRequest], size: str) -> rx.Component:
    return link_button("View", href=f"{r['href']}", size=size, variant="soft")


def _card_head(title: rx.Component, r: ObjectVar[ListedRequest]) -> rx.Component:
    return rx.flex(title, _view(r, "2"), justify="between", align="center", width="100%")


def _open_card(r: ObjectVar[ListedRequest]) -> rx.Component:
    return card(
        _card_head(rx.text(r["team"], weight="bold"), r),
        rx.text(r["date"], ", ", r["time"], size="2"),
        rx.text(r["svl"], size="2", color_scheme="gray"),
        rx.text("Requestor: ", r["requestor"], size="2", color_scheme="gray"),
        rx.text("Needs: ", r["needs"], size="2", color_scheme="gray"),
    )


def _mine_card(r: ObjectVar[ListedRequest]) -> rx.Component:
    return card(
        _card_head(rx.hstack(rx.text(r["team"], weight="bold"), status_badge(r["status"])), r),
        rx.text(r["date"], ", ", r["time"], size="2"),
        rx.text(r["svl"], rx.cond(r["court"] != "", ", " + r["court"].to(str), ""), size="2", color_scheme="gray"),
        rx.text("Requestor: ", r["requestor"], size="2", color_scheme="gray"),
        rx.text("Sub: ", r["sub"], size="2", color_scheme="gray"),
        rx.text("Needs: ", r["needs"], size="2", color_scheme="gray"),
    )


# The table columns and the request field each shows.
_SHOWS = {
    "Requestor": "requestor",
    "Sub": "sub",
    "Status": "status",
    "Team": "team",
    "Date": "date",
    "Time": "time",
    "Location": "svl",
    "Court": "court",
    "Needs": "needs",
}
OPEN_COLUMNS = ("Requestor", "Team", "Date", "Time", "Location", "Needs")
MINE_COLUMNS = ("Requestor", "Sub", "Status", "Team", "Date", "Location", "Court", "Needs")


def item_row(*cells, test_id: str = "request-item") -> rx.Component:
    """A table row of plain cells that stands for one item of a list (tests find it by ``test_id``)."""
    return rx.table.row(*[rx.table.cell(c) for c in cells], custom_attrs={"data-testid": test_id})


def _row_of(columns: tuple[str, ...]):
    def draw(r: ObjectVar[ListedRequest]) -> rx.Component:
        shown = [cell(c, status_badge(r["status"]) if c == "Status" else r[_SHOWS[c]]) for c in columns]
        return rx.table.row(*shown, rx.table.cell(_view(r, "1")), custom_attrs={"data-testid": "request-item"})

    return draw


def responsive_list(headers: list[str], rows: ArrayVar, row, item, empty: str | rx.Var[str]) -> rx.Component:
    """``rows`` as a table (``row`` draws one) on wider screens, as cards (``item``) on a phone; ``empty`` if none."""
    return rx.cond(
        rows.length() > 0,
        responsive(
            table(headers, rx.foreach(rows, row), size="1"),
            rx.vstack(rx.foreach(rows, item), spacing="2", width="100%"),
        ),
        rx.text(empty, color_scheme="gray"),
    )


def _requests(columns: tuple[str, ...], rows: ArrayVar, item, empty: str) -> rx.Component:
    return responsive_list([*columns, ""], rows, _row_of(columns), item, empty)


def open_requests_table(rows: ArrayVar) -> rx.Component:
    """Requestor, Team, Date, Time, Location, View (spec section 2)."""
    return _requests(OPEN_COLUMNS, rows, _open_card, "No open sub requests right now.")


def notifications_table(rows: ArrayVar) -> rx.Component:
    """Requestor, Status, Team, Date, Location, Court (spec section 2), and who subs (the subs holding places)."""
    return _requests(MINE_COLUMNS, rows, _mine_card, "You have no sub requests right now.")


def request_list_screen(title: str, state, draw) -> rx.Component:
    """A sub request list's screen: the links, its search, the list's load failure, one page of the list ``draw`` makes."""
    noun = title.lower()
    return dash_screen(
        title, request_links(), request_search(state), page_error(state.list_error), draw(state.rows), pager(state, noun)
    )


def request_search(state) -> rx.Component:
    """The search of a request list: team, location or requestor; a location; a range of days."""
    return search_form(
        state,
        "Search requests",
        text_filter("Location", "venue", state),
        date_filter("From", "date_from", state),
        date_filter("To", "date_to", state),
        placeholder="Team, location or requestor",
    )


def sub_picker(state, *, label: str = "Find by name", noun: str = "choices", field_id: str = "search-q") -> rx.Component:
    """Find a sub by name, a page of them at a time, for a form's sub select (``state``: a ``SubPickerList``).

    It sits outside that form (a form of its own: Search submits only the search). A page with two pickers gives
    the second its own ``label``, ``noun`` (its Previous and Next say which list they page) and ``field_id``.
    """
    return rx.vstack(
        search_form(state, label, placeholder="First or last name", field_id=field_id),
        pager(state, noun),
        spacing="2",
        width="100%",
    )


def request_links() -> rx.Component:
    """The links above both request lists."""
    return button_row(
        link_button("Create Sub Request", href=routes.SUB_REQUEST_NEW, size="2"),
        link_button("All Open Sub Requests", href=routes.SUB_REQUESTS, size="2", variant="soft"),
        link_button("My Sub Requests", href=routes.MY_SUB_REQUESTS, size="2", variant="soft"),
        link_button("All Subs", href=routes.DASH_SUBS, size="2", variant="soft"),
    )


def my_sub_info(is_sub: rx.Var, label: str) -> rx.Component:
    """The link to the player's own sub info: ``label`` for a sub, 'Become a Sub' for anyone else."""
    return link_button(rx.cond(is_sub, label, "Become a Sub"), href=routes.user_path(f"{AuthState.user_id}"), size="2")
