"""League messages: preview with the number of people, send only that confirmed number; operators only."""

from __future__ import annotations

import pytest
from sqlmodel import select

from tests.factories import add_teams, count, league_world, login_token, make_user
from tests.harness import drain, page_state
from volley_app.models import AuditEntry, OutboxMessage, Team
from volley_app.pages.dash.leagues import message as page
from volley_app.services.core.errors import Forbidden, Invalid, Unauthorized
from volley_app.services.seasons import league_messages


@pytest.fixture
def world(db):
    w = league_world(db)
    ids = add_teams(db, w["lg"], 3)
    wait = add_teams(db, w["lg"], 1, prefix="W", waitlist=True)
    for i, tid in enumerate([*ids, *wait]):
        team = db.get(Team, tid)
        team.captain_id = make_user(db, f"cap{i}", email=f"cap{i}@example.com").id
        db.add(team)
    same = db.get(Team, ids[2])
    same.captain_id = db.get(Team, ids[1]).captain_id  # one captain of two teams is mailed once
    db.add(same)
    db.commit()
    w["ids"], w["wait"] = ids, wait[0]
    return w


def _sent(db):
    return sorted(m.to_addr for m in db.exec(select(OutboxMessage).where(OutboxMessage.kind == "league_message")).all())


def test_preview_counts_each_captain_once_and_send_needs_that_count(world):
    db, lg = world["db"], world["lg"]
    found = league_messages.preview(db, world["a"], lg.id, subject="Gym closed", body="No games Monday.")
    assert found["count"] == 2 and "every team" in found["who"]
    assert "No games Monday." in found["body"] and found["subject"].endswith("Gym closed")
    with pytest.raises(Invalid, match="changed to 2"):
        league_messages.send(db, world["a"], lg.id, subject="Gym closed", body="No games Monday.", confirmed="5")
    assert _sent(db) == []
    n = league_messages.send(db, world["a"], lg.id, subject="Gym closed", body="No games Monday.", confirmed="2")
    db.commit()
    assert n == 2 and _sent(db) == ["cap0@example.com", "cap1@example.com"]
    assert db.exec(select(AuditEntry).where(AuditEntry.action == "message")).all()
    with pytest.raises(Invalid, match="just sent"):  # a second click sends nothing twice
        league_messages.send(db, world["a"], lg.id, subject="Gym closed", body="No games Monday.", confirmed="2")


def test_one_team_only_its_captain_even_on_the_waitlist(world):
    db, lg = world["db"], world["lg"]
    found = league_messages.preview(db, world["a"], lg.id, team=str(world["wait"]), subject="Hi", body="A place may open.")
    assert found["count"] == 1 and "W1" in found["who"]
    league_messages.send(db, world["a"], lg.id, team=str(world["wait"]), subject="Hi", body="A place may open.", confirmed=1)
    assert _sent(db) == ["cap3@example.com"]
    with pytest.raises(Invalid) as caught:
        league_messages.preview(db, world["a"], lg.id, team="99999", subject="Hi", body="x")
    assert "team" in caught.value.errors


@pytest.mark.parametrize(("who", "error"), [("b", Forbidden), ("p", Forbidden), (None, Unauthorized)])
def test_others_cannot_preview_or_send(world, who, error):
    db, lg = world["db"], world["lg"]
    actor = world[who] if who else None
    with pytest.raises(error):
        league_messages.preview(db, actor, lg.id, subject="x", body="y")
    with pytest.raises(error):
        league_messages.send(db, actor, lg.id, subject="x", body="y", confirmed=2)
    db.rollback()
    assert count(db, OutboxMessage) == 0


@pytest.mark.parametrize("who", ["anon", "pat", "svlb", "svla", "root"])
async def test_the_page_previews_then_sends_for_operators_only(world, who):
    db, lg = world["db"], world["lg"]
    token = None if who == "anon" else login_token(db, who)
    path = f"/dash/leagues/{lg.id}/message"
    form = {"team": "", "subject": "Gym closed", "body": "No games Monday."}
    _root, state = page_state(page.LeagueMessageState, path, token)
    await drain(state.review(form))
    await drain(state.send())
    if who in ("svla", "root"):
        assert state.notice == "Queued to 2 people." and len(_sent(db)) == 2
    else:
        assert _sent(db) == [] and state.error in ("Unauthorized", "No access")
