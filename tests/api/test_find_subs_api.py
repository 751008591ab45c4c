"""POST /api/games/{game_id}/subs: a short team's sub request, filled in from its game, one per game however often
it is asked for; refused to those who do not run the team, with nothing made."""

from __future__ import annotations

from tests.api import world as w
from tests.factories import rows
from volley_app.models import SubRequest


async def _find(x: dict, role: str, team: object, game: object = None):
    async with w.client() as c:
        return await c.post(f"/api/games/{game or x['game']}/subs", json={"team": team}, headers=w.headers(x, role))


async def test_the_captain_gets_a_request_for_the_game_and_asking_again_gives_the_same(db):
    x = w.build(db)
    before = len(rows(db, SubRequest))
    first = await _find(x, "player", x["game_teams"][0])
    assert first.status_code == 201, first.text
    body = first.json()
    # nobody answered In: the whole court is missing, and one request holds four places at most
    assert (body["playersNeeded"], body["team"], body["format"], body["status"]) == (4, "T1", "6s", "Open")
    again = await _find(x, "player", x["game_teams"][0])
    assert again.status_code == 201 and again.json()["_id"] == body["_id"]
    assert len(rows(db, SubRequest)) == before + 1
    made = rows(db, SubRequest, SubRequest.id == body["_id"])[0]
    assert (made.game_id, made.team_id) == (x["game"], x["game_teams"][0])


async def test_a_team_not_playing_the_game_or_a_bad_team_is_refused_and_nothing_is_made(db):
    x = w.build(db)
    before = len(rows(db, SubRequest))
    for team, status in ((x["waiting"], 404), ("nope", 404), (None, 404)):
        response = await _find(x, "player", team)
        assert response.status_code == status, (team, response.text)
    response = await _find(x, "other_player", x["game_teams"][0])
    assert response.status_code == 403
    assert len(rows(db, SubRequest)) == before
