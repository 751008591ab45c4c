"""Suggested subs: each eligibility rule excludes exactly the subs it should; the ranking and its ties;
who may see suggestions, invite, and mark a sub played or no-show; what a request needs."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.factories import actor_of, add_league, add_league_session, add_teams, count, make_user, rows
from volley_app.models import (
    AuditEntry,
    Game,
    Gender,
    MemberRole,
    OutboxMessage,
    Rating,
    Role,
    SubOutcome,
    SubRequest,
    SubRequestPlace,
    SubStatus,
    SubUnavailableDate,
    Team,
    TeamMember,
    User,
    utcnow,
)
from volley_app.services.core import timefmt
from volley_app.services.core.errors import BadRequest, Forbidden, Invalid
from volley_app.services.subs import (
    availability,
    matching,
    request_changes,
    request_lists,
    request_replies,
    sub_records,
    subs_list,
)

DAY = dt.timedelta(days=1)
ALL_BUT_THURSDAY = availability.EVERY_DAY & ~availability.day_bit(3)


def _thursday_7pm() -> dt.datetime:
    """A Thursday 7 PM (venue time) between 8 and 14 days ahead, in UTC."""
    today = timefmt.local(utcnow()).date() + dt.timedelta(days=8)
    day = today + dt.timedelta(days=(3 - today.weekday()) % 7)
    return timefmt.parse_local(f"{day.isoformat()}T19:00", "date", "Date")


def _fields(when: dt.datetime, **over) -> dict:
    base = {"team": "Net Ninjas", "date": when, "svl": "Lexington Sportsplex", "skill_level": "B", "format": "6s",
            "position_needed": "Setter", "gender_needed": "Female", "min_rating": "B"}  # fmt: skip
    return base | over


def _accepted(db, requestor, sub, when, outcome=None) -> SubRequest:
    """A request ``sub`` accepted, their place marked ``outcome`` (written directly: its date may be past)."""
    req = SubRequest(requestor_id=requestor.id, recipient_id=sub.id, status=SubStatus.ACCEPTED, svl="Gym",
                     team="Other", date=when, skill_level="C", format="6s", places_filled=1,
                     completed=when <= utcnow())  # fmt: skip
    db.add(req)
    db.flush()
    db.add(SubRequestPlace(request_id=req.id, user_id=sub.id, accepted_at=when - DAY, outcome=outcome,
                           outcome_at=when + DAY if outcome else None))  # fmt: skip
    sub_records.refresh(db, [sub.id])
    db.commit()
    return req


def _mark(db, req) -> SubOutcome | None:
    """The mark of the place of the sub ``req`` names."""
    db.expire_all()
    return rows(db, SubRequestPlace, SubRequestPlace.request_id == req.id, SubRequestPlace.user_id == req.recipient_id)[0].outcome


def _sub(db, name, **profile):
    fields = {"sub": True, "gender": Gender.FEMALE, "setter_skill_level": Rating.B} | profile
    return make_user(db, name, **fields)


@pytest.fixture
def rules_world(db):
    """A captain's Thursday request "female setter, B or better", and one sub failing each rule."""
    when = _thursday_7pm()
    cap = make_user(db, "cap", sub=True, gender=Gender.FEMALE, setter_skill_level=Rating.A)
    other = make_user(db, "other")
    svl = make_user(db, "svl", Role.SVL)
    subs = {
        "good": _sub(db, "good"),
        "rating": _sub(db, "low", setter_skill_level=Rating.C),
        "unrated": _sub(db, "unrated", setter_skill_level=None, hitter_skill_level=Rating.A),
        "gender": _sub(db, "male", gender=Gender.MALE, setter_skill_level=Rating.A),
        "nogender": _sub(db, "nogender", gender=None),
        "weekday": _sub(db, "weekdays", sub_days=ALL_BUT_THURSDAY),
        "date": _sub(db, "away"),
        "cap": _sub(db, "capped", sub_weekly_cap=1),
        "playing": _sub(db, "playing"),
        "subbing": _sub(db, "subbing"),
        "inactive": _sub(db, "resting", active=False),
        "notsub": make_user(db, "notsub", gender=Gender.FEMALE, setter_skill_level=Rating.A),
    }
    db.add(SubUnavailableDate(user_id=subs["date"].id, day=timefmt.local(when).date()))
    db.commit()
    monday = when - dt.timedelta(days=3)
    _accepted(db, other, subs["cap"], monday)
    _accepted(db, other, subs["subbing"], when + dt.timedelta(minutes=30))
    sid = add_league_session(db, svl, "Fall", when - 30 * DAY, when + 30 * DAY)
    league = add_league(db, svl, sid, start=when - 14 * DAY)
    t1, t2 = add_teams(db, league, 2)
    team = db.get(Team, t1)
    team.captain_id = subs["playing"].id
    db.add(team)
    db.add(Game(league_id=league.id, team1_id=t2, team2_id=t1, start_at=when - dt.timedelta(minutes=20)))
    db.commit()
    rid = request_changes.create(db, actor_of(cap), **_fields(when))
    db.commit()
    return db, actor_of(cap), subs, rid, when


def _all(db, actor, rid, show):
    return matching.suggestions(db, actor, rid, show=show, size=50).rows


def test_each_rule_excludes_exactly_its_subs(rules_world):
    db, cap, subs, rid, _ = rules_world
    eligible = _all(db, cap, rid, "eligible")
    assert [r["id"] for r in eligible] == [subs["good"].id]
    assert eligible[0]["reason"].startswith("Setter B, free Thursdays, 0 played, 0 no-shows, never subbed")
    why = {r["id"]: r["reason"] for r in _all(db, cap, rid, "ineligible")}
    expected = {
        "rating": "rated C at setter (needs B or better)",
        "unrated": "not rated at setter (needs B or better)",
        "gender": "not female",
        "nogender": "gender not given",
        "weekday": "not free Thursdays",
        "cap": "at their weekly cap (1 of 1)",
        "playing": "playing at that time",
        "subbing": "subbing another game at that time",
    }
    wanted = {subs[k].id: v for k, v in expected.items()}
    wanted[subs["date"].id] = why.get(subs["date"].id, "")
    assert wanted[subs["date"].id].startswith("unavailable on ")
    wanted[cap.user_id] = "made this request"
    assert why == wanted  # one reason each; the inactive sub and the non-sub are never listed


def test_a_place_on_a_request_for_several_counts_in_the_week_and_the_hour(rules_world):
    """A sub who took one of several places (the request still open, naming nobody) is busy then and has used
    one of their week; cancelled, it counts no more."""
    db, cap, subs, rid, when = rules_world
    other = rows(db, User, User.username == "other")[0]
    good = subs["good"]
    good.sub_weekly_cap = 5
    db.add(good)
    db.commit()
    fields = {"team": "Other", "date": when + dt.timedelta(minutes=40), "svl": "Gym", "skill_level": "C", "format": "6s"}
    several = request_changes.create(db, actor_of(other), players_needed="3", **fields)
    request_replies.accept(db, actor_of(good), several)
    db.commit()
    assert db.get(SubRequest, several).status == SubStatus.OPEN
    why = {r["id"]: r["reason"] for r in _all(db, cap, rid, "ineligible")}
    assert why[good.id] == "subbing another game at that time"
    request_changes.update(db, actor_of(other), several, **fields | {"date": when - 2 * DAY, "players_needed": "3"})
    db.commit()
    assert _all(db, cap, rid, "eligible")[0]["reason"].endswith("1 of 5 this week")
    request_changes.delete(db, actor_of(other), several)
    db.commit()
    assert _all(db, cap, rid, "eligible")[0]["reason"].endswith("never subbed, 0 of 5 this week")


def test_a_rule_lets_the_sub_in_once_it_no_longer_applies(rules_world):
    db, cap, subs, rid, when = rules_world
    req = db.get(SubRequest, rid)
    req.min_rating, req.gender_needed = None, "Any"
    db.add(req)
    db.commit()
    eligible = {r["id"] for r in _all(db, cap, rid, "eligible")}
    assert {subs[k].id for k in ("good", "rating", "unrated", "gender", "nogender")} <= eligible
    assert not eligible & {subs[k].id for k in ("weekday", "date", "cap", "playing", "subbing")}


def test_position_any_uses_the_best_rating(rules_world):
    db, cap, subs, rid, _ = rules_world
    req = db.get(SubRequest, rid)
    req.position_needed, req.gender_needed = "Any", "Any"
    db.add(req)
    db.commit()
    eligible = {r["id"]: r["reason"] for r in _all(db, cap, rid, "eligible")}
    assert eligible[subs["unrated"].id].startswith("Hitter A")  # unrated setter, an A hitter
    assert subs["rating"].id not in eligible  # a C setter and nothing else


@pytest.fixture
def rank_world(db):
    when = _thursday_7pm()
    cap = make_user(db, "cap")
    other = make_user(db, "other")
    return db, cap, other, when


def test_ranking_fit_then_reliability_then_least_recent_then_name(rank_world):
    db, cap, other, when = rank_world
    past = utcnow() - 10 * DAY
    a_fit = _sub(db, "zed", setter_skill_level=Rating.A)  # above the minimum: after every B
    steady = _sub(db, "yan")  # B, 2 played
    _accepted(db, other, steady, past - DAY, SubOutcome.PLAYED)
    _accepted(db, other, steady, past, SubOutcome.PLAYED)
    shaky = _sub(db, "xia")  # B, played 2 and 1 no-show: reliability 1
    _accepted(db, other, shaky, past - 3 * DAY, SubOutcome.PLAYED)
    _accepted(db, other, shaky, past - 2 * DAY, SubOutcome.PLAYED)
    _accepted(db, other, shaky, past - DAY, SubOutcome.NO_SHOW)
    recent = _sub(db, "wes")  # B, reliability 1, subbed yesterday
    _accepted(db, other, recent, utcnow() - DAY, SubOutcome.PLAYED)
    long_ago = _sub(db, "vic")  # B, reliability 1, subbed long ago
    _accepted(db, other, long_ago, past - 60 * DAY, SubOutcome.PLAYED)
    never_b = _sub(db, "uma")  # B, reliability 0, never subbed
    never_a = _sub(db, "amy")  # B, reliability 0, never subbed: by name before uma
    rid = request_changes.create(db, actor_of(cap), **_fields(when))
    db.commit()
    order = [r["id"] for r in _all(db, actor_of(cap), rid, "eligible")]
    # B first (closest at or above B); among them reliability 2, then the three at 1 by least recent
    # (long ago, then xia's and wes's latest), then the two at 0 by name; the A last
    assert order == [steady.id, long_ago.id, shaky.id, recent.id, never_a.id, never_b.id, a_fit.id]
    first = _all(db, actor_of(cap), rid, "eligible")[0]
    assert "2 played, 0 no-shows, last subbed" in first["reason"]


def test_without_a_minimum_the_skill_level_is_the_target_and_unrated_come_last(rank_world):
    db, cap, _other, when = rank_world
    c = _sub(db, "cat", setter_skill_level=Rating.C)
    a = _sub(db, "abe", setter_skill_level=Rating.A)
    unrated = _sub(db, "ned", setter_skill_level=None)
    rid = request_changes.create(db, actor_of(cap), **_fields(when, min_rating="", skill_level="C+"))
    db.commit()
    assert [r["id"] for r in _all(db, actor_of(cap), rid, "eligible")] == [c.id, a.id, unrated.id]


def test_suggestions_page_with_a_total(rank_world):
    db, cap, _other, when = rank_world
    made = [_sub(db, f"sub{i:02d}") for i in range(7)]
    rid = request_changes.create(db, actor_of(cap), **_fields(when))
    db.commit()
    first = matching.suggestions(db, actor_of(cap), rid, size=3)
    assert first.total == 7 and len(first.rows) == 3 and first.next == "3" and first.previous == ""
    last = matching.suggestions(db, actor_of(cap), rid, size=3, bookmark="6")
    assert [r["id"] for r in last.rows] == [made[6].id] and last.next == "" and last.previous == "3"
    junk = matching.suggestions(db, actor_of(cap), rid, size=3, bookmark="junk", show=["x"])
    assert [r["id"] for r in junk.rows] == [r["id"] for r in first.rows]
    assert first.extra["needs"] == "female setter, B or better"


def test_only_the_requestor_and_admins_see_suggestions(rules_world):
    db, cap, subs, rid, _ = rules_world
    admin = actor_of(make_user(db, "root", Role.ADMIN))
    assert matching.suggestions(db, admin, rid).total == 1
    for who in (actor_of(subs["good"]), actor_of(make_user(db, "nosy"))):
        with pytest.raises(Forbidden):
            matching.suggestions(db, who, rid)
    svl = actor_of(db.get(type(subs["good"]), make_user(db, "svl2", Role.SVL).id))
    with pytest.raises(Forbidden):
        matching.suggestions(db, svl, rid)


def test_invite_names_an_eligible_sub_and_emails_them(rules_world):
    db, cap, subs, rid, _ = rules_world
    with pytest.raises(Invalid) as exc:
        matching.invite(db, cap, rid, sub_id=subs["gender"].id)
    assert "not female" in exc.value.errors["sub"]
    with pytest.raises(Forbidden):
        matching.invite(db, actor_of(subs["good"]), rid, sub_id=subs["good"].id)
    db.rollback()
    assert rows(db, SubRequest, SubRequest.id == rid)[0].recipient_id is None
    matching.invite(db, cap, rid, sub_id=subs["good"].id)
    db.commit()
    req = rows(db, SubRequest, SubRequest.id == rid)[0]
    assert req.recipient_id == subs["good"].id and req.status == SubStatus.OPEN
    assert count(db, OutboxMessage, OutboxMessage.to_addr == "good@example.com") == 1
    with pytest.raises(BadRequest):  # a second click: already waiting for that answer
        matching.invite(db, cap, rid, sub_id=subs["good"].id)
    assert count(db, OutboxMessage) == 1


def test_needs_are_checked_and_shown(db):
    cap = actor_of(make_user(db, "cap"))
    when = _thursday_7pm()
    with pytest.raises(Invalid) as exc:
        request_changes.create(db, cap, **_fields(when, position_needed="Libero", gender_needed="x", min_rating="Z"))
    assert set(exc.value.errors) == {"position_needed", "gender_needed", "min_rating"}
    plain = request_changes.create(db, cap, **_fields(when, position_needed="", gender_needed=None, min_rating=""))
    db.commit()
    row = request_lists.detail(db, cap, plain)
    assert (row["position_needed"], row["gender_needed"], row["min_rating"], row["needs"]) == ("Any", "Any", "", "anyone")
    rid = request_changes.create(db, cap, **_fields(when))
    db.commit()
    assert request_lists.detail(db, cap, rid)["needs"] == "female setter, B or better"
    assert request_lists.notifications(db, cap).rows[0]["needs"] in ("anyone", "female setter, B or better")
    request_changes.update(db, cap, rid, **_fields(when, position_needed="Hitter", gender_needed="Male", min_rating="A"))
    db.commit()
    assert request_lists.detail(db, cap, rid)["needs"] == "male hitter, A"


def test_mark_played_or_no_show_after_the_game(db):
    cap = make_user(db, "cap")
    sub = _sub(db, "sue")
    nosy = actor_of(make_user(db, "nosy"))
    when = utcnow() + DAY
    req = _accepted(db, cap, sub, when)
    with pytest.raises(BadRequest):  # before the game
        matching.mark_outcome(db, actor_of(cap), req.id, sub_id=sub.id, outcome="Played", now=when - dt.timedelta(hours=1))
    for who in (nosy, actor_of(sub)):
        with pytest.raises(Forbidden):
            matching.mark_outcome(db, who, req.id, sub_id=sub.id, outcome="No-show", now=when + DAY)
    with pytest.raises(Invalid):
        matching.mark_outcome(db, actor_of(cap), req.id, sub_id=sub.id, outcome="maybe", now=when + DAY)
    assert _mark(db, req) is None
    matching.mark_outcome(db, actor_of(cap), req.id, sub_id=sub.id, outcome="No-show", now=when + DAY)
    matching.mark_outcome(db, actor_of(cap), req.id, sub_id=sub.id, outcome="Played", now=when + 2 * DAY)  # changed its mind
    db.commit()
    assert _mark(db, req) == SubOutcome.PLAYED
    audits = rows(db, AuditEntry, AuditEntry.action == "sub_outcome")
    assert [(a.before, a.after) for a in audits] == [({"outcome": None}, {"outcome": "No-show"}),
                                                     ({"outcome": "No-show"}, {"outcome": "Played"})]  # fmt: skip
    with pytest.raises(BadRequest):  # too long after
        matching.mark_outcome(db, actor_of(cap), req.id, sub_id=sub.id, outcome="No-show", now=when + 8 * DAY)
    listed = subs_list.list_subs(db, nosy, filters={"q": "sue"}).rows
    assert (listed[0]["played"], listed[0]["no_shows"]) == (1, 0)


def test_the_demo_request_has_suggestions_and_an_ineligible_sub_with_why(db):
    from volley_app import demo

    demo.seed(db)
    db.commit()
    alice = rows(db, SubRequest, SubRequest.position_needed == "Passer")[0]
    cap = actor_of(rows(db, User, User.username == "alice")[0])
    assert request_lists.detail(db, cap, alice.id)["needs"] == "female passer, C or better"
    eligible = matching.suggestions(db, cap, alice.id).rows
    assert eligible and all(r["gender"] == "Female" for r in eligible)
    why = {r["name"]: r["reason"] for r in matching.suggestions(db, cap, alice.id, show="ineligible").rows}
    assert why["Hana Sato"].startswith("unavailable on ")
    assert why["Ben Carter"].startswith("not female")


# -- the league's rules, for a request made for one of its games ---------------------------------------------------


@pytest.fixture
def league_world(db):
    """A B league's team (captain "cap") with a Thursday game and a request for it; subs on the team, on another
    team of the league, and rated A, B and D."""
    when = _thursday_7pm()
    cap = make_user(db, "cap", gender=Gender.FEMALE)
    svl = make_user(db, "svl", Role.SVL)
    sid = add_league_session(db, svl, "Fall", when - 30 * DAY, when + 30 * DAY)
    league = add_league(db, svl, sid, start=when - 14 * DAY)
    league.skill_level = "B"
    db.add(league)
    t1, t2, t3 = add_teams(db, league, 3)
    db.get(Team, t1).captain_id = cap.id
    subs = {
        "good": _sub(db, "good"),
        "teammate": _sub(db, "teammate"),
        "rostered": _sub(db, "rostered"),
        "strong": _sub(db, "strong", setter_skill_level=Rating.A),
        "weak": _sub(db, "weak", setter_skill_level=Rating.D),
    }
    db.add(TeamMember(team_id=t1, user_id=cap.id, role=MemberRole.CAPTAIN))
    db.add(TeamMember(team_id=t1, user_id=subs["teammate"].id))
    db.add(TeamMember(team_id=t2, user_id=subs["rostered"].id))
    game = Game(league_id=league.id, team1_id=t1, team2_id=t3, start_at=when)
    db.add(game)
    db.commit()
    rid = request_changes.create(db, actor_of(cap), **_fields(when, min_rating="", position_needed="Any"))
    req = db.get(SubRequest, rid)
    req.game_id, req.team_id = game.id, t1
    db.add(req)
    db.commit()
    return db, actor_of(cap), subs, rid, league


def _league_says(db, league, **rules) -> None:
    for k, v in rules.items():
        setattr(league, k, v)
    db.add(league)
    db.commit()


def test_a_league_request_never_suggests_the_team_s_own_players(league_world):
    db, cap, subs, rid, _league = league_world
    eligible = {r["id"] for r in _all(db, cap, rid, "eligible")}
    assert eligible == {subs[k].id for k in ("good", "rostered", "strong", "weak")}
    why = {r["id"]: r["reason"] for r in _all(db, cap, rid, "ineligible")}
    assert why[subs["teammate"].id] == "on this team's roster"


def test_the_league_s_rules_say_who_may_sub_and_why_not(league_world):
    db, cap, subs, rid, league = league_world
    _league_says(db, league, subs_from_other_teams=False, sub_levels_above=0, sub_levels_below=1)
    assert [r["id"] for r in _all(db, cap, rid, "eligible")] == [subs["good"].id]
    why = {r["id"]: r["reason"] for r in _all(db, cap, rid, "ineligible")}
    assert why[subs["rostered"].id] == "rostered on another team in this league"
    assert why[subs["strong"].id] == "rated A (this league takes B to C)"
    assert why[subs["weak"].id] == "rated D (this league takes B to C)"
    # the accept reads the same rules, and a refused accept changes nothing
    for who in ("rostered", "weak", "teammate"):
        with pytest.raises(BadRequest, match="You cannot take this sub request"):
            request_replies.accept(db, actor_of(subs[who]), rid)
        db.rollback()
    assert count(db, SubRequestPlace) == 0
    request_replies.accept(db, actor_of(subs["good"]), rid)
    db.commit()
    assert [p.user_id for p in rows(db, SubRequestPlace)] == [subs["good"].id]


def test_a_member_of_a_team_playing_then_is_busy_not_only_its_captain(league_world):
    db, cap, subs, rid, league = league_world
    other_league = add_league(db, league_svl := db.get(User, league.svl_id), league.session_id, start=league.start_at)
    (t,) = add_teams(db, other_league, 1)
    db.add(TeamMember(team_id=t, user_id=subs["good"].id))
    req = db.get(SubRequest, rid)
    db.add(Game(league_id=other_league.id, team1_id=t, team2_id=None, start_at=req.date + dt.timedelta(minutes=15)))
    db.commit()
    assert league_svl is not None
    why = {r["id"]: r["reason"] for r in _all(db, cap, rid, "ineligible")}
    assert why[subs["good"].id] == "playing at that time"
