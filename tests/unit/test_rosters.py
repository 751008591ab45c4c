"""Rosters: who sees and changes a team's members, the league's rules, and invitations by a signed link."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from tests.factories import actor_of, add_game, add_league, add_teams, count, league_world, make_user, rows
from volley_app import routes
from volley_app.models import (
    AuditEntry,
    Gender,
    InvitationStatus,
    League,
    LeagueFormat,
    MemberRole,
    OutboxMessage,
    Team,
    TeamInvitation,
    TeamMember,
    User,
    utcnow,
)
from volley_app.services.core.errors import BadRequest, Forbidden, Invalid, NotFound, RateLimited, Unauthorized
from volley_app.services.operations import account_lifecycle, exports
from volley_app.services.seasons import leagues
from volley_app.services.teams import invitations, rosters, teams


@pytest.fixture
def world(db):
    """League A (SVL A) with team T1 captained by cap; co (co-captain) and pl (player) on it; out is on no team."""
    w = league_world(db)
    cap = make_user(db, "cap", gender=Gender.FEMALE)
    co, pl, out = make_user(db, "coco"), make_user(db, "play", gender=Gender.FEMALE), make_user(db, "out")
    (tid,) = add_teams(db, w["lg"], 1, captain_id=cap.id)
    db.add(TeamMember(team_id=tid, user_id=co.id, role=MemberRole.CO_CAPTAIN))
    db.add(TeamMember(team_id=tid, user_id=pl.id, role=MemberRole.PLAYER))
    db.commit()
    return w | {"tid": tid, "cap": actor_of(cap), "co": actor_of(co), "pl": actor_of(pl), "out": actor_of(out),
                "users": {"cap": cap, "co": co, "pl": pl, "out": out}}  # fmt: skip


def members(db, tid) -> dict[str, str]:
    db.expire_all()
    found = db.exec(
        TeamMember.__table__.select().where(TeamMember.team_id == tid, TeamMember.left_at.is_(None))  # type: ignore[attr-defined]
    ).all()
    names = {u.id: u.username for u in rows(db, User)}
    return {names[m.user_id]: m.role for m in found}


def state(db, tid) -> tuple:
    """What a refused change must leave as it was."""
    return (members(db, tid), count(db, TeamInvitation), count(db, AuditEntry), count(db, OutboxMessage),
            rows(db, Team)[0].captain_id)  # fmt: skip


# --- sizes and rules ----------------------------------------------------------------------------------------


def test_roster_sizes_come_from_the_format_unless_the_league_sets_them():
    lg = League(format=LeagueFormat.DOUBLES)
    assert leagues.roster_size(lg) == (2, 4)
    assert leagues.roster_size(League(format=LeagueFormat.QUADS)) == (4, 8)
    assert leagues.roster_size(League(format=LeagueFormat.REVERSE_QUADS)) == (4, 8)
    assert leagues.roster_size(League(format=LeagueFormat.FIVES)) == (5, 10)
    assert leagues.roster_size(League(format=LeagueFormat.SIXES)) == (6, 12)
    assert leagues.roster_size(League(format=LeagueFormat.SIXES, roster_min=7, roster_max=9)) == (7, 9)


def test_a_new_teams_captain_is_its_first_member(world):
    db = world["db"]
    assert members(db, world["tid"])["cap"] == MemberRole.CAPTAIN
    lg2 = add_league(db, world["svla"], world["sid"])
    (t2,) = add_teams(db, lg2, 1, captain_id=world["pl"].user_id)
    assert members(db, t2) == {"play": MemberRole.CAPTAIN}


# --- reading -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["cap", "co", "pl", "a", "admin"])
def test_members_and_the_operator_see_the_roster(world, who):
    r = rosters.roster(world["db"], world[who], world["tid"])
    assert [m["username"] for m in r["members"]] == ["cap", "coco", "play"]
    assert [m["role"] for m in r["members"]] == ["Captain", "Co-captain", "Player"]
    assert r["count"] == 3 and r["largest"] == 12 and not r["full"]


@pytest.mark.parametrize("who", ["out", "b", "p"])
def test_others_do_not_see_the_roster(world, who):
    with pytest.raises(Forbidden):
        rosters.roster(world["db"], world[who], world["tid"])


def test_nobody_logged_in_sees_nothing(world):
    with pytest.raises(Unauthorized):
        rosters.roster(world["db"], None, world["tid"])
    with pytest.raises(NotFound):
        rosters.roster(world["db"], world["cap"], 99999)


def test_the_roster_says_whether_it_can_meet_the_women_on_court_rule(world):
    db, lg = world["db"], world["lg"]
    assert rosters.roster(db, world["cap"], world["tid"])["gender_note"] == ""
    lg.women_on_court = 2
    db.add(lg)
    db.commit()
    r = rosters.roster(db, world["cap"], world["tid"])
    assert (r["women"], r["women_needed"]) == (2, 2) and r["gender_note"].startswith("Meets")
    lg.women_on_court = 3
    db.add(lg)
    db.commit()
    assert rosters.roster(db, world["cap"], world["tid"])["gender_note"].startswith("Short")


def test_what_each_reader_may_do_to_each_member(world):
    db, tid = world["db"], world["tid"]
    by_cap = {m["username"]: m for m in rosters.roster(db, world["cap"], tid)["members"]}
    assert by_cap["coco"]["can_remove"] and by_cap["play"]["can_remove"] and not by_cap["cap"]["can_remove"]
    assert by_cap["play"]["can_make_co_captain"] and by_cap["coco"]["can_make_player"] and by_cap["play"]["can_make_captain"]
    by_co = {m["username"]: m for m in rosters.roster(db, world["co"], tid)["members"]}
    assert by_co["play"]["can_remove"] and not by_co["cap"]["can_remove"] and not by_co["play"]["can_make_captain"]
    as_pl = rosters.roster(db, world["pl"], tid)
    assert not any(m["can_remove"] for m in as_pl["members"]) and as_pl["can_leave"] and not as_pl["can_manage"]
    assert as_pl["invitations"] == []


def test_a_member_opens_the_team_page_and_sees_the_team_in_their_list(world):
    db = world["db"]
    screen = teams.team_screen(db, world["pl"], world["tid"])
    assert screen["team"]["team_name"] == "T1" and not screen["team"]["can_manage"]
    assert [t["team_name"] for t in teams.list_teams(db, world["pl"])] == ["T1"]
    assert [t["team_name"] for t in teams.teams_page(db, world["pl"]).rows] == ["T1"]
    assert teams.list_teams(db, world["out"]) == []
    with pytest.raises(Forbidden):
        teams.team_screen(db, world["out"], world["tid"])


def test_the_team_page_gives_the_teams_place_once_a_game_is_played(world):
    db, tid = world["db"], world["tid"]
    (other,) = add_teams(db, world["lg"], 1, prefix="U")
    game = add_game(db, world["lg"].id, tid, other, utcnow() - dt.timedelta(days=1), round=1, match=1)
    assert teams.team_screen(db, world["pl"], tid)["standing"] == ""  # nothing played yet: no place
    game.team1_game1_score, game.team2_game1_score, game.team1_game2_score, game.team2_game2_score = 15, 21, 18, 21
    db.add(game)
    db.commit()
    assert teams.team_screen(db, world["pl"], tid)["standing"] == "2nd of 2"


# --- leaving, removing, roles --------------------------------------------------------------------------------


def test_a_member_leaves_the_row_stays_and_the_team_is_told(world):
    db, tid = world["db"], world["tid"]
    assert rosters.leave(db, world["pl"], tid) == "T1"
    db.commit()
    assert "play" not in members(db, tid)
    left = rows(db, TeamMember, TeamMember.user_id == world["pl"].user_id)[0]
    assert left.left_at is not None and left.ended_by_id == world["pl"].user_id
    assert rows(db, AuditEntry)[-1].action == "leave"
    told = {m.to_addr for m in rows(db, OutboxMessage)}
    assert told == {world["users"]["cap"].email, world["users"]["co"].email}
    with pytest.raises((Forbidden, Invalid)):
        rosters.leave(db, world["pl"], tid)


def test_the_captain_cannot_leave_without_handing_over(world):
    db, tid = world["db"], world["tid"]
    before = state(db, tid)
    with pytest.raises(Invalid, match="Hand the captaincy"):
        rosters.leave(db, world["cap"], tid)
    db.rollback()
    assert state(db, tid) == before


def test_the_captain_removes_a_co_captain_and_the_removed_member_is_told(world):
    db, tid = world["db"], world["tid"]
    assert rosters.remove_member(db, world["cap"], tid, world["co"].user_id) == "Coco Tester"
    db.commit()
    assert set(members(db, tid)) == {"cap", "play"}
    assert world["users"]["co"].email in {m.to_addr for m in rows(db, OutboxMessage)}
    assert rows(db, AuditEntry)[-1].action == "remove"


def test_a_co_captain_removes_players_only(world):
    db, tid = world["db"], world["tid"]
    before = state(db, tid)
    with pytest.raises(Invalid, match="captain cannot be removed"):
        rosters.remove_member(db, world["co"], tid, world["cap"].user_id)
    db.rollback()
    rosters.remove_member(db, world["co"], tid, world["pl"].user_id)
    db.commit()
    assert set(members(db, tid)) == {"cap", "coco"}
    assert before[0] != members(db, tid)


@pytest.mark.parametrize("who", ["pl", "out", "b", "p"])
def test_others_cannot_remove_or_change_roles(world, who):
    db, tid = world["db"], world["tid"]
    before = state(db, tid)
    for call in (
        lambda: rosters.remove_member(db, world[who], tid, world["co"].user_id),
        lambda: rosters.set_role(db, world[who], tid, world["pl"].user_id, "Captain"),
        lambda: invitations.invite(db, world[who], tid, to="new@example.com"),
    ):
        with pytest.raises(Forbidden):
            call()
        db.rollback()
    assert state(db, tid) == before


def test_a_co_captain_does_not_change_roles(world):
    db, tid = world["db"], world["tid"]
    before = state(db, tid)
    with pytest.raises(Forbidden):
        rosters.set_role(db, world["co"], tid, world["pl"].user_id, "Co-captain")
    db.rollback()
    assert state(db, tid) == before


def test_the_captain_hands_over_the_captaincy(world):
    db, tid = world["db"], world["tid"]
    rosters.set_role(db, world["cap"], tid, world["pl"].user_id, "Captain")
    db.commit()
    assert members(db, tid) == {"cap": MemberRole.PLAYER, "coco": MemberRole.CO_CAPTAIN, "play": MemberRole.CAPTAIN}
    assert rows(db, Team)[0].captain_id == world["pl"].user_id
    rosters.leave(db, world["cap"], tid)  # no longer the captain
    db.commit()
    with pytest.raises(Forbidden):  # and no longer on the team
        rosters.set_role(db, world["cap"], tid, world["pl"].user_id, "Player")


def test_co_captains_are_made_and_unmade_and_the_captains_role_is_not_set_directly(world):
    db, tid = world["db"], world["tid"]
    rosters.set_role(db, world["cap"], tid, world["pl"].user_id, "Co-captain")
    rosters.set_role(db, world["cap"], tid, world["co"].user_id, "Player")
    db.commit()
    assert members(db, tid)["play"] == MemberRole.CO_CAPTAIN and members(db, tid)["coco"] == MemberRole.PLAYER
    before = state(db, tid)
    with pytest.raises(Invalid):
        rosters.set_role(db, world["cap"], tid, world["cap"].user_id, "Player")
    with pytest.raises(Invalid):
        rosters.set_role(db, world["cap"], tid, world["pl"].user_id, "Boss")
    with pytest.raises(NotFound):
        rosters.set_role(db, world["cap"], tid, world["out"].user_id, "Player")
    db.rollback()
    assert state(db, tid) == before


def test_the_operator_manages_the_roster(world):
    db, tid = world["db"], world["tid"]
    rosters.set_role(db, world["a"], tid, world["co"].user_id, "Captain")
    rosters.remove_member(db, world["admin"], tid, world["pl"].user_id)
    db.commit()
    assert members(db, tid) == {"cap": MemberRole.PLAYER, "coco": MemberRole.CAPTAIN}


# --- invitations ---------------------------------------------------------------------------------------------


def link_token(db, email: str) -> str:
    db.expire_all()
    body = [m for m in rows(db, OutboxMessage) if m.to_addr == email][-1].body_text
    found = re.search(re.escape(routes.TEAM_JOIN) + r"/([^\s]+)", body)
    assert found
    return found.group(1)


def test_an_invitation_by_email_lets_a_new_person_sign_up_and_join(world):
    db, tid = world["db"], world["tid"]
    sent = invitations.invite(db, world["co"], tid, to="  New@Example.com ")
    db.commit()
    assert sent["email"] == "new@example.com" and sent["status"] == "Pending"
    token = link_token(db, "new@example.com")
    view = invitations.preview(db, None, token)
    assert (view["team_name"], view["next"], view["email"]) == ("T1", invitations.SIGNUP, "new@example.com")
    assert invitations.invited_email(db, token) == "new@example.com"
    done = invitations.signup_and_join(db, join_token=token, username="newbie", password="pass1234",
                                       email="new@example.com", first_name="New", last_name="Person", region="KY")  # fmt: skip
    db.commit()
    assert done.team_id == tid and done.message == ""
    assert members(db, tid)["newbie"] == MemberRole.PLAYER
    inv = rows(db, TeamInvitation)[0]
    assert inv.status == InvitationStatus.ACCEPTED and inv.joined_user_id == done.login.actor.user_id
    with pytest.raises(BadRequest, match="already been used"):
        invitations.preview(db, world["out"], token)


def test_an_invitation_by_username_joins_in_one_tap_and_a_double_tap_makes_one_membership(world):
    db, tid = world["db"], world["tid"]
    invitations.invite(db, world["cap"], tid, to="OUT")
    db.commit()
    token = link_token(db, world["users"]["out"].email)
    assert invitations.preview(db, None, token)["next"] == invitations.LOGIN
    assert invitations.preview(db, world["out"], token)["next"] == invitations.JOIN
    with pytest.raises(BadRequest, match="another account"):
        invitations.preview(db, world["b"], token)
    assert invitations.join(db, world["out"], token) == tid
    db.commit()
    assert invitations.join(db, world["out"], token) == tid
    db.commit()
    assert count(db, TeamMember, TeamMember.user_id == world["out"].user_id) == 1
    assert invitations.preview(db, world["out"], token)["next"] == invitations.MEMBER


def test_another_account_cannot_use_a_username_invitation(world):
    db, tid = world["db"], world["tid"]
    invitations.invite(db, world["cap"], tid, to="out")
    db.commit()
    token = link_token(db, world["users"]["out"].email)
    with pytest.raises(Forbidden):
        invitations.join(db, world["p"], token)
    db.rollback()
    assert "pat" not in members(db, tid) and rows(db, TeamInvitation)[0].status == InvitationStatus.PENDING


def test_a_used_link_is_refused_to_someone_else(world):
    db, tid = world["db"], world["tid"]
    invitations.invite(db, world["cap"], tid, to="friend@example.com")
    db.commit()
    token = link_token(db, "friend@example.com")
    invitations.join(db, world["out"], token)
    db.commit()
    with pytest.raises(BadRequest, match="already been used"):
        invitations.join(db, world["p"], token)


def test_withdrawn_expired_and_forged_links_say_so(world):
    db, tid = world["db"], world["tid"]
    sent = invitations.invite(db, world["cap"], tid, to="w@example.com")
    db.commit()
    token = link_token(db, "w@example.com")
    with pytest.raises(Forbidden):
        invitations.withdraw(db, world["pl"], tid, sent["id"])
    db.rollback()
    invitations.withdraw(db, world["cap"], tid, sent["id"])
    db.commit()
    with pytest.raises(Invalid):
        invitations.withdraw(db, world["cap"], tid, sent["id"])
    db.rollback()
    for call in (lambda: invitations.preview(db, world["out"], token), lambda: invitations.join(db, world["out"], token)):
        with pytest.raises(BadRequest, match="withdrew"):
            call()
    assert invitations.invited_email(db, token) == ""
    later = utcnow() + dt.timedelta(days=invitations.VALID_DAYS + 1)
    invitations.invite(db, world["cap"], tid, to="e@example.com")
    db.commit()
    token2 = link_token(db, "e@example.com")
    with pytest.raises(BadRequest, match="expired"):
        invitations.join(db, world["out"], token2, now=later)
    for bad in ("", "x", "1.2.3", token2[:-2] + "00", "9999." + token2.split(".", 1)[1], None, 5):
        with pytest.raises(NotFound):
            invitations.preview(db, None, bad)
    db.rollback()
    assert "out" not in members(db, tid)


def test_a_full_roster_refuses_invitations_and_joins(world):
    db, tid, lg = world["db"], world["tid"], world["lg"]
    invitations.invite(db, world["cap"], tid, to="late@example.com")
    db.commit()
    token = link_token(db, "late@example.com")
    lg.roster_max = 3
    db.add(lg)
    db.commit()
    before = state(db, tid)
    with pytest.raises(Invalid, match="roster is full"):
        invitations.invite(db, world["cap"], tid, to="more@example.com")
    db.rollback()
    with pytest.raises(BadRequest, match="roster is full"):
        invitations.preview(db, world["out"], token)
    with pytest.raises(Invalid, match="roster is full"):
        invitations.join(db, world["out"], token)
    db.rollback()
    assert state(db, tid) == before
    assert rows(db, TeamInvitation)[0].status == InvitationStatus.PENDING


def test_a_player_is_on_one_team_of_a_league_unless_it_allows_more(world):
    db, tid, lg = world["db"], world["tid"], world["lg"]
    (t2,) = add_teams(db, lg, 1, prefix="U", captain_id=world["p"].user_id)
    invitations.invite(db, world["p"], t2, to="play")
    db.commit()
    token = link_token(db, world["users"]["pl"].email)
    with pytest.raises(Invalid, match="most one player may be on"):
        invitations.join(db, world["pl"], token)
    db.rollback()
    assert "play" not in members(db, t2)
    lg.teams_per_player = 2
    db.add(lg)
    db.commit()
    assert invitations.join(db, world["pl"], token) == t2
    db.commit()
    assert "play" in members(db, t2) and "play" in members(db, tid)


def test_inviting_twice_or_a_member_is_refused(world):
    db, tid = world["db"], world["tid"]
    invitations.invite(db, world["cap"], tid, to="twice@example.com")
    db.commit()
    with pytest.raises(Invalid, match="already has an invitation"):
        invitations.invite(db, world["cap"], tid, to="twice@example.com")
    with pytest.raises(Invalid, match="already on"):
        invitations.invite(db, world["cap"], tid, to="play")
    with pytest.raises(Invalid, match="No player has that username"):
        invitations.invite(db, world["cap"], tid, to="nobody")
    with pytest.raises(Invalid, match="valid email"):
        invitations.invite(db, world["cap"], tid, to="a@b")
    db.rollback()
    assert count(db, TeamInvitation) == 1


def test_invitations_are_rate_limited(world):
    db, tid = world["db"], world["tid"]
    with pytest.raises(RateLimited):
        for i in range(30):
            invitations.invite(db, world["cap"], tid, to=f"p{i}@example.com")
            db.commit()
    db.rollback()
    assert count(db, TeamInvitation) == 20


def test_the_roster_lists_pending_invitations_for_those_who_manage_it(world):
    db, tid = world["db"], world["tid"]
    invitations.invite(db, world["cap"], tid, to="inv@example.com")
    db.commit()
    assert [i["email"] for i in rosters.roster(db, world["co"], tid)["invitations"]] == ["inv@example.com"]
    assert rosters.roster(db, world["pl"], tid)["invitations"] == []


def test_a_signup_whose_link_no_longer_joins_keeps_the_account_and_says_why(world):
    db, tid = world["db"], world["tid"]
    sent = invitations.invite(db, world["cap"], tid, to="gone@example.com")
    db.commit()
    token = link_token(db, "gone@example.com")
    invitations.withdraw(db, world["cap"], tid, sent["id"])
    db.commit()
    done = invitations.signup_and_join(db, join_token=token, username="gone", password="pass1234",
                                       email="gone@example.com", first_name="G", last_name="One", region="KY")  # fmt: skip
    db.commit()
    assert done.team_id is None and "withdrew" in done.message
    assert count(db, User, User.username == "gone") == 1 and "gone" not in members(db, tid)


# --- the operator's view, the export, an account's end -------------------------------------------------------


def test_the_operator_pages_and_searches_the_league_rosters(world):
    db = world["db"]
    page = rosters.league_rosters(db, world["a"], league_id=world["lg"].id, size=2)
    assert [r["username"] for r in page.rows] == ["cap", "coco"] and page.next
    assert [r["username"] for r in rosters.league_rosters(db, world["a"], league_id=world["lg"].id,
                                                           filters={"q": "PLA"}).rows] == ["play"]  # fmt: skip
    for who in ("b", "p", "cap"):
        with pytest.raises(Forbidden):
            rosters.league_rosters(db, world[who], league_id=world["lg"].id)


def test_the_rosters_export(world):
    got = exports.export(world["db"], world["a"], world["lg"].id, "rosters")
    text = got["data"].decode("utf-8-sig")
    assert text.splitlines()[0].startswith("Team,Role,Name") and "coco@example.com" in text


def test_an_account_on_a_roster_is_archived_not_deleted(world):
    db = world["db"]
    assert account_lifecycle.account_history(db, world["pl"].user_id) == "teams"
