"""Records kept: archiving instead of deleting, withdrawn teams, results and adjustments, the audit log,
status from dates, ids never reused, and people told when what they signed up for changes."""

from __future__ import annotations

import datetime as dt

import pytest
import sqlalchemy as sa
from sqlmodel import select

from tests.factories import PASSWORD, actor_of, add_teams, count, league_world, make_user, rows
from volley_app.models import (
    AuditEntry,
    Game,
    League,
    LeagueSession,
    LeagueStage,
    OutboxMessage,
    Payment,
    Role,
    SkillLevel,
    StandingAdjustment,
    SubFormat,
    SubRequest,
    SubStatus,
    Team,
    User,
    utcnow,
)
from volley_app.services.accounts import accounts
from volley_app.services.core import audit
from volley_app.services.core.errors import Forbidden, Invalid, NotFound, Unauthorized
from volley_app.services.operations import account_lifecycle, archive
from volley_app.services.seasons import games, leagues, results, scheduling, scoring, sessions
from volley_app.services.subs import request_changes, request_lists, request_replies
from volley_app.services.teams import teams


@pytest.fixture
def world(db):
    return league_world(db)


def _scores(a: int, b: int) -> dict:
    """A 2-0 game: team 1 wins when a > b."""
    win, lose = (21, 15) if a > b else (15, 21)
    return {"team1_game1_score": win, "team2_game1_score": lose, "team1_game2_score": win, "team2_game2_score": lose}


def _play(db, actor, game: Game, team1_wins: bool) -> None:
    games.update_game(db, actor, game.id, team1=game.team1_id, team2=game.team2_id,
                           start=game.start_at, **_scores(1 if team1_wins else 0, 0 if team1_wins else 1))  # fmt: skip
    db.commit()


def _pay(db, league: League, team_id: int, user_id: int) -> None:
    db.add(Payment(league_id=league.id, team_id=team_id, user_id=user_id, team_name="T1", amount_cents=4000,
                   provider="offline", status="succeeded", idempotency_key=f"k{team_id}"))  # fmt: skip
    db.commit()


def _season(world, n: int = 4) -> list[int]:
    db, lg = world["db"], world["lg"]
    ids = add_teams(db, lg, n)
    scheduling.generate(db, world["a"], lg.id)
    db.commit()
    return ids


def _week(db, week: int) -> list[Game]:
    return list(db.exec(select(Game).where(Game.round == week, Game.team2_id.is_not(None)).order_by(Game.match)).all())


def _standing_totals(db, actor, league_id) -> tuple[int, int]:
    table = results.standings(db, actor, league_id)["teams"]
    return sum(t["wins"] for t in table), sum(t["losses"] for t in table)


# --- nothing with history is hard-deleted --------------------------------------------------------


def test_a_league_with_paid_teams_is_archived_with_its_payments_and_an_admin_restores_it(world):
    db, lg = world["db"], world["lg"]
    (t1, _t2) = add_teams(db, lg, 2, paid=True)
    _pay(db, lg, t1, world["p"].user_id)
    question = leagues.get_league(db, world["a"], lg.id)["delete_question"]
    assert "2 teams (2 paid)" in question and "1 payment" in question and "archived" in question
    assert leagues.delete_league(db, world["a"], lg.id) == leagues.display_name(lg)
    db.commit()
    assert count(db, League) == 1 and count(db, Team) == 2 and count(db, Payment) == 1
    # Gone for everyone but admins: lists, the league home, its teams.
    assert leagues.list_leagues(db, world["a"], session_id=world["sid"]) == []
    assert teams.list_teams(db, world["a"]) == []
    for who in ("a", "p"):
        with pytest.raises(NotFound, match="This league no longer exists"):
            leagues.get_league(db, world[who], lg.id)
    with pytest.raises(NotFound, match="This team no longer exists"):
        teams.withdraw_team(db, world["a"], t1)
    # The admin still sees it and its payments, and brings it back.
    shown = leagues.get_league(db, world["admin"], lg.id)
    assert shown["can_restore"] and shown["show_payments"] and not shown["can_manage"]
    with pytest.raises(Invalid, match="archived"):
        leagues.update_league(db, world["admin"], lg.id, court="x")
    assert [r["name"] for r in archive.archived_page(db, world["admin"], filters={"kind": "league"}).rows] == [leagues.display_name(lg)]
    with pytest.raises(Forbidden):
        archive.restore(db, world["a"], kind="league", record_id=lg.id)
    archive.restore(db, world["admin"], kind="league", record_id=lg.id)
    db.commit()
    assert [r["id"] for r in leagues.list_leagues(db, world["a"], session_id=world["sid"])] == [lg.id]
    assert [e.action for e in rows(db, AuditEntry)][-2:] == ["archive", "restore"]


def test_an_empty_league_is_deleted_and_its_id_never_comes_back(world):
    db, lg = world["db"], world["lg"]
    assert "no teams or payments" in leagues.get_league(db, world["a"], lg.id)["delete_question"]
    leagues.delete_league(db, world["a"], lg.id)
    db.commit()
    assert count(db, League) == 0
    again = leagues.create_league(
        db, world["a"], session_id=world["sid"], court="C", start=leagues.timefmt.input_value(lg.start_at),
        number_of_weeks=4, time_increment=45, skill_level="C", format="6s",
        day=leagues.timefmt.local(lg.start_at).strftime("%A"), max_teams=4, cost="100",
    )  # fmt: skip
    db.commit()
    assert again.id > lg.id


def test_no_id_is_reused_for_sub_requests(db):
    pat = make_user(db, "pat")
    when = utcnow() + dt.timedelta(days=2)
    req = SubRequest(requestor_id=pat.id, svl="Gym", team="Aces", date=when, skill_level=SkillLevel.C,
                     format=SubFormat.SIXES)  # fmt: skip
    db.add(req)
    db.commit()
    first = req.id
    request_changes.delete(db, actor_of(pat), first)
    db.commit()
    nxt = SubRequest(requestor_id=pat.id, svl="Gym", team="Aces", date=when, skill_level=SkillLevel.C,
                     format=SubFormat.SIXES)  # fmt: skip
    db.add(nxt)
    db.commit()
    assert nxt.id > first
    with pytest.raises(NotFound, match="This sub request no longer exists"):
        request_lists.detail(db, actor_of(pat), first)


def test_a_session_with_history_is_archived_with_its_leagues(world):
    db, lg = world["db"], world["lg"]
    add_teams(db, lg, 2)
    assert "archived with its leagues" in sessions.get_session(db, world["a"], world["sid"])["delete_question"]
    sessions.delete_session(db, world["a"], world["sid"])
    db.commit()
    assert count(db, LeagueSession) == 1 and count(db, Team) == 2
    assert sessions.list_sessions(db, world["a"]) == [] and sessions.list_sessions(db, world["admin"]) == []
    with pytest.raises(NotFound, match="This session no longer exists"):
        sessions.get_session(db, world["a"], world["sid"])
    with pytest.raises(NotFound):
        leagues.get_league(db, world["p"], lg.id)
    sessions.restore_session(db, world["admin"], world["sid"])
    db.commit()
    assert [s["name"] for s in sessions.list_sessions(db, world["a"])] == ["A fall"]
    assert leagues.get_league(db, world["p"], lg.id)["id"] == lg.id


def test_an_account_with_history_is_archived_and_cannot_log_in_until_restored(world):
    db, lg = world["db"], world["lg"]
    (tid,) = add_teams(db, lg, 1, captain_id=world["p"].user_id)
    assert account_lifecycle.delete_user(db, world["p"], world["p"].user_id) is True
    db.commit()
    (pat,) = rows(db, User, User.username == "pat")
    assert pat.archived_at is not None and not pat.active
    assert rows(db, Team)[0].captain_id == pat.id
    assert "pat" not in [u["username"] for u in accounts.list_users(db, world["admin"]).rows]
    from volley_app.services.accounts import auth

    with pytest.raises(Unauthorized):
        auth.login(db, username="pat", password=PASSWORD, client="t")
    account_lifecycle.restore_user(db, world["admin"], pat.id)
    db.commit()
    assert auth.login(db, username="pat", password=PASSWORD, client="t").token
    assert tid


def test_an_account_without_history_is_deleted(world):
    db = world["db"]
    lone = make_user(db, "lone")
    account_lifecycle.delete_user(db, world["admin"], lone.id)
    db.commit()
    assert rows(db, User, User.username == "lone") == []
    (entry,) = rows(db, AuditEntry, AuditEntry.action == "delete")
    assert entry.subject_user_id == lone.id and entry.actor_name == "root"


def test_payments_keep_what_was_bought_and_refuse_a_cascade(world):
    db, lg = world["db"], world["lg"]
    (tid,) = add_teams(db, lg, 1)
    _pay(db, lg, tid, world["p"].user_id)
    with pytest.raises(sa.exc.IntegrityError):
        db.exec(sa.delete(League).where(League.id == lg.id))
        db.flush()
    db.rollback()
    assert count(db, Payment) == 1


# --- withdraw a team; results from games; adjustments --------------------------------------------


@pytest.mark.parametrize("remaining", [teams.FORFEIT, teams.REMOVE])
def test_a_withdrawn_team_keeps_its_played_games_and_standings_add_up(world, remaining):
    db, lg = world["db"], world["lg"]
    ids = _season(world)
    for game in _week(db, 1):
        _play(db, world["a"], game, team1_wins=True)
    quitter = ids[1]
    before = {g.id for g in rows(db, Game) if scoring.played(g)}
    teams.withdraw_team(db, world["a"], quitter, remaining=remaining)
    db.commit()
    after = rows(db, Game)
    assert before <= {g.id for g in after}  # every played game is still there
    theirs = [g for g in after if quitter in (g.team1_id, g.team2_id)]
    unplayed = [g for g in theirs if g.round > 1]
    if remaining == teams.FORFEIT:
        assert unplayed and all(g.forfeit_team_id == quitter for g in unplayed if g.team2_id is not None)
    else:
        assert unplayed == []
    # Standings always add up: every win has a loss, and each record is what the games say.
    wins, losses = _standing_totals(db, world["p"], lg.id)
    decided = sum(1 for g in rows(db, Game) if scoring.result(g) is not None)
    assert wins == losses == decided
    table = {t["team_name"]: t for t in results.standings(db, world["p"], lg.id)["teams"]}
    assert table["T2"]["withdrawn"] and table["T2"]["forfeits"] == (len([g for g in unplayed if g.team2_id]) if remaining == teams.FORFEIT else 0)
    (msg,) = [m for m in rows(db, OutboxMessage) if m.kind == "team_withdrawn"] or [None]
    assert msg is None or "withdrawn" in msg.subject
    with pytest.raises(Invalid, match="already withdrawn"):
        teams.withdraw_team(db, world["a"], quitter, remaining=remaining)


def test_withdrawing_needs_a_choice_and_the_right_operator(world):
    db = world["db"]
    ids = _season(world, 2)
    with pytest.raises(Invalid):
        teams.withdraw_team(db, world["a"], ids[0], remaining="whatever")
    for who in ("b", "p"):
        with pytest.raises(Forbidden):
            teams.withdraw_team(db, world[who], ids[0], remaining=teams.FORFEIT)
    db.rollback()
    assert all(t.withdrawn_at is None for t in rows(db, Team)) and count(db, AuditEntry) == 1  # the generate


def test_a_team_with_results_or_a_payment_cannot_be_deleted(world):
    db, lg = world["db"], world["lg"]
    ids = _season(world, 2)
    _play(db, world["a"], _week(db, 1)[0], team1_wins=True)
    with pytest.raises(Invalid, match="1 played game.*Withdraw it instead"):
        teams.delete_team(db, world["a"], ids[0])
    (late,) = add_teams(db, lg, 1, prefix="L")
    _pay(db, lg, late, world["p"].user_id)
    with pytest.raises(Invalid, match="a payment"):
        teams.delete_team(db, world["admin"], late)
    db.rollback()
    assert count(db, Team) == 3


def test_a_team_with_no_history_is_deleted_and_the_unplayed_weeks_redrawn(world):
    db = world["db"]
    ids = _season(world, 3)
    teams.delete_team(db, world["a"], ids[2])
    db.commit()
    assert all(ids[2] not in (g.team1_id, g.team2_id) for g in rows(db, Game))
    assert {g.team1_id for g in rows(db, Game)} | {g.team2_id for g in rows(db, Game)} >= set(ids[:2])


def test_a_record_correction_is_an_adjustment_with_a_reason(world):
    db, lg = world["db"], world["lg"]
    ids = _season(world, 2)
    _play(db, world["a"], _week(db, 1)[0], team1_wins=True)
    winner = _week(db, 1)[0].team1_id
    with pytest.raises(Invalid, match="Say why"):
        teams.update_team(db, world["a"], winner, wins="3", losses="0", reason=" ")
    teams.update_team(db, world["a"], winner, wins="3", losses="0", reason="Two wins played before the app")
    db.commit()
    (adj,) = rows(db, StandingAdjustment)
    assert (adj.wins, adj.losses, adj.created_by_id) == (2, 0, world["a"].user_id)
    row = next(t for t in results.standings(db, world["p"], lg.id)["teams"] if t["id"] == winner)
    assert (row["wins"], row["adjustment"], row["reasons"]) == (3, "+2 W", "Two wins played before the app")
    # The games still say 1-0; a later result moves the record on from there.
    rec = results.record_of(db, db.get(Team, winner))
    assert (rec.game_wins, rec.wins) == (1, 3)
    # Saving the same totals again adds nothing.
    teams.update_team(db, world["a"], winner, wins="3", losses="0", reason="")
    db.commit()
    assert count(db, StandingAdjustment) == 1
    entry = rows(db, AuditEntry, AuditEntry.action == "adjust")[0]
    assert entry.before == {"wins": 1, "losses": 0} and entry.after == {"wins": 3, "losses": 0}
    assert ids


def test_changing_a_score_moves_the_result_and_is_audited(world):
    db, lg = world["db"], world["lg"]
    _season(world, 2)
    game = _week(db, 1)[0]
    _play(db, world["a"], game, team1_wins=True)
    _play(db, world["admin"], game, team1_wins=False)
    recs = results.records(db, [game.team1_id, game.team2_id])
    assert (recs[game.team1_id].wins, recs[game.team2_id].wins) == (0, 1)
    entries = rows(db, AuditEntry, AuditEntry.entity == "game")
    assert [e.actor_name for e in entries] == ["svla", "root"]
    assert entries[1].before["team1_game1_score"] == 21 and entries[1].after["team1_game1_score"] == 15
    assert all(e.league_id == lg.id for e in entries)


# --- the audit log --------------------------------------------------------------------------------


def test_the_audit_log_is_for_admins_and_filters_by_league_and_user(world):
    db, lg = world["db"], world["lg"]
    leagues.update_league(db, world["a"], lg.id, court="Court 9", start=leagues.timefmt.input_value(lg.start_at),
                          number_of_weeks=lg.number_of_weeks, time_increment=lg.time_increment,
                          skill_level=lg.skill_level.value, format=lg.format.value,
                          day=leagues.timefmt.local(lg.start_at).strftime("%A"), max_teams=lg.max_teams + 2,
                          cost="300")  # fmt: skip
    sessions.update_session(db, world["admin"], world["sid"], name="Renamed", start="2030-01-01T00:00",
                            end="2030-03-01T00:00")  # fmt: skip
    db.commit()
    for who in ("a", "p"):
        with pytest.raises(Forbidden):
            audit.entries(db, world[who])
    by_league = audit.entries(db, world["admin"], league_id=lg.id)["entries"]
    assert [e["summary"].split(":")[0] for e in by_league] == [f"League {leagues.display_name(lg)} changed"]
    assert "max_teams: 8" in by_league[0]["before"] and "max_teams: 10" in by_league[0]["after"]
    by_user = audit.entries(db, world["admin"], user="svla")["entries"]
    assert {e["entity"] for e in by_user} == {"league", "session"}  # acted, or the session's owner
    assert audit.entries(db, world["admin"], league_id="abc")["entries"] == []


def test_the_audit_log_pages_by_keyset(world):
    db = world["db"]
    for i in range(7):
        audit.record(db, world["admin"], action="x", entity="y", entity_id=i, summary=f"n{i}")
    db.commit()
    first = audit.entries(db, world["admin"], limit=3)
    assert [e["summary"] for e in first["entries"]] == ["n6", "n5", "n4"] and first["next_before"]
    second = audit.entries(db, world["admin"], limit=3, before_id=first["next_before"])
    assert [e["summary"] for e in second["entries"]] == ["n3", "n2", "n1"]
    last = audit.entries(db, world["admin"], limit=3, before_id=second["next_before"])
    assert [e["summary"] for e in last["entries"]] == ["n0"] and last["next_before"] == 0


# --- status follows the dates; the day matches the start ------------------------------------------


def test_a_league_stage_goes_back_when_its_start_moves_into_the_future(world):
    lg = world["lg"]
    now = utcnow()
    lg.stage = LeagueStage.ACTIVE
    assert leagues.stage_at(lg, now) == LeagueStage.REGISTRATION
    assert leagues.stage_at(lg, lg.start_at + dt.timedelta(seconds=1)) == LeagueStage.ACTIVE


def test_a_league_day_must_match_its_start_date(world):
    db, lg = world["db"], world["lg"]
    start = leagues.timefmt.input_value(lg.start_at)
    starts_on = dt.date.fromisoformat(start[:10]).strftime("%A")  # the weekday of the start, in the venue's time
    wrong = "Monday" if starts_on != "Monday" else "Tuesday"
    with pytest.raises(Invalid) as caught:
        leagues.update_league(db, world["a"], lg.id, court="C", start=start,
                              number_of_weeks=4, time_increment=45, skill_level="C", format="6s", day=wrong,
                              max_teams=4, cost="100")  # fmt: skip
    assert caught.value.errors["day"].startswith("Day must match the start date, a ")


# --- people affected are told ---------------------------------------------------------------------


def _accepted_request(db):
    pat, sam = make_user(db, "pat"), make_user(db, "sam", sub=True)
    req = SubRequest(requestor_id=pat.id, recipient_id=sam.id, status=SubStatus.ACCEPTED, svl="Gym", team="Aces",
                     date=(utcnow() + dt.timedelta(days=3)).replace(second=0, microsecond=0), skill_level=SkillLevel.C, format=SubFormat.SIXES)  # fmt: skip
    db.add(req)
    db.commit()
    return pat, sam, req


def _details(req, **changes) -> dict:
    base = {"team": req.team, "date": request_changes.timefmt.input_value(req.date), "svl": req.svl,
            "skill_level": req.skill_level.value, "format": req.format.value, "court": req.court or "", "text": ""}  # fmt: skip
    return base | changes


def test_the_sub_is_told_when_the_time_or_place_changes(db):
    pat, sam, req = _accepted_request(db)
    request_changes.update(db, actor_of(pat), req.id, **_details(req, text="Bring knee pads"))
    db.commit()
    assert count(db, OutboxMessage) == 0  # only the message changed
    request_changes.update(db, actor_of(pat), req.id, **_details(req, svl="Other Gym", court="3"))
    db.commit()
    (msg,) = rows(db, OutboxMessage)
    assert msg.to_addr == sam.email and msg.kind == "request_changed"
    assert "location and court" in msg.body_text and "Other Gym, 3" in msg.body_text


def test_cancelling_a_request_a_sub_accepted_archives_it_and_tells_the_sub(db):
    pat, sam, req = _accepted_request(db)
    request_changes.delete(db, actor_of(pat), req.id)
    db.commit()
    (kept,) = rows(db, SubRequest)
    assert kept.archived_at is not None
    (msg,) = rows(db, OutboxMessage)
    assert msg.to_addr == sam.email and msg.kind == "request_cancelled" and "cancelled" in msg.body_text
    assert request_lists.notifications(db, actor_of(sam)).rows == []
    with pytest.raises(NotFound, match="no longer exists"):
        request_lists.detail(db, actor_of(sam), req.id)
    with pytest.raises(NotFound, match="no longer exists"):
        request_replies.accept(db, actor_of(make_user(db, "zed", sub=True)), req.id)
    assert archive.archived_page(db, actor_of(make_user(db, "boss", Role.ADMIN)), filters={"kind": "request"}).rows[0]["id"] == req.id


def test_a_refused_cancel_changes_nothing(db):
    _pat, sam, req = _accepted_request(db)
    with pytest.raises(Forbidden):
        request_changes.delete(db, actor_of(sam), req.id)
    db.rollback()
    assert rows(db, SubRequest)[0].archived_at is None and count(db, OutboxMessage) == 0


def test_an_archived_league_takes_no_registration_and_leaves_every_player_list(world):
    from volley_app.services.operations import home
    from volley_app.services.teams import registration

    db, lg = world["db"], world["lg"]
    add_teams(db, lg, 1, paid=True)
    leagues.delete_league(db, world["a"], lg.id)
    db.commit()
    with pytest.raises(NotFound, match="no longer exists"):
        registration.options(db, world["p"], league_id=lg.id)
    with pytest.raises((Invalid, NotFound)):
        registration.register(db, world["p"], league_id=lg.id, team_name="Sneaky")
    db.rollback()
    assert count(db, Team) == 1 and count(db, Payment) == 0
    assert home.home_leagues(db, world["p"])["all"] == []
    found = leagues.player_leagues(db, world["p"])
    assert found["registration"] == [] and found["current"] == []


def test_archiving_a_league_with_paid_teams_lists_them_and_emails_each_captain_once(world):
    db, lg = world["db"], world["lg"]
    ana, ben = make_user(db, "ana"), make_user(db, "ben")
    paid = add_teams(db, lg, 2, prefix="Paid", paid=True)
    add_teams(db, lg, 1, prefix="Unpaid")
    for team_id, captain in zip(paid, (ana, ben), strict=True):
        db.get(Team, team_id).captain_id = captain.id
    # ben also captains the unpaid team: he still gets one mail.
    db.exec(sa.update(Team).where(Team.team_name == "Unpaid1").values(captain_id=ben.id))
    db.commit()
    _pay(db, lg, paid[0], ana.id)
    question = leagues.get_league(db, world["a"], lg.id)["delete_question"]
    assert "Paid teams: Paid1 (captain Ana Tester); Paid2 (captain Ben Tester)" in question
    assert "payments stay on record" in question
    leagues.delete_league(db, world["a"], lg.id)
    db.commit()
    sent = [m for m in rows(db, OutboxMessage) if m.kind == "league_archived"]
    assert sorted(m.to_addr for m in sent) == ["ana@example.com", "ben@example.com"]
    for m in sent:
        assert leagues.display_name(lg) in m.subject and "stays on record" in m.body_text
        assert leagues.routes.absolute(leagues.routes.PLAYER_LEAGUES) in m.body_text


def test_archiving_a_session_emails_the_captains_of_its_leagues(world):
    db, lg = world["db"], world["lg"]
    ana = make_user(db, "ana")
    (t1,) = add_teams(db, lg, 1, paid=True)
    db.get(Team, t1).captain_id = ana.id
    db.commit()
    assert "Paid teams: " in sessions.get_session(db, world["a"], world["sid"])["delete_question"]
    sessions.delete_session(db, world["a"], world["sid"])
    db.commit()
    assert [m.to_addr for m in rows(db, OutboxMessage) if m.kind == "league_archived"] == ["ana@example.com"]


def test_only_the_leagues_operator_archives_it_and_then_nobody_is_mailed(world):
    db, lg = world["db"], world["lg"]
    (t1,) = add_teams(db, lg, 1, paid=True)
    db.get(Team, t1).captain_id = world["p"].user_id
    db.commit()
    for who in ("b", "p"):
        with pytest.raises((Forbidden, NotFound)):
            leagues.delete_league(db, world[who], lg.id)
        db.rollback()
    assert db.get(League, lg.id).archived_at is None
    assert [m for m in rows(db, OutboxMessage) if m.kind == "league_archived"] == []
