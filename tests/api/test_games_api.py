"""/games over HTTP: one game added as the spec's body sends it, the whole schedule from a league alone, deleting."""

from __future__ import annotations

from tests.api import world as w
from volley_app.models import Game


async def test_posting_teams_and_a_time_adds_one_game(db):
    x = w.build(db)
    before = len(w.snapshot(db)["games"])
    t1, t2 = x["game_teams"]
    body = {"league": x["lg"], "team1": t2, "team2": t1, "dateTime": "2031-01-06T18:30", "type": "Tournament",
            "round": 9, "match": 1}  # fmt: skip
    async with w.client() as c:
        made = await c.post("/api/games", json=body, headers=w.headers(x, "svl"))
        assert made.status_code == 201, made.text
        game = made.json()
        assert (game["team1Id"], game["team2Id"], game["type"], game["round"], game["match"]) == (
            t2, t1, "Tournament", 9, 1)
        assert game["id"] == game["_id"]
        again = await c.post("/api/games", json=body, headers=w.headers(x, "svl"))
        assert again.status_code == 422 and "dateTime" in again.json()["errors"]
        bad = await c.post("/api/games", json=body | {"team2": "nope", "dateTime": "2031-01-07T18:30"},
                           headers=w.headers(x, "admin"))  # fmt: skip
        assert bad.status_code == 422 and set(bad.json()["errors"]) == {"team2"}
    assert len(w.snapshot(db)["games"]) == before + 1


async def test_posting_a_league_alone_generates_its_schedule(db):
    x = w.build(db)
    async with w.client() as c:
        made = await c.post("/api/games", json={"league": x["lg2"]}, headers=w.headers(x, "svl"))
        assert made.status_code == 201 and made.json()["games"] > 0
        again = await c.post("/api/games", json={"league": x["lg2"]}, headers=w.headers(x, "svl"))
        assert again.status_code == 422


async def test_deleting_refuses_a_played_game_and_removes_an_unplayed_one(db):
    x = w.build(db)
    played = db.get(Game, x["game"])
    played.team1_game1_score, played.team2_game1_score = 21, 12
    db.add(played)
    db.commit()
    async with w.client() as c:
        refused = await c.request("DELETE", "/api/games", json={"id": x["game"]}, headers=w.headers(x, "svl"))
        assert refused.status_code == 422 and "never deleted" in refused.json()["message"]
        other = next(g for g in w.snapshot(db)["games"] if g[0] != x["game"])[0]
        gone = await c.request("DELETE", "/api/games", json={"_id": other}, headers=w.headers(x, "admin"))
        assert gone.status_code == 200, gone.text
    ids = [g[0] for g in w.snapshot(db)["games"]]
    assert x["game"] in ids and other not in ids
