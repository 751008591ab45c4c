"""Teams as operators manage them: edits by role, delete, the waitlist and Promote, the league filter."""

from __future__ import annotations

import pytest

from tests.factories import add_league, add_teams, count, league_world, rows
from volley_app import routes
from volley_app.models import OutboxMessage, Payment, StandingAdjustment, Team
from volley_app.services.core.errors import Forbidden, Invalid, NotFound
from volley_app.services.seasons import results
from volley_app.services.teams import teams
from volley_app.services.teams.teams import access_team


@pytest.fixture
def world(db):
    return league_world(db)


# --- teams ----------------------------------------------------------------------------


def test_only_admins_edit_name_and_paid_svl_edits_record(world):
    db, lg = world["db"], world["lg"]
    (tid,) = add_teams(db, lg, 1)
    teams.update_team(db, world["a"], tid, team_name="Renamed", paid="true", wins="3", losses="1", reason="Scores kept on paper")
    db.commit()
    t = rows(db, Team)[0]
    rec = results.record_of(db, t)
    assert (t.team_name, t.paid, rec.wins, rec.losses, rec.adj_wins, rec.adj_losses) == ("T1", False, 3, 1, 3, 1)
    with pytest.raises(Invalid, match="team name required"):
        teams.update_team(db, world["admin"], tid, team_name=" ", paid="true", wins="3", losses="1", reason="x")
    teams.update_team(db, world["admin"], tid, team_name="Renamed", paid="true", wins="3", losses="1", reason="x")
    db.commit()
    t = rows(db, Team)[0]
    assert (t.team_name, t.paid) == ("Renamed", True)


@pytest.mark.parametrize("who", ["b", "p"])
def test_others_cannot_edit_delete_or_promote_a_team(world, who):
    db, lg = world["db"], world["lg"]
    (tid,) = add_teams(db, lg, 1, waitlist=True)
    for call in (
        lambda: teams.update_team(db, world[who], tid, team_name="x", wins="9", losses="9"),
        lambda: teams.delete_team(db, world[who], tid),
        lambda: teams.promote(db, world[who], tid),
    ):
        with pytest.raises(Forbidden):
            call()
    db.rollback()
    t = rows(db, Team)[0]
    assert (t.team_name, t.waitlist) == ("T1", True)
    assert count(db, StandingAdjustment) == 0 and count(db, Payment) == 0
    assert count(db, OutboxMessage) == 0


def test_promote_offers_the_place_and_never_marks_the_team_paid(world):
    db, lg = world["db"], world["lg"]
    t = Team(league_id=lg.id, team_name="Late", waitlist=True, captain_id=world["p"].user_id)
    db.add(t)
    db.commit()
    assert [x["team_name"] for x in teams.list_teams(db, world["a"], waitlist=True)] == ["Late"]
    offer = teams.promote(db, world["a"], t.id)
    db.commit()
    t = rows(db, Team)[0]
    assert (t.waitlist, t.paid) == (True, False)
    (pay,) = rows(db, Payment)
    assert (pay.team_id, pay.status, offer["payment_id"]) == (t.id, "pending", pay.id)
    (msg,) = rows(db, OutboxMessage)
    assert msg.to_addr == "pat@example.com" and "Late" in msg.subject
    assert routes.absolute(routes.checkout_path(pay.id)) in msg.body_text


def test_promoting_a_team_not_on_the_waitlist_is_refused(world):
    db, lg = world["db"], world["lg"]
    (tid,) = add_teams(db, lg, 1)
    with pytest.raises(Invalid, match="not on the waitlist"):
        teams.promote(db, world["a"], tid)


def test_list_teams_keeps_one_league_when_asked(world):
    db, lg = world["db"], world["lg"]
    other = add_league(db, world["svla"], world["sid"], start=lg.start_at, court="Court 2")
    add_teams(db, lg, 2)
    add_teams(db, other, 1, prefix="O")
    assert [t["team_name"] for t in teams.list_teams(db, world["a"])] == ["T1", "T2", "O1"]
    assert [t["team_name"] for t in teams.list_teams(db, world["a"], league_id=str(other.id))] == ["O1"]
    assert [t["team_name"] for t in teams.list_teams(db, world["admin"], league_id=lg.id)] == ["T1", "T2"]
    assert teams.list_teams(db, world["b"], league_id=str(lg.id)) == []  # not B's league
    for garbage in ("abc", "-1", "0"):
        assert teams.list_teams(db, world["a"], league_id=garbage) == []
    assert len(teams.list_teams(db, world["a"], league_id="")) == 3


def test_waitlist_rows_say_who_may_promote(world):
    db, lg = world["db"], world["lg"]
    add_teams(db, lg, 1, prefix="W", waitlist=True, captain_id=world["p"].user_id)
    add_teams(db, lg, 1, captain_id=world["p"].user_id)
    for who, expected in (("a", [True]), ("admin", [True]), ("p", [False]), ("b", [])):
        listed = teams.list_teams(db, world[who], waitlist=True)
        assert [t["can_promote"] for t in listed] == expected, who
    assert [t["can_promote"] for t in teams.list_teams(db, world["admin"], waitlist=False)] == [False]


def test_team_name_rule_and_clash_on_edit(world):
    db, lg = world["db"], world["lg"]
    first, _second = add_teams(db, lg, 2)
    with pytest.raises(Invalid) as err:
        teams.update_team(db, world["admin"], first, team_name="x" * 101, paid="", wins="0", losses="0", reason="")
    assert err.value.errors == {"team_name": "Team name must be at most 100 characters"}
    with pytest.raises(Invalid) as err:
        teams.update_team(db, world["admin"], first, team_name=" T2 ", paid="", wins="0", losses="0", reason="")
    assert err.value.errors == {"team_name": teams.NAME_CLASH}


def test_access_team_lets_the_captain_read_only(world):
    db, lg = world["db"], world["lg"]
    (tid,) = add_teams(db, lg, 1, captain_id=world["p"].user_id)
    assert access_team(db, world["p"], tid, manage=False).id == tid
    with pytest.raises(Forbidden):
        access_team(db, world["p"], tid)
    with pytest.raises(Forbidden):
        access_team(db, world["b"], tid, manage=False)
    assert teams.get_team(db, world["p"], tid)["can_manage"] is False
    assert teams.get_team(db, world["a"], tid)["can_manage"] is True
    for bad in ("", "x", "0", str(tid + 1000)):
        with pytest.raises(NotFound, match="This team no longer exists"):
            access_team(db, world["admin"], bad)
    assert count(db, Team) == 1
