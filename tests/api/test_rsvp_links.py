"""A game reminder's one-click In / Out / Maybe over HTTP, without logging in: opening shows a button and changes
nothing, the button records the answer (twice: still one row), forged, expired and removed members' links get a
page that says why, never a 500."""

from __future__ import annotations

import datetime as dt
import re

import httpx
import pytest

from tests.factories import (
    add_game,
    add_league,
    add_league_session,
    add_member,
    add_teams,
    make_user,
    remove_member,
    rows,
)
from volley_app import routes
from volley_app.models import Game, GameRsvp, OutboxMessage, Role, RsvpAnswer, utcnow
from volley_app.services.teams import rsvps

D = dt.timedelta(days=1)


@pytest.fixture
def world(db):
    svl, ann, bob = make_user(db, "svla", Role.SVL), make_user(db, "ann"), make_user(db, "bob")
    now = utcnow()
    sid = add_league_session(db, svl, "Fall", now - 10 * D, now + 80 * D)
    lg = add_league(db, svl, sid, start=now - 7 * D)
    t1, t2 = add_teams(db, lg, 2)
    add_member(db, t1, ann)
    add_member(db, t1, bob)
    game = add_game(db, lg.id, t1, t2, now + 2 * D, round=2, match=1)
    assert rsvps.send_reminders(now=now) == 2
    return {"db": db, "t1": t1, "game": game.id, "ann": ann.id, "bob": bob.id, "lg": lg.id}


def _path(db, to: str, label: str) -> str:
    [mail] = [m for m in rows(db, OutboxMessage) if m.kind == "game_rsvp_reminder" and m.to_addr == to]
    url = re.search(rf"{label}: (\S+)", mail.body_text).group(1)
    return "/" + url.split("://", 1)[1].split("/", 1)[1]


async def _send(backend, method: str, path: str) -> httpx.Response:
    _app, asgi = backend
    transport = httpx.ASGITransport(app=asgi, client=("203.0.113.9", 5000))
    async with httpx.AsyncClient(transport=transport, base_url="http://localhost:3000") as client:
        return await client.request(method, path)


def _answers(db) -> list[tuple]:
    return [(r.game_id, r.user_id, r.answer) for r in rows(db, GameRsvp) if r.answer is not None]


async def test_opening_changes_nothing_and_the_button_answers(backend, world):
    db = world["db"]
    path = _path(db, "ann@example.com", "I'm out")
    assert path.startswith(routes.rsvp_answer_base + "/")
    got = await _send(backend, "GET", path)
    assert got.status_code == 200 and "T1 v T2" in got.text and 'method="post"' in got.text and "I&#x27;m out" in got.text
    assert got.headers["cache-control"] == "no-store"
    assert _answers(db) == []
    for _twice in range(2):
        done = await _send(backend, "POST", path)
        assert done.status_code == 200 and "You answered Out" in done.text
        assert routes.team_games_path(world["t1"]) in done.text
    assert _answers(db) == [(world["game"], world["ann"], RsvpAnswer.OUT)]
    changed = await _send(backend, "POST", _path(db, "ann@example.com", "Maybe"))
    assert changed.status_code == 200 and "You answered Maybe" in changed.text
    assert _answers(db) == [(world["game"], world["ann"], RsvpAnswer.MAYBE)]
    assert len(rows(db, GameRsvp, GameRsvp.user_id == world["ann"])) == 1


@pytest.mark.parametrize("mangle", [
    lambda p: p[:-1] + ("0" if p[-1] != "0" else "1"),  # a changed signature
    lambda p: p.replace(".o.", ".i."),  # another answer
    lambda p: p.rsplit("/", 1)[0] + "/nonsense",
    lambda p: p + "." + "9" * 300,
])  # fmt: skip
async def test_forged_links_are_refused_and_change_nothing(backend, world, mangle):
    db = world["db"]
    for method in ("GET", "POST"):
        got = await _send(backend, method, mangle(_path(db, "ann@example.com", "I'm out")))
        assert got.status_code == 404 and "not valid" in got.text
    assert _answers(db) == []


async def test_a_started_games_link_is_refused(backend, world):
    db = world["db"]
    path = _path(db, "bob@example.com", "I'm in")
    game = db.get(Game, world["game"])
    game.start_at = utcnow() - dt.timedelta(minutes=5)
    db.commit()
    got = await _send(backend, "POST", path)  # signed until the old start, but the game moved and started
    assert got.status_code == 400 and "started" in got.text
    expired = rsvps.link_token(game, world["t1"], world["bob"], RsvpAnswer.IN)
    got = await _send(backend, "GET", routes.rsvp_answer_path(expired))
    assert got.status_code == 400 and "started" in got.text
    assert _answers(db) == []


async def test_a_removed_members_links_stop_working(backend, world):
    db = world["db"]
    path = _path(db, "bob@example.com", "I'm in")
    remove_member(db, world["t1"], world["bob"])
    for method in ("GET", "POST"):
        got = await _send(backend, method, path)
        assert got.status_code == 403 and "no longer on this team" in got.text
    assert _answers(db) == []
