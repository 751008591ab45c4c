"""A game's result over HTTP: PATCH /games saves a complete result or refuses it with the reason, and never
clears one (so DELETE /games cannot remove a played game by clearing its scores first)."""

from __future__ import annotations

from tests.api import world as w
from volley_app.models import Game

ONE_SET = {"team1Game1Score": 21, "team2Game1Score": 15}
SPLIT = ONE_SET | {"team1Game2Score": 15, "team2Game2Score": 21}
WIN = ONE_SET | {"team1Game2Score": 21, "team2Game2Score": 17}
BLANK = {f"team{t}Game{s}Score": None for t in (1, 2) for s in (1, 2, 3)}


async def test_an_incomplete_result_is_refused_with_the_reason(db):
    x = w.build(db)
    async with w.client() as c:
        one = await c.patch("/api/games", json={"id": x["game"], **ONE_SET}, headers=w.headers(x, "svl"))
        assert one.status_code == 422 and "two sets" in one.json()["errors"]["set2"]
        split = await c.patch("/api/games", json={"id": x["game"], **SPLIT}, headers=w.headers(x, "admin"))
        assert split.status_code == 422 and "enter set 3" in split.json()["errors"]["set3"]
    db.expire_all()
    assert db.get(Game, x["game"]).team1_game1_score is None


async def test_a_played_game_cannot_be_cleared_then_deleted(db):
    x = w.build(db)
    async with w.client() as c:
        saved = await c.patch("/api/games", json={"id": x["game"], **WIN}, headers=w.headers(x, "svl"))
        assert saved.status_code == 200, saved.text
        cleared = await c.patch("/api/games", json={"id": x["game"], **BLANK}, headers=w.headers(x, "svl"))
        assert cleared.status_code == 422 and "never deleted" in str(cleared.json())
        gone = await c.request("DELETE", "/api/games", json={"id": x["game"]}, headers=w.headers(x, "admin"))
        assert gone.status_code == 422
    db.expire_all()
    game = db.get(Game, x["game"])
    assert (game.team1_game1_score, game.team2_game2_score) == (21, 17)
