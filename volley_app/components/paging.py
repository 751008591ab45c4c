"""The widgets of a paged list (``state/paging.py``): its search form and its Previous/Next bar.

Both wrap at a phone's width; the buttons say which list they page, and where the list stands
("Showing 26–50 of 1,234") is read out when it changes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import reflex as rx
from reflex.vars import ObjectVar

from volley_app.components.forms import NATIVE_CONTROL, Event
from volley_app.components.layout import button_row

if TYPE_CHECKING:
    from volley_app.state.paging import PagedList

LABEL_STYLE = {"font_size": "var(--font-size-2)"}


def _turn(label: str, event: Event, disabled: rx.Var[bool], noun: str) -> rx.Component:
    """Previous or Next of a list of ``noun``."""
    return rx.button(label, on_click=event, disabled=disabled, variant="soft", size="2", aria_label=f"{label} page of {noun}")


def page_bar(where: rx.Component, noun: str, previous: Event, next_: Event, has_previous: rx.Var[bool],
             has_next: rx.Var[bool]) -> rx.Component:  # fmt: skip
    """Where a list of ``noun`` stands, with its Previous and Next."""
    return rx.flex(
        where,
        button_row(_turn("Previous", previous, ~has_previous, noun), _turn("Next", next_, ~has_next, noun)),
        justify="between",
        align="center",
        wrap="wrap",
        gap="2",
        width="100%",
        custom_attrs={"data-testid": "pager"},
    )


def pager(state: type[PagedList], noun: str) -> rx.Component:
    """Previous and Next for the list of ``noun`` (e.g. "open sub requests"), and where the list stands."""
    where = rx.text(state.page_summary, size="2", color_scheme="gray", role="status", aria_live="polite")
    return rx.cond(
        state.has_next | state.has_previous,
        page_bar(where, noun, state.previous_page, state.next_page, state.has_previous, state.has_next),
        where,
    )


def _labelled(label: str, control_id: str, control: rx.Component, **props: Any) -> rx.Component:
    """A control of a list's search form (its id ``control_id``) under its label."""
    return rx.vstack(rx.el.label(label, html_for=control_id, style=LABEL_STYLE), control, spacing="1", **props)


def _filter(label: str, name: str, control: rx.Component) -> rx.Component:
    """A filter of a list's search form: ``control`` (its id ``filter-{name}``) under its label."""
    return _labelled(label, f"filter-{name}", control)


def _filter_value(state: type[PagedList], name: str) -> rx.Var[str]:
    """What the list's filter ``name`` holds now ('' when off)."""
    filters = cast(ObjectVar[dict[str, str]], state.filters)  # Reflex's Field stubs give mypy an ArrayVar for a dict
    return filters.get(name, "")


def filter_select(label: str, name: str, options: list[tuple[str, str]], state: type[PagedList], *,
                  any_label: str = "Any") -> rx.Component:  # fmt: skip
    """A filter of a list's search form: one of ``options`` or ``any_label`` (no filter)."""
    return _filter(label, name, rx.el.select(
        *[rx.el.option(text, value=value) for value, text in [("", any_label), *options]],
        id=f"filter-{name}",
        name=name,
        default_value=_filter_value(state, name),
        style=NATIVE_CONTROL,
    ))  # fmt: skip


def text_filter(label: str, name: str, state: type[PagedList]) -> rx.Component:
    """A free-text filter of a list's search form (besides its search box)."""
    return _filter(label, name, rx.input(id=f"filter-{name}", name=name, default_value=_filter_value(state, name),
                                         max_length=100, size="2"))  # fmt: skip


def date_filter(label: str, name: str, state: type[PagedList]) -> rx.Component:
    """A day filter of a list's search form (a date input)."""
    return _filter(label, name, rx.input(id=f"filter-{name}", name=name, type="date",
                                         default_value=_filter_value(state, name), size="2"))  # fmt: skip


def search_form(state: type[PagedList], label: str, *filters: rx.Component, placeholder: str = "",
                field_id: str = "search-q") -> rx.Component:  # fmt: skip
    """A list's search box, its ``filters``, Search and Clear; sent whole on Search (typing sends nothing).

    ``field_id``: the search box's id, unique on the page (a page with two searches names one otherwise).
    """
    box = rx.input(id=field_id, name="q", type="search", default_value=_filter_value(state, "q"), placeholder=placeholder,
                   max_length=100, size="2", auto_complete="off", width="100%")  # fmt: skip
    return rx.form(
        rx.flex(
            _labelled(label, field_id, box, flex="1 1 12rem", min_width="0"),
            *filters,
            button_row(
                rx.button("Search", type="submit", size="2"),
                rx.button("Clear", type="button", on_click=state.clear_search, size="2", variant="ghost"),
            ),
            align="end",
            wrap="wrap",
            gap="3",
            width="100%",
        ),
        rx.cond(
            state.filter_error != "",
            rx.text(state.filter_error, color_scheme="red", size="2", role="alert"),
            rx.fragment(),
        ),
        on_submit=state.search,
        reset_on_submit=False,
        key=state.filter_key,
        role="search",
        width="100%",
        method="post",
    )
