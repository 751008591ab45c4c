"""Season results in Chromium: two captains report and confirm a score on their phones and the standings
change; the operator generates the playoff bracket and enters results through to a champion."""

from __future__ import annotations

import datetime as dt
import re

from playwright.sync_api import Page, expect
from sqlmodel import select

from tests.e2e.helpers import add_open_league, add_teams, log_in, make_user, open_as, screenshot
from volley_app import db
from volley_app.models import Game, GameType, League, Role, Team, User, utcnow
from volley_app.services.teams import rosters

PHONE = {"width": 390, "height": 844}


def _shot(page: Page, name: str) -> None:
    screenshot(page, f"season/{name}")


def _started_game(league_id: int) -> int:
    """The league's season started two weeks ago; Aces (cap1) v Blocks (cap2) began an hour ago."""

    def _add(session):
        lg = session.get(League, league_id)
        lg.start_at = utcnow() - dt.timedelta(days=14)
        lg.schedule_generated = True
        session.add(lg)
        ids = {}
        for name, captain in (("Aces", "cap1"), ("Blocks", "cap2")):
            user_id = session.exec(select(User.id).where(User.username == captain)).one()
            team = Team(league_id=league_id, team_name=name, captain_id=user_id, paid=True)
            session.add(team)
            session.flush()
            rosters.add_captain(session, team)  # a captain is their team's first member
            ids[name] = team.id
        game = Game(league_id=league_id, team1_id=ids["Aces"], team2_id=ids["Blocks"], type=GameType.LEAGUE,
                    start_at=utcnow() - dt.timedelta(hours=1), round=2, match=1)  # fmt: skip
        session.add(game)
        session.flush()
        return game.id

    return db.call(_add)


def test_two_captains_report_and_confirm_a_score_on_their_phones_and_the_standings_change(new_page):
    make_user("courtside", Role.SVL, first_name="Courtside")
    make_user("cap1", first_name="Casey")
    make_user("cap2", first_name="Drew")
    lid = add_open_league("courtside")
    gid = _started_game(lid)

    one = new_page(**PHONE)
    log_in(one, "cap1")
    expect(one).not_to_have_url(re.compile(r"/login"))
    card = one.get_by_test_id("team-card")
    expect(card).to_contain_text("Aces v Blocks")
    card.get_by_role("link", name="Report the score").click()
    expect(one).to_have_url(re.compile(rf"/dash/leagues/games/{gid}/score"))
    for label, value in (("Set 1: first team", "21"), ("Set 1: second team", "17"),
                         ("Set 2: first team", "19"), ("Set 2: second team", "21"),
                         ("Set 3: first team", "15"), ("Set 3: second team", "12")):  # fmt: skip
        one.get_by_label(label, exact=True).fill(value)
    _shot(one, "report-390")
    one.get_by_role("button", name="Report Score").click()
    expect(one.get_by_text("Score reported: the other captain is asked to confirm it.")).to_be_visible()

    two = new_page(**PHONE)
    log_in(two, "cap2")
    expect(two).not_to_have_url(re.compile(r"/login"))
    card = two.get_by_test_id("team-card")
    expect(card).to_contain_text("by the other captain")
    card.get_by_role("link", name="Confirm or dispute").click()
    expect(two.get_by_role("heading", name="Confirm or Dispute")).to_be_visible()
    expect(two.get_by_text("21-17, 19-21, 15-12").first).to_be_visible()
    _shot(two, "confirm-390")
    two.get_by_role("button", name="Confirm Score").click()
    expect(two.get_by_text("Thank you: your answer is recorded")).to_be_visible()

    two.goto(f"/dash/leagues/{lid}/teams")
    row = two.get_by_role("row").filter(has_text="Aces")
    expect(row).to_contain_text("2-1")  # sets
    expect(row).to_contain_text("55-50")  # points
    expect(row.get_by_role("cell").nth(2)).to_have_text("1")  # a win
    expect(two.get_by_role("heading", name="How standings are calculated")).to_be_visible()
    _shot(two, "standings-390")
    blocks = db.call(lambda s: s.exec(select(Team.id).where(Team.team_name == "Blocks")).one())
    two.goto(f"/dash/teams/{blocks}")
    expect(two.get_by_test_id("team-standing")).to_have_text("Standing: 2nd of 2")

    operator = new_page()  # the operator's score form opens with the result in its boxes
    open_as(operator, "courtside", f"/dash/leagues/games/{gid}/score")
    for label, value in (("Set 1: first team", "21"), ("Set 1: second team", "17"), ("Set 3: second team", "12")):
        expect(operator.get_by_label(label, exact=True)).to_have_value(value)


def _season_over(league_id: int) -> None:
    """The league's regular weeks are behind it: its tournament week began a day ago."""

    def _move(session):
        lg = session.get(League, league_id)
        lg.start_at = utcnow() - dt.timedelta(days=7 * lg.number_of_weeks + 1)
        session.add(lg)

    db.call(_move)


def test_the_operator_generates_the_bracket_and_enters_results_to_a_champion(new_page):
    make_user("courtside", Role.SVL, first_name="Courtside")
    make_user("pia")
    lid = add_open_league("courtside")
    add_teams(lid, ["Net Ninjas", "Block Party", "Dig Deep", "Set to Kill", "Ace Ventura"], captain="pia")
    _season_over(lid)

    page = new_page()
    open_as(page, "courtside", f"/dash/leagues/{lid}")
    expect(page.get_by_text("No payments yet.")).to_be_visible()  # the home's reads are in: a click is not redrawn away
    page.get_by_role("link", name="Playoff Bracket").click()
    expect(page.get_by_text("The playoff bracket has not been generated yet.")).to_be_visible()
    page.get_by_role("button", name="Generate Bracket").click()
    expect(page.get_by_text("Bracket generated: 4 games in the tournament week.")).to_be_visible()
    expect(page.get_by_test_id("bracket-game")).to_have_count(4)  # 5 teams: 3 byes, a play-in, semis, final
    decided = page.get_by_test_id("bracket-game").filter(has_text="21-15, 21-19")
    for played in range(4):
        expect(decided).to_have_count(played)
        choose = page.get_by_label("Game", exact=True)
        expect(choose.locator("option")).not_to_have_count(1)
        choose.select_option(index=1)  # games waiting for a result come before corrections
        expect(choose.locator("option:checked")).not_to_contain_text("correct")
        for label, value in (("Set 1: first team", "21"), ("Set 1: second team", "15"),
                             ("Set 2: first team", "21"), ("Set 2: second team", "19")):  # fmt: skip
            page.get_by_label(label, exact=True).fill(value)
        page.get_by_role("button", name="Save Result").click()
        expect(decided).to_have_count(played + 1)
    expect(page.get_by_text("Champion:")).to_be_visible()
    games = page.get_by_label("Game", exact=True).locator("option")
    expect(games).to_have_count(2)  # the final's result may still be corrected: nothing follows it
    expect(games.nth(1)).to_contain_text("Final 1:")
    forfeit = page.get_by_label("Team that did not show", exact=True)
    forfeit.select_option(index=2)  # the final's second team: the first team wins instead
    page.get_by_role("button", name="Record Forfeit").click()
    expect(page.get_by_text("Forfeit recorded.")).to_be_visible()
    expect(page.get_by_test_id("bracket-game").filter(has_text="did not show")).to_have_count(1)
    expect(page.get_by_text("Champion:")).to_be_visible()
    _shot(page, "bracket-1280")

    player = new_page(**PHONE)
    open_as(player, "pia", f"/dash/leagues/{lid}/bracket")
    expect(player.get_by_text("Champion:")).to_be_visible()
    expect(player.get_by_role("button", name="Generate Bracket")).to_have_count(0)
    expect(player.get_by_role("heading", name="Final", exact=True)).to_be_visible()
    _shot(player, "bracket-390")


def test_the_operator_is_asked_before_a_bracket_is_generated_with_games_unplayed(new_page):
    make_user("courtside", Role.SVL, first_name="Courtside")
    make_user("cap1", first_name="Casey")
    make_user("cap2", first_name="Drew")
    lid = add_open_league("courtside")
    _started_game(lid)  # Aces v Blocks, no result yet
    for width, name in ((1280, "bracket-early-1280"), (390, "bracket-early-390")):
        page = new_page(width=width, height=900)
        open_as(page, "courtside", f"/dash/leagues/{lid}/bracket")
        page.get_by_role("button", name="Generate Bracket").click()
        dialog = page.get_by_role("alertdialog")
        expect(dialog).to_contain_text("1 regular-season game has no result yet.")
        _shot(page, name)
        if width == 1280:
            dialog.get_by_role("button", name="Cancel").click()
            expect(page.get_by_text("The playoff bracket has not been generated yet.")).to_be_visible()
            continue
        dialog.get_by_role("button", name="Generate the bracket").click()
        expect(page.get_by_text("Bracket generated: 1 games in the tournament week.")).to_be_visible()
