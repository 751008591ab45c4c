"""The sub request form's fields: team, date and time, location, court, skill level, format, players and message."""

from __future__ import annotations

import reflex as rx

from volley_app.components.forms import area_field, select_field, text_field
from volley_app.models import SkillLevel, SubFormat


def _options(values: list[str]) -> list[tuple[str, str]]:
    return [(v, v) for v in values]


def request_fields(state, record=None) -> list[rx.Component]:
    """Team, date, location, court, skill, format, message: labelled, each with its message.

    Args:
        state: the form's state (a ``RequestFormState``).
        record: a Var of the request's values by input name, shown as the defaults (None: empty).
    """

    def default(name: str):
        return record[name] if record is not None else ""

    return [
        text_field("Team", "team", state, default_value=default("team"), required=True, max_length=100),
        text_field("Date and Time", "when", state, type="datetime-local", default_value=default("when"),
                   required=True, hint="Venue time (Lexington, KY)"),
        text_field("Location", "svl", state, default_value=default("svl"), required=True, max_length=200,
                   placeholder="Lexington Sportsplex"),
        text_field("Court", "court", state, default_value=default("court"), max_length=50, hint="Optional"),
        select_field("Skill Level", "skill_level", _options(SkillLevel.values()), state,
                     placeholder="Choose a skill level", default_value=default("skill_level")),
        select_field("Format", "sub_format", _options(SubFormat.values()), state, placeholder="Choose a format",
                     default_value=default("sub_format")),
        select_field("How Many Players", "players_needed", [(str(n), str(n)) for n in range(1, 5)], state,
                     default_value=record["players_needed"] if record is not None else "1", required=False),
        area_field("Message", "text", state, rows="3", max_length=2000, default_value=default("text"), hint="Optional"),
    ]  # fmt: skip
