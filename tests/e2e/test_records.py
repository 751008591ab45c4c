"""Records kept, in Chromium: an archived league keeps its payments for the admin, who restores it;
a withdrawn team's results stay and the standings still add up."""

from __future__ import annotations

from playwright.sync_api import expect
from sqlmodel import select

from tests.e2e.helpers import add_open_league, add_teams, expect_path, league_home_read, make_user, open_as, screenshot
from volley_app import db
from volley_app.models import Game, Payment, Role, Team, User

PHONE = {"width": 390, "height": 844}


def _pay_for_teams(league_id: int) -> None:
    def _add(session):
        for team in session.exec(select(Team).where(Team.league_id == league_id)).all():
            payer = session.get(User, team.captain_id)
            session.add(Payment(league_id=league_id, team_id=team.id, user_id=payer.id, team_name=team.team_name,
                                league_name="Monday C 6s", payer_name=payer.username, amount_cents=4000,
                                provider="offline", status="succeeded", idempotency_key=f"e2e-{team.id}"))  # fmt: skip

    db.call(_add)


def test_an_archived_league_keeps_its_payments_and_an_admin_restores_it(new_page, mailbox):
    make_user("courtside", Role.SVL, first_name="Courtside")
    make_user("pia")
    make_user("boss", Role.ADMIN)
    lid = add_open_league("courtside")
    add_teams(lid, ["Net Ninjas", "Block Party"], captain="pia")
    _pay_for_teams(lid)

    svl = new_page(**PHONE)
    open_as(svl, "courtside", f"/dash/leagues/{lid}")
    league_home_read(svl, lid)
    svl.get_by_role("button", name="Delete League").click()
    question = svl.get_by_role("alertdialog")
    expect(question).to_contain_text("2 teams (2 paid)")
    expect(question).to_contain_text("2 payments")
    expect(question).to_contain_text("An admin can restore it.")
    expect(question).to_contain_text("Paid teams: Block Party (captain Test User); Net Ninjas (captain Test User)")
    expect(question).to_contain_text("Their payments stay on record")
    screenshot(svl, "league-archive-confirm-390", full_page=False)
    svl.set_viewport_size({"width": 1280, "height": 800})
    screenshot(svl, "league-archive-confirm-1280", full_page=False)
    svl.set_viewport_size(PHONE)
    question.get_by_role("button", name="Delete", exact=True).click()
    expect_path(svl, "/dash/leagues")
    [told] = mailbox.wait_for(1, timeout=30)  # pia captains both teams: one mail
    assert told["To"] == "pia@example.com" and told["Subject"] == "Monday C 6s has been archived"
    expect(svl.get_by_role("link", name="Monday C 6s")).to_have_count(0)
    svl.goto(f"/dash/leagues/{lid}")
    expect(svl.get_by_text("This league no longer exists")).to_be_visible()
    assert db.call(lambda s: (len(s.exec(select(Payment)).all()), len(s.exec(select(Team)).all()))) == (2, 2)

    admin = new_page()
    open_as(admin, "boss", "/dash/archive")
    admin.get_by_role("link", name="Monday C 6s").click()
    expect_path(admin, f"/dash/leagues/{lid}")
    payments = admin.get_by_role("table").filter(has_text="Amount")
    expect(payments.get_by_role("row")).to_have_count(3)  # the header and both payments
    expect(payments).to_contain_text("Net Ninjas")
    expect(payments).to_contain_text("$40")
    admin.get_by_role("button", name="Restore League").click()
    expect(admin.get_by_text("Monday C 6s restored: it is listed again.")).to_be_visible()
    admin.goto("/dash/auditLog")
    entries = admin.get_by_test_id("audit-entry")
    expect(entries.filter(has_text="archived")).to_contain_text("courtside")
    expect(entries.filter(has_text="restored")).to_contain_text("boss")

    svl.goto("/dash/leagues")
    expect(svl.get_by_role("link", name="Monday C 6s")).to_be_visible()


def test_a_withdrawn_team_keeps_its_results_and_the_standings_add_up(new_page):
    make_user("courtside", Role.SVL, first_name="Courtside")
    make_user("pia")
    lid = add_open_league("courtside")
    add_teams(lid, ["Net Ninjas", "Block Party", "Dig Deep", "Set to Kill"], captain="pia")

    page = new_page()
    open_as(page, "courtside", f"/dash/leagues/{lid}")
    page.get_by_role("button", name="Generate Schedule").click()
    expect(page.get_by_text("Schedule generated:")).to_be_visible()

    def _score_week_one(session):
        for game in session.exec(select(Game).where(Game.league_id == lid, Game.round == 1)).all():
            game.team1_game1_score, game.team2_game1_score = 21, 12
            game.team1_game2_score, game.team2_game2_score = 21, 17
            session.add(game)

    db.call(_score_week_one)
    quitter = db.call(lambda s: s.exec(select(Team.id).where(Team.team_name == "Block Party")).one())
    page.goto(f"/dash/teams/{quitter}")
    expect(page.get_by_role("button", name="Delete Team")).to_have_count(0)  # it has a played game
    page.get_by_role("button", name="Withdraw Team").click()
    expect(page.get_by_role("alertdialog")).to_contain_text("Its played games and payments are kept")
    page.get_by_role("button", name="Forfeit remaining games").click()
    expect_path(page, "/dash/teams")

    page.goto(f"/dash/leagues/{lid}/teams")
    forfeits = db.call(lambda s: len(s.exec(select(Game).where(Game.forfeit_team_id == quitter)).all()))
    assert forfeits == 5  # its games of weeks 2 to 6
    rows = page.get_by_role("row")
    expect(rows.filter(has_text="Block Party (withdrawn)")).to_contain_text("5 forfeits")
    cells = [rows.nth(i).get_by_role("cell") for i in range(1, 5)]
    wins = sum(int(c.nth(2).inner_text()) for c in cells)
    losses = sum(int(c.nth(3).inner_text()) for c in cells)
    assert wins == losses == 2 + forfeits  # week one's two games, and every forfeit
