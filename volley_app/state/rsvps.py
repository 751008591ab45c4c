"""A member's In / Out / Maybe for one game, as the team's games page and the player home both send it."""

from __future__ import annotations

from volley_app.services.teams import rsvps
from volley_app.services.teams.rsvps import RsvpGame
from volley_app.state.auth import AuthState
from volley_app.state.forms import run_action


async def answer_game(state: AuthState, game_id: int, team_id: object, answer: str) -> tuple[RsvpGame | None, str]:
    """The acting user's answer for the game, recorded: the game as the team's games page shows it, or None and why."""
    found, failure = await run_action(rsvps.answer, actor=await state._actor(), game_id=game_id, team_id=team_id,
                                      answer=answer)  # fmt: skip
    if failure is not None or found is None:
        return None, failure.message if failure else ""
    return found, ""
