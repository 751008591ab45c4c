"""A member's In / Out / Maybe buttons for one game (the team's games page, the player home)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import reflex as rx

from volley_app.services.teams.rsvps import ANSWER_TONES


def answer_buttons(mine: rx.Var[str], on_answer: Callable[[str], Any], label: str | rx.Var[str] = "Your answer") -> rx.Component:
    """The three answers side by side, the chosen one (``mine``) pressed; ``on_answer(answer)`` is the event."""

    def one(answer: str, tone: str) -> rx.Component:
        chosen = mine == answer
        return rx.button(
            answer,
            on_click=on_answer(answer),
            variant=rx.cond(chosen, "solid", "soft"),
            color_scheme=rx.cond(chosen, tone, "gray"),
            size="2",
            aria_pressed=rx.cond(chosen, "true", "false"),
            custom_attrs={"data-answer": answer},
        )

    return rx.flex(*(one(a, t) for a, t in ANSWER_TONES), spacing="2", role="group", aria_label=label)
