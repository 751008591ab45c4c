"""Captains report scores, the other captain confirms or disputes, the operator settles: permissions,
score rules, the audit log, the emails, and the standings that follow."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlmodel import select

from tests.factories import actor_of, add_member, add_teams, count, league_world, make_user, notified, remove_member
from volley_app import routes
from volley_app.models import AuditEntry, Game, GameType, OutboxMessage, ReportStatus, ScoreReport, Team, utcnow
from volley_app.services.core import timefmt
from volley_app.services.core.errors import Forbidden, Invalid, NotFound, Unauthorized
from volley_app.services.mail import notices
from volley_app.services.seasons import games, playoffs, results, score_reports

WIN_2_0 = {"team1_game1_score": 21, "team2_game1_score": 15, "team1_game2_score": 23, "team2_game2_score": 21}
WIN_2_1 = {"team1_game1_score": 21, "team2_game1_score": 15, "team1_game2_score": 15, "team2_game2_score": 21,
           "team1_game3_score": 17, "team2_game3_score": 15}  # fmt: skip


@pytest.fixture
def world(db):
    w = league_world(db)
    lg = w["lg"]
    c1, c2 = make_user(db, "cap1"), make_user(db, "cap2")
    t1, t2, t3 = add_teams(db, lg, 3)
    for team_id, cap in ((t1, c1), (t2, c2)):
        team = db.get(Team, team_id)
        team.captain_id = cap.id
        db.add(team)
        add_member(db, team_id, cap)
    lg.schedule_generated = True
    db.add(lg)
    game = Game(league_id=lg.id, team1_id=t1, team2_id=t2, start_at=utcnow() - dt.timedelta(hours=1),
                type=GameType.LEAGUE, round=1, match=1)  # fmt: skip
    later = Game(league_id=lg.id, team1_id=t2, team2_id=t1, start_at=utcnow() + dt.timedelta(days=7),
                 type=GameType.LEAGUE, round=2, match=1)  # fmt: skip
    db.add(game)
    db.add(later)
    db.commit()
    return w | {"c1": actor_of(c1), "c2": actor_of(c2), "game": game, "later": later, "teams": (t1, t2, t3)}


def _standing(world, team_id: int) -> dict:
    return next(r for r in results.standings(world["db"], world["p"], world["lg"].id)["teams"] if r["id"] == team_id)


def _mails(db, kind: str) -> list[OutboxMessage]:
    return list(db.exec(select(OutboxMessage).where(OutboxMessage.kind == kind)).all())


def test_a_captain_reports_the_other_confirms_and_the_standings_change(world):
    db, game = world["db"], world["game"]
    t1, t2, _t3 = world["teams"]
    score_reports.report(db, world["c1"], game.id, **WIN_2_1)
    db.commit()
    assert _standing(world, t1)["wins"] == 0  # not counted until confirmed
    mail = _mails(db, "score_reported")
    assert [m.to_addr for m in mail] == ["cap2@example.com"] and "21-15, 15-21, 17-15" in mail[0].body_text
    assert notified(db, notices.SCORE_TO_CONFIRM) == [("cap2@example.com", routes.game_score_path(game.id))]
    view = score_reports.game_view(db, world["c2"], game.id)
    assert view["can_answer"] and not view["can_report"] and view["report"] == "21-15, 15-21, 17-15"
    score_reports.confirm(db, world["c2"], game.id)
    db.commit()
    one, two = _standing(world, t1), _standing(world, t2)
    assert (one["wins"], one["sets_won"], one["sets_lost"], one["points_for"]) == (1, 2, 1, 53)
    assert (two["losses"], two["points_for"]) == (1, 51)
    assert [m.to_addr for m in _mails(db, "score_confirmed")] == ["cap1@example.com"]
    actions = [e.action for e in db.exec(select(AuditEntry).where(AuditEntry.entity == "score_report").order_by(AuditEntry.id)).all()]
    assert actions == ["report", "confirm"]
    with pytest.raises(Invalid, match="already has a score"):
        score_reports.report(db, world["c2"], game.id, **WIN_2_0)


def test_a_disputed_score_waits_for_the_operator_who_settles_it(world):
    db, game = world["db"], world["game"]
    t1, t2, _t3 = world["teams"]
    row = score_reports.report(db, world["c1"], game.id, **WIN_2_0)
    score_reports.dispute(db, world["c2"], game.id, note="We won the second set")
    db.commit()
    assert db.get(ScoreReport, row.id).status == ReportStatus.DISPUTED
    assert {m.to_addr for m in _mails(db, "score_disputed")} == {"cap1@example.com", "svla@example.com"}
    assert score_reports.disputed(db, world["a"], world["lg"].id)[0]["note"] == "We won the second set"
    with pytest.raises(Invalid, match="disputed"):
        score_reports.confirm(db, world["c2"], game.id)
    with pytest.raises(Invalid, match="disputed"):
        score_reports.report(db, world["c1"], game.id, **WIN_2_1)
    db.rollback()
    swapped = {"team1_game1_score": 15, "team2_game1_score": 21, "team1_game2_score": 19, "team2_game2_score": 21}
    score_reports.settle(db, world["a"], game.id, **swapped)
    db.commit()
    assert db.get(ScoreReport, row.id).status == ReportStatus.SETTLED
    assert score_reports.disputed(db, world["a"], world["lg"].id) == []
    assert _standing(world, t2)["wins"] == 1 and _standing(world, t1)["losses"] == 1
    assert {m.to_addr for m in _mails(db, "score_settled")} == {"cap1@example.com", "cap2@example.com"}
    score_reports.settle(db, world["admin"], game.id, **WIN_2_0)  # the operator may always correct
    db.commit()
    assert _standing(world, t1)["wins"] == 1


def test_the_reporter_may_replace_a_waiting_report_but_not_answer_it(world):
    db, game = world["db"], world["game"]
    row = score_reports.report(db, world["c1"], game.id, **WIN_2_0)
    again = score_reports.report(db, world["c1"], game.id, **WIN_2_1)
    db.commit()
    assert again.id == row.id and count(db, ScoreReport) == 1
    with pytest.raises(Invalid, match="other team"):
        score_reports.confirm(db, world["c1"], game.id)
    with pytest.raises(Invalid, match="changed"):  # the other captain was shown the first score
        score_reports.confirm(db, world["c2"], game.id, seen="21-15, 23-21")
    with pytest.raises(Invalid, match="confirm or dispute"):
        score_reports.report(db, world["c2"], game.id, **WIN_2_0)


def test_score_rules_apply_to_captains(world):
    db, game = world["db"], world["game"]
    bad = [
        {"team1_game1_score": 21, "team2_game1_score": 20, "team1_game2_score": 21, "team2_game2_score": 15},
        {"team1_game1_score": 25, "team2_game1_score": 23, "team1_game2_score": 21, "team2_game2_score": 15},
        {"team1_game1_score": 21, "team2_game1_score": 15},
        WIN_2_0 | {"team1_game3_score": 15, "team2_game3_score": 5},
        {"team1_game1_score": 21, "team2_game1_score": 15, "team1_game2_score": 15, "team2_game2_score": 21,
         "team1_game3_score": 18, "team2_game3_score": 16},
        {"team1_game1_score": "x", "team2_game1_score": 15, "team1_game2_score": 21, "team2_game2_score": 15},
    ]  # fmt: skip
    for scores in bad:
        with pytest.raises(Invalid):
            score_reports.report(db, world["c1"], game.id, **scores)
        db.rollback()
    assert count(db, ScoreReport) == 0


def test_a_game_not_started_takes_no_report(world):
    with pytest.raises(Invalid, match="started"):
        score_reports.report(world["db"], world["c1"], world["later"].id, **WIN_2_0)


def test_a_player_of_neither_team_another_svl_and_nobody_are_refused_and_nothing_changes(world, db):
    game = world["game"]
    outsider = actor_of(make_user(db, "other"))
    for actor, error in ((outsider, Forbidden), (world["p"], Forbidden), (world["b"], Forbidden), (None, Unauthorized)):
        with pytest.raises(error):
            score_reports.report(db, actor, game.id, **WIN_2_0)
        db.rollback()
    row = score_reports.report(db, world["c1"], game.id, **WIN_2_0)
    db.commit()
    for actor, error in ((outsider, Forbidden), (world["b"], Forbidden), (None, Unauthorized)):
        for step in (score_reports.confirm, score_reports.dispute):
            with pytest.raises(error):
                step(db, actor, game.id)
            db.rollback()
    for actor, error in ((outsider, Forbidden), (world["c1"], Forbidden), (world["c2"], Forbidden), (world["b"], Forbidden),
                         (None, Unauthorized)):  # fmt: skip
        with pytest.raises(error):
            score_reports.settle(db, actor, game.id, **WIN_2_0)
        db.rollback()
        with pytest.raises(error):
            score_reports.disputed(db, actor, world["lg"].id)
    with pytest.raises(NotFound):
        score_reports.confirm(db, world["c2"], world["later"].id)
    db.expire_all()
    assert db.get(ScoreReport, row.id).status == ReportStatus.PENDING
    assert db.get(Game, game.id).team1_game1_score is None
    assert count(db, AuditEntry, AuditEntry.entity == "score_report") == 1


def test_a_confirmed_playoff_score_moves_the_winner_on(world):
    db, lg = world["db"], world["lg"]
    lg.number_of_weeks = 0  # the tournament week has started
    lg.start_at = utcnow() - dt.timedelta(hours=4)  # the bracket is over before T1 v T2 (an hour ago) began
    db.add(lg)
    db.commit()
    playoffs.generate(db, world["a"], lg.id, early=True)
    db.commit()
    semi = db.exec(select(Game).where(Game.type == GameType.TOURNAMENT, Game.round == 1)).one()  # seeds 2 v 3
    final = db.exec(select(Game).where(Game.type == GameType.TOURNAMENT, Game.round == 2)).one()
    third = db.get(Team, world["teams"][2])
    c3 = make_user(db, "cap3")
    third.captain_id = c3.id
    db.add(third)
    db.commit()
    captains = {world["teams"][0]: world["c1"], world["teams"][1]: world["c2"], third.id: actor_of(c3)}
    score_reports.report(db, captains[semi.team1_id], semi.id, **WIN_2_0)
    score_reports.confirm(db, captains[semi.team2_id], semi.id)
    db.commit()
    db.refresh(final)
    assert final.team2_id == semi.team1_id


def test_the_team_card_shows_the_next_game_and_the_last_result(world):
    db, game = world["db"], world["game"]
    card = score_reports.team_cards(db, world["c2"])
    assert len(card) == 1 and card[0]["last_action"] == "Report the score" and card[0]["next"].startswith("T2 v T1")
    score_reports.report(db, world["c1"], game.id, **WIN_2_0)
    db.commit()
    assert score_reports.team_cards(db, world["c2"])[0]["last_action"] == "Confirm or dispute"
    assert "waiting for the other captain" in score_reports.team_cards(db, world["c1"])[0]["last_result"]
    score_reports.confirm(db, world["c2"], game.id)
    db.commit()
    assert score_reports.team_cards(db, world["c2"])[0]["last_result"] == "Lost 15-21, 21-23"
    assert score_reports.team_cards(db, world["c1"])[0]["last_result"] == "Won 21-15, 23-21"
    assert score_reports.team_cards(db, world["p"]) == []


def test_a_member_sees_the_teams_card_with_its_result_and_no_captains_action(world):
    db, game = world["db"], world["game"]
    t1 = world["teams"][0]
    pat = world["p"]
    add_member(db, t1, pat.user_id)
    (card,) = score_reports.team_cards(db, pat)
    assert card["team"] == "T1" and card["team_href"] == f"/dash/teams/{t1}"
    assert card["last_result"] == "No score yet" and card["last_action"] == ""  # reporting is the captain's
    assert card["next_href"] == card["last_href"] == f"/dash/teams/{t1}/games"
    score_reports.report(db, world["c1"], game.id, **WIN_2_0)
    score_reports.confirm(db, world["c2"], game.id)
    db.commit()
    assert score_reports.team_cards(db, pat)[0]["last_result"] == "Won 21-15, 23-21"
    remove_member(db, t1, pat.user_id)
    assert score_reports.team_cards(db, pat) == []  # a team they left is not theirs


def test_the_last_result_gives_the_captains_own_team_first_when_it_was_team_two(world):
    db, game = world["db"], world["game"]
    score_reports.report(db, world["c1"], game.id, **WIN_2_1 | {"team1_game1_score": 19, "team2_game1_score": 21,
                                                                "team1_game2_score": 21, "team2_game2_score": 17,
                                                                "team1_game3_score": 13, "team2_game3_score": 15})
    score_reports.confirm(db, world["c2"], game.id)
    db.commit()
    assert score_reports.team_cards(db, world["c2"])[0]["last_result"] == "Won 21-19, 17-21, 15-13"
    assert score_reports.team_cards(db, world["c1"])[0]["last_result"] == "Lost 19-21, 21-17, 13-15"


def test_the_operators_game_edit_settles_the_waiting_report_only_once_a_score_is_entered(world):
    db, game = world["db"], world["game"]
    t1, t2, _t3 = world["teams"]
    row = score_reports.report(db, world["c1"], game.id, **WIN_2_0)
    db.commit()
    start = timefmt.input_value(game.start_at)
    games.update_game(db, world["a"], game.id, team1=str(t1), team2=str(t2), start=start)  # no score: still open
    db.commit()
    assert db.get(ScoreReport, row.id).status == ReportStatus.PENDING and _mails(db, "score_settled") == []
    games.update_game(db, world["a"], game.id, team1=str(t1), team2=str(t2), start=start, **WIN_2_1)
    db.commit()
    settled = db.get(ScoreReport, row.id)
    assert (settled.status, settled.answered_by_id) == (ReportStatus.SETTLED, world["a"].user_id)
    assert score_reports.game_view(db, world["c2"], game.id)["can_answer"] is False
    assert {m.to_addr for m in _mails(db, "score_settled")} == {"cap1@example.com", "cap2@example.com"}
    assert "21-15, 15-21, 17-15" in _mails(db, "score_settled")[0].body_text
    actions = [e.action for e in db.exec(select(AuditEntry).where(AuditEntry.entity == "score_report").order_by(AuditEntry.id)).all()]
    assert actions == ["report", "settle"]
    assert _standing(world, t1)["wins"] == 1
