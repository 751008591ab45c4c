"""Arranging data and common steps for the browser tests."""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import re
import time
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.e2e.conftest import HYDRATED
from tests.factories import login_token
from volley_app import db
from volley_app.models import Gender, Rating, Role
from volley_app.services.accounts.accounts import create_user
from volley_app.services.core import live

PASSWORD = "secret123"
SCREENS = Path(__file__).resolve().parents[2] / "artifacts" / "screens"


def wait_for_watchers(n: int, seconds: float = 20, *, notices: bool = False) -> None:
    """Wait until ``n`` open pages of the app (it runs in this process) wait for live changes (``notices``: of a
    person's notifications, as each /dash page's bell does)."""
    deadline = time.monotonic() + seconds
    while live.watching(notices=notices) < n:
        assert time.monotonic() < deadline, f"{live.watching(notices=notices)} pages watching, not {n}"
        time.sleep(0.1)


def screenshot(page: Page, name: str, *, full_page: bool = True) -> None:
    """Keep a picture of ``page`` at ``artifacts/screens/<name>.png`` for a person to look at, when the run asks for
    pictures (``SCREENSHOTS=1``). A failing test's pages are kept whatever the setting (``conftest.new_page``)."""
    if os.environ.get("SCREENSHOTS") != "1":
        return
    path = SCREENS / f"{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=full_page)


def make_user(username: str, *roles: Role, first_name: str = "Test") -> None:
    db.call(
        create_user,
        username=username,
        password=PASSWORD,
        email=f"{username}@example.com",
        first_name=first_name,
        last_name="User",
        region="KY",
        roles=roles or (Role.PLAYER,),
    )


def make_sub(username: str, first: str, gender: Gender, setter: Rating) -> None:
    """An active sub named "<first> Sub", rated ``setter`` at setter and C at hitter."""
    db.call(create_user, username=username, password=PASSWORD, email=f"{username}@example.com", first_name=first,
            last_name="Sub", region="KY", sub=True, gender=gender, setter_skill_level=setter,
            hitter_skill_level=Rating.C)  # fmt: skip


def next_thursday_evening() -> str:
    """A Thursday at 7 PM at least eight days ahead, as the form's date and time field takes it."""
    day = dt.date.today() + dt.timedelta(days=8)
    return (day + dt.timedelta(days=(3 - day.weekday()) % 7)).isoformat() + "T19:00"


def open_as(page: Page, username: str, path: str) -> None:
    """Open ``path`` as ``username``, who logged in on this device before with Trust This Device: their login's
    token is in the browser's storage, where a trusted login keeps it. The login form has tests of its own
    (``test_accounts``); a walk about something else starts here, a page load sooner."""
    token = db.call(lambda s: login_token(s, username))
    if not page.url.startswith("http"):
        page.goto("/favicon.svg")  # the storage is the app's address's: any file of it opens it
    page.evaluate("token => localStorage.setItem('vb_session', token)", token)
    page.goto(path)


def log_in(page: Page, username: str, password: str = PASSWORD, *, trust: bool = True) -> None:
    if "/login" not in page.url:
        page.goto("/login")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    box = page.get_by_label("Trust This Device")
    if box.is_checked() != trust:
        box.click()
    page.get_by_role("button", name="Login").click()


def sent_events(page: Page) -> list[str]:
    """Every event frame the page sends to the server from now on (socket.io event frames start with "42";
    engine.io pings and pongs are not events). Call before the page opens its websocket."""
    sent: list[str] = []

    def watch(ws):
        ws.on("framesent", lambda payload: sent.append(payload) if str(payload).startswith("42") else None)

    page.on("websocket", watch)
    return sent


def expect_path(page: Page, path: str) -> None:
    """``page`` is at ``path``, and React has taken the page over (a link from a page the backend draws, the home
    page, loads the app's page afresh: typing before that would go to a field without its handlers)."""
    expect(page).to_have_url(re.compile(re.escape(path) + r"/?(\?.*)?$"))
    with contextlib.suppress(Exception):  # a download, a file or a backend page has no React to wait for
        page.wait_for_function(HYDRATED, timeout=15_000)


# --- operators: sessions, leagues, teams ---------------------------------------------------------


def add_teams(league_id: int, names: list[str], captain: str | None = None) -> None:
    """Put registered (paid) teams into a league, as captains would through registration."""
    from sqlmodel import select

    from volley_app.models import Team, User

    def _add(session):
        captain_id = None
        if captain:
            captain_id = session.exec(select(User.id).where(User.username == captain)).one()
        for name in names:
            team = Team(league_id=league_id, team_name=name, captain_id=captain_id, paid=True)
            session.add(team)
            session.flush()
            rosters.add_captain(session, team)

    from volley_app.services.teams import rosters

    db.call(_add)


def add_game(league_id: int, team1: str, team2: str, *, days: float = 2) -> int:
    """A game of the league's teams named ``team1`` and ``team2``, ``days`` ahead (on the minute); its id."""
    from sqlmodel import select

    from volley_app.models import Game, Team, utcnow

    def _add(session):
        t1, t2 = (session.exec(select(Team.id).where(Team.league_id == league_id, Team.team_name == n)).one()
                  for n in (team1, team2))  # fmt: skip
        start = (utcnow() + dt.timedelta(days=days)).replace(second=0, microsecond=0)
        game = Game(league_id=league_id, team1_id=t1, team2_id=t2, start_at=start, round=1, match=1)
        session.add(game)
        session.flush()
        return game.id

    return db.call(_add)


def game_answer(game_id: int, username: str) -> str | None:
    """``username``'s answer (In, Out, Maybe) for the game, None if they gave none."""
    from sqlmodel import select

    from volley_app.models import GameRsvp, User

    def _read(session):
        uid = session.exec(select(User.id).where(User.username == username)).one()
        row = session.exec(select(GameRsvp).where(GameRsvp.game_id == game_id, GameRsvp.user_id == uid)).first()
        return row.answer.value if row and row.answer else None

    return db.call(_read)


# --- team registration ---------------------------------------------------------------------------


def add_open_league(svl: str, *, max_teams: int = 8, cash: bool = False, cost_cents: int = 30000, fmt: str = "6s") -> int:
    """A league open for registration (starting in 10 days, in the evening) in a new session of ``svl``; returns its id."""
    import datetime as dt

    from sqlmodel import select

    from volley_app.models import Day, League, LeagueFormat, LeagueSession, SkillLevel, User, utcnow

    def _add(session):
        svl_id = session.exec(select(User.id).where(User.username == svl)).one()
        now = utcnow()
        ls = LeagueSession(svl_id=svl_id, name="Fall Session", start_at=now + dt.timedelta(days=9),
                           end_at=now + dt.timedelta(days=90))  # fmt: skip
        session.add(ls)
        session.flush()
        # an evening start (6 or 7 pm Eastern): a week's games fall on one day at any hour the tests run
        start = (now + dt.timedelta(days=10)).replace(hour=23, minute=0, second=0, microsecond=0)
        lg = League(session_id=ls.id, svl_id=svl_id, court="Court 1", start_at=start,
                    number_of_weeks=6, time_increment=50, skill_level=SkillLevel.C, format=LeagueFormat(fmt),
                    day=Day.MONDAY, max_teams=max_teams, cost_cents=cost_cents, cash=cash)  # fmt: skip
        session.add(lg)
        session.flush()
        return lg.id

    return db.call(_add)


def start_weekday(league_id: int) -> str:
    """The weekday a league starts on at its venue ('Sunday'): what its Day must say when its form is saved
    (``add_open_league`` says Monday whatever day it starts)."""
    from volley_app.models import League
    from volley_app.services.core import timefmt
    from volley_app.services.seasons import leagues

    def _day(session) -> str:
        league = session.get(League, league_id)
        return timefmt.local(league.start_at, leagues.zone(session, league)).strftime("%A")

    return db.call(_day)


def league_home_read(page, league_id: int) -> None:
    """Waits until the league's home has read its league (its links name it): a dialog opened before that read
    comes back goes when the league's form is drawn."""
    expect(page.get_by_role("link", name="Schedule", exact=True)).to_have_attribute(
        "href", re.compile(rf"league={league_id}\b"))
