"""A league's waiver over HTTP: the operator posts versions, a member signs, the operator pages the signatures."""

from __future__ import annotations

from tests.api import world as w
from tests.factories import add_member, count, rows
from volley_app.models.rosters import LeagueWaiver, WaiverSignature


async def test_the_operator_posts_a_version_a_member_signs_and_the_operator_sees_it(db):
    x = w.build(db)
    lg = x["lg"]
    add_member(db, x["team"], x["users"]["player"])
    async with w.client() as c:
        none = await c.get(f"/api/leagues/{lg}/waiver", headers=w.headers(x, "player"))
        assert none.status_code == 404 and "no waiver" in none.json()["message"]
        saved = await c.post(f"/api/leagues/{lg}/waiver", json={"text": "Play at your own risk."},
                             headers=w.headers(x, "svl"))  # fmt: skip
        assert saved.status_code == 201, saved.text
        assert saved.json()["version"] == 1 and saved.json()["createdBy"] == "svla"
        same = await c.post(f"/api/leagues/{lg}/waiver", json={"text": "Play at your own risk."},
                            headers=w.headers(x, "admin"))  # fmt: skip
        assert same.json()["version"] == 1 and count(db, LeagueWaiver) == 1
        current = await c.get(f"/api/leagues/{lg}/waiver", headers=w.headers(x, "other_player"))
        assert current.status_code == 200 and current.json()["text"] == "Play at your own risk."

        young = await c.post(f"/api/leagues/{lg}/waiver/signatures", headers=w.headers(x, "player"),
                             json={"typedName": "Pat Tester", "birthDate": "2020-02-02"})  # fmt: skip
        assert young.status_code == 422 and young.json()["errors"]["birthDate"].startswith("Players must be 18 or older")
        assert count(db, WaiverSignature) == 0
        signed = await c.post(f"/api/leagues/{lg}/waiver/signatures", headers={**w.headers(x, "player"),
                              "user-agent": "Test client/1.0"}, json={"typedName": "pat tester", "birthDate": "1990-04-21"})  # fmt: skip
        assert signed.status_code == 201, signed.text
        assert signed.json()["version"] == 1 and signed.json()["already"] is False
        again = await c.post(f"/api/leagues/{lg}/waiver/signatures", headers=w.headers(x, "player"),
                             json={"typedName": "Pat Tester", "adult": True})  # fmt: skip
        assert again.json()["already"] is True and count(db, WaiverSignature) == 1
        [row] = rows(db, WaiverSignature)
        assert row.ip == "198.51.100.4" and row.user_agent == "Test client/1.0"

        listed = await c.get(f"/api/leagues/{lg}/waiver/signatures?search=pat&size=5", headers=w.headers(x, "svl"))
        assert listed.status_code == 200 and listed.headers["X-Total-Count"] == "1"
        [one] = listed.json()
        assert (one["name"], one["typedName"], one["birthDate"], one["version"]) == ("Pat Tester", "pat tester",
                                                                                     "1990-04-21", 1)
        refused = await c.get(f"/api/leagues/{lg}/waiver/signatures", headers=w.headers(x, "other_svl"))
        assert refused.status_code == 403

        await c.post(f"/api/leagues/{lg}/waiver", json={"text": "Version two."}, headers=w.headers(x, "svl"))
        resign = await c.post(f"/api/leagues/{lg}/waiver/signatures", headers=w.headers(x, "player"),
                              json={"typedName": "Pat Tester", "adult": True})  # fmt: skip
        assert resign.json()["version"] == 2 and resign.json()["already"] is False and count(db, WaiverSignature) == 2


async def test_a_non_member_and_a_bad_body_are_refused_with_a_message(db):
    x = w.build(db)
    lg = x["lg"]
    async with w.client() as c:
        await c.post(f"/api/leagues/{lg}/waiver", json={"text": "Rules."}, headers=w.headers(x, "svl"))
        outsider = await c.post(f"/api/leagues/{lg}/waiver/signatures", headers=w.headers(x, "other_player"),
                                json={"typedName": "Quinn Tester", "adult": True})  # fmt: skip
        assert outsider.status_code == 403 and "current member" in outsider.json()["message"]
        empty = await c.post(f"/api/leagues/{lg}/waiver", json={"text": ""}, headers=w.headers(x, "svl"))
        assert empty.status_code == 422
        other = await c.post(f"/api/leagues/{lg}/waiver", json={"text": "Mine now."}, headers=w.headers(x, "other_svl"))
        assert other.status_code == 403
        missing = await c.get("/api/leagues/999999/waiver", headers=w.headers(x, "player"))
        assert missing.status_code == 404
    assert count(db, LeagueWaiver) == 1 and count(db, WaiverSignature) == 0
