"""A venue's time zone over HTTP: PATCH /users answers what a new zone moves, and changes it once confirmed."""

from __future__ import annotations

from tests.api import world as w
from volley_app.models import User


async def test_a_new_zone_is_saved_only_once_the_venue_confirms_what_moves(db):
    x = w.build(db)
    async with w.client() as c:
        me = (await c.get("/api/users/me", headers=w.headers(x, "svl"))).json()
        asked = await c.patch("/api/users", json={"id": me["id"], "timeZone": "America/Denver"},
                              headers=w.headers(x, "svl"))  # fmt: skip
        assert asked.status_code == 422 and "changes the clock time shown for" in str(asked.json())
        db.expire_all()
        assert db.get(User, me["id"]).time_zone != "America/Denver"
        done = await c.patch("/api/users", json={"id": me["id"], "timeZone": "America/Denver", "zoneConfirmed": True},
                             headers=w.headers(x, "svl"))  # fmt: skip
        assert done.status_code == 200, done.text
    db.expire_all()
    assert db.get(User, me["id"]).time_zone == "America/Denver"
