"""Edit user's two cards: the sub info (players) and the roles and active switch (admins)."""

from __future__ import annotations

import reflex as rx

from volley_app.components.accounts import RoleBox, role_boxes
from volley_app.components.forms import checkbox_field, select_field
from volley_app.components.layout import section_card
from volley_app.models import Rating

ROLE_BOXES: tuple[RoleBox, ...] = (("role-player", "Player"), ("role-svl", "SVL"), ("role-admin", "Admin"))
RATINGS = [(r.value, r.value) for r in Rating]


def _rating(label: str, name: str, s) -> rx.Component:
    return select_field(label, name, RATINGS, s, placeholder="-", required=False, default_value=s.record[name])


def sub_section(s) -> rx.Component:
    """Active Sub and the three ratings, for a player's record (``s``: the Edit user state)."""
    return section_card(
        "Sub Info",
        checkbox_field("Active Sub", "sub", default_checked=s.sub),
        rx.grid(
            _rating("Hitter Rating", "hitter", s),
            _rating("Passer Rating", "passer", s),
            _rating("Setter Rating", "setter", s),
            columns={"initial": "1", "sm": "3"},
            spacing="3",
            width="100%",
        ),
        variant="surface",
    )


def admin_section(s) -> rx.Component:
    """The user's roles and whether the account is active, for an admin (``s``: the Edit user state)."""
    return section_card(
        "Roles",
        role_boxes(ROLE_BOXES, s.roles, s.errors.get("roles", "")),
        checkbox_field("Active", "active", default_checked=s.active),
        variant="surface",
    )
