"""The roster's handlers on the team page, the join page, sign-up from a link and the league's rosters page, as any
browser may call them: the wrong caller is refused and the database is as before."""

from __future__ import annotations

import re

import pytest

from tests.factories import actor_of, add_teams, count, league_world, login_token, make_user, rows
from tests.harness import call_handler, redirect_target
from volley_app import routes
from volley_app.models import (
    AuditEntry,
    InvitationStatus,
    LedgerEntry,
    MemberRole,
    OutboxMessage,
    Team,
    TeamInvitation,
    TeamMember,
)
from volley_app.pages.auth.join import JoinState
from volley_app.pages.auth.signup import SignupState
from volley_app.pages.dash.leagues.rosters import LeagueRostersState
from volley_app.pages.dash.teams.edit import RosterState, TeamEditState
from volley_app.services.teams import invitations
from volley_app.state.teams import CashState

REFUSED = ("Unauthorized", "No access")
WHO = ["anon", "cap", "co", "pl", "out", "svla", "svlb", "root"]


@pytest.fixture
def world(db):
    w = league_world(db)
    cap, co, pl, out = (make_user(db, n) for n in ("cap", "coco", "play", "out"))
    (tid,) = add_teams(db, w["lg"], 1, captain_id=cap.id)
    db.add(TeamMember(team_id=tid, user_id=co.id, role=MemberRole.CO_CAPTAIN))
    db.add(TeamMember(team_id=tid, user_id=pl.id, role=MemberRole.PLAYER))
    db.commit()
    sent = invitations.invite(db, actor_of(cap), tid, to="waiting@example.com")
    db.commit()
    names = {"cap": "cap", "co": "coco", "pl": "play", "out": "out", "svla": "svla", "svlb": "svlb", "root": "root"}
    tokens = {k: login_token(db, v) for k, v in names.items()}
    return {"db": db, "tid": tid, "lid": w["lg"].id, "tokens": tokens, "inv": sent["id"],
            "ids": {"cap": cap.id, "co": co.id, "pl": pl.id, "out": out.id}}  # fmt: skip


def fingerprint(db) -> tuple:
    members = [(m.user_id, m.role, m.left_at) for m in rows(db, TeamMember)]
    return (members, [(i.id, i.status) for i in rows(db, TeamInvitation)], count(db, AuditEntry),
            count(db, OutboxMessage), [t.captain_id for t in rows(db, Team)])  # fmt: skip


async def _call(world, who, cls, path, method, *args):
    return await call_handler(world["tokens"].get(who), cls, path, method, *args)


def _cases(world) -> dict[str, tuple[frozenset[str], str, tuple]]:
    """Each change: who may make it, the handler, its arguments."""
    ids = world["ids"]
    return {
        "invite": (frozenset({"cap", "co", "svla", "root"}), "invite", ({"to": "new@example.com"},)),
        "withdraw": (frozenset({"cap", "co", "svla", "root"}), "withdraw", (str(world["inv"]),)),
        "remove": (frozenset({"cap", "co", "svla", "root"}), "remove", (str(ids["pl"]),)),
        "co-captain": (frozenset({"cap", "svla", "root"}), "change_role", (str(ids["pl"]), "Co-captain")),
        "captain": (frozenset({"cap", "svla", "root"}), "change_role", (str(ids["co"]), "Captain")),
        "leave": (frozenset({"co", "pl"}), "leave", ()),
    }


@pytest.mark.parametrize("who", WHO)
@pytest.mark.parametrize("case", ["invite", "withdraw", "remove", "co-captain", "captain", "leave"])
async def test_roster_changes_permission_table(world, case, who):
    db = world["db"]
    allowed, method, args = _cases(world)[case]
    before = fingerprint(db)
    state, _events = await _call(world, who, RosterState, f"/dash/teams/{world['tid']}", method, *args)
    after = fingerprint(db)
    if who in allowed:
        assert state.error == "" and not state.errors, (state.error, state.errors)
        assert after != before
    else:
        assert after == before
        assert state.error or state.errors


@pytest.mark.parametrize("who", WHO)
async def test_the_team_page_shows_the_roster_to_members_and_the_operator(world, who):
    state, _ev = await _call(world, who, TeamEditState, f"/dash/teams/{world['tid']}", "load")
    roster = await state.get_state(RosterState)
    if who in ("cap", "co", "pl", "svla", "root"):
        assert [m["username"] for m in roster.members] == ["cap", "coco", "play"]
        assert roster.may["can_manage"] is (who != "pl")
        assert [i["email"] for i in roster.invitations] == ([] if who == "pl" else ["waiting@example.com"])
    else:
        assert roster.members == [] and state.error in REFUSED and state.team == {}


async def test_leaving_goes_to_the_teams_list(world):
    _state, events = await _call(world, "pl", RosterState, f"/dash/teams/{world['tid']}", "leave")
    assert redirect_target(events) == routes.TEAMS


def _token(db, email: str) -> str:
    body = [m for m in rows(db, OutboxMessage) if m.to_addr == email][-1].body_text
    found = re.search(re.escape(routes.TEAM_JOIN) + r"/(\S+)", body)
    assert found
    return found.group(1)


async def test_the_join_page_says_what_to_do_next(world):
    db = world["db"]
    token = _token(db, "waiting@example.com")
    path = routes.team_join_path(token)
    state, _ev = await _call(world, "anon", JoinState, path, "load")
    assert state.status == "signup" and state.invitation["team"] == "T1"
    assert state.invitation["signup_href"] == f"{routes.SIGNUP}?join={token}"
    assert state.invitation["login_href"] == routes.login_with_next(path)
    state, _ev = await _call(world, "out", JoinState, path, "load")
    assert state.status == "join"
    state, _ev = await _call(world, "pl", JoinState, path, "load")
    assert state.status == "member"
    state, _ev = await _call(world, "anon", JoinState, routes.team_join_path("1.2.forged"), "load")
    assert state.status == "invalid" and "not valid" in state.link_error


async def test_joining_from_the_page_once_and_nobody_logged_in_is_refused(world):
    db = world["db"]
    token = _token(db, "waiting@example.com")
    path = routes.team_join_path(token)
    before = fingerprint(db)
    state, events = await _call(world, "anon", JoinState, path, "join")
    assert state.error in REFUSED and fingerprint(db) == before
    _state, events = await _call(world, "out", JoinState, path, "join")
    assert redirect_target(events) == routes.team_path(world["tid"])
    _state, events = await _call(world, "out", JoinState, path, "join")  # a second tap
    assert redirect_target(events) == routes.team_path(world["tid"])
    assert count(db, TeamMember, TeamMember.user_id == world["ids"]["out"]) == 1
    state, _ev = await _call(world, "svlb", JoinState, path, "join")
    assert "already been used" in state.error
    assert count(db, TeamMember) == 4


async def test_signing_up_from_a_link_fills_the_address_and_joins(world):
    db = world["db"]
    token = _token(db, "waiting@example.com")
    path = f"{routes.SIGNUP}?join={token}"
    state, events = await _call(world, "anon", SignupState, path, "load")
    assert state.joining and "waiting@example.com" in str(events)
    form = {"username": "waiting", "password": "pass1234", "email": "waiting@example.com", "first_name": "Wai",
            "last_name": "Ting", "region": "KY"}  # fmt: skip
    state, events = await _call(world, "anon", SignupState, path, "signup", form)
    assert state.error == "", state.errors
    assert redirect_target(events) == routes.team_path(world["tid"])
    assert [i.status for i in rows(db, TeamInvitation)] == [InvitationStatus.ACCEPTED]
    assert count(db, TeamMember) == 4


@pytest.mark.parametrize("who", WHO)
async def test_the_league_rosters_page_is_the_operators(world, who):
    state, _ev = await _call(world, who, LeagueRostersState, f"/dash/leagues/{world['lid']}/rosters", "load")
    if who in ("svla", "root"):
        assert [m["username"] for m in state.members] == ["cap", "coco", "play"] and state.error == ""
    else:
        assert state.members == [] and state.error


# --- cash on the team's page ---------------------------------------------------------------------------------


def _cash(db) -> list[tuple[int, str]]:
    return [(e.amount_cents, e.reason) for e in rows(db, LedgerEntry, LedgerEntry.kind == "cash")]


@pytest.mark.parametrize("who", WHO)
async def test_only_the_leagues_operator_records_cash_and_once_per_form(world, who):
    db = world["db"]
    path = routes.team_path(world["tid"])
    form = {"amount": "40", "note": "Paid at the net", "key": "form-key-0001"}
    before = fingerprint(db)
    state, _ = await _call(world, who, CashState, path, "record", form)
    db.expire_all()
    if who not in ("svla", "root"):
        assert _cash(db) == [] and fingerprint(db) == before
        assert state.error in REFUSED and state.notice == ""
        return
    assert _cash(db) == [(4000, "Paid at the net")] and state.notice == "$40 in cash recorded for T1."
    await _call(world, who, CashState, path, "record", form)  # the same form sent again
    state, _ = await _call(world, who, CashState, path, "record", form | {"amount": "0"})
    db.expire_all()
    assert _cash(db) == [(4000, "Paid at the net")] and state.errors == {"amount": "Amount must be more than $0"}
