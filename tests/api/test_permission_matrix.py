"""Every API route × every kind of caller: the allowed ones get through, the others are refused and change nothing.

The routes come from the app's route table; a route without an entry here fails
``test_every_route_has_an_entry``, so a new route cannot go unchecked.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable

import pytest

from tests.api import world as w
from tests.factories import actor_of, add_league, add_member, add_teams, add_waiver, rows
from volley_app.api.app import create_api
from volley_app.api.routes import route_table
from volley_app.api.routes.common import ADMIN, ANYONE, LOGGED_IN, OPERATOR, PLAYER
from volley_app.db import call as db_call
from volley_app.models import NEWSLETTER_SECTIONS, League, MemberRole, SubRequest, Team, TeamMember, User, utcnow
from volley_app.services.mail import notices
from volley_app.services.money import discounts
from volley_app.services.subs import request_changes, request_replies
from volley_app.services.teams import free_agents, invitations, registration, shares

P, Q, S, T, A = "player", "other_player", "svl", "other_svl", "admin"
EVERYONE = frozenset(w.ROLES)
USERS = frozenset({P, Q, S, T, A})
OPERATORS = frozenset({S, A})
SUB_PEOPLE = frozenset({P, Q, A})  # who may use sub requests: players and admins


@dataclasses.dataclass(frozen=True)
class Entry:
    allowed: frozenset[str]
    call: Callable[[dict], tuple[str, dict | None]]  # the world -> (path, json body)
    ok: tuple[int, ...] = (200, 201, 204)  # what the first allowed caller gets


def _issue() -> dict:
    return {f"{s}_{part}": ("https://example.com/x" if part == "link" else "News") for s in NEWSLETTER_SECTIONS
            for part in ("link", "blurb")}  # fmt: skip


LEAGUE_FORM = {"court": "Court 3", "startDateTime": "2031-01-06T18:30", "numberOfWeeks": 8, "timeIncrement": 50,
               "skillLevel": "B", "format": "6s", "day": "Monday", "maxTeams": 8, "cost": "300"}  # fmt: skip
NOTE = {"team": "T1", "date": "2031-01-06T19:00", "svl": "Gym", "skillLevel": "C", "format": "6s"}
NEEDS = {"playersNeeded": 2, "positionNeeded": "Setter", "genderNeeded": "Female", "minRating": "B"}

MATRIX: dict[tuple[str, str], Entry] = {
    ("POST", "/api/auth"): Entry(EVERYONE, lambda x: ("/api/auth", {"username": "pat", "password": x["password"]})),
    # No refresh cookie in these calls: everyone is told the login has expired (the token tests refresh for real).
    ("GET", "/api/auth/refresh"): Entry(EVERYONE, lambda x: ("/api/auth/refresh", None), ok=(403,)),
    ("POST", "/api/auth/logout"): Entry(EVERYONE, lambda x: ("/api/auth/logout", None)),
    ("POST", "/api/auth/logout/all"): Entry(USERS, lambda x: ("/api/auth/logout/all", None)),
    ("POST", "/api/users"): Entry(EVERYONE, lambda x: ("/api/users", {
        "username": "newbie", "password": "pass1", "email": "newbie@example.com", "firstName": "New",
        "lastName": "Bie", "region": "KY"})),  # fmt: skip
    ("GET", "/api/users"): Entry(frozenset({A}), lambda x: ("/api/users", None)),
    ("GET", "/api/users/me"): Entry(USERS, lambda x: ("/api/users/me", None)),
    ("GET", "/api/users/{user_id}"): Entry(frozenset({P, A}), lambda x: (f"/api/users/{x['users'][P]}", None)),
    ("PATCH", "/api/users"): Entry(frozenset({P, A}), lambda x: ("/api/users", {"id": x["users"][P], "firstName": "Patty"})),
    ("DELETE", "/api/users"): Entry(frozenset({P, A}), lambda x: ("/api/users", {"id": x["users"][P]})),
    ("POST", "/api/playerContact"): Entry(USERS, lambda x: ("/api/playerContact", {"body": "Hello"})),
    ("GET", "/api/sessions"): Entry(frozenset({S, T, A}), lambda x: ("/api/sessions", None)),
    ("GET", "/api/sessions/{session_id}"): Entry(OPERATORS, lambda x: (f"/api/sessions/{x['sid']}", None)),
    ("POST", "/api/sessions"): Entry(frozenset({S, T, A}), lambda x: ("/api/sessions", {
        "name": "Winter", "startDateTime": "2031-01-01T00:00", "endDateTime": "2031-03-01T00:00",
        "svl": x["users"][S]})),  # fmt: skip
    ("PATCH", "/api/sessions"): Entry(OPERATORS, lambda x: ("/api/sessions", {
        "id": x["sid"], "name": "Fall 2", "startDateTime": "2031-01-01T00:00", "endDateTime": "2031-03-01T00:00"})),
    ("DELETE", "/api/sessions"): Entry(OPERATORS, lambda x: ("/api/sessions", {"id": x["sid"]})),
    ("GET", "/api/leagues"): Entry(USERS, lambda x: ("/api/leagues", None)),
    ("GET", "/api/leagues/{league_id}"): Entry(USERS, lambda x: (f"/api/leagues/{x['lg']}", None)),
    ("GET", "/api/leagues/{league_id}/standings"): Entry(USERS, lambda x: (f"/api/leagues/{x['lg']}/standings", None)),
    ("POST", "/api/leagues"): Entry(OPERATORS, lambda x: ("/api/leagues", LEAGUE_FORM | {"session": x["sid"]})),
    ("PATCH", "/api/leagues"): Entry(OPERATORS, lambda x: ("/api/leagues", LEAGUE_FORM | {"id": x["lg2"]})),
    ("DELETE", "/api/leagues"): Entry(OPERATORS, lambda x: ("/api/leagues", {"id": x["lg2"]})),
    ("GET", "/api/teams"): Entry(USERS, lambda x: ("/api/teams", None)),
    ("GET", "/api/teams/{team_id}"): Entry(frozenset({P, S, A}), lambda x: (f"/api/teams/{x['team']}", None)),
    ("POST", "/api/teams"): Entry(frozenset({P, Q}), lambda x: ("/api/teams", {"league": x["lg"], "teamName": "Newcomers"})),
    ("PATCH", "/api/teams"): Entry(OPERATORS, lambda x: ("/api/teams", {"id": x["team"], "wins": 1, "losses": 0,
                                                                         "reason": "A forfeit"})),  # fmt: skip
    ("DELETE", "/api/teams"): Entry(OPERATORS, lambda x: ("/api/teams", {"id": x["waiting"]})),
    ("GET", "/api/games"): Entry(USERS, lambda x: (f"/api/games?league={x['lg']}", None)),
    ("POST", "/api/games/{game_id}/subs"): Entry(frozenset({P, A}),
                                                 lambda x: (f"/api/games/{x['game']}/subs", {"team": x["game_teams"][0]})),
    ("GET", "/api/games/{game_id}"): Entry(OPERATORS, lambda x: (f"/api/games/{x['game']}", None)),
    ("POST", "/api/games"): Entry(OPERATORS, lambda x: ("/api/games", {"league": x["lg2"]})),
    ("PATCH", "/api/games"): Entry(OPERATORS, lambda x: ("/api/games", {
        "id": x["game"], "team1Game1Score": 21, "team2Game1Score": 15, "team1Game2Score": 21, "team2Game2Score": 17})),
    ("GET", "/api/notes"): Entry(SUB_PEOPLE, lambda x: ("/api/notes", None)),
    ("GET", "/api/notes/{note_id}"): Entry(SUB_PEOPLE, lambda x: (f"/api/notes/{x['note']}", None)),
    ("POST", "/api/notes"): Entry(SUB_PEOPLE, lambda x: ("/api/notes", NOTE)),
    ("PATCH", "/api/notes"): Entry(frozenset({P}), lambda x: ("/api/notes", NOTE | {"id": x["note"], "team": "T2"})),
    ("DELETE", "/api/notes"): Entry(frozenset({P}), lambda x: ("/api/notes", {"id": x["note"]})),
    ("POST", "/api/acceptedRequest"): Entry(frozenset({Q, A}), lambda x: ("/api/acceptedRequest", {"id": x["note"]})),
    ("POST", "/api/declinedRequest"): Entry(frozenset({Q}), lambda x: ("/api/declinedRequest", {"id": x["invite"]})),
    ("POST", "/api/receivedRequest"): Entry(frozenset({P}), lambda x: ("/api/receivedRequest", {"id": x["invite"]})),
    ("POST", "/api/withdrawnRequest"): Entry(frozenset({Q}), lambda x: ("/api/withdrawnRequest", {"id": _taken(x, Q)})),
    ("POST", "/api/contact"): Entry(EVERYONE, lambda x: ("/api/contact", {"name": "Ann", "email": "ann@example.com",
                                                                         "body": "Hi"})),  # fmt: skip
    ("POST", "/api/host"): Entry(EVERYONE, lambda x: ("/api/host", {
        "sVLName": "Gym", "email": "gym@example.com", "phone": "859-555-0100", "address": "1 Main St",
        "city": "Lexington", "region": "KY", "zip": "40507"})),  # fmt: skip
    ("POST", "/api/promote"): Entry(EVERYONE, lambda x: ("/api/promote", {
        "why": "Pads", "companyName": "Pads Inc", "phone": "859-555-0100", "email": "pads@example.com"})),
    ("POST", "/api/franchise"): Entry(EVERYONE, lambda x: ("/api/franchise", {
        "phone": "859-555-0100", "city": "Louisville", "region": "KY", "message": "Hello", "name": "Sam",
        "email": "sam@example.com"})),  # fmt: skip
    ("GET", "/api/newsletter"): Entry(frozenset({A}), lambda x: ("/api/newsletter", None)),
    ("POST", "/api/newsletter"): Entry(EVERYONE, lambda x: ("/api/newsletter", {"email": "new.fan@example.com"})),
    ("DELETE", "/api/newsletter"): Entry(frozenset({A}), lambda x: ("/api/newsletter", {"id": x["subscriber"]})),
    ("POST", "/api/newsletterTest"): Entry(frozenset({A}), lambda x: ("/api/newsletterTest",
                                                                      {"email": "fan@example.com", **_issue()})),
    ("POST", "/api/emailAll"): Entry(frozenset({A}), lambda x: ("/api/emailAll", {"subject": "Hi", "body": "All"})),
    ("POST", "/api/send_recovery_email"): Entry(EVERYONE, lambda x: ("/api/send_recovery_email",
                                                                     {"recipient_email": "pat@example.com"})),
    ("POST", "/api/resetPassword/{user_id}/{token}"): Entry(EVERYONE, lambda x: (
        f"/api/resetPassword/{x['reset'][0]}/{x['reset'][1]}", {"password": "brandnew1"})),
    ("POST", "/api/payment-intent"): Entry(frozenset({P}), lambda x: ("/api/payment-intent", {"paymentId": x["pay"]})),
    ("POST", "/api/payments/{payment_id}/card"): Entry(frozenset({P}), lambda x: (
        f"/api/payments/{x['pay']}/card", {"cardNumber": "4242424242424242", "expiry": "12/40", "cvc": "123"})),
    ("GET", "/api/sub-requests/open"): Entry(SUB_PEOPLE, lambda x: ("/api/sub-requests/open", None)),
    # No bracket was uploaded: whoever may read the league is told so (404); nobody else learns more.
    ("GET", "/api/leagues/{league_id}/bracket"): Entry(USERS, lambda x: (f"/api/leagues/{x['lg']}/bracket", None),
                                                      ok=(404,)),
    ("POST", "/api/stripe/webhook"): Entry(EVERYONE, lambda x: ("/api/stripe/webhook", {}), ok=(400, 404)),
    ("DELETE", "/api/games"): Entry(OPERATORS, lambda x: ("/api/games", {"id": x["game"]})),
    ("GET", "/api/leagues/{league_id}/waiver"): Entry(USERS, lambda x: (f"/api/leagues/{_waiver(x)}/waiver", None)),
    ("POST", "/api/leagues/{league_id}/waiver"): Entry(OPERATORS, lambda x: (f"/api/leagues/{x['lg']}/waiver",
                                                                           {"text": "Play safe."})),
    # pat is on one of the league's teams; nobody else is.
    ("POST", "/api/leagues/{league_id}/waiver/signatures"): Entry(frozenset({P}), lambda x: (
        f"/api/leagues/{_waiver(x)}/waiver/signatures", {"typedName": "Pat Tester", "adult": True})),
    ("GET", "/api/leagues/{league_id}/waiver/signatures"): Entry(OPERATORS, lambda x: (
        f"/api/leagues/{_waiver(x)}/waiver/signatures", None)),
    # pat is on the team (quinn is not): pat answers, pat, the league's SVL and an admin read its games.
    ("GET", "/api/teams/{team_id}/games"): Entry(frozenset({P, S, A}), lambda x: (
        f"/api/teams/{_member(x, P)}/games", None)),
    ("POST", "/api/games/{game_id}/rsvp"): Entry(frozenset({P}), lambda x: (
        f"/api/games/{x['game']}/rsvp", {"answer": "Out", "team": _member(x, P)})),
    ("GET", "/api/my-next-games"): Entry(USERS, lambda x: ("/api/my-next-games", None)),
    # pat captains T1; quinn is on no team unless the entry puts them on it.
    ("GET", "/api/teams/{team_id}/settings"): Entry(frozenset({P, Q, S, A}), lambda x: (
        f"/api/teams/{_on_team(x, Q)}/settings", None)),
    # a plain member (other_player, on the team) and another operator change nothing
    ("PATCH", "/api/teams/{team_id}/settings"): Entry(frozenset({P, S, A}), lambda x: (
        f"/api/teams/{_on_team(x, Q)}/settings", {"reminderDays": 5, "deadlineHours": 24})),
    ("GET", "/api/teams/{team_id}/roster"): Entry(frozenset({P, S, A}), lambda x: (f"/api/teams/{x['team']}/roster", None)),
    ("POST", "/api/teams/{team_id}/invitations"): Entry(frozenset({P, S, A}), lambda x: (
        f"/api/teams/{x['team']}/invitations", {"to": "friend@example.com"})),
    ("DELETE", "/api/teams/{team_id}/invitations/{invitation_id}"): Entry(frozenset({P, S, A}), lambda x: (
        f"/api/teams/{x['team']}/invitations/{_invitation(x)}", None)),
    # The captain may not leave before handing over (422); quinn, a player on the team, leaves.
    ("POST", "/api/teams/{team_id}/leave"): Entry(frozenset({P, Q}), lambda x: (
        f"/api/teams/{_on_team(x, Q)}/leave", None), ok=(422,)),
    ("DELETE", "/api/teams/{team_id}/members/{user_id}"): Entry(frozenset({P, S, A}), lambda x: (
        f"/api/teams/{_on_team(x, Q)}/members/{x['users'][Q]}", None)),
    ("PATCH", "/api/teams/{team_id}/members/{user_id}"): Entry(frozenset({P, S, A}), lambda x: (
        f"/api/teams/{_on_team(x, Q)}/members/{x['users'][Q]}", {"role": "Co-captain"})),
    ("GET", "/api/leagues/{league_id}/rosters"): Entry(OPERATORS, lambda x: (f"/api/leagues/{x['lg']}/rosters", None)),
    ("GET", "/api/revenue"): Entry(OPERATORS, lambda x: (f"/api/revenue?league={x['lg']}", None)),
    ("GET", "/api/revenue.csv"): Entry(OPERATORS, lambda x: (f"/api/revenue.csv?session={x['sid']}", None)),
    ("GET", "/api/payments/{payment_id}"): Entry(OPERATORS, lambda x: (f"/api/payments/{x['pay']}", None)),
    # the world's payment is still pending: its operator is told there is nothing to give back yet (422)
    ("POST", "/api/payments/{payment_id}/refunds"): Entry(OPERATORS, lambda x: (
        f"/api/payments/{x['pay']}/refunds", {"reason": "Left the team"}), ok=(422,)),
    ("GET", "/api/leagues/{league_id}/money"): Entry(OPERATORS, lambda x: (f"/api/leagues/{x['lg']}/money", None)),
    ("POST", "/api/teams/{team_id}/cash"): Entry(OPERATORS, lambda x: (f"/api/teams/{x['team']}/cash", {"amount": "300"})),
    ("GET", "/api/me/credit"): Entry(USERS, lambda x: ("/api/me/credit", None)),
    ("GET", "/api/teams/{team_id}/shares"): Entry(frozenset({P, S, A}), lambda x: (f"/api/teams/{_shared(x)}/shares", None)),
    ("POST", "/api/teams/{team_id}/shares/links"): Entry(frozenset({P, S, A}), lambda x: (
        f"/api/teams/{_shared(x)}/shares/links", None)),
    ("GET", "/api/shares/{token}"): Entry(EVERYONE, lambda x: (f"/api/shares/{_share_token(x)}", None)),
    # The share's payment is read first: every caller of the link may pay it (the link is the permission).
    ("GET", "/api/leagues/{league_id}/free-agents"): Entry(OPERATORS, lambda x: (
        f"/api/leagues/{_agents_league(x)}/free-agents", None)),
    ("POST", "/api/leagues/{league_id}/free-agents"): Entry(frozenset({P, Q}), lambda x: (
        f"/api/leagues/{_agents_league(x)}/free-agents", {"position": "Setter", "availability": "Mondays"})),
    ("POST", "/api/free-agents/{agent_id}/place"): Entry(OPERATORS, lambda x: (
        f"/api/free-agents/{_agent(x)[0]}/place", {"team": _agent(x)[1]})),
    ("POST", "/api/leagues/{league_id}/free-agents/team"): Entry(OPERATORS, lambda x: (
        f"/api/leagues/{_agents_league(x)}/free-agents/team", {"agents": [_agent(x)[0]], "captain": _agent(x)[0],
                                                                "teamName": "Strays"})),
    ("DELETE", "/api/free-agents/{agent_id}"): Entry(frozenset({Q}), lambda x: (f"/api/free-agents/{_agent(x)[0]}", None)),
    ("POST", "/api/shares/{token}/pay"): Entry(EVERYONE, lambda x: (f"/api/shares/{_share_token(x)}/pay", {
        "paymentId": _share_payment(x), "cardNumber": "4242424242424242", "expiry": "12/40", "cvc": "123"})),
    # every operator lists their own venue's codes (an admin: every venue's)
    ("GET", "/api/discount-codes"): Entry(frozenset({S, T, A}), lambda x: ("/api/discount-codes", None)),
    ("GET", "/api/discount-codes/{code_id}"): Entry(OPERATORS, lambda x: (f"/api/discount-codes/{_code(x)}", None)),
    ("POST", "/api/discount-codes"): Entry(OPERATORS, lambda x: ("/api/discount-codes", {
        "code": "MATRIX", "scope": "league", "scopeId": x["lg"], "percent": 10})),
    ("PATCH", "/api/discount-codes/{code_id}"): Entry(OPERATORS, lambda x: (
        f"/api/discount-codes/{_code(x)}", {"percent": 20, "active": False})),
    # pat's pending registration: a blank code takes none off; nothing covers its price, so confirming is refused
    ("POST", "/api/payments/{payment_id}/discount-code"): Entry(frozenset({P}), lambda x: (
        f"/api/payments/{x['pay']}/discount-code", {"code": ""})),
    ("POST", "/api/payments/{payment_id}/confirm"): Entry(frozenset({P}), lambda x: (
        f"/api/payments/{x['pay']}/confirm", None), ok=(422,)),
    ("GET", "/api/notifications"): Entry(USERS, lambda x: ("/api/notifications", None)),
    ("POST", "/api/notifications/read-all"): Entry(USERS, lambda x: ("/api/notifications/read-all", None)),
    ("POST", "/api/notifications/{notification_id}/read"): Entry(frozenset({P}), lambda x: (
        f"/api/notifications/{_notice(x)}/read", None)),
    ("GET", "/api/notification-preferences"): Entry(USERS, lambda x: ("/api/notification-preferences", None)),
    ("PUT", "/api/notification-preferences"): Entry(USERS, lambda x: (
        "/api/notification-preferences", {"email": {"schedule_change": False}})),
}  # fmt: skip
# Calls of a route with another body than its matrix entry's: each must be refused the same way.
VARIANTS: dict[str, tuple[tuple[str, str], Entry]] = {
    "POST /api/games one game": (("POST", "/api/games"), Entry(OPERATORS, lambda x: ("/api/games", {
        "league": x["lg"], "team1": x["game_teams"][1], "team2": x["game_teams"][0],
        "dateTime": "2031-01-06T18:30", "type": "League", "round": 9, "match": 1}))),
    "POST /api/notes with needs": (("POST", "/api/notes"), Entry(SUB_PEOPLE, lambda x: ("/api/notes", NOTE | NEEDS))),
    "PATCH /api/notes with needs": (("PATCH", "/api/notes"), Entry(frozenset({P}), lambda x: (
        "/api/notes", NOTE | NEEDS | {"id": x["note"]}))),
    # The notice calls as the spec's client sends them: no id, the request named by its date and location.
    "POST /api/acceptedRequest by the spec's payload": (("POST", "/api/acceptedRequest"), Entry(frozenset({Q, A}), lambda x: (
        "/api/acceptedRequest", _spec_notice(x, _later_request(x))))),
    "POST /api/declinedRequest by the spec's payload": (("POST", "/api/declinedRequest"), Entry(frozenset({Q}), lambda x: (
        "/api/declinedRequest", _spec_notice(x, x["invite"])))),
    "POST /api/receivedRequest by the spec's payload": (("POST", "/api/receivedRequest"), Entry(frozenset({P}), lambda x: (
        "/api/receivedRequest", _spec_notice(x, x["invite"]) | {"recipientEmail": "quinn@example.com", "team": "T1"}))),
    "GET /api/games without a league": (("GET", "/api/games"), Entry(USERS, lambda x: ("/api/games?size=5", None))),
}  # fmt: skip


def _waiver(x: dict) -> int:
    """The league, with a waiver its SVL wrote and pat on its first team."""
    db = x["db"]
    [svl] = rows(db, User, User.id == x["users"][S])
    add_waiver(db, actor_of(svl), x["lg"])
    add_member(db, x["team"], x["users"][P])
    return x["lg"]


def _later_request(x: dict) -> int:
    """pat's request to anyone three days on: its date and location name it alone."""
    db = x["db"]
    [pat] = rows(db, User, User.id == x["users"][P])
    when = utcnow().replace(second=0, microsecond=0) + dt.timedelta(days=3)
    rid = request_changes.create(db, actor_of(pat), team="T3", date=when, svl="Gym", skill_level="C", format="6s")
    db.commit()
    return rid


def _shared(x: dict) -> int:
    """pat's team U1 of the second league, whose fee its operator now shares among the roster."""
    db = x["db"]
    [league] = rows(db, League, League.id == x["lg2"])
    league.payment_mode, league.deposit_cents = "shares", 5000
    db.add(league)
    db.commit()
    [team] = rows(db, Team, Team.league_id == x["lg2"], Team.team_name == "U1")
    return team.id


def _agents_league(x: dict) -> int:
    """A third league of svla's, taking free agents for $20 (made once per world)."""
    if "agents_league" not in x:
        db = x["db"]
        [svl] = rows(db, User, User.id == x["users"][S])
        league = add_league(db, svl, x["sid"], start=utcnow() + dt.timedelta(days=6), court="Court 3",
                            agent_fee_cents=2000)  # fmt: skip
        x["agents_league"] = league.id
        x["agents_team"] = add_teams(db, league, 1, prefix="F", paid=True)[0]
    return x["agents_league"]


def _agent(x: dict) -> tuple[int, int]:
    """quinn, a paid free agent of the agents' league, waiting; and that league's team (made once per world)."""
    if "agent" not in x:
        lid = _agents_league(x)
        [quinn] = rows(x["db"], User, User.id == x["users"][Q])
        out = db_call(free_agents.register, actor_of(quinn), league_id=lid, position="Any")
        db_call(registration.pay_offline, actor_of(quinn), payment_id=out["payment_id"], card_number="4242424242424242",
                expiry="12/40", cvc="123")  # fmt: skip
        x["agent"] = out["agent_id"]
    return x["agent"], x["agents_team"]


def _share_token(x: dict) -> str:
    return shares.pay_token(_shared(x), x["users"][P])


def _share_payment(x: dict) -> int:
    """The payment pat's link opens for his share."""
    return db_call(shares.screen, token=_share_token(x))["payment_id"]


def _member(x: dict, role: str) -> int:
    """The team of the world's first game, with ``role`` on it."""
    add_member(x["db"], x["game_teams"][0], x["users"][role])
    return x["game_teams"][0]


def _taken(x: dict, role: str) -> int:
    """pat's open request, with a place ``role`` took."""
    db = x["db"]
    [sub] = rows(db, User, User.id == x["users"][role])
    request_replies.accept(db, actor_of(sub), x["note"])
    db.commit()
    return x["note"]


def _on_team(x: dict, role: str) -> int:
    """pat's team T1, with ``role`` on it as a player."""
    db = x["db"]
    db.add(TeamMember(team_id=x["team"], user_id=x["users"][role], role=MemberRole.PLAYER))
    db.commit()
    return x["team"]


def _code(x: dict) -> int:
    """A discount code of the league's venue (svla's), for the league."""
    db = x["db"]
    [svl] = rows(db, User, User.id == x["users"][S])
    made = discounts.create_code(db, actor_of(svl), code=f"CODE{utcnow().microsecond}", scope="league",
                                 scope_id=x["lg"], percent=10)  # fmt: skip
    db.commit()
    return made["id"]


def _invitation(x: dict) -> int:
    """A waiting invitation to pat's team T1."""
    db = x["db"]
    [pat] = rows(db, User, User.id == x["users"][P])
    sent = invitations.invite(db, actor_of(pat), x["team"], to="invited@example.com")
    db.commit()
    return sent["id"]


def _notice(x: dict) -> int:
    """A notification of pat's, unread."""
    db = x["db"]
    [pat] = rows(db, User, User.id == x["users"][P])
    made = notices.notify(db, pat, notices.SCHEDULE_CHANGE, text="T1 vs T2 moved", link="/dash", title="Game moved")
    db.commit()
    assert made.id is not None
    return made.id


def _spec_notice(x: dict, request_id: int) -> dict:
    [req] = rows(x["db"], SubRequest, SubRequest.id == request_id)
    return {"requestorEmail": "pat@example.com", "recipient": "quinn", "date": req.date.isoformat(), "svl": req.svl}


ROUTES = route_table(create_api())
KEYS = sorted({(r.method, r.path) for r in ROUTES})
LEVELS = {ANYONE: EVERYONE, LOGGED_IN: USERS, PLAYER: frozenset({P, Q}), OPERATOR: frozenset({S, T, A}),
          ADMIN: frozenset({A})}  # fmt: skip


def test_every_route_has_an_entry():
    assert set(KEYS) == set(MATRIX), {"without an entry": set(KEYS) - set(MATRIX), "gone": set(MATRIX) - set(KEYS)}


@pytest.mark.parametrize("route", ROUTES, ids=[f"{r.method} {r.path}" for r in ROUTES])
def test_the_route_table_says_who_may_call(route):
    """Each route's documented audience holds everyone the matrix lets through (the service narrows it further)."""
    assert route.access in LEVELS, route
    assert MATRIX[(route.method, route.path)].allowed <= LEVELS[route.access]


@pytest.mark.parametrize("key", KEYS, ids=[f"{m} {p}" for m, p in KEYS])
async def test_only_the_allowed_get_through(db, key):
    await _check(db, key[0], MATRIX[key])


@pytest.mark.parametrize("name", sorted(VARIANTS))
async def test_only_the_allowed_get_through_other_bodies(db, name):
    (method, path), entry = VARIANTS[name]
    assert (method, path) in MATRIX
    await _check(db, method, entry)


async def _check(db, method: str, entry: Entry) -> None:
    x = w.build(db)
    path, body = entry.call(x)
    refused = [r for r in w.ROLES if r not in entry.allowed]
    allowed = [r for r in w.ROLES if r in entry.allowed]
    async with w.client() as c:
        for role in refused:
            before = w.snapshot(db)
            response = await c.request(method, path, json=body, headers=w.headers(x, role))
            expected = {401} if role == "anonymous" else {403, 404}
            assert response.status_code in expected, (role, response.status_code, response.text)
            assert w.snapshot(db) == before, f"{role} was refused but data changed"
        for i, role in enumerate(allowed):
            response = await c.request(method, path, json=body, headers=w.headers(x, role))
            if i == 0:
                assert response.status_code in entry.ok, (role, response.status_code, response.text)
            else:
                assert response.status_code not in (401, 403) or response.status_code in entry.ok, (role, response.text)
