"""Playoffs in Chromium: the operator sees each member's regular-season games against the league's minimum on the
league's rosters, and approves a playoff sub awaiting approval there; the sub request's page then names the sub
without the wait."""

from __future__ import annotations

import datetime as dt

import pytest
from playwright.sync_api import expect
from sqlmodel import select

from tests.e2e.helpers import add_open_league, add_teams, expect_path, make_user, open_as, screenshot
from volley_app import db, routes
from volley_app.models import Game, GameType, League, Role, Team, User

AWAITING = "Helen User (awaiting the operator's approval)"


def _playoff_sub(league_id: int, captain: str, sub: str) -> int:
    """Aces (captain Pat) short for a playoff game against Blocks in 12 days; Helen took a place on its request.
    Returns the request's id."""
    from tests.factories import actor_of
    from volley_app.services.operations import game_requests
    from volley_app.services.subs import request_replies

    def arrange(s) -> int:
        league = s.get(League, league_id)
        league.playoff_min_games, league.playoff_subs_approved = 2, True
        aces, blocks = (s.exec(select(Team.id).where(Team.league_id == league_id, Team.team_name == n)).one()
                        for n in ("Aces", "Blocks"))  # fmt: skip
        game = Game(league_id=league_id, team1_id=aces, team2_id=blocks, type=GameType.TOURNAMENT, round=1, match=1,
                    start_at=dt.datetime.now(dt.UTC).replace(microsecond=0) + dt.timedelta(days=12))  # fmt: skip
        s.add(league)
        s.add(game)
        s.flush()
        users = {u.username: u for u in s.exec(select(User).where(User.username.in_([captain, sub]))).all()}
        users[sub].sub = True
        s.add(users[sub])
        s.flush()
        rid = game_requests.find_subs(s, actor_of(users[captain]), game_id=game.id, team_id=aces)
        request_replies.accept(s, actor_of(users[sub]), rid)
        return rid

    return db.call(arrange)


@pytest.mark.parametrize("width", [1280, 390])
def test_the_operator_approves_a_playoff_sub_on_the_league_rosters(new_page, width):
    make_user(f"svlp{width}", Role.SVL)
    make_user(f"pat{width}", first_name="Pat")
    make_user(f"helen{width}", first_name="Helen")
    lid = add_open_league(f"svlp{width}")
    add_teams(lid, ["Aces"], captain=f"pat{width}")
    add_teams(lid, ["Blocks"])
    rid = _playoff_sub(lid, f"pat{width}", f"helen{width}")

    captain = new_page(width, 844)
    open_as(captain, f"pat{width}", routes.sub_request_path(rid))
    expect(captain.get_by_text(AWAITING).first).to_be_visible()

    page = new_page(width, 844)
    open_as(page, f"svlp{width}", routes.league_path(lid))
    page.get_by_role("link", name="Every team's roster").click()
    expect_path(page, routes.league_rosters_path(lid))
    expect(page.get_by_role("heading", name="Playoff subs awaiting approval")).to_be_visible()
    expect(page.get_by_text("0 of 2 regular-season games played: not eligible for playoffs").first).to_be_visible()
    card = page.get_by_test_id("pending-playoff-sub")
    expect(card).to_have_count(1)
    expect(card.get_by_text("Helen User")).to_be_visible()
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    screenshot(page, f"playoff-subs/pending-{width}")
    card.get_by_role("button", name="Approve").click()
    expect(page.get_by_text("Sub approved")).to_be_visible()
    expect(card).to_have_count(0)
    screenshot(page, f"playoff-subs/approved-{width}")

    captain.reload()
    expect(captain.get_by_text("Helen User").first).to_be_visible()
    expect(captain.get_by_text(AWAITING)).to_have_count(0)
