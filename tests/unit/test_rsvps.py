"""Game answers: who may answer which game, one row per member and game, the counts and the short flag, the
reminder sweep, the one-click links, the calendar feed."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from tests.factories import (
    actor_of,
    add_game,
    add_league,
    add_league_session,
    add_member,
    add_teams,
    count,
    make_user,
    notified,
    remove_member,
    rows,
    tampered,
)
from volley_app.models import (
    AuditEntry,
    GameRsvp,
    LeagueFormat,
    MemberRole,
    OutboxMessage,
    Rating,
    Role,
    Team,
    TeamMember,
    utcnow,
)
from volley_app.services.core import live, signing
from volley_app.services.core.errors import BadRequest, Forbidden, Invalid, NotFound, Unauthorized
from volley_app.services.mail import notices
from volley_app.services.operations import game_requests
from volley_app.services.seasons import calendar
from volley_app.services.teams import rsvps, team_settings
from volley_app.settings import get_settings

D = dt.timedelta(days=1)
NOW = utcnow().replace(microsecond=0)


@pytest.fixture
def w(db):
    svl, other_svl = make_user(db, "svla", Role.SVL), make_user(db, "svlb", Role.SVL)
    cap = make_user(db, "cap", gender="Female", setter_skill_level=Rating.B)
    ann = make_user(db, "ann", gender="Female", setter_skill_level=Rating.A, hitter_skill_level=Rating.C)
    bob = make_user(db, "bob", gender="Male", hitter_skill_level=Rating.B)
    quinn, root = make_user(db, "quinn"), make_user(db, "root", Role.ADMIN)
    sid = add_league_session(db, svl, "Fall", NOW - 10 * D, NOW + 80 * D)
    lg = add_league(db, svl, sid, start=NOW - 7 * D, format=LeagueFormat.QUADS, women_on_court=2)
    t1, t2, t3 = add_teams(db, lg, 3)
    team = db.get(Team, t1)
    team.captain_id = cap.id
    db.commit()
    add_member(db, t1, cap, MemberRole.CAPTAIN)
    add_member(db, t1, ann)
    add_member(db, t1, bob)
    add_member(db, t2, quinn)
    coming = add_game(db, lg.id, t1, t2, NOW + 5 * D, court="Court 1", round=2, match=1)
    later = add_game(db, lg.id, t2, t1, NOW + 12 * D, round=3, match=1)
    past = add_game(db, lg.id, t1, t2, NOW - D, round=1, match=1)
    others = add_game(db, lg.id, t2, t3, NOW + 5 * D, round=2, match=2)
    a = {u.username: actor_of(u) for u in (svl, other_svl, cap, ann, bob, quinn, root)}
    return {"db": db, "a": a, "lg": lg, "t1": t1, "t2": t2, "t3": t3, "coming": coming.id, "later": later.id,
            "past": past.id, "others": others.id, "users": {k: v.user_id for k, v in a.items()}}  # fmt: skip


def answers(db) -> list[tuple]:
    return sorted((r.game_id, r.team_id, r.user_id, r.answer and r.answer.value) for r in rows(db, GameRsvp))


# -- answering --------------------------------------------------------------------------------------------------


def test_a_member_answers_and_changing_it_changes_the_one_row(w):
    db, a = w["db"], w["a"]
    row = rsvps.answer(db, a["ann"], game_id=w["coming"], answer="In", now=NOW)
    db.commit()
    assert row["mine"] == "In" and row["in_count"] == 1 and row["none_count"] == 2
    for _click in range(2):
        rsvps.answer(db, a["ann"], game_id=w["coming"], answer="out", now=NOW)
        db.commit()
    assert answers(db) == [(w["coming"], w["t1"], w["users"]["ann"], "Out")]
    assert count(db, GameRsvp) == 1


def test_the_answer_names_its_team_when_the_member_is_on_both(w):
    db, a = w["db"], w["a"]
    add_member(db, w["t2"], w["users"]["ann"])
    with pytest.raises(Invalid):
        rsvps.answer(db, a["ann"], game_id=w["coming"], answer="In", now=NOW)
    rsvps.answer(db, a["ann"], game_id=w["coming"], team_id=w["t2"], answer="In", now=NOW)
    db.commit()
    assert answers(db) == [(w["coming"], w["t2"], w["users"]["ann"], "In")]


@pytest.mark.parametrize(("who", "game", "team", "answer", "error"), [
    ("quinn", "coming", "t1", "In", Forbidden),  # not on the team
    ("svla", "coming", "t1", "In", Forbidden),  # the operator reads, does not answer
    ("root", "coming", None, "In", Forbidden),
    ("ann", "others", None, "In", Forbidden),  # her team does not play it
    ("ann", "others", "t1", "In", Forbidden),
    ("ann", "past", None, "In", BadRequest),  # it was played
    ("ann", "coming", None, "Yes", Invalid),
    ("ann", "nope", None, "In", NotFound),
])  # fmt: skip
def test_answers_refused_change_nothing(w, who, game, team, answer, error):
    db = w["db"]
    with pytest.raises(error) as refused:
        rsvps.answer(db, w["a"][who], game_id=w.get(game, "nope"), team_id=w[team] if team else None, answer=answer,
                     now=NOW)  # fmt: skip
    db.rollback()
    assert refused.value.message
    assert answers(db) == []


def test_nobody_logged_in_answers_nothing(w):
    with pytest.raises(Unauthorized):
        rsvps.answer(w["db"], None, game_id=w["coming"], answer="In")


def test_a_member_who_left_no_longer_answers(w):
    db = w["db"]
    remove_member(db, w["t1"], w["users"]["bob"])
    with pytest.raises(Forbidden, match="Only the team's members"):
        rsvps.answer(db, w["a"]["bob"], game_id=w["coming"], answer="In", now=NOW)


def test_a_withdrawn_team_answers_nothing(w):
    db = w["db"]
    db.get(Team, w["t1"]).withdrawn_at = NOW
    db.commit()
    with pytest.raises(BadRequest, match="withdrawn"):
        rsvps.answer(db, w["a"]["ann"], game_id=w["coming"], answer="In", now=NOW)


# -- the team's games -------------------------------------------------------------------------------------------


def _answer(w, who: str, answer: str, game: str = "coming") -> None:
    rsvps.answer(w["db"], w["a"][who], game_id=w[game], answer=answer, now=NOW)
    w["db"].commit()


def test_the_grid_counts_each_game_against_the_format_and_the_womens_rule(w):
    db, a = w["db"], w["a"]
    _answer(w, "ann", "In")
    _answer(w, "bob", "In")
    _answer(w, "cap", "Maybe")
    view = rsvps.team_games(db, a["cap"], team_id=w["t1"], now=NOW + 3 * D)  # two days before: the reminder went
    games = view.games.rows
    assert [g["game_id"] for g in games] == [w["coming"], w["later"], w["past"]]  # coming first, then the past
    g = games[0]
    assert (g["in_count"], g["out_count"], g["maybe_count"], g["none_count"]) == (2, 0, 1, 0)
    assert g["needed"] == 4 and g["women_in"] == 1 and g["women_needed"] == 2
    assert g["short"] and g["short_reason"] == "2 more players needed; 1 more woman needed"
    assert g["by_position"] == "Hitter 1 · Setter 1" and g["by_gender"] == "Women 1 · Men 1"
    assert [(c["name"], c["answer"]) for c in g["cells"]] == [("Cap Tester", "Maybe"), ("Ann Tester", "In"),
                                                              ("Bob Tester", "In")]  # fmt: skip
    assert g["opponent"] == "T2" and g["court"] == "Court 1" and g["can_answer"] and g["mine"] == "Maybe"
    assert games[2]["past"] and not games[2]["can_answer"]
    assert view.captain and view.member and not view.read_only
    assert [m["name"] for m in view.members] == ["Cap Tester", "Ann Tester", "Bob Tester"]


def test_a_game_far_off_is_short_only_when_the_out_answers_leave_too_few(w):
    db = w["db"]
    add_member(db, w["t1"], make_user(db, "dee", gender="Female"))  # four members: a quads team, two women

    def coming(now: dt.datetime) -> dict:
        return rsvps.team_games(db, w["a"]["cap"], team_id=w["t1"], now=now).games.rows[0]

    assert not coming(NOW)["short"]  # five days ahead, nobody answered yet: they may all come
    _answer(w, "ann", "Out")
    g = coming(NOW)
    assert g["short"] and g["short_reason"] == "1 more player needed" and g["lacking"] == 1
    near = coming(NOW + 3 * D)  # within the team's three days: the In answers count, and nobody said In
    assert near["short"] and near["short_reason"] == "4 more players needed; 2 more women needed" and near["lacking"] == 4


def test_enough_in_is_not_short(w):
    db = w["db"]
    extra = make_user(db, "dee", gender="Female")
    add_member(db, w["t1"], extra)
    w["a"]["dee"] = actor_of(extra)
    for who in ("cap", "ann", "bob", "dee"):
        _answer(w, who, "In")
    g = rsvps.team_games(db, w["a"]["ann"], team_id=w["t1"], now=NOW).games.rows[0]
    assert g["in_count"] == 4 and not g["short"] and g["short_reason"] == ""


def test_a_player_sees_the_counts_not_the_positions_and_the_operator_reads_only(w):
    db, a = w["db"], w["a"]
    _answer(w, "ann", "In")
    mine = rsvps.team_games(db, a["bob"], team_id=w["t1"], now=NOW)
    assert not mine.captain and mine.games.rows[0]["by_position"] == "" and mine.games.rows[0]["in_count"] == 1
    for who in ("svla", "root"):
        view = rsvps.team_games(db, a[who], team_id=w["t1"], now=NOW)
        assert view.read_only and not view.member and view.captain
        assert not any(g["can_answer"] for g in view.games.rows) and view.games.rows[0]["by_gender"] == "Women 1"


@pytest.mark.parametrize("who", ["quinn", "svlb"])
def test_others_do_not_see_the_teams_answers(w, who):
    with pytest.raises(Forbidden):
        rsvps.team_games(w["db"], w["a"][who], team_id=w["t1"], now=NOW)


def test_the_games_page_on_the_server(w):
    db = w["db"]
    first = rsvps.team_games(db, w["a"]["ann"], team_id=w["t1"], size=2, now=NOW).games
    assert first.total == 3 and len(first.rows) == 2 and first.next
    second = rsvps.games_page(db, w["a"]["ann"], team_id=w["t1"], size=2, bookmark=first.next, now=NOW)
    assert [g["game_id"] for g in second.rows] == [w["past"]]


def test_my_next_games_across_my_teams_with_my_answer(w):
    db = w["db"]
    add_member(db, w["t3"], w["users"]["ann"])
    rsvps.answer(db, w["a"]["ann"], game_id=w["others"], answer="Maybe", now=NOW)
    db.commit()
    found = rsvps.my_next_games(db, w["a"]["ann"], now=NOW)
    assert [(g["game_id"], g["team"], g["opponent"], g["mine"]) for g in found] == [
        (w["coming"], "T1", "T2", ""), (w["others"], "T3", "T2", "Maybe"), (w["later"], "T1", "T2", "")]  # fmt: skip
    assert found[0]["href"] == f"/dash/teams/{w['t1']}/games"
    assert rsvps.my_next_games(db, w["a"]["svla"], now=NOW) == []


# -- reminders --------------------------------------------------------------------------------------------------


def _reminders(db) -> list[tuple[str, str]]:
    db.expire_all()
    return sorted((m.to_addr, m.subject) for m in rows(db, OutboxMessage, OutboxMessage.kind == "game_rsvp_reminder"))


def test_the_sweep_reminds_each_unanswered_member_once_n_days_before(w):
    db = w["db"]
    _answer(w, "bob", "In")
    db.get(Team, w["t2"]).rsvp_reminder_days = 1
    db.commit()
    game = NOW + 5 * D
    assert rsvps.send_reminders(now=game - 3 * D - dt.timedelta(minutes=1)) == 0
    assert rsvps.send_reminders(now=game - 3 * D) == 2  # cap and ann of T1, not bob who answered; T2 waits
    assert [to for to, _s in _reminders(db)] == ["ann@example.com", "cap@example.com"]
    page = f"/dash/teams/{w['t1']}/games"
    assert notified(db, notices.RSVP_REMINDER) == [("ann@example.com", page), ("cap@example.com", page)]
    assert rsvps.send_reminders(now=game - 2 * D) == 0  # once
    assert rsvps.send_reminders(now=game - D) == 2  # quinn of T2, a day before each of T2's two games
    reminded = [r for r in rows(db, GameRsvp) if r.reminded_at is not None]
    assert len(reminded) == 4 and all(r.answer is None for r in reminded)
    assert rsvps.send_reminders(now=game + dt.timedelta(minutes=1)) == 0


def test_a_member_who_left_is_not_reminded(w):
    db = w["db"]
    remove_member(db, w["t1"], w["users"]["ann"])
    rsvps.send_reminders(now=NOW + 2 * D + dt.timedelta(hours=1))
    assert [to for to, _s in _reminders(db) if to != "quinn@example.com"] == ["bob@example.com", "cap@example.com"]


def _links(db, to: str) -> dict[str, str]:
    [mail] = [m for m in rows(db, OutboxMessage) if m.kind == "game_rsvp_reminder" and m.to_addr == to]
    found = dict(re.findall(r"(I'm in|I'm out|Maybe): \S+/api/rsvp-answers/(\S+)", mail.body_text))
    return {"In": found["I'm in"], "Out": found["I'm out"], "Maybe": found["Maybe"]}


def test_a_reminders_links_answer_without_login(w):
    db = w["db"]
    at = NOW + 2 * D + dt.timedelta(hours=1)
    rsvps.send_reminders(now=at)
    links = _links(db, "ann@example.com")
    seen = rsvps.read_link(db, links["Out"], now=at)
    assert seen["answer"] == "Out" and seen["team"] == "T1" and seen["opponent"] == "T2"
    assert answers(db) == [] or all(r[3] is None for r in answers(db))  # reading changes nothing
    for _twice in range(2):
        done = rsvps.answer_by_link(db, links["Out"], now=at)
        db.commit()
    assert done["answer"] == "Out"
    assert [r for r in answers(db) if r[2] == w["users"]["ann"]] == [(w["coming"], w["t1"], w["users"]["ann"], "Out")]
    rsvps.answer_by_link(db, links["In"], now=at)
    db.commit()
    assert rsvps.team_games(db, w["a"]["ann"], team_id=w["t1"], now=at).games.rows[0]["mine"] == "In"


def test_forged_expired_and_removed_members_links_are_refused(w):
    db = w["db"]
    at = NOW + 2 * D + dt.timedelta(hours=1)
    rsvps.send_reminders(now=at)
    good = _links(db, "ann@example.com")["Out"]
    game, team, user, letter, expiry, sig = good.split(".")
    forged = [f"{game}.{team}.{w['users']['bob']}.{letter}.{expiry}.{sig}", f"{game}.{team}.{user}.i.{expiry}.{sig}",
              f"{game}.{team}.{user}.{letter}.{int(expiry) + 60}.{sig}", tampered(good), "x", "", 7]  # fmt: skip
    for token in forged:
        with pytest.raises(NotFound):
            rsvps.answer_by_link(db, token, now=at)
    with pytest.raises(BadRequest, match="started"):
        rsvps.answer_by_link(db, good, now=NOW + 6 * D)
    remove_member(db, w["t1"], w["users"]["ann"])
    with pytest.raises(Forbidden, match="no longer on this team"):
        rsvps.read_link(db, good, now=at)
    with pytest.raises(Forbidden, match="no longer on this team"):
        rsvps.answer_by_link(db, good, now=at)
    db.rollback()
    assert all(r[3] is None for r in answers(db))


def test_a_link_signed_for_another_purpose_is_refused(w):
    db = w["db"]
    expiry = int((NOW + 5 * D).timestamp())
    sig = signing.sign(signing.INVITE_ANSWER, w["coming"], w["t1"], w["users"]["ann"], "o", expiry)
    with pytest.raises(NotFound):
        rsvps.read_link(db, f"{w['coming']}.{w['t1']}.{w['users']['ann']}.o.{expiry}.{sig}", now=NOW)


# -- the calendar ------------------------------------------------------------------------------------------------


def test_the_personal_feed_carries_my_answer(w):
    db = w["db"]
    _answer(w, "ann", "Out")
    token = calendar.feed_token(db, w["a"]["ann"])
    db.commit()
    feed = calendar.personal_feed(db, token).decode()
    unfolded = feed.replace("\r\n ", "")
    assert re.search(r"SUMMARY:T1 v T2 \([^)]*\) \(You: Out\)", unfolded)
    assert "(You: not answered)" in unfolded  # the later game


def test_a_changed_answer_shows_at_once_in_the_same_transaction(w):
    db, ann = w["db"], w["a"]["ann"]
    rsvps.answer(db, ann, game_id=w["coming"], answer="In", now=NOW)
    assert rsvps.team_games(db, ann, team_id=w["t1"], now=NOW).games.rows[0]["mine"] == "In"
    assert rsvps.answer(db, ann, game_id=w["coming"], answer="Out", now=NOW)["mine"] == "Out"


# -- the team's settings ----------------------------------------------------------------------------------------


def _settings(db, team_id: int) -> tuple[int, int]:
    db.expire_all()
    team = db.get(Team, team_id)
    return team.rsvp_reminder_days, team.rsvp_deadline_hours


def _audited(db, team_id: int) -> list[AuditEntry]:
    return rows(db, AuditEntry, AuditEntry.entity == "team", AuditEntry.entity_id == team_id)


@pytest.mark.parametrize("who", ["cap", "bob", "svla", "root"])
def test_the_captain_a_co_captain_and_the_operator_change_the_settings_audited(w, who):
    db = w["db"]
    [bob] = rows(db, TeamMember, TeamMember.user_id == w["users"]["bob"])
    bob.role = MemberRole.CO_CAPTAIN
    db.commit()
    assert team_settings.team_settings(db, w["a"][who], team_id=w["t1"])["can_edit"]
    saved = team_settings.update_settings(db, w["a"][who], team_id=w["t1"], reminder_days="5", deadline_hours=24)
    db.commit()
    assert (saved["reminder_days"], saved["deadline_hours"]) == (5, 24) == _settings(db, w["t1"])
    [entry] = _audited(db, w["t1"])
    assert entry.actor_id == w["users"][who] and entry.league_id == w["lg"].id
    assert entry.before == {"rsvp_reminder_days": 3, "rsvp_deadline_hours": 48}
    assert entry.after == {"rsvp_reminder_days": 5, "rsvp_deadline_hours": 24}
    team_settings.update_settings(db, w["a"][who], team_id=w["t1"], reminder_days=5, deadline_hours=24)
    db.commit()
    assert len(_audited(db, w["t1"])) == 1  # nothing changed: nothing to record


@pytest.mark.parametrize(("who", "error"), [
    ("ann", Forbidden), ("quinn", Forbidden), ("svlb", Forbidden), (None, Unauthorized),
])  # fmt: skip
def test_a_plain_member_another_team_or_another_operator_changes_nothing(w, who, error):
    db = w["db"]
    db.get(Team, w["t2"]).captain_id = w["users"]["quinn"]  # another team's captain
    db.commit()
    actor = w["a"][who] if who else None
    with pytest.raises(error):
        team_settings.update_settings(db, actor, team_id=w["t1"], reminder_days=1, deadline_hours=2)
    db.rollback()
    assert _settings(db, w["t1"]) == (3, 48) and _audited(db, w["t1"]) == []
    if who == "ann":  # a member reads them
        assert not team_settings.team_settings(db, actor, team_id=w["t1"])["can_edit"]


@pytest.mark.parametrize(("days", "hours", "fields"), [
    ("15", "48", {"reminder_days"}), ("-1", "1", {"reminder_days", "deadline_hours"}), ("3", "169", {"deadline_hours"}),
    ("two", "", {"reminder_days", "deadline_hours"}), (2.5, 48, {"reminder_days"}),
])  # fmt: skip
def test_settings_out_of_range_name_each_field_and_change_nothing(w, days, hours, fields):
    db = w["db"]
    with pytest.raises(Invalid) as got:
        team_settings.update_settings(db, w["a"]["cap"], team_id=w["t1"], reminder_days=days, deadline_hours=hours)
    db.rollback()
    assert set(got.value.errors) == fields
    assert all(m.startswith(("Reminder days", "Answer deadline")) for m in got.value.errors.values())
    assert _settings(db, w["t1"]) == (3, 48)


def test_changed_reminder_days_change_when_reminders_go(w):
    db, cap = w["db"], w["a"]["cap"]
    game = NOW + 5 * D
    team_settings.update_settings(db, cap, team_id=w["t1"], reminder_days=1, deadline_hours=48)
    db.commit()
    at_three_days = {d.user_id for d in rsvps.due(db, game - 3 * D) if d.team_id == w["t1"]}
    assert at_three_days == set()  # the default (3 days) would have reminded them here
    assert {d.user_id for d in rsvps.due(db, game - D) if d.team_id == w["t1"] and d.game_id == w["coming"]} == {
        w["users"][u] for u in ("cap", "ann", "bob")}
    team_settings.update_settings(db, cap, team_id=w["t1"], reminder_days=0, deadline_hours=48)
    db.commit()
    assert [d for d in rsvps.due(db, game - dt.timedelta(hours=1)) if d.team_id == w["t1"]] == []  # 0: no reminder


def test_a_changed_deadline_changes_when_a_short_team_is_told(w):
    db, cap = w["db"], w["a"]["cap"]
    add_member(db, w["t1"], make_user(db, "dee"))  # a full roster of four, nobody In: short
    game = NOW + 5 * D
    assert (w["coming"], w["t1"]) in game_requests.short_due(db, game - dt.timedelta(hours=47))
    team_settings.update_settings(db, cap, team_id=w["t1"], reminder_days=3, deadline_hours=12)
    db.commit()
    assert (w["coming"], w["t1"]) not in game_requests.short_due(db, game - dt.timedelta(hours=47))
    assert (w["coming"], w["t1"]) in game_requests.short_due(db, game - dt.timedelta(hours=12))


# -- live updates -------------------------------------------------------------------------------------------------


async def test_an_answer_tells_the_teams_open_games_pages_once_committed(w, monkeypatch):
    monkeypatch.delenv("REDIS_URL", raising=False)
    get_settings.cache_clear()
    db = w["db"]
    try:
        with live.watch(live.Interest(team_id=w["t1"])) as ours, live.watch(live.Interest(team_id=w["t2"])) as theirs:
            rsvps.answer(db, w["a"]["ann"], game_id=w["coming"], answer="Out", now=NOW)
            assert not await ours.changed(0.05)  # not yet committed
            db.rollback()
            assert not await ours.changed(0.05)
            rsvps.answer(db, w["a"]["ann"], game_id=w["coming"], answer="Out", now=NOW)
            db.commit()
            assert await ours.changed(0.5) and not await theirs.changed(0.05)
            rsvps.send_reminders(now=NOW + 4 * D)
            token = _links(db, "bob@example.com")["In"]
            rsvps.answer_by_link(db, token, now=NOW + 4 * D)
            db.commit()
            assert await ours.changed(0.5)  # an answer by a reminder's link too
    finally:
        get_settings.cache_clear()


def test_a_team_notice_goes_through_redis_whole():
    text = live.Change(team_id=12).to_json()
    _origin, change = live.Change.from_json(text)
    assert change.team_id == 12 and change.concerns(live.Interest(team_id=12))
    assert not change.concerns(live.Interest(team_id=13)) and not change.concerns(live.Interest(user_id=12))
