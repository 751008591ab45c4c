"""The score page in Chromium shows the scoring rule of the game's league: a best of three says to leave set 3
empty after a 2-0, a league that always plays 3 sets says so (on a computer and on a phone)."""

from __future__ import annotations

import datetime as dt
import re

from playwright.sync_api import Page, expect
from sqlmodel import select

from tests.e2e.helpers import add_open_league, log_in, make_user, screenshot
from volley_app import db
from volley_app.models import Game, GameType, League, Role, Team, User, utcnow

PHONE = {"width": 390, "height": 844}


def _started_game(league_id: int, sets_to_play: int | None, names: tuple[str, str]) -> int:
    """A game of the league (cap1's team first) that began an hour ago; the league plays ``sets_to_play``."""

    def _add(session):
        lg = session.get(League, league_id)
        lg.start_at, lg.schedule_generated, lg.sets_to_play = utcnow() - dt.timedelta(days=14), True, sets_to_play
        session.add(lg)
        ids = []
        for name, captain in zip(names, ("cap1", "cap2"), strict=True):
            user_id = session.exec(select(User.id).where(User.username == captain)).one()
            team = Team(league_id=league_id, team_name=name, captain_id=user_id, paid=True)
            session.add(team)
            session.flush()
            ids.append(team.id)
        game = Game(league_id=league_id, team1_id=ids[0], team2_id=ids[1], type=GameType.LEAGUE,
                    start_at=utcnow() - dt.timedelta(hours=1), round=2, match=1)  # fmt: skip
        session.add(game)
        session.flush()
        return game.id

    return db.call(_add)


def _shot(page: Page, name: str) -> None:
    screenshot(page, f"season/{name}")


def test_the_score_page_shows_the_rule_of_the_games_league(new_page):
    make_user("courtside", Role.SVL, first_name="Courtside")
    make_user("cap1", first_name="Casey")
    make_user("cap2", first_name="Drew")
    best_of_three = _started_game(add_open_league("courtside"), None, ("Aces", "Blocks"))
    all_three = _started_game(add_open_league("courtside", fmt="quads"), 3, ("Digs", "Sets"))
    for width, height in ((1280, 900), (PHONE["width"], PHONE["height"])):
        page = new_page(width=width, height=height)
        log_in(page, "cap1")
        expect(page).not_to_have_url(re.compile(r"/login"))
        for game_id, kind, says, not_says in (
            (best_of_three, "best-of-3", "leave it empty after a 2-0", "plays all 3 sets"),
            (all_three, "all-3-sets", "This league plays all 3 sets.", "2-0"),
        ):
            page.goto(f"/dash/leagues/games/{game_id}/score")
            form = page.locator("form").filter(has=page.get_by_role("button", name="Report Score"))
            expect(form.get_by_label("Set 3: first team", exact=True)).to_be_visible()
            expect(form).to_contain_text(says)
            expect(form).not_to_contain_text(not_says)
            _shot(page, f"score-rule-{kind}-{width}")
