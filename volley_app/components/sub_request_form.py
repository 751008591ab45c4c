"""The sub request form's fields: team, date and time, location, court, skill level, format, players, what the
team needs (position, gender, lowest rating) and message."""

from __future__ import annotations

import reflex as rx

from volley_app.components.forms import area_field, select_field, text_field
from volley_app.models import GenderNeeded, Position, Rating, SkillLevel, SubFormat


def _options(values: list[str]) -> list[tuple[str, str]]:
    return [(v, v) for v in values]


# The formats' rules on court (spec section 9), told where the requestor says which gender the team needs.
GENDER_RULES = (
    "6s: at least 2 men and 2 women on court, at most 4 men. 5s: at least 2 women, at most 3 men. "
    "Choose Female if a woman left and the team would drop below the minimum."
)


WHEN_HINT_ID = "when-hint"
# As the location is typed, the date's hint names its venue's zone: picked in the browser from the hints the
# form was given (typing sends nothing to the server).
_VENUE_HINT_AS_TYPED: rx.Var[object] = rx.Var(
    f"(e) => {{ const h = document.getElementById('{WHEN_HINT_ID}'); if (!h) return; let m = {{}};"
    " try { m = JSON.parse(h.dataset.hints || '{}'); } catch (_) { m = {}; }"
    " const k = e.target.value.trim().toLowerCase(); h.textContent = m[k] || h.dataset.default || h.textContent; }"
)


def needs_fields(state, default) -> list[rx.Component]:
    """What the team needs: a position, a gender (the formats' rules told), the lowest rating at that position."""
    return [
        rx.grid(
            select_field("Position Needed", "position_needed", _options(Position.values()), state,
                         default_value=default("position_needed", Position.ANY.value)),
            select_field("Gender Needed", "gender_needed", _options(GenderNeeded.values()), state,
                         default_value=default("gender_needed", GenderNeeded.ANY.value)),
            select_field("Lowest Rating", "min_rating", [(r, f"{r} or better" if r != "A" else "A") for r in Rating.values()],
                         state, placeholder="Any rating", required=False, default_value=default("min_rating", "")),
            columns={"initial": "1", "sm": "3"},
            spacing="3",
            width="100%",
        ),
        rx.text(GENDER_RULES, size="1", color_scheme="gray"),
    ]  # fmt: skip


def request_fields(state, record=None) -> list[rx.Component]:
    """Team, date, location, court, skill, format, message: labelled, each with its message.

    Args:
        state: the form's state (a ``RequestFormState``).
        record: a Var of the request's values by input name, shown as the defaults (None: empty).
    """

    def default(name: str, blank: str = ""):
        return record[name] if record is not None else blank

    return [
        text_field("Team", "team", state, default_value=default("team"), required=True, max_length=100),
        text_field("Date and Time", "when", state, type="datetime-local", default_value=default("when"),
                   required=True, hint=state.when_hint,
                   hint_props={"id": WHEN_HINT_ID, "custom_attrs": {"data-hints": state.venue_hints,
                                                                    "data-default": state.default_hint}}),
        text_field("Location", "svl", state, default_value=default("svl"), required=True, max_length=200,
                   placeholder="Lexington Sportsplex", custom_attrs={"onInput": _VENUE_HINT_AS_TYPED}),
        text_field("Court", "court", state, default_value=default("court"), max_length=50, hint="Optional"),
        select_field("Skill Level", "skill_level", _options(SkillLevel.values()), state,
                     placeholder="Choose a skill level", default_value=default("skill_level")),
        select_field("Format", "sub_format", _options(SubFormat.values()), state, placeholder="Choose a format",
                     default_value=default("sub_format")),
        select_field("How Many Players", "players_needed", [(str(n), str(n)) for n in range(1, 5)], state,
                     default_value=record["players_needed"] if record is not None else "1", required=False),
        *needs_fields(state, default),
        area_field("Message", "text", state, rows="3", max_length=2000, default_value=default("text"), hint="Optional"),
    ]  # fmt: skip
