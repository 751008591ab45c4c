import re

from playwright.sync_api import expect
from sqlmodel import select

from tests.e2e.helpers import log_in
from volley_app import db, demo
from volley_app.models import League, Team


def test_shots(new_page):
    db.call(lambda s: demo.seed(s))
    arch = db.call(lambda s: s.exec(select(League.id).where(League.archived_at.is_not(None))).one())
    run = db.call(lambda s: s.exec(select(League.id).where(League.day == "Monday")).first())
    team = db.call(lambda s: s.exec(select(Team.id).where(Team.team_name == "Net Ninjas")).one())
    for width in (1280, 390):
        page = new_page(width=width, height=900)
        log_in(page, "admin", demo.DEMO_PASSWORD)
        expect(page).not_to_have_url(re.compile(r"/login"))
        for name, path in (("archive", "/dash/archive"), ("audit", "/dash/auditLog"), ("archived-league", f"/dash/leagues/{arch}"),
                           ("standings", f"/dash/leagues/{run}/teams"), ("team", f"/dash/teams/{team}")):
            page.goto(path)
            page.wait_for_timeout(1500)
            page.screenshot(path=f"artifacts/shot-{name}-{width}.png", full_page=True)
        page.goto(f"/dash/teams/{team}")
        page.get_by_role("button", name="Withdraw Team").click()
        page.wait_for_timeout(500)
        page.screenshot(path=f"artifacts/shot-withdraw-{width}.png")
