"""A league's roster and sub rules over HTTP: set when a league is made or changed, left as they are when a change
leaves them out, refused in words at their field; a player or another operator changes nothing."""

from __future__ import annotations

from tests.api import world as w
from volley_app.models import League

FORM = {"court": "Court 3", "startDateTime": "2031-01-06T18:30", "numberOfWeeks": 8, "timeIncrement": 50,
        "skillLevel": "B", "format": "6s", "day": "Monday", "maxTeams": 8, "cost": "300"}  # fmt: skip
RULES = {"rosterMin": 7, "rosterMax": 10, "teamsPerPlayer": 2, "womenOnCourt": 2, "subsFromOtherTeams": False,
         "subLevelsBelow": 1, "subLevelsAbove": None, "playoffMinGames": 3, "playoffSubsApproved": True}  # fmt: skip


async def test_an_operator_makes_a_league_with_rules_and_reads_them_back(db):
    x = w.build(db)
    async with w.client() as c:
        made = await c.post("/api/leagues", json=FORM | RULES | {"session": x["sid"]}, headers=w.headers(x, "svl"))
        assert made.status_code == 201, made.text
        body = made.json()
        assert {k: body[k] for k in RULES} == RULES
        assert "At least 2 women on court" in body["rules"]
        plain = await c.post("/api/leagues", json=FORM | {"session": x["sid"]}, headers=w.headers(x, "svl"))
        assert plain.status_code == 201, plain.text
        assert (plain.json()["rosterMin"], plain.json()["teamsPerPlayer"], plain.json()["subsFromOtherTeams"]) == (None, 1, True)
        read = await c.get(f"/api/leagues/{body['id']}", headers=w.headers(x, "player"))
        assert read.status_code == 200 and read.json()["playoffMinGames"] == 3


async def test_a_change_sets_the_rules_it_names_and_keeps_the_others(db):
    x = w.build(db)
    async with w.client() as c:
        first = await c.patch("/api/leagues", json=FORM | RULES | {"id": x["lg2"]}, headers=w.headers(x, "admin"))
        assert first.status_code == 200, first.text
        again = await c.patch("/api/leagues", json=FORM | {"id": x["lg2"], "womenOnCourt": None, "rosterMax": 12},
                              headers=w.headers(x, "svl"))  # fmt: skip
        assert again.status_code == 200, again.text
    row = x["db"].get(League, x["lg2"])
    x["db"].refresh(row)
    assert (row.women_on_court, row.roster_max, row.roster_min, row.playoff_subs_approved) == (None, 12, 7, True)


async def test_rules_that_cannot_hold_are_named_at_their_field(db):
    x = w.build(db)
    async with w.client() as c:
        for bad, field in (({"rosterMin": 11, "rosterMax": 8}, "rosterMin"), ({"womenOnCourt": 7}, "womenOnCourt"),
                           ({"format": "doubles", "womenOnCourt": 3}, "womenOnCourt"),
                           ({"playoffMinGames": 9}, "playoffMinGames"), ({"subLevelsBelow": "x"}, "subLevelsBelow"),
                           ({"subsFromOtherTeams": 5}, "subsFromOtherTeams")):  # fmt: skip
            got = await c.patch("/api/leagues", json=FORM | bad | {"id": x["lg2"]}, headers=w.headers(x, "svl"))
            assert got.status_code == 422, (bad, got.text)
            assert field in got.json()["errors"], (bad, got.text)
    row = x["db"].get(League, x["lg2"])
    x["db"].refresh(row)
    assert row.women_on_court is None and row.roster_min is None  # nothing half written


async def test_a_player_or_another_operator_changes_nothing(db):
    x = w.build(db)
    before = w.snapshot(x["db"])
    async with w.client() as c:
        for role, status in (("player", 403), ("other_svl", 403), ("anonymous", 401)):
            got = await c.patch("/api/leagues", json=FORM | RULES | {"id": x["lg2"]}, headers=w.headers(x, role))
            assert got.status_code == status, (role, got.text)
            made = await c.post("/api/leagues", json=FORM | RULES | {"session": x["sid"]}, headers=w.headers(x, role))
            assert made.status_code in (status, 404), (role, made.text)
    assert w.snapshot(x["db"]) == before


async def test_a_refund_policy_is_set_with_the_league_and_refused_in_words_when_its_dates_are_out_of_order(db):
    x = w.build(db)
    policy = {"refundFullUntil": "2030-12-20T12:00", "refundUntil": "2030-12-30T12:00", "refundFee": "25"}
    async with w.client() as c:
        made = await c.patch("/api/leagues", json=FORM | policy | {"id": x["lg2"]}, headers=w.headers(x, "svl"))
        assert made.status_code == 200, made.text
        assert made.json()["refundFeeCents"] == 2500 and made.json()["refundUntil"].startswith("2030-12-30")
        bad = await c.patch("/api/leagues", json=FORM | policy | {"id": x["lg2"], "refundUntil": "2030-12-10T12:00"},
                            headers=w.headers(x, "svl"))  # fmt: skip
        assert bad.status_code == 422 and "refundUntil" in bad.json()["errors"], bad.text
        kept = await c.patch("/api/leagues", json=FORM | {"id": x["lg2"]}, headers=w.headers(x, "svl"))
        assert kept.status_code == 200 and kept.json()["refundFeeCents"] == 2500  # left out: left as it is
