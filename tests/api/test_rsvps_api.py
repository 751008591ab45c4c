"""Game answers over HTTP: a member answers, the team's games page on the server with every answer, my next
games; another player and another SVL are refused and change nothing."""

from __future__ import annotations

from tests.api import world as w
from tests.factories import add_member, rows
from volley_app.models import GameRsvp, Team


def _world(db) -> dict:
    x = w.build(db)
    team = x["game_teams"][0]
    add_member(db, team, x["users"]["player"])
    return x | {"t": team}


async def test_a_member_answers_and_the_teams_games_show_it(db):
    x = _world(db)
    async with w.client() as c:
        # pat captains both sides of the game: the answer must say for which team
        both = await c.post(f"/api/games/{x['game']}/rsvp", json={"answer": "In"}, headers=w.headers(x, "player"))
        assert both.status_code == 422 and both.json()["errors"] == {"teamId": "Say which of your teams you answer for."}
        put = await c.post(f"/api/games/{x['game']}/rsvp", json={"answer": "In", "team": x["t"]},
                           headers=w.headers(x, "player"))  # fmt: skip
        assert put.status_code == 200, put.text
        game = put.json()
        assert (game["id"], game["mine"], game["inCount"], game["needed"], game["short"]) == (x["game"], "In", 1, 6, True)
        assert game["answers"] == [{"userId": x["users"]["player"], "name": "Pat Tester", "answer": "In"}]
        again = await c.post(f"/api/games/{x['game']}/rsvp", json={"answer": "Maybe", "team": x["t"]},
                             headers=w.headers(x, "player"))  # fmt: skip
        assert again.status_code == 200 and again.json()["maybeCount"] == 1 and again.json()["inCount"] == 0
        listed = await c.get(f"/api/teams/{x['t']}/games?size=2", headers=w.headers(x, "svl"))
        assert listed.status_code == 200, listed.text
        assert int(listed.headers["X-Total-Count"]) > 2 and listed.headers.get("X-Next-Page")
        first = listed.json()[0]
        assert first["id"] == x["game"] and first["mine"] == "" and first["answers"][0]["answer"] == "Maybe"
        assert first["byPosition"] == "" and first["byGender"] == ""  # nobody In: no tally
        more = await c.get(f"/api/teams/{x['t']}/games?size=2&page={listed.headers['X-Next-Page']}",
                           headers=w.headers(x, "player"))  # fmt: skip
        assert more.status_code == 200 and x["game"] not in [g["id"] for g in more.json()]
        mine = await c.get("/api/my-next-games", headers=w.headers(x, "player"))
        assert mine.status_code == 200 and mine.json()[0]["id"] == x["game"] and mine.json()[0]["mine"] == "Maybe"
    assert [(r.game_id, r.answer.value) for r in rows(db, GameRsvp)] == [(x["game"], "Maybe")]


async def test_bad_answers_are_refused_in_words(db):
    x = _world(db)
    async with w.client() as c:
        bad = await c.post(f"/api/games/{x['game']}/rsvp", json={"answer": "Yes"}, headers=w.headers(x, "player"))
        assert bad.status_code == 422 and bad.json()["errors"] == {"answer": "Answer In, Out or Maybe."}
        missing = await c.post("/api/games/999999/rsvp", json={"answer": "In"}, headers=w.headers(x, "player"))
        assert missing.status_code == 404
        other = await c.post(f"/api/games/{x['game']}/rsvp", json={"answer": "In"}, headers=w.headers(x, "other_player"))
        assert other.status_code == 403 and "members" in other.json()["message"]
        hidden = await c.get(f"/api/teams/{x['t']}/games", headers=w.headers(x, "other_svl"))
        assert hidden.status_code == 403
    assert rows(db, GameRsvp) == []


async def test_the_captain_sets_the_answer_settings_and_bad_values_are_named(db):
    x = _world(db)
    path = f"/api/teams/{x['t']}/settings"
    async with w.client() as c:
        read = await c.get(path, headers=w.headers(x, "player"))
        assert read.status_code == 200 and (read.json()["reminderDays"], read.json()["deadlineHours"]) == (3, 48)
        bad = await c.patch(path, json={"reminderDays": 15, "deadlineHours": "soon"}, headers=w.headers(x, "player"))
        assert bad.status_code == 422 and set(bad.json()["errors"]) == {"reminderDays", "deadlineHours"}, bad.text
        missing = await c.patch(path, json={"reminderDays": 2}, headers=w.headers(x, "player"))
        assert missing.status_code == 422 and set(missing.json()["errors"]) == {"deadlineHours"}
        done = await c.patch(path, json={"reminderDays": 0, "deadlineHours": 24}, headers=w.headers(x, "svl"))
        assert done.status_code == 200, done.text
        assert (done.json()["reminderDays"], done.json()["deadlineHours"], done.json()["canEdit"]) == (0, 24, True)
    [team] = rows(db, Team, Team.id == x["t"])
    assert (team.rsvp_reminder_days, team.rsvp_deadline_hours) == (0, 24)
