"""Free agents in Chromium: a player registers alone from the league home and pays with the card form; the league's
operator places them on a team from the Free agents page; the team's roster shows them; the operator forms a new team
of another waiting agent."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect
from sqlmodel import select

from tests.e2e.helpers import add_open_league, make_user, open_as, screenshot
from volley_app import db
from volley_app.models import FreeAgent, League, Payment, Role, Team, User
from volley_app.services.core.actors import Actor
from volley_app.services.teams import free_agents, registration


def _shot(page: Page, name: str) -> None:
    screenshot(page, f"free-agents/{name}-{page.viewport_size['width']}")


def _team(username: str, league_id: int, name: str) -> int:
    """A team registered and paid by its captain, as at checkout."""

    def pay(s) -> int:
        user = s.exec(select(User).where(User.username == username)).one()
        actor = Actor(user_id=user.id, username=user.username, roles=tuple(user.roles), first_name=user.first_name)
        pid = registration.register(s, actor, league_id=league_id, team_name=name)["payment_id"]
        registration.pay_offline(s, actor, payment_id=pid, card_number="4242424242424242", expiry="12/39", cvc="123")
        return s.get(Payment, pid).team_id

    return db.call(pay)


def _waiting_agent(username: str, league_id: int) -> None:
    """A player registered alone and paid, as at checkout (the walk does it in the browser once)."""

    def pay(s) -> None:
        user = s.exec(select(User).where(User.username == username)).one()
        actor = Actor(user_id=user.id, username=user.username, roles=tuple(user.roles), first_name=user.first_name)
        pid = free_agents.register(s, actor, league_id=league_id, position="Hitter")["payment_id"]
        registration.pay_offline(s, actor, payment_id=pid, card_number="4242424242424242", expiry="12/39", cvc="123")

    db.call(pay)


def _taking_agents(league_id: int) -> None:
    def set_fee(s) -> None:
        league = s.get(League, league_id)
        league.agent_fee_cents = 4000
        s.add(league)

    db.call(set_fee)


def test_a_player_registers_as_a_free_agent_pays_and_the_operator_places_them(new_page):
    make_user("venue", Role.SVL)
    make_user("cap")
    make_user("amy", first_name="Amy")
    make_user("bob", first_name="Bo")
    lid = add_open_league("venue")
    _taking_agents(lid)
    team = _team("cap", lid, "Aces")

    page = new_page()
    open_as(page, "amy", f"/dash/leagues/{lid}")
    page.get_by_role("link", name="Register as a Free Agent ($40)").click()
    expect(page).to_have_url(re.compile(rf"/dash/leagues/{lid}/free-agent$"))
    page.get_by_label("Position").select_option("Setter")
    page.get_by_label("Availability (optional)").fill("Mondays and Wednesdays")
    _shot(page, "form")
    page.get_by_role("button", name="Continue to payment ($40)").click()
    expect(page).to_have_url(re.compile(r"/dash/leagues/teams/checkout"))
    expect(page.get_by_role("button", name="Pay $40")).to_be_visible()
    expect(page.get_by_text("Free agent fee")).to_be_visible()
    expect(page.get_by_text("League cost")).to_have_count(0)
    expect(page.get_by_text("is held for you until")).to_have_count(0)
    _shot(page, "checkout")
    page.get_by_label("Card number").fill("4242 4242 4242 4242")
    page.get_by_label("Expiry (MM/YY)").fill("12/39")
    page.get_by_label("CVC").fill("123")
    page.get_by_role("button", name="Pay $40").click()
    expect(page).to_have_url(re.compile(r"/dash/leagues/teams/success"))
    assert db.call(lambda s: [a.status for a in s.exec(select(FreeAgent))]) == ["waiting"]
    assert db.call(lambda s: len(s.exec(select(Team)).all())) == 1  # no team made of a free agent's fee

    op = new_page()
    open_as(op, "venue", f"/dash/leagues/{lid}")
    op.get_by_role("link", name="Free Agents").click()
    expect(op).to_have_url(re.compile(rf"/dash/leagues/{lid}/free-agents$"))
    expect(op.get_by_role("cell", name="Mondays and Wednesdays")).to_be_visible()
    _shot(op, "list")
    phone = new_page(width=390, height=844)
    open_as(phone, "venue", f"/dash/leagues/{lid}/free-agents")
    expect(phone.get_by_role("cell", name="Mondays and Wednesdays")).to_be_visible()
    _shot(phone, "list")
    op.get_by_label("Team for Amy User").select_option(value=str(team))
    op.get_by_role("button", name="Place").click()
    expect(op.get_by_text("Placed on Aces.")).to_be_visible()
    expect(op.get_by_role("cell", name="Placed", exact=True)).to_be_visible()
    _shot(op, "placed")

    op.goto(f"/dash/teams/{team}")
    expect(op.get_by_text("Amy User").first).to_be_visible()
    _shot(op, "roster")

    # A new team of the other waiting agent.
    _waiting_agent("bob", lid)
    op.goto(f"/dash/leagues/{lid}/free-agents")
    expect(op.get_by_role("cell", name="Bo User")).to_be_visible()  # the list has loaded: its search is ready
    op.get_by_label("Search free agents").fill("bob")
    op.get_by_role("button", name="Search").click()
    expect(op.get_by_role("cell", name="Amy User")).to_have_count(0)
    expect(op.get_by_role("cell", name="Waiting", exact=True)).to_be_visible()
    op.get_by_role("checkbox", name="Bo User").check()
    op.get_by_label("Captain").select_option(label="Bo User")
    op.get_by_label("Team Name").fill("Free Radicals")
    op.get_by_role("button", name="Form team").click()
    expect(op.get_by_text("Free Radicals formed of free agents.")).to_be_visible()
    assert db.call(lambda s: sorted(a.status for a in s.exec(select(FreeAgent)))) == ["placed", "placed"]
    _shot(op, "formed")
