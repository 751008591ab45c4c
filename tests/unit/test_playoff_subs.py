"""Playoff subs the league's operator approves: a place taken on a playoff game's request is held until its
operator approves it (it stays) or refuses it (the place is freed, the refusal kept); both audited and emailed; no
one else may decide, and a refused call changes nothing."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlmodel import col

from tests.factories import (
    actor_of,
    add_game,
    add_league,
    add_league_session,
    add_member,
    add_teams,
    count,
    login_token,
    make_user,
    rows,
)
from tests.harness import call_handler
from volley_app.models import (
    AuditEntry,
    GameRsvp,
    GameType,
    MemberRole,
    OutboxMessage,
    Role,
    RsvpAnswer,
    SubPlaceRefusal,
    SubRequest,
    SubRequestPlace,
    SubStatus,
    Team,
    utcnow,
)
from volley_app.pages.dash.leagues.rosters import PlayoffSubsState
from volley_app.services.core.errors import BadRequest, Forbidden, NotFound
from volley_app.services.operations import account_lifecycle, game_requests, playoff_subs
from volley_app.services.subs import eligibility, matching, request_lists, request_replies
from volley_app.services.teams import rsvps

DAY = dt.timedelta(days=1)


@pytest.fixture
def world(db):
    """A league whose operator approves its playoff subs; T1 (captain Cap and two players, all In) plays a playoff
    game in three days and a regular-season game in two, and asks for subs for each."""
    svl = make_user(db, "venue", Role.SVL)
    now = utcnow()
    sid = add_league_session(db, svl, "Fall", now - 30 * DAY, now + 60 * DAY)
    league = add_league(db, svl, sid, start=now - 21 * DAY, playoff_subs_approved=True)
    t1, t2 = add_teams(db, league, 2)
    cap = make_user(db, "cap")
    team = db.get(Team, t1)
    team.captain_id = cap.id
    db.add(team)
    db.commit()
    add_member(db, t1, cap, MemberRole.CAPTAIN)
    players = [make_user(db, name) for name in ("ann", "bob")]
    for user in players:
        add_member(db, t1, user)
    playoff = add_game(db, league.id, t1, t2, now + 3 * DAY, type=GameType.TOURNAMENT, round=1, match=1)
    regular = add_game(db, league.id, t1, t2, now + 2 * DAY)
    for game in (playoff, regular):
        for user in (cap, *players):
            db.add(GameRsvp(game_id=game.id, team_id=t1, user_id=user.id, answer=RsvpAnswer.IN, answered_at=now))
    db.commit()
    rid = game_requests.find_subs(db, actor_of(cap), game_id=playoff.id, team_id=t1)
    regular_rid = game_requests.find_subs(db, actor_of(cap), game_id=regular.id, team_id=t1)
    db.commit()
    sub = make_user(db, "helen", sub=True)
    return {"db": db, "league": league, "t1": t1, "svl": svl, "cap": cap, "players": players, "playoff": playoff,
            "regular": regular, "rid": rid, "regular_rid": regular_rid, "sub": sub}  # fmt: skip


def _take(w, rid_key: str = "rid") -> SubRequestPlace:
    db = w["db"]
    request_replies.accept(db, actor_of(w["sub"]), w[rid_key])
    db.commit()
    return rows(db, SubRequestPlace, SubRequestPlace.request_id == w[rid_key])[0]


def test_a_playoff_sub_is_held_for_approval_and_says_so(world):
    db = world["db"]
    place = _take(world)
    assert place.needs_approval and place.approved_at is None
    detail = request_lists.detail(db, actor_of(world["cap"]), world["rid"])
    assert detail["places"] == ["Helen Tester (awaiting the operator's approval)"]
    assert detail["approval_note"] == "Playoff subs need the operator's approval"
    assert request_lists.detail(db, actor_of(world["cap"]), world["regular_rid"])["approval_note"] == ""
    row = rsvps.game_row(db, actor_of(world["cap"]), world["playoff"], db.get(Team, world["t1"]), world["league"],
                         now=utcnow())  # fmt: skip
    assert row["subs"] == ["Helen Tester (awaiting the operator's approval)"]
    pending = playoff_subs.pending(db, actor_of(world["svl"]), league_id=world["league"].id)
    assert [(p["sub"], p["team"], p["requestor"]) for p in pending] == [("Helen Tester", "T1", "Cap Tester")]
    (asked,) = rows(db, OutboxMessage, OutboxMessage.subject == "Playoff sub awaiting your approval: T1")
    assert asked.to_addr == world["svl"].email and "Helen Tester has taken a place" in asked.body_text
    assert f"/dash/leagues/{world['league'].id}/rosters" in asked.body_text


def test_no_operator_is_asked_when_no_approval_is_needed(world):
    db = world["db"]
    _take(world, "regular_rid")
    assert rows(db, OutboxMessage, col(OutboxMessage.subject).startswith("Playoff sub")) == []


def test_a_regular_season_sub_or_a_league_without_the_rule_needs_no_approval(world):
    assert not _take(world, "regular_rid").needs_approval
    world["league"].playoff_subs_approved = False
    req = world["db"].get(SubRequest, world["rid"])
    assert not eligibility.needs_approval(world["db"], req)


def test_the_suggestions_say_the_operator_approves(world):
    db = world["db"]
    page = matching.suggestions(db, actor_of(world["cap"]), world["rid"])
    helen = next(r for r in page.rows if r["id"] == world["sub"].id)
    assert helen["eligible"] and helen["reason"].endswith("; Playoff subs need the operator's approval")
    page = matching.suggestions(db, actor_of(world["cap"]), world["regular_rid"])
    assert all("approval" not in r["reason"] for r in page.rows)


def test_the_operator_approves_the_sub_who_keeps_the_place(world):
    db = world["db"]
    place = _take(world)
    mails = count(db, OutboxMessage)
    playoff_subs.approve(db, actor_of(world["svl"]), place.id)
    db.commit()
    place = rows(db, SubRequestPlace, SubRequestPlace.id == place.id)[0]
    assert place.approved_at is not None and place.approved_by_id == world["svl"].id
    assert playoff_subs.pending(db, actor_of(world["svl"]), league_id=world["league"].id) == []
    assert request_lists.detail(db, actor_of(world["cap"]), world["rid"])["places"] == ["Helen Tester"]
    entry = rows(db, AuditEntry, AuditEntry.entity == "playoff_sub")[0]
    assert (entry.action, entry.subject_user_id, entry.league_id) == ("approve", world["sub"].id, world["league"].id)
    sent = rows(db, OutboxMessage)[mails:]
    assert sorted(m.to_addr for m in sent) == ["cap@example.com", "helen@example.com"]
    assert all("Playoff sub approved: T1" in m.subject for m in sent)
    with pytest.raises(BadRequest, match="no longer awaiting"):
        playoff_subs.approve(db, actor_of(world["svl"]), place.id)


def test_a_refused_sub_frees_the_place_and_the_refusal_is_kept(world):
    db = world["db"]
    place = _take(world)
    filled = db.get(SubRequest, world["rid"]).places_filled
    playoff_subs.refuse(db, actor_of(world["svl"]), place.id)
    db.commit()
    assert rows(db, SubRequestPlace, SubRequestPlace.request_id == world["rid"]) == []
    req = rows(db, SubRequest, SubRequest.id == world["rid"])[0]
    assert (req.places_filled, req.status) == (filled - 1, SubStatus.OPEN)
    kept = rows(db, SubPlaceRefusal)
    assert [(r.request_id, r.user_id, r.refused_by_id) for r in kept] == [(world["rid"], world["sub"].id, world["svl"].id)]
    assert rows(db, AuditEntry, AuditEntry.entity == "playoff_sub")[0].action == "refuse"
    assert "sub requests with a sub" in account_lifecycle.account_history(db, world["sub"].id)  # kept, not deleted
    # the place may be taken again (by another sub)
    other = make_user(db, "iris", sub=True)
    request_replies.accept(db, actor_of(other), world["rid"])
    db.commit()
    assert [p.user_id for p in rows(db, SubRequestPlace, SubRequestPlace.request_id == world["rid"])] == [other.id]


@pytest.mark.parametrize("who", ["player", "captain", "sub", "other_operator"])
@pytest.mark.parametrize("decide", [playoff_subs.approve, playoff_subs.refuse])
def test_no_one_but_the_leagues_operator_decides_and_nothing_changes(world, who, decide):
    db = world["db"]
    place = _take(world)
    actor = {
        "player": lambda: actor_of(world["players"][0]),
        "captain": lambda: actor_of(world["cap"]),
        "sub": lambda: actor_of(world["sub"]),
        "other_operator": lambda: actor_of(make_user(db, "rival", Role.SVL)),
    }[who]()
    audits, mails = count(db, AuditEntry), count(db, OutboxMessage)
    with pytest.raises(Forbidden):
        decide(db, actor, place.id)
    db.rollback()
    with pytest.raises(Forbidden):
        playoff_subs.pending(db, actor, league_id=world["league"].id)
    kept = rows(db, SubRequestPlace, SubRequestPlace.id == place.id)
    assert len(kept) == 1 and kept[0].approved_at is None
    assert (count(db, AuditEntry), count(db, OutboxMessage), count(db, SubPlaceRefusal)) == (audits, mails, 0)


def test_an_admin_decides_and_a_place_needing_no_approval_or_none_is_refused(world):
    db = world["db"]
    admin = actor_of(make_user(db, "root", Role.ADMIN))
    plain = _take(world, "regular_rid")
    with pytest.raises(BadRequest):
        playoff_subs.approve(db, admin, plain.id)
    with pytest.raises(NotFound):
        playoff_subs.refuse(db, admin, "nope")
    place = _take(world)
    playoff_subs.approve(db, admin, place.id)
    db.commit()
    assert rows(db, SubRequestPlace, SubRequestPlace.id == place.id)[0].approved_by_id == admin.user_id


@pytest.mark.parametrize("who", ["venue", "root", "cap", "ann", "rival", None])
@pytest.mark.parametrize("method", ["approve", "refuse"])
async def test_the_rosters_page_handlers_decide_only_for_the_operator(world, who, method):
    db = world["db"]
    make_user(db, "root", Role.ADMIN)
    make_user(db, "rival", Role.SVL)
    place = _take(world)

    def fingerprint() -> tuple:
        return ([(p.id, p.approved_at) for p in rows(db, SubRequestPlace)], count(db, SubPlaceRefusal),
                count(db, AuditEntry), count(db, OutboxMessage))  # fmt: skip

    before = fingerprint()
    token = login_token(db, who) if who else None
    state, _events = await call_handler(token, PlayoffSubsState, f"/dash/leagues/{world['league'].id}/rosters", method,
                                        str(place.id))  # fmt: skip
    if who in ("venue", "root"):
        assert state.error == "" and fingerprint() != before
    else:
        assert state.error and fingerprint() == before
