"""Lists over the API page as the screens do: page (a bookmark), search, size; the total in X-Total-Count."""

from __future__ import annotations

import datetime as dt

from tests.api import world as w
from tests.factories import actor_of, add_league_session, add_teams, make_user
from volley_app.models import League, User, utcnow
from volley_app.services.subs import request_changes


async def test_notes_page_with_the_total_and_the_next_page(db):
    x = w.build(db)
    pat = actor_of(make_user(db, "rita"))
    for i in range(30):
        request_changes.create(db, pat, team=f"Squad {i:02}", date=utcnow() + dt.timedelta(days=2, hours=i), svl="Gym",
                            skill_level="C", format="6s")  # fmt: skip
    db.commit()
    async with w.client() as c:
        h = w.headers(x, "other_player")
        first = await c.get("/api/notes", headers=h)
        assert first.status_code == 200
        assert first.headers["X-Total-Count"] == "31"  # and pat's open request
        assert len(first.json()) == 25 and all(r["id"] == r["_id"] for r in first.json())
        second = await c.get("/api/notes", params={"page": first.headers["X-Next-Page"]}, headers=h)
        assert len(second.json()) == 6 and "X-Next-Page" not in second.headers
        assert not {r["id"] for r in first.json()} & {r["id"] for r in second.json()}
        small = await c.get("/api/notes", params={"size": 5}, headers=h)
        assert len(small.json()) == 5 and small.headers["X-Total-Count"] == "31"
        found = await c.get("/api/notes", params={"search": "Squad 07"}, headers=h)
        assert [r["team"] for r in found.json()] == ["Squad 07"] and found.headers["X-Total-Count"] == "1"
        junk = await c.get("/api/notes", params={"page": "not-a-bookmark", "size": "lots"}, headers=h)
        assert junk.status_code in (200, 422)


async def test_users_search_for_admins(db):
    x = w.build(db)
    async with w.client() as c:
        found = await c.get("/api/users", params={"search": "quinn"}, headers=w.headers(x, "admin"))
        assert found.status_code == 200
        assert [u["username"] for u in found.json()] == ["quinn"] and found.headers["X-Total-Count"] == "1"
        everyone = await c.get("/api/users", headers=w.headers(x, "admin"))
        assert everyone.headers["X-Total-Count"] == "5"


async def test_one_object_by_id_carries_both_ids(db):
    x = w.build(db)
    async with w.client() as c:
        for path, role in ((f"/api/leagues/{x['lg']}", "player"), (f"/api/teams/{x['team']}", "player"),
                           (f"/api/sessions/{x['sid']}", "svl"), (f"/api/games/{x['game']}", "svl"),
                           (f"/api/notes/{x['note']}", "player"), (f"/api/users/{x['users']['player']}", "player")):  # fmt: skip
            response = await c.get(path, headers=w.headers(x, role))
            assert response.status_code == 200, (path, response.text)
            assert response.json()["id"] == response.json()["_id"], path
        missing = await c.get("/api/leagues/999999", headers=w.headers(x, "player"))
        assert missing.status_code == 404 and missing.json()["message"]


async def test_sessions_page_with_search_and_the_page_headers(db):
    x = w.build(db)
    svl = db.get(User, x["users"]["svl"])
    for i in range(7):
        add_league_session(db, svl, f"Term {i}", utcnow() + dt.timedelta(days=10 + i), utcnow() + dt.timedelta(days=90))
    db.commit()
    async with w.client() as c:
        h = w.headers(x, "svl")
        first = await c.get("/api/sessions", params={"size": 5}, headers=h)
        assert first.status_code == 200 and first.headers["X-Total-Count"] == "8"
        assert [r["name"] for r in first.json()] == ["Fall", "Term 0", "Term 1", "Term 2", "Term 3"]
        assert "X-Previous-Page" not in first.headers
        second = await c.get("/api/sessions", params={"size": 5, "page": first.headers["X-Next-Page"]}, headers=h)
        assert [r["name"] for r in second.json()] == ["Term 4", "Term 5", "Term 6"]
        assert "X-Next-Page" not in second.headers and "X-Previous-Page" in second.headers
        found = await c.get("/api/sessions", params={"search": "term 5"}, headers=h)
        assert [r["name"] for r in found.json()] == ["Term 5"] and found.headers["X-Total-Count"] == "1"
        other = await c.get("/api/sessions", headers=w.headers(x, "other_svl"))
        assert other.json() == [] and other.headers["X-Total-Count"] == "0"


async def test_teams_page_with_search_league_and_the_page_headers(db):
    x = w.build(db)
    add_teams(db, db.get(League, x["lg2"]), 6, prefix="Spikers ")
    async with w.client() as c:
        h = w.headers(x, "svl")
        every = await c.get("/api/teams", headers=h)
        total = int(every.headers["X-Total-Count"])
        assert total == len(every.json()) > 8
        first = await c.get("/api/teams", params={"size": 4, "league": x["lg2"]}, headers=h)
        assert first.headers["X-Total-Count"] == "8" and len(first.json()) == 4
        rest = await c.get("/api/teams", params={"size": 4, "league": x["lg2"], "page": first.headers["X-Next-Page"]},
                           headers=h)  # fmt: skip
        assert len(rest.json()) == 4 and "X-Next-Page" not in rest.headers
        assert not {r["id"] for r in first.json()} & {r["id"] for r in rest.json()}
        found = await c.get("/api/teams", params={"search": "spikers 3"}, headers=h)
        assert [r["teamName"] for r in found.json()] == ["Spikers 3"]
        waiting = await c.get("/api/teams", params={"waitlist": "true"}, headers=h)
        assert [r["id"] for r in waiting.json()] == [x["waiting"]]
        none = await c.get("/api/teams", headers=w.headers(x, "other_svl"))
        assert none.json() == [] and none.headers["X-Total-Count"] == "0"


async def test_users_sort_by_name_or_newest_and_page_in_that_order(db):
    x = w.build(db)
    for i, last in enumerate(["Zane", "Adams", "Moss", "Baker", "Young", "Cole"]):
        user = make_user(db, f"sorted{i}", last_name=last)
        user.created_at = utcnow() + dt.timedelta(minutes=i)
        db.add(user)
    db.commit()
    async with w.client() as c:
        h = w.headers(x, "admin")

        async def every(sort: str) -> list[str]:
            names, page = [], ""
            while True:
                got = await c.get("/api/users", params={"sort": sort, "size": 4, "page": page}, headers=h)
                assert got.status_code == 200, got.text
                names += [r["username"] for r in got.json()]
                page = got.headers.get("X-Next-Page", "")
                if not page:
                    return names

        by_username = await every("username")
        assert by_username == sorted(by_username)
        by_name = await every("name")
        lasts = {f"sorted{i}": last for i, last in enumerate(["Zane", "Adams", "Moss", "Baker", "Young", "Cole"])}
        assert [n for n in by_name if n in lasts] == ["sorted1", "sorted3", "sorted5", "sorted2", "sorted4", "sorted0"]
        newest = await every("newest")
        assert newest[:6] == [f"sorted{i}" for i in range(5, -1, -1)]
        assert sorted(newest) == sorted(by_name) == sorted(by_username)
        bad = await c.get("/api/users", params={"sort": "password"}, headers=h)
        assert bad.status_code == 422 and "sort" in bad.json()["errors"]


async def test_notes_and_leagues_sort_latest_first(db):
    x = w.build(db)
    pat = actor_of(make_user(db, "rita"))
    for i in range(3):
        request_changes.create(db, pat, team=f"Late {i}", date=utcnow() + dt.timedelta(days=5 + i), svl="Gym",
                            skill_level="C", format="6s")  # fmt: skip
    db.commit()
    async with w.client() as c:
        h = w.headers(x, "other_player")
        first = await c.get("/api/notes", params={"sort": "date"}, headers=h)
        latest = await c.get("/api/notes", params={"sort": "-date"}, headers=h)
        assert [r["team"] for r in latest.json()] == [r["team"] for r in reversed(first.json())]
        assert latest.json()[0]["team"] == "Late 2"
        assert (await c.get("/api/notes", params={"sort": "team"}, headers=h)).status_code == 422
        h = w.headers(x, "admin")
        leagues = await c.get("/api/leagues", params={"sort": "start"}, headers=h)
        later = await c.get("/api/leagues", params={"sort": "-start"}, headers=h)
        assert len(leagues.json()) >= 2
        assert [r["id"] for r in later.json()] == [r["id"] for r in reversed(leagues.json())]
        assert (await c.get("/api/leagues", params={"sort": "day"}, headers=h)).status_code == 422


async def test_a_total_past_the_cap_says_it_was_capped(db, monkeypatch):
    from volley_app.services.core import paging

    monkeypatch.setattr(paging, "COUNT_CAP", 30)
    x = w.build(db)
    rita = actor_of(make_user(db, "rita"))
    for i in range(30):
        request_changes.create(db, rita, team=f"Squad {i:02}", date=utcnow() + dt.timedelta(days=2, hours=i), svl="Gym",
                            skill_level="C", format="6s")  # fmt: skip
    db.commit()
    async with w.client() as c:
        h = w.headers(x, "other_player")
        many = await c.get("/api/notes", headers=h)  # 31 open requests, counted up to 30
        assert (many.headers["X-Total-Count"], many.headers.get("X-Total-Capped")) == ("30", "true")
        few = await c.get("/api/notes", params={"search": "Squad 0"}, headers=h)
        assert few.headers["X-Total-Count"] == "10" and "X-Total-Capped" not in few.headers
