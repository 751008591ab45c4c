"""Pieces of the public pages' text (Home, About Us, Franchise): the hero, sections, facts, steps, rows of links."""

from __future__ import annotations

from typing import Any

import reflex as rx

from volley_app.components.layout import button_row, link_button


def section(title: str, *paragraphs: str | rx.Component) -> rx.Component:
    return rx.vstack(
        rx.heading(title, size="5", as_="h2"),
        *[rx.text(p, size="3", line_height="1.7") if isinstance(p, str) else p for p in paragraphs],
        spacing="3",
        width="100%",
    )


def fact(value: str, label: str) -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.text(value, size="6", weight="bold", color=rx.color("accent", 11)),
            rx.text(label, size="2", color_scheme="gray"),
            spacing="1",
        ),
        size="2",
    )


def steps(*items: tuple[str, str]) -> rx.Component:
    return rx.el.ol(
        *[
            rx.el.li(rx.text(rx.text.strong(title), " ", text, size="3", line_height="1.7"), margin_bottom="0.6rem")
            for title, text in items
        ],
        style={"padding_left": "1.5rem", "margin": "0", "list_style_type": "decimal"},
    )


def bullets(*items: str) -> rx.Component:
    return rx.el.ul(
        *[rx.el.li(rx.text(t, size="3", line_height="1.7"), margin_bottom="0.4rem") for t in items],
        style={"padding_left": "1.5rem", "margin": "0", "list_style_type": "disc"},
    )


def column(*children: rx.Component) -> rx.Component:
    return rx.vstack(*children, spacing="6", width="100%", max_width="46rem", margin="0 auto")


def hero(title: str, intro: str, *children: rx.Component, **props: Any) -> rx.Component:
    """The page's big h1 and its introduction (then ``children``, e.g. the page's main buttons)."""
    props.setdefault("spacing", "3")
    return rx.vstack(
        rx.heading(title, size={"initial": "8", "sm": "9"}, as_="h1"),
        rx.text(intro, size="4", color_scheme="gray", max_width=props.pop("intro_width", None)),
        *children,
        **props,
    )


def link_row(*links: tuple[str, str, str], size: str = "3") -> rx.Component:
    """Links drawn as buttons side by side (``links``: label, address, button variant)."""
    return button_row(*[link_button(label, href=href, size=size, variant=variant) for label, href, variant in links],
                      spacing="3")  # fmt: skip
