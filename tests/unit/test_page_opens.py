"""Opening a page asks the services once: who is asking (the tab's login), then one call for what the page shows.

Every page with loads is opened, on the demo data, by each role that may open it; the test counts the service
calls its loads make (``db.run``: one transaction, one hop to a worker thread each).
"""

from __future__ import annotations

import re

import pytest
from sqlmodel import Session, col, select

from tests.conftest import clear_tables
from tests.harness import call_handler
from volley_app import db as dbmod
from volley_app import demo, registry, routes
from volley_app.models import Game, League, LeagueSession, Role, SubRequest, Team, User
from volley_app.services.accounts import auth

USER_OF_ROLE = {Role.PLAYER.value: "alice", Role.SVL.value: "lexsports", Role.ADMIN.value: "admin"}


@pytest.fixture(scope="module")
def demo_world(migrated):
    """The demo data and a login per role, made once for the file's openings (a load reads; what one might write
    does not change what another counts), emptied after them."""
    with Session(migrated, expire_on_commit=False) as db:
        yield _seed(db)
    clear_tables()


def _seed(db: Session):
    demo.seed(db)
    db.commit()
    users = {u.username: u for u in db.exec(select(User)).all()}
    venue = users["lexsports"]
    league = db.exec(select(League).where(League.svl_id == venue.id).join(Game, col(Game.league_id) == League.id)
                     .order_by(col(League.id))).first()  # fmt: skip
    assert league is not None
    game = db.exec(select(Game).where(Game.league_id == league.id).order_by(col(Game.id))).first()
    team = db.exec(select(Team).where(Team.league_id == league.id).order_by(col(Team.id))).first()
    session = db.exec(select(LeagueSession).where(LeagueSession.svl_id == venue.id)).first()
    request = db.exec(select(SubRequest).where(SubRequest.requestor_id == users["alice"].id)).first()
    assert game and team and session and request
    tokens = {role: auth.login(db, username=name, password=demo.DEMO_PASSWORD, trusted=True, client="test").token
              for role, name in USER_OF_ROLE.items()}  # fmt: skip
    db.commit()
    args = {"league_id": league.id, "game_id": game.id, "team_id": team.id, "session_id": session.id,
            "request_id": request.id}  # fmt: skip
    return users, tokens, args


def _address(route: str, args: dict[str, int], user: User | None) -> str:
    def fill(m: re.Match[str]) -> str:
        name = m.group(1)
        if name == "user_id" and user is not None:
            return str(user.id)
        return str(args.get(name, "x"))

    return re.sub(r"\[(\w+)\]", fill, route)


def _openings():
    for p in registry.discover():
        if not p.on_load:
            continue
        roles = sorted(routes.roles_for(p.route)) if p.guarded else [""]
        for role in roles:
            yield pytest.param(p.route, role, id=f"{p.route} as {role or 'a visitor'}")


@pytest.mark.parametrize(("route", "role"), list(_openings()))
async def test_a_page_opens_with_one_service_call(demo_world, monkeypatch, route, role):
    users, tokens, args = demo_world
    user = users[USER_OF_ROLE[role]] if role else None
    path = _address(route, args, user)
    calls: list[str] = []
    real_run = dbmod.run

    async def counted(fn, *a, **kw):
        if fn is not auth.resolve:
            calls.append(getattr(fn, "__qualname__", repr(fn)))
        return await real_run(fn, *a, **kw)

    monkeypatch.setattr(dbmod, "run", counted)
    page = next(p for p in registry.discover() if p.route == route)
    for handler in page.on_load:
        await call_handler(tokens.get(role), handler.state, path, handler.fn.__name__)
    assert len(calls) <= 1, calls
