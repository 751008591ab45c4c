"""Benchmark: ranking the suggested subs of one sub request over 10,000 subs (target: under 50 ms).

Seeds 10,000 active subs (random genders, ratings at each position, weekdays, weekly caps), a few
thousand dates they cannot play, 30,000 accepted past requests (each sub's place marked played or no-show,
or not), the week's accepted requests and a league with games that hour, and each sub's record kept on
their account (``sub_records.rebuild``), then times ``matching.suggestions`` (first page of
the ranked list, with its total; then the ineligible list) for a request "female setter, B or better".
Run:

    .venv/bin/python bench/matching.py            # SQLite in a temp dir
    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/bench .venv/bin/python bench/matching.py

The PostgreSQL run empties the database's public schema first. Results go to bench/RESULTS.md by hand.
"""

from __future__ import annotations

import datetime as dt
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DATABASE_URL", f"sqlite:///{tempfile.mkdtemp()}/bench.db")

SUBS = 10_000
PAST_REQUESTS = 30_000


def timed(fn, n: int) -> list[float]:
    out = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    return out


def report(name: str, samples: list[float]) -> None:
    samples = sorted(samples)
    p95 = samples[int(len(samples) * 0.95) - 1]
    print(f"{name:<44} n={len(samples):<4} median={statistics.median(samples):7.2f} ms  p95={p95:7.2f} ms")


def seed(engine) -> tuple[int, int]:
    """The subs and their history; returns (the requestor's id, the request's id)."""
    import sqlalchemy as sa

    from volley_app.models import (
        Game,
        League,
        LeagueSession,
        SubRequest,
        SubRequestPlace,
        SubUnavailableDate,
        Team,
        User,
        utcnow,
    )
    from volley_app.services.core import timefmt

    rnd = random.Random(17)
    now = utcnow().replace(microsecond=0)
    today = timefmt.local(now).date() + dt.timedelta(days=8)
    day = today + dt.timedelta(days=(3 - today.weekday()) % 7)  # a Thursday, 8 to 14 days ahead
    when = timefmt.parse_local(f"{day.isoformat()}T19:00", "date", "Date")
    ratings = ["A", "B", "C", "D", None]
    users = [{
        "username": f"sub{i:05d}", "password_hash": "x", "roles": ["Player"], "email": f"sub{i}@example.com",
        "first_name": rnd.choice(["Ana", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gia", "Hal"]), "last_name": f"S{i:05d}",
        "gender": rnd.choice(["Male", "Female", None]), "sub": True, "active": rnd.random() > 0.05,
        "hitter_skill_level": rnd.choice(ratings), "passer_skill_level": rnd.choice(ratings),
        "setter_skill_level": rnd.choice(ratings), "sub_days": rnd.choice([127, 127, 31, 96, 10, 85]),
        "sub_weekly_cap": rnd.choice([None, None, 1, 2, 3]), "created_at": now, "updated_at": now,
    } for i in range(SUBS)]  # fmt: skip
    users.append(users[0] | {"username": "captain", "email": "cap@example.com", "first_name": "Cap", "last_name": "Tain",
                             "sub": False, "active": True})  # fmt: skip
    with engine.begin() as c:
        c.execute(sa.insert(User.__table__), users)
        ids = [r[0] for r in c.execute(sa.select(User.id).where(User.sub.is_(True)))]
        cap_id = c.execute(sa.select(User.id).where(User.username == "captain")).scalar_one()
        c.execute(sa.insert(SubUnavailableDate.__table__), [
            {"user_id": uid, "day": day + dt.timedelta(days=rnd.randint(-3, 3))} for uid in rnd.sample(ids, 3000)
        ])  # fmt: skip
        base = {"requestor_id": cap_id, "svl": "Gym", "team": "Old", "skill_level": "C", "format": "6s",
                "created_at": now, "updated_at": now, "position_needed": "Any", "gender_needed": "Any"}  # fmt: skip
        past = [base | {"recipient_id": rnd.choice(ids), "status": "Accepted", "completed": True, "places_filled": 1,
                        "date": now - dt.timedelta(days=rnd.randint(1, 700), hours=rnd.randint(0, 23))}
                for _ in range(PAST_REQUESTS)]  # fmt: skip
        week = [base | {"recipient_id": rnd.choice(ids), "status": "Accepted", "completed": False, "places_filled": 1,
                        "date": when + dt.timedelta(hours=rnd.randint(-72, 72))} for _ in range(1500)]  # fmt: skip
        c.execute(sa.insert(SubRequest.__table__), past + week)
        # each accepted request's place, the past ones marked played or no-show (or not yet)
        taken = c.execute(sa.select(SubRequest.id, SubRequest.recipient_id, SubRequest.date, SubRequest.completed)
                          .where(SubRequest.status == "Accepted")).all()  # fmt: skip
        c.execute(sa.insert(SubRequestPlace.__table__), [
            {"request_id": rid, "user_id": uid, "accepted_at": date - dt.timedelta(days=2),
             "outcome": rnd.choice(["Played", "Played", "Played", "No-show", None]) if done else None}
            for rid, uid, date, done in taken
        ])  # fmt: skip
    from sqlmodel import Session

    with Session(engine) as orm:
        season = LeagueSession(svl_id=cap_id, name="Fall", status="Active", start_at=when - dt.timedelta(days=30),
                               end_at=when + dt.timedelta(days=30))  # fmt: skip
        orm.add(season)
        orm.flush()
        league = League(session_id=season.id, svl_id=cap_id, court="1", start_at=when - dt.timedelta(days=21),
                        number_of_weeks=8, time_increment=50, skill_level="C", format="6s", day="Thursday",
                        max_teams=40, cost_cents=0)  # fmt: skip
        orm.add(league)
        orm.flush()
        teams = [Team(league_id=league.id, captain_id=cid, team_name=f"T{i}") for i, cid in enumerate(rnd.sample(ids, 40))]
        orm.add_all(teams)
        orm.flush()
        orm.add_all([Game(league_id=league.id, team1_id=teams[i].id, team2_id=teams[i + 1].id,
                          start_at=when + dt.timedelta(minutes=rnd.choice([-50, 0, 50, 100]))) for i in range(0, 40, 2)])  # fmt: skip
        orm.commit()
    from volley_app import db
    from volley_app.services.subs import sub_records

    db.call(sub_records.rebuild)  # the records kept on the subs, from their places
    from volley_app.services.core.actors import Actor
    from volley_app.services.subs import request_changes

    actor = Actor(user_id=cap_id, username="captain", roles=("Player",), first_name="Cap")
    rid = db.call(request_changes.create, actor=actor, team="Net Ninjas", date=when, svl="Gym", skill_level="B",
                  format="6s", position_needed="Setter", gender_needed="Female", min_rating="B")  # fmt: skip
    if engine.dialect.name == "postgresql":
        with engine.begin() as c:
            c.execute(sa.text("ANALYZE"))
    return cap_id, rid


def main() -> None:
    import sqlalchemy as sa

    from volley_app import db
    from volley_app.migrations import upgrade_to_head
    from volley_app.services.core.actors import Actor
    from volley_app.services.subs import matching

    engine = db.get_engine()
    if engine.dialect.name == "postgresql":
        with engine.begin() as c:
            c.execute(sa.text("DROP SCHEMA public CASCADE; CREATE SCHEMA public"))
    upgrade_to_head()
    t = time.perf_counter()
    cap_id, rid = seed(engine)
    print(f"database: {engine.dialect.name}; seeded {SUBS:,} subs in {time.perf_counter() - t:.1f} s")
    actor = Actor(user_id=cap_id, username="captain", roles=("Player",), first_name="Cap")
    first = db.call(matching.suggestions, actor=actor, request_id=rid)
    print(f"eligible: {first.total:,}; first: {first.rows[0]['name']} — {first.rows[0]['reason']}")
    report("suggestions, first page (ranked, with total)", timed(lambda: db.call(
        matching.suggestions, actor=actor, request_id=rid), 50))  # fmt: skip
    report("suggestions, page 20", timed(lambda: db.call(
        matching.suggestions, actor=actor, request_id=rid, bookmark="475"), 30))  # fmt: skip
    report("ineligible, first page (with reasons)", timed(lambda: db.call(
        matching.suggestions, actor=actor, request_id=rid, show="ineligible"), 30))  # fmt: skip


if __name__ == "__main__":
    main()
