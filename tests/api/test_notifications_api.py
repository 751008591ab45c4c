"""The notifications API: one's own list, paged newest first; marking one's own read; the preferences."""

from __future__ import annotations

from tests.api import world as w
from tests.factories import rows
from volley_app import routes
from volley_app.models import Notification, User
from volley_app.services.mail import notices


def _tell(x: dict, role: str, n: int) -> list[int]:
    db = x["db"]
    [user] = rows(db, User, User.id == x["users"][role])
    made = [notices.notify(db, user, notices.SCHEDULE_CHANGE, text=f"Change {i}", link=routes.DASH, title="Moved")
            for i in range(n)]  # fmt: skip
    db.commit()
    return [m.id for m in made if m.id is not None]


async def test_the_list_is_the_callers_own_newest_first_a_page_at_a_time(db):
    x = w.build(db)
    _tell(x, "player", 3)
    async with w.client() as c:
        first = await c.get("/api/notifications?size=2", headers=w.headers(x, "player"))
        assert first.status_code == 200 and first.headers["X-Total-Count"] == "3"
        assert first.headers["X-Unread-Count"] == "3"
        assert [r["text"] for r in first.json()] == ["Change 2", "Change 1"] and first.json()[0]["unread"] is True
        assert first.json()[0]["link"] == routes.DASH and first.json()[0]["_id"] == first.json()[0]["id"]
        nxt = first.headers["X-Next-Page"]
        second = await c.get("/api/notifications", params={"size": 2, "page": nxt}, headers=w.headers(x, "player"))
        assert [r["text"] for r in second.json()] == ["Change 0"]
        quinns = await c.get("/api/notifications", headers=w.headers(x, "other_player"))
        assert [r["kind"] for r in quinns.json()] == [notices.SUB_INVITATION]  # pat's request to quinn, not pat's


async def test_marking_read_is_for_ones_own_and_another_persons_is_not_found(db):
    x = w.build(db)
    mine = _tell(x, "player", 2)
    async with w.client() as c:
        before = w.snapshot(db)
        for role in ("other_player", "admin"):
            refused = await c.post(f"/api/notifications/{mine[0]}/read", headers=w.headers(x, role))
            assert refused.status_code == 404
        assert w.snapshot(db) == before
        done = await c.post(f"/api/notifications/{mine[0]}/read", headers=w.headers(x, "player"))
        assert done.status_code == 200 and done.json()["link"] == routes.DASH
        bad = await c.post("/api/notifications/abc/read", headers=w.headers(x, "player"))
        assert bad.status_code == 404
        others = await c.post("/api/notifications/read-all", headers=w.headers(x, "other_player"))
        assert others.json() == {"marked": 1}  # quinn's invitation, none of pat's
        left = await c.get("/api/notifications", headers=w.headers(x, "player"))
        assert left.headers["X-Unread-Count"] == "1"
        assert (await c.post("/api/notifications/read-all", headers=w.headers(x, "player"))).json() == {"marked": 1}
    assert all(n.read_at is not None for n in rows(db, Notification))


async def test_preferences_are_read_and_saved_for_the_caller_alone(db):
    x = w.build(db)
    async with w.client() as c:
        shown = await c.get("/api/notification-preferences", headers=w.headers(x, "player"))
        assert [p["kind"] for p in shown.json()] == list(notices.KINDS)
        put = await c.put("/api/notification-preferences", headers=w.headers(x, "player"),
                          json={"email": {notices.SCHEDULE_CHANGE: False, notices.OPEN_REQUEST: True}})  # fmt: skip
        assert put.status_code == 200
        saved = {p["kind"]: p["email"] for p in put.json()}
        assert saved[notices.SCHEDULE_CHANGE] is False and saved[notices.OPEN_REQUEST] is True
        assert saved[notices.SUB_INVITATION] is True  # left out: as it was
        quinns = await c.get("/api/notification-preferences", headers=w.headers(x, "other_player"))
        assert {p["kind"]: p["email"] for p in quinns.json()}[notices.SCHEDULE_CHANGE] is True
        before = w.snapshot(db)
        for body in ({"email": {"push": True}}, {"email": "on"}, {}, {"email": {notices.SCHEDULE_CHANGE: "maybe"}}):
            bad = await c.put("/api/notification-preferences", headers=w.headers(x, "player"), json=body)
            assert bad.status_code == 422 and bad.json()["errors"], body
        assert w.snapshot(db) == before
