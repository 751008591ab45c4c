"""A small league world for the API tests, and tokens for each kind of caller."""

from __future__ import annotations

import datetime as dt
from urllib.parse import urlsplit

import httpx
import sqlalchemy as sa
from sqlmodel import SQLModel

from tests.factories import PASSWORD, actor_of, add_league, add_league_session, add_teams, make_user
from volley_app.api.app import create_api
from volley_app.models import Role, utcnow
from volley_app.services.accounts import recovery, tokens
from volley_app.services.mail import newsletter
from volley_app.services.seasons import schedule, scheduling
from volley_app.services.subs import request_changes
from volley_app.services.teams import registration

ROLES = ("anonymous", "player", "other_player", "svl", "other_svl", "admin")
NOT_COMPARED = {"login_attempts", "rate_limit_hits"}  # try records: a refused try may count


def build(db) -> dict:
    """pat (player, captain), quinn (another player, a sub), svla and svlb (SVLs), root (admin); svla's session
    with a league (two of pat's teams, a generated schedule, one waitlisted team) and a second league without
    games; pat's open request to anyone and pat's request to quinn; pat's pending registration; a subscriber."""
    users = {
        "player": make_user(db, "pat"),
        "other_player": make_user(db, "quinn", sub=True),
        "svl": make_user(db, "svla", Role.SVL),
        "other_svl": make_user(db, "svlb", Role.SVL),
        "admin": make_user(db, "root", Role.ADMIN),
    }
    actors = {k: actor_of(u) for k, u in users.items()}
    now = utcnow()
    sid = add_league_session(db, users["svl"], "Fall", now + dt.timedelta(days=3), now + dt.timedelta(days=80))
    lg = add_league(db, users["svl"], sid, start=now + dt.timedelta(days=4), max_teams=6)
    lg2 = add_league(db, users["svl"], sid, start=now + dt.timedelta(days=5), court="Court 2")
    teams = add_teams(db, lg, 2, captain_id=users["player"].id)
    add_teams(db, lg2, 2, captain_id=users["player"].id, prefix="U")
    scheduling.generate(db, actors["svl"], lg.id)
    [waiting] = add_teams(db, lg, 1, prefix="W", captain_id=users["player"].id, waitlist=True)
    when = now + dt.timedelta(days=2)
    details = {"team": "T1", "date": when, "svl": "Gym", "skill_level": "C", "format": "6s"}
    note = request_changes.create(db, actors["player"], **details)
    invite = request_changes.create(db, actors["player"], recipient_id=users["other_player"].id, **details)
    pay = registration.register(db, actors["player"], league_id=lg.id, team_name="Pats")["payment_id"]
    sub = newsletter.subscribe(db, email="fan@example.com", client="198.51.100.9")
    link = recovery.request_reset(db, email="quinn@example.com", client="198.51.100.9").link
    uid, token = urlsplit(link).path.rstrip("/").split("/")[-2:]
    db.commit()
    issued = {k: tokens.issue(db, a) for k, a in actors.items()}
    db.commit()
    game = schedule.schedule(db, actors["svl"], lg.id)["weeks"][0]["games"][0]
    return {
        "db": db, "users": {k: u.id for k, u in users.items()}, "tokens": {k: t.access for k, t in issued.items()},
        "refresh": {k: t.refresh for k, t in issued.items()}, "sid": sid, "lg": lg.id, "lg2": lg2.id,
        "team": teams[0], "waiting": waiting, "game": game["id"], "game_teams": (game["team1_id"], game["team2_id"]),
        "note": note, "invite": invite, "pay": pay, "subscriber": sub.id, "reset": (uid, token), "password": PASSWORD,
    }  # fmt: skip


def headers(world: dict, role: str) -> dict[str, str]:
    return {} if role == "anonymous" else {"Authorization": f"Bearer {world['tokens'][role]}"}


def snapshot(db) -> dict[str, list]:
    """Every row of every table (but the try records)."""
    out = {}
    with db.get_bind().connect() as conn:
        for table in SQLModel.metadata.sorted_tables:
            if table.name in NOT_COMPARED:
                continue
            cols = [c for c in table.columns if c.name != "last_seen_at"]
            out[table.name] = [tuple(r) for r in conn.execute(sa.select(*cols).order_by(*table.primary_key.columns))]
    return out


def client(address: str = "198.51.100.4") -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=create_api(), client=(address, 50000))
    return httpx.AsyncClient(transport=transport, base_url="http://test")
