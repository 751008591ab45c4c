"""What the screens of one team (/dash/teams/[team_id]/...) share."""

from __future__ import annotations

import reflex as rx

from volley_app.state.forms import path_arg


class TeamScreen(rx.State, mixin=True):
    """A screen of one team: the team its address names, the team's name and its league's, as last read."""

    team_name: rx.Field[str] = rx.field("")
    league_name: rx.Field[str] = rx.field("")

    def _team_id(self) -> str:
        return path_arg(self, "team_id")
