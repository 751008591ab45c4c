"""Who a league message goes to: the captains, every player on the league's rosters, or one team's members; each
person once, members who left and closed or address-less accounts left out; only the league's operators send."""

from __future__ import annotations

import pytest
from sqlmodel import select

from tests.api.world import snapshot
from tests.factories import add_member, add_teams, league_world, login_token, make_user, remove_member
from tests.harness import drain, page_state
from volley_app.models import AuditEntry, OutboxMessage, Team, User, utcnow
from volley_app.pages.dash.leagues import message as page
from volley_app.services.core.errors import Forbidden, Invalid, Unauthorized
from volley_app.services.seasons import league_messages

MAIL = {"subject": "Gym closed", "body": "No games Monday."}


@pytest.fixture
def world(db):
    """Teams T1, T2 (captains cap1, cap2), a waitlisted W1 and a withdrawn X1; ann on T1 and T2, ben on T2, cal left
    T1, dee (archived) and eve (no address) on T1, wes on W1, xan on X1."""
    w = league_world(db)
    lg = w["lg"]
    [t1, t2] = add_teams(db, lg, 2)
    [wait] = add_teams(db, lg, 1, prefix="W", waitlist=True)
    [gone] = add_teams(db, lg, 1, prefix="X", withdrawn_at=utcnow())
    for tid, cap in ((t1, "cap1"), (t2, "cap2"), (wait, "capw"), (gone, "capx")):
        team = db.get(Team, tid)
        team.captain_id = make_user(db, cap).id
        db.add(team)
        db.commit()
        add_member(db, tid, team.captain_id)
    people = {name: make_user(db, name) for name in ("ann", "ben", "cal", "dee", "eve", "wes", "xan")}
    for name, tid in (("ann", t1), ("ann", t2), ("ben", t2), ("cal", t1), ("dee", t1), ("eve", t1), ("wes", wait),
                      ("xan", gone)):  # fmt: skip
        add_member(db, tid, people[name])
    remove_member(db, t1, people["cal"].id)
    people["dee"].active = False
    people["eve"].email = ""
    db.add_all([people["dee"], people["eve"]])
    db.commit()
    w |= {"t1": t1, "t2": t2, "wait": wait, "gone": gone}
    return w


def _sent(db) -> list[str]:
    found = db.exec(select(OutboxMessage.to_addr).where(OutboxMessage.kind == "league_message")).all()
    return sorted(a.split("@")[0] for a in found)


def test_all_players_reaches_each_rostered_player_once(world):
    db, lg = world["db"], world["lg"]
    found = league_messages.preview(db, world["a"], lg.id, audience="players", **MAIL)
    assert found["count"] == 4 and found["who"] == "every player on the league's rosters"
    n = league_messages.send(db, world["a"], lg.id, audience="players", confirmed="4", **MAIL)
    db.commit()
    assert n == 4 and _sent(db) == ["ann", "ben", "cap1", "cap2"]  # not cal (left), dee, eve, wes, xan
    entry = db.exec(select(AuditEntry).where(AuditEntry.action == "message")).one()
    assert entry.summary.startswith("Email to every player on the league's rosters, Monday C 6s (4)")


def test_one_teams_members_even_on_the_waitlist(world):
    db, lg = world["db"], world["lg"]
    found = league_messages.preview(db, world["a"], lg.id, audience="team", team=str(world["t1"]), **MAIL)
    assert found["count"] == 2 and found["who"] == "the members of T1"  # cap1 and ann
    league_messages.send(db, world["a"], lg.id, audience="team", team=world["wait"], confirmed=2, **MAIL)
    assert _sent(db) == ["capw", "wes"]


def test_captains_only_is_as_before(world):
    db, lg = world["db"], world["lg"]
    assert league_messages.preview(db, world["a"], lg.id, audience="captains", **MAIL)["count"] == 2
    assert league_messages.preview(db, world["a"], lg.id, **MAIL)["count"] == 2
    assert league_messages.preview(db, world["a"], lg.id, team=world["t2"], **MAIL)["who"] == "the captain of T2"


@pytest.mark.parametrize(("audience", "team", "field"), [
    ("team", "", "team"), ("team", "99999", "team"), ("players", "T1", "team"), ("everyone", "", "audience"),
])  # fmt: skip
def test_an_audience_that_does_not_fit_is_named_at_its_field(world, audience, team, field):
    db, lg = world["db"], world["lg"]
    team = world["t1"] if team == "T1" else team
    with pytest.raises(Invalid) as caught:
        league_messages.preview(db, world["a"], lg.id, audience=audience, team=team, **MAIL)
    assert field in caught.value.errors


def test_a_withdrawn_team_or_one_without_addresses_gets_nothing(world):
    db, lg = world["db"], world["lg"]
    with pytest.raises(Invalid) as caught:
        league_messages.preview(db, world["a"], lg.id, audience="team", team=world["gone"], **MAIL)
    assert "team" in caught.value.errors
    [empty] = add_teams(db, lg, 1, prefix="E")
    eve = db.exec(select(User).where(User.username == "eve")).one()
    add_member(db, empty, eve)
    with pytest.raises(Invalid, match="nobody on these rosters"):
        league_messages.preview(db, world["a"], lg.id, audience="team", team=empty, **MAIL)


@pytest.mark.parametrize(("who", "error"), [("b", Forbidden), ("p", Forbidden), (None, Unauthorized)])
def test_others_cannot_mail_the_players(world, who, error):
    db, lg = world["db"], world["lg"]
    before = snapshot(db)
    with pytest.raises(error):
        league_messages.preview(db, world[who] if who else None, lg.id, audience="players", **MAIL)
    with pytest.raises(error):
        league_messages.send(db, world[who] if who else None, lg.id, audience="players", confirmed=4, **MAIL)
    db.rollback()
    assert snapshot(db) == before


@pytest.mark.parametrize("who", ["anon", "pat", "svlb", "svla", "root"])
async def test_the_page_sends_to_all_players_for_operators_only(world, who):
    db, lg = world["db"], world["lg"]
    token = None if who == "anon" else login_token(db, who)
    _root, state = page_state(page.LeagueMessageState, f"/dash/leagues/{lg.id}/message", token)
    await drain(state.choose_audience("players"))
    await drain(state.review({"audience": "players", "team": "", **MAIL}))
    await drain(state.send())
    if who in ("svla", "root"):
        assert state.notice == "Queued to 4 people." and len(_sent(db)) == 4
    else:
        assert _sent(db) == [] and state.error in ("Unauthorized", "No access")
