"""Rosters over HTTP: the roster as members and operators read it, an invitation sent, withdrawn and answered,
leaving, removing and roles, a league's rosters a page at a time. Bad input gets 4xx in words, never a 500."""

from __future__ import annotations

import re

from tests.api import world as w
from tests.factories import actor_of, count, rows
from volley_app import routes
from volley_app.models import InvitationStatus, MemberRole, OutboxMessage, Team, TeamInvitation, TeamMember, User
from volley_app.services.teams import invitations


def _add(x: dict, role: str, member_role: MemberRole = MemberRole.PLAYER) -> None:
    db = x["db"]
    db.add(TeamMember(team_id=x["team"], user_id=x["users"][role], role=member_role))
    db.commit()


async def test_a_member_reads_the_roster_and_a_stranger_is_refused(db):
    x = w.build(db)
    _add(x, "other_player")
    async with w.client() as c:
        got = await c.get(f"/api/teams/{x['team']}/roster", headers=w.headers(x, "other_player"))
        assert got.status_code == 200, got.text
        body = got.json()
        assert [m["username"] for m in body["members"]] == ["pat", "quinn"]
        assert [m["role"] for m in body["members"]] == ["Captain", "Player"]
        assert body["teamName"] == "T1" and body["canLeave"] and not body["canManage"]
        got = await c.get(f"/api/teams/{x['team']}/roster", headers=w.headers(x, "other_svl"))
        assert got.status_code == 403
        got = await c.get("/api/teams/nope/roster", headers=w.headers(x, "player"))
        assert got.status_code == 404


async def test_the_captain_invites_withdraws_and_a_bad_address_is_named(db):
    x = w.build(db)
    async with w.client() as c:
        sent = await c.post(f"/api/teams/{x['team']}/invitations", json={"to": "friend@example.com"},
                            headers=w.headers(x, "player"))  # fmt: skip
        assert sent.status_code == 201, sent.text
        assert sent.json()["status"] == "Pending"
        again = await c.post(f"/api/teams/{x['team']}/invitations", json={"to": "friend@example.com"},
                             headers=w.headers(x, "player"))  # fmt: skip
        assert again.status_code == 422 and "already has an invitation" in again.json()["errors"]["to"]
        for bad in ({"to": ""}, {"to": 5}, {}, {"to": "x@y"}):
            got = await c.post(f"/api/teams/{x['team']}/invitations", json=bad, headers=w.headers(x, "player"))
            assert got.status_code == 422, (bad, got.text)
        inv_id = sent.json()["id"]
        gone = await c.delete(f"/api/teams/{x['team']}/invitations/{inv_id}", headers=w.headers(x, "player"))
        assert gone.status_code == 200 and gone.json()["status"] == "Withdrawn"
        twice = await c.delete(f"/api/teams/{x['team']}/invitations/{inv_id}", headers=w.headers(x, "player"))
        assert twice.status_code == 422
    assert [i.status for i in rows(db, TeamInvitation)] == [InvitationStatus.WITHDRAWN]
    assert count(db, OutboxMessage, OutboxMessage.to_addr == "friend@example.com") == 1


async def test_an_invited_player_joins_by_the_link_and_leaves(db):
    x = w.build(db)
    [pat] = rows(db, User, User.id == x["users"]["player"])
    invitations.invite(db, actor_of(pat), x["team"], to="quinn")
    db.commit()
    body = [m for m in rows(db, OutboxMessage) if m.to_addr == "quinn@example.com"][-1].body_text
    token = re.search(re.escape(routes.TEAM_JOIN) + r"/(\S+)", body).group(1)
    [quinn] = rows(db, User, User.id == x["users"]["other_player"])
    assert invitations.join(db, actor_of(quinn), token) == x["team"]
    db.commit()
    async with w.client() as c:
        left = await c.post(f"/api/teams/{x['team']}/leave", headers=w.headers(x, "other_player"))
        assert left.status_code == 200, left.text
        captain = await c.post(f"/api/teams/{x['team']}/leave", headers=w.headers(x, "player"))
        assert captain.status_code == 422 and "Hand the captaincy" in captain.json()["message"]
    assert count(db, TeamMember, TeamMember.user_id == quinn.id) == 1
    assert rows(db, TeamMember, TeamMember.user_id == quinn.id)[0].left_at is not None


async def test_roles_and_removal_by_the_captain_and_the_operator(db):
    x = w.build(db)
    _add(x, "other_player")
    path = f"/api/teams/{x['team']}/members/{x['users']['other_player']}"
    async with w.client() as c:
        got = await c.patch(path, json={"role": "Co-captain"}, headers=w.headers(x, "player"))
        assert got.status_code == 200, got.text
        assert [m["role"] for m in got.json()["members"]] == ["Captain", "Co-captain"]
        bad = await c.patch(path, json={"role": "Boss"}, headers=w.headers(x, "player"))
        assert bad.status_code == 422
        handed = await c.patch(path, json={"role": "Captain"}, headers=w.headers(x, "svl"))
        assert handed.status_code == 200, handed.text
        assert rows(db, Team, Team.id == x["team"])[0].captain_id == x["users"]["other_player"]
        refused = await c.delete(path, headers=w.headers(x, "admin"))
        assert refused.status_code == 422  # the captain is not removed
        pat = f"/api/teams/{x['team']}/members/{x['users']['player']}"
        removed = await c.delete(pat, headers=w.headers(x, "other_player"))
        assert removed.status_code == 200, removed.text
        assert [m["username"] for m in removed.json()["members"]] == ["quinn"]


async def test_the_operator_pages_the_league_rosters(db):
    x = w.build(db)
    async with w.client() as c:
        got = await c.get(f"/api/leagues/{x['lg']}/rosters?size=1", headers=w.headers(x, "svl"))
        assert got.status_code == 200, got.text
        assert len(got.json()) == 1 and got.headers["X-Total-Count"] == "3" and got.headers.get("X-Next-Page")
        found = await c.get(f"/api/leagues/{x['lg']}/rosters?search=T2", headers=w.headers(x, "svl"))
        assert [r["teamName"] for r in found.json()] == ["T2"]
        refused = await c.get(f"/api/leagues/{x['lg']}/rosters", headers=w.headers(x, "player"))
        assert refused.status_code == 403
